package rundir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The schedulers a Segment can name (Scheduler.Name).
const (
	Slurm      = "slurm"
	Kubernetes = "kubernetes"
)

// Scheduler is the batch scheduler's job that a process ran in, as its
// environment tells it (ThisJob): a Slurm job (a task of a job array, or
// a job of its own), or a pod of a Kubernetes Indexed Job. A segment
// records it, and a merged run keeps each shard's segments, so run.json
// of a merged run names the job and task of every shard.
type Scheduler struct {
	Name string `json:"name"` // Slurm or Kubernetes
	// Job is, for Slurm, the job array's id (SLURM_ARRAY_JOB_ID: the
	// task is Job_Task in squeue and sacct, slurm-Job_Task.out its
	// output) or, outside an array, the job's id (SLURM_JOB_ID); for
	// Kubernetes, the Job's name (a pod of an Indexed Job has the host
	// name NAME-INDEX), "" when the host name does not tell it.
	Job string `json:"job,omitempty"`
	// Task is the array task's id (SLURM_ARRAY_TASK_ID) or the pod's
	// completion index (JOB_COMPLETION_INDEX); "" outside an array.
	Task string `json:"task,omitempty"`
}

// String is "slurm job 17, task 3" (", task 3" left out outside an
// array; "kubernetes Job sudokubatch, index 3" for a pod).
func (s *Scheduler) String() string {
	if s == nil {
		return ""
	}
	job, task := "job", "task"
	if s.Name == Kubernetes {
		job, task = "Job", "index"
	}
	out := s.Name
	if s.Job != "" {
		out += " " + job + " " + s.Job
	}
	if s.Task != "" {
		out += ", " + task + " " + s.Task
	}
	return out
}

// schedulerEnv is what a scheduler's environment variables say.
type schedulerEnv struct {
	slurmJob   string // SLURM_JOB_ID: set in every Slurm job
	arrayJob   string // SLURM_ARRAY_JOB_ID
	arrayTask  string // SLURM_ARRAY_TASK_ID: set in a task of a job array
	arrayCount string // SLURM_ARRAY_TASK_COUNT, _MIN, _MAX: the whole array's
	arrayMin   string
	arrayMax   string
	k8sIndex   string // JOB_COMPLETION_INDEX: set in a pod of a Kubernetes Indexed Job
	host       string // HOSTNAME: NAME-INDEX in such a pod
}

func readSchedulerEnv(getenv func(string) string) schedulerEnv {
	return schedulerEnv{
		slurmJob: getenv("SLURM_JOB_ID"), arrayJob: getenv("SLURM_ARRAY_JOB_ID"), arrayTask: getenv("SLURM_ARRAY_TASK_ID"),
		arrayCount: getenv("SLURM_ARRAY_TASK_COUNT"), arrayMin: getenv("SLURM_ARRAY_TASK_MIN"), arrayMax: getenv("SLURM_ARRAY_TASK_MAX"),
		k8sIndex: getenv("JOB_COMPLETION_INDEX"), host: getenv("HOSTNAME"),
	}
}

// ThisJob returns the scheduler's job that this process runs in, read
// from its environment through getenv (os.Getenv), or nil outside one:
// a Slurm job when SLURM_JOB_ID or SLURM_ARRAY_TASK_ID is set, a
// Kubernetes Indexed Job's pod when JOB_COMPLETION_INDEX is. Slurm wins
// when both are set.
func ThisJob(getenv func(string) string) *Scheduler {
	return readSchedulerEnv(getenv).job()
}

func (e schedulerEnv) job() *Scheduler {
	switch {
	case e.arrayTask != "":
		job := e.arrayJob
		if job == "" {
			job = e.slurmJob
		}
		return &Scheduler{Name: Slurm, Job: job, Task: e.arrayTask}
	case e.slurmJob != "":
		return &Scheduler{Name: Slurm, Job: e.slurmJob}
	case e.k8sIndex != "":
		job, ok := strings.CutSuffix(e.host, "-"+e.k8sIndex)
		if !ok {
			job = ""
		}
		return &Scheduler{Name: Kubernetes, Job: job, Task: e.k8sIndex}
	}
	return nil
}

// IsAutoShard reports whether a -shard value asks the scheduler for the
// shard (auto, auto/N) rather than giving it (k/n).
func IsAutoShard(spec string) bool { return spec == "auto" || strings.HasPrefix(spec, "auto/") }

// AutoShard resolves -shard auto and auto/N into the shard "k/n" of this
// process, from its environment (getenv: os.Getenv):
//
//   - in a task of a Slurm job array, k is the task's id
//     (SLURM_ARRAY_TASK_ID) and n the array's task count
//     (SLURM_ARRAY_TASK_COUNT). Slurm numbers the tasks as --array says
//     (0-7, 1-8, 0-15:4, 1,3,7; a %M throttle changes none of these), so
//     auto takes only an array whose tasks are 0 to n-1 (its MIN is 0 and
//     its MAX n-1), and refuses any other rather than guess; a task
//     submitted again alone (sbatch --array=5) is an array of one: it
//     needs auto/N.
//   - in a pod of a Kubernetes Indexed Job, k is the completion index
//     (JOB_COMPLETION_INDEX); the pod's environment does not hold the
//     Job's completions, so n is given: auto/N, N the Job's
//     spec.completions.
//
// With auto/N, k is the task id or completion index, and must be below
// N. Outside a job array or an Indexed Job (a Slurm job that is not an
// array, a shell) it is an error that says what to do; so is an
// environment that holds both. The error does not name the flag.
func AutoShard(spec string, getenv func(string) string) (string, error) {
	n := 0
	if count, ok := strings.CutPrefix(spec, "auto/"); ok {
		var err error
		if n, err = strconv.Atoi(count); err != nil || n < 1 || count != strconv.Itoa(n) {
			return "", fmt.Errorf("%s: want auto, or auto/N with N >= 1 the count of shards, or k/n", spec)
		}
	} else if spec != "auto" {
		return "", fmt.Errorf("%s: want auto, or auto/N with N >= 1 the count of shards, or k/n", spec)
	}
	e := readSchedulerEnv(getenv)
	switch {
	case e.arrayTask != "" && e.k8sIndex != "":
		return "", fmt.Errorf("%s: the environment holds both a Slurm array task (SLURM_ARRAY_TASK_ID=%s) and a Kubernetes completion index (JOB_COMPLETION_INDEX=%s): give the shard as k/n",
			spec, e.arrayTask, e.k8sIndex)
	case e.arrayTask != "":
		return e.slurmShard(spec, n)
	case e.k8sIndex != "":
		return e.k8sShard(spec, n)
	case e.slurmJob != "":
		return "", fmt.Errorf("%s: Slurm job %s is not a job array (SLURM_ARRAY_TASK_ID is not set): submit it as one, sbatch --array=0-7 (8 shards), or give the shard as k/n",
			spec, e.slurmJob)
	}
	return "", fmt.Errorf("%s: this process is in no Slurm job array (SLURM_ARRAY_TASK_ID) and no Kubernetes Indexed Job (JOB_COMPLETION_INDEX) that would give its shard: give the shard as k/n",
		spec)
}

// slurmShard is AutoShard in a task of a Slurm job array; n is N of
// auto/N, 0 for auto.
func (e schedulerEnv) slurmShard(spec string, n int) (string, error) {
	task, err := envIndex("SLURM_ARRAY_TASK_ID", e.arrayTask)
	if err != nil {
		return "", fmt.Errorf("%s: %w", spec, err)
	}
	if n > 0 {
		if task >= n {
			return "", fmt.Errorf("%s: Slurm array task %d is not a shard of %d: number the tasks 0 to %d (sbatch --array=0-%d), or give the count of shards the array makes: -shard auto/N",
				spec, task, n, n-1, n-1)
		}
		return fmt.Sprintf("%d/%d", task, n), nil
	}
	if e.arrayCount == "" || e.arrayMin == "" || e.arrayMax == "" {
		return "", fmt.Errorf("%s: Slurm set no SLURM_ARRAY_TASK_COUNT, _MIN and _MAX for this task: give the count of shards: -shard auto/N", spec)
	}
	count, err1 := envIndex("SLURM_ARRAY_TASK_COUNT", e.arrayCount)
	lo, err2 := envIndex("SLURM_ARRAY_TASK_MIN", e.arrayMin)
	hi, err3 := envIndex("SLURM_ARRAY_TASK_MAX", e.arrayMax)
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", fmt.Errorf("%s: %w", spec, err)
	}
	array := "Slurm array"
	if e.arrayJob != "" {
		array += " " + e.arrayJob
	}
	switch {
	case count < 1 || lo > hi || task < lo || task > hi:
		// Slurm sets none of these: the environment was set by hand, or
		// copied from another task.
		return "", fmt.Errorf("%s: the environment does not hold one Slurm array task: SLURM_ARRAY_TASK_ID=%d, SLURM_ARRAY_TASK_COUNT=%d, _MIN=%d, _MAX=%d (a count of at least 1, the task between MIN and MAX): give the shard as k/n",
			spec, task, count, lo, hi)
	case count == 1 && task != 0:
		return "", fmt.Errorf("%s: %s has one task, %d (a task submitted again alone?): give the count of shards: -shard auto/N",
			spec, array, task)
	case lo != 0 || hi != count-1:
		return "", fmt.Errorf("%s: the %d tasks of %s are numbered %d to %d, not 0 to %d: auto makes task k of an array --array=0-%d shard k/%d; submit the array so, or give the count of shards: -shard auto/N",
			spec, count, array, lo, hi, count-1, count-1, count)
	}
	return fmt.Sprintf("%d/%d", task, count), nil
}

// k8sShard is AutoShard in a pod of a Kubernetes Indexed Job; n is N of
// auto/N, 0 for auto.
func (e schedulerEnv) k8sShard(spec string, n int) (string, error) {
	index, err := envIndex("JOB_COMPLETION_INDEX", e.k8sIndex)
	if err != nil {
		return "", fmt.Errorf("%s: %w", spec, err)
	}
	if n == 0 {
		return "", fmt.Errorf("%s: a pod of a Kubernetes Indexed Job knows its completion index (JOB_COMPLETION_INDEX=%d), not the Job's completions: give them: -shard auto/N, N the Job's spec.completions", spec, index)
	}
	if index >= n {
		return "", fmt.Errorf("%s: completion index %d is not a shard of %d: N of auto/N is the Job's spec.completions", spec, index, n)
	}
	return fmt.Sprintf("%d/%d", index, n), nil
}

// envIndex parses the value of the environment variable name as an index
// (a number >= 0).
func envIndex(name, value string) (int, error) {
	i, err := strconv.Atoi(value)
	if err != nil || i < 0 || value != strconv.Itoa(i) { // digits only, as the schedulers write it: not +1, 01, or " 1"
		return 0, fmt.Errorf("%s=%q is not a number >= 0", name, value)
	}
	return i, nil
}
