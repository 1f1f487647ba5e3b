package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// schedulerVars are the environment variables -shard auto and run.json's
// scheduler read (rundir.ThisJob, rundir.AutoShard).
var schedulerVars = []string{"SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT",
	"SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX", "JOB_COMPLETION_INDEX"}

// setSchedulerEnv sets the scheduler's variables of the test's process
// to env, and unsets (empties) the others: the test cannot run in
// parallel.
func setSchedulerEnv(t *testing.T, env map[string]string) {
	t.Helper()
	for _, k := range schedulerVars {
		t.Setenv(k, env[k])
	}
}

// TestShardAuto sweeps with -shard auto as a task of a Slurm job array
// (the variables Slurm 22.05 sets in task 2 of --array=0-3): the shard is
// 2/4, run.json's segment names the array's job and the task, and a
// -resume in another task of the array is refused. Outside an array the
// flag is refused with exit 2, saying what to do.
func TestShardAuto(t *testing.T) {
	dir := t.TempDir()
	setSchedulerEnv(t, map[string]string{"SLURM_JOB_ID": "19", "SLURM_ARRAY_JOB_ID": "17", "SLURM_ARRAY_TASK_ID": "2",
		"SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"})
	args := append([]string{"-solvers", "norvig,dlx", "-limit", "12", "-report=false"}, deterministic...)
	r := batchMain(t, dir, append(args, "-shard", "auto", "-out", "shard")...)
	mustOK(t, r)
	if want := "batch: -shard auto: shard 2/4, of slurm job 17, task 2\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q does not say %q", r.stderr, want)
	}
	m := manifest(t, filepath.Join(dir, "shard"))
	if m.Settings.Shard != "2/4" || len(m.Segments) != 1 {
		t.Fatalf("run.json: shard %q, %d segments; want 2/4, 1", m.Settings.Shard, len(m.Segments))
	}
	if got, want := m.Segments[0].Scheduler, (&rundir.Scheduler{Name: rundir.Slurm, Job: "17", Task: "2"}); got == nil || *got != *want {
		t.Errorf("run.json's segment: scheduler %+v, want %+v", got, want)
	}
	var ids []int
	for _, row := range readRows(t, filepath.Join(dir, "shard/results.csv")) {
		ids = append(ids, row.ID)
	}
	if want := []int{2, 2, 6, 6, 10, 10}; !slices.Equal(ids, want) {
		t.Errorf("ids swept: %v, want %v", ids, want)
	}
	// Task 3 resuming the directory of task 2 is another shard.
	t.Setenv("SLURM_ARRAY_TASK_ID", "3")
	if r := batchMain(t, dir, "-resume", "-shard", "auto", "-out", "shard"); r.code != exitUsage || !strings.Contains(r.stderr, "-shard differs from the run's setting") {
		t.Errorf("-resume -shard auto in task 3 of the run of task 2: exit %d, want 2\n%s", r.code, r.stderr)
	}

	setSchedulerEnv(t, nil)
	r = batchMain(t, dir, append(args, "-shard", "auto", "-out", "outside")...)
	if want := "batch: -shard auto: this process is in no Slurm job array (SLURM_ARRAY_TASK_ID) and no Kubernetes Indexed Job (JOB_COMPLETION_INDEX) that would give its shard: give the shard as k/n\n"; r.code != exitUsage || r.stderr != want {
		t.Errorf("-shard auto outside a scheduler: exit %d, stderr\n%s\nwant exit 2 and\n%s", r.code, r.stderr, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "outside")); !os.IsNotExist(err) {
		t.Errorf("a refused -shard auto left %s: %v", filepath.Join(dir, "outside"), err)
	}
	// A sweep in a Slurm job that is not an array records the job.
	setSchedulerEnv(t, map[string]string{"SLURM_JOB_ID": "23"})
	mustOK(t, batchMain(t, dir, append(args, "-shard", "0/4", "-out", "job")...))
	if got := manifest(t, filepath.Join(dir, "job")).Segments[0].Scheduler; got == nil || *got != (rundir.Scheduler{Name: rundir.Slurm, Job: "23"}) {
		t.Errorf("a sweep in Slurm job 23: scheduler %+v", got)
	}
}

// flowArgs matches a container's args in the manifests' flow style; a
// YAML flow sequence of double-quoted strings is a JSON array.
var flowArgs = regexp.MustCompile(`(?m)^\s*args: (\[.*\])\s*$`)

// manifestArgs returns the args of each container of the Kubernetes
// manifest at path, in order.
func manifestArgs(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var all [][]string
	for _, m := range flowArgs.FindAllSubmatch(b, -1) {
		var args []string
		if err := json.Unmarshal(m[1], &args); err != nil {
			t.Fatalf("%s: args %s: %v", path, m[1], err)
		}
		all = append(all, args)
	}
	return all
}

// TestKubernetesManifests runs examples/kubernetes as its pods would:
// each completion index of shard-job.yaml with the environment the Job
// controller gives it (JOB_COMPLETION_INDEX, the host name NAME-INDEX,
// the index in K), its args as written but for a narrower selection of
// puzzles and /out in a temporary directory, then merge-job.yaml's merge
// and report. The merged run has the rows and counters of a one-machine
// run, and names each shard's Job and index; the manifests' count of
// shards agrees with completions.
func TestKubernetesManifests(t *testing.T) {
	needsBinary(t)
	root := repoRoot(t)
	out := t.TempDir()
	job, err := os.ReadFile(filepath.Join(root, "examples/kubernetes/shard-job.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`(?m)^metadata: \{name: (\S+)\}$`).FindSubmatch(job)
	completions := regexp.MustCompile(`(?m)^  completions: (\d+)$`).FindSubmatch(job)
	if name == nil || completions == nil {
		t.Fatal("shard-job.yaml: no metadata: {name: ...} or completions: N")
	}
	n, _ := strconv.Atoi(string(completions[1]))
	sweeps := manifestArgs(t, filepath.Join(root, "examples/kubernetes/shard-job.yaml"))
	if len(sweeps) != 1 || !slices.Contains(sweeps[0], fmt.Sprintf("auto/%d", n)) {
		t.Fatalf("shard-job.yaml: args %q, want one container with -shard auto/%d (its completions)", sweeps, n)
	}
	selection := []string{"-solvers", "norvig,dlx,bitboard", "-limit", "40"}
	var shards []string
	for k := range n {
		args := append(slices.Clone(selection), sweeps[0]...)
		for i, a := range args {
			args[i] = strings.ReplaceAll(strings.ReplaceAll(a, "$(K)", strconv.Itoa(k)), "/out/", out+"/")
		}
		cmd := exec.Command(batchBin, args...)
		cmd.Env = append(os.Environ(), "JOB_COMPLETION_INDEX="+strconv.Itoa(k), "K="+strconv.Itoa(k),
			fmt.Sprintf("HOSTNAME=%s-%d", name[1], k), "SLURM_JOB_ID=", "SLURM_ARRAY_TASK_ID=")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("index %d: batch %q: %v\n%s", k, args, err, b)
		}
		shards = append(shards, fmt.Sprintf("%s/shard-%d", out, k))
	}
	steps := manifestArgs(t, filepath.Join(root, "examples/kubernetes/merge-job.yaml"))
	if len(steps) != 2 || len(steps[0]) < 3 || !slices.Equal(steps[0][3:], shardPaths("/out", n)) {
		t.Fatalf("merge-job.yaml: args %q, want the merge of /out/shard-0 to /out/shard-%d, then the report", steps, n-1)
	}
	for _, step := range steps {
		for i, a := range step {
			step[i] = strings.ReplaceAll(a, "/out/", out+"/")
		}
		mustOK(t, batch(t, out, step...))
	}
	merged := filepath.Join(out, "merged")
	one := filepath.Join(out, "one")
	mustOK(t, batch(t, out, append(append(slices.Clone(selection), withoutFlags(sweeps[0], "-shard", "-out")...), "-out", one)...))
	sameRows(t, readRows(t, filepath.Join(one, "results.csv")), readRows(t, filepath.Join(merged, "results.csv")))
	m := manifest(t, merged)
	if m.Shards != n || len(m.Segments) != n {
		t.Fatalf("merged run.json: %d shards, %d segments; want %d", m.Shards, len(m.Segments), n)
	}
	for k, s := range m.Segments {
		want := rundir.Scheduler{Name: rundir.Kubernetes, Job: string(name[1]), Task: strconv.Itoa(k)}
		if s.Source != shards[k] || s.Shard != fmt.Sprintf("%d/%d", k, n) || s.Scheduler == nil || *s.Scheduler != want {
			t.Errorf("merged segment %d: source %s, shard %s, scheduler %+v; want %s, %d/%d, %+v", k, s.Source, s.Shard, s.Scheduler, shards[k], k, n, want)
		}
	}
	if _, err := os.Stat(filepath.Join(merged, "index.html")); err != nil {
		t.Errorf("the report of the merged run: %v", err)
	}
}

// shardPaths is DIR/shard-0 to DIR/shard-(n-1).
func shardPaths(dir string, n int) []string {
	var paths []string
	for k := range n {
		paths = append(paths, fmt.Sprintf("%s/shard-%d", dir, k))
	}
	return paths
}

// withoutFlags returns args without the flags named and their values
// (given as -flag value).
func withoutFlags(args []string, flags ...string) []string {
	var kept []string
	for i := 0; i < len(args); i++ {
		if slices.Contains(flags, args[i]) {
			i++
			continue
		}
		kept = append(kept, args[i])
	}
	return kept
}

// TestShardAutoHostileEnvironment runs the binary with -shard auto in
// environments no scheduler sets (by hand, or copied from another task):
// each is refused with exit 2 and a message that holds, before any run
// directory is made. A task past its array's count was refused as "the 4
// tasks of Slurm array 17 are numbered 0 to 3, not 0 to 3", a count of 0
// as "--array=0--1 shard k/0", and a task id "+1" or "01" was taken.
func TestShardAutoHostileEnvironment(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-quiet", "-report=false", "-solvers", "norvig", "-limit", "4", "-out", "out"}
	cases := []struct {
		name, spec string
		env        map[string]string
		want       string
	}{
		{"task past the count", "auto", map[string]string{"SLURM_JOB_ID": "22", "SLURM_ARRAY_JOB_ID": "17", "SLURM_ARRAY_TASK_ID": "5",
			"SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"},
			"batch: -shard auto: the environment does not hold one Slurm array task: SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_COUNT=4, _MIN=0, _MAX=3 (a count of at least 1, the task between MIN and MAX): give the shard as k/n\n"},
		{"count 0", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "0"},
			"batch: -shard auto: the environment does not hold one Slurm array task: SLURM_ARRAY_TASK_ID=0, SLURM_ARRAY_TASK_COUNT=0, _MIN=0, _MAX=0 (a count of at least 1, the task between MIN and MAX): give the shard as k/n\n"},
		{"task +1", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "+1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"},
			"batch: -shard auto: SLURM_ARRAY_TASK_ID=\"+1\" is not a number >= 0\n"},
		{"index 01", "auto/4", map[string]string{"JOB_COMPLETION_INDEX": "01"},
			"batch: -shard auto/4: JOB_COMPLETION_INDEX=\"01\" is not a number >= 0\n"},
		{"auto/+4", "auto/+4", map[string]string{"JOB_COMPLETION_INDEX": "1"},
			"batch: -shard auto/+4: want auto, or auto/N with N >= 1 the count of shards, or k/n\n"},
	}
	for _, c := range cases {
		setSchedulerEnv(t, c.env)
		r := batch(t, dir, append(args, "-shard", c.spec)...)
		if r.code != exitUsage || r.stderr != c.want {
			t.Errorf("%s: exit %d, stderr\n%s\nwant exit 2 and\n%s", c.name, r.code, r.stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
			t.Fatalf("%s: a refused -shard auto left out/: %v", c.name, err)
		}
	}
}
