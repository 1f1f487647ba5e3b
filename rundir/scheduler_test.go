package rundir

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// slurmTask is the environment Slurm 22.05 gave a task of an array
// (recorded with env in tasks of sbatch --array=0-3%2, 0-15:4, 1,3,7
// and 5 on a one-node cluster): the array's job id, the task's own job
// id, the task id, and the array's count, lowest and highest task ids.
// A %M throttle changes none of them.
func slurmTask(arrayJob, job, task, count, lo, hi string) map[string]string {
	return map[string]string{
		"SLURM_JOB_ID": job, "SLURM_JOBID": job, "SLURM_ARRAY_JOB_ID": arrayJob, "SLURM_ARRAY_TASK_ID": task,
		"SLURM_ARRAY_TASK_COUNT": count, "SLURM_ARRAY_TASK_MIN": lo, "SLURM_ARRAY_TASK_MAX": hi, "SLURM_ARRAY_TASK_STEP": "1",
		"HOSTNAME": "node7",
	}
}

func getenvOf(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func TestAutoShard(t *testing.T) {
	step4 := slurmTask("2", "12", "8", "4", "0", "12") // --array=0-15:4
	step4["SLURM_ARRAY_TASK_STEP"] = "4"
	both := slurmTask("1", "6", "0", "4", "0", "3")
	both["JOB_COMPLETION_INDEX"] = "2"
	cases := []struct {
		name, spec string
		env        map[string]string
		want       string // the shard, or "" for an error
		errHas     []string
	}{
		{"array 0-3%2, task 3", "auto", slurmTask("1", "1", "3", "4", "0", "3"), "3/4", nil},
		{"array 0-3%2, task 0", "auto", slurmTask("1", "6", "0", "4", "0", "3"), "0/4", nil},
		{"array 0-0", "auto", slurmTask("9", "9", "0", "1", "0", "0"), "0/1", nil},
		{"array 0-3, auto/4", "auto/4", slurmTask("1", "1", "3", "4", "0", "3"), "3/4", nil},
		{"task 5 again alone, auto/8", "auto/8", slurmTask("4", "4", "5", "1", "5", "5"), "5/8", nil},
		{"task 5 again alone", "auto", slurmTask("4", "4", "5", "1", "5", "5"), "",
			[]string{"auto: Slurm array 4 has one task, 5", "-shard auto/N"}},
		{"array 0-15:4", "auto", step4, "", []string{"auto: the 4 tasks of Slurm array 2 are numbered 0 to 12, not 0 to 3", "--array=0-3", "-shard auto/N"}},
		{"array 1,3,7", "auto", slurmTask("3", "10", "3", "3", "1", "7"), "", []string{"numbered 1 to 7, not 0 to 2"}},
		{"array 1-8", "auto", slurmTask("3", "10", "8", "8", "1", "8"), "", []string{"numbered 1 to 8, not 0 to 7"}},
		{"array 0-7, auto/4", "auto/4", slurmTask("1", "11", "6", "8", "0", "7"), "", []string{"auto/4: Slurm array task 6 is not a shard of 4", "--array=0-3"}},
		{"no count", "auto", map[string]string{"SLURM_JOB_ID": "3", "SLURM_ARRAY_JOB_ID": "3", "SLURM_ARRAY_TASK_ID": "1"}, "",
			[]string{"no SLURM_ARRAY_TASK_COUNT", "-shard auto/N"}},
		{"no count, auto/2", "auto/2", map[string]string{"SLURM_JOB_ID": "3", "SLURM_ARRAY_JOB_ID": "3", "SLURM_ARRAY_TASK_ID": "1"}, "1/2", nil},
		{"bad task id", "auto", slurmTask("1", "1", "x", "4", "0", "3"), "", []string{`SLURM_ARRAY_TASK_ID="x" is not a number >= 0`}},
		{"bad count", "auto", slurmTask("1", "1", "1", "four", "0", "3"), "", []string{`SLURM_ARRAY_TASK_COUNT="four"`}},
		{"not an array", "auto", map[string]string{"SLURM_JOB_ID": "5", "SLURM_JOBID": "5"}, "",
			[]string{"auto: Slurm job 5 is not a job array", "sbatch --array=0-7", "k/n"}},
		{"Indexed Job, auto/8", "auto/8", map[string]string{"JOB_COMPLETION_INDEX": "7", "HOSTNAME": "sudokubatch-7"}, "7/8", nil},
		{"Indexed Job, auto", "auto", map[string]string{"JOB_COMPLETION_INDEX": "7"}, "",
			[]string{"JOB_COMPLETION_INDEX=7", "not the Job's completions", "-shard auto/N", "spec.completions"}},
		{"Indexed Job, index past N", "auto/4", map[string]string{"JOB_COMPLETION_INDEX": "7"}, "", []string{"completion index 7 is not a shard of 4"}},
		{"Indexed Job, bad index", "auto/4", map[string]string{"JOB_COMPLETION_INDEX": "-1"}, "", []string{`JOB_COMPLETION_INDEX="-1"`}},
		{"both", "auto/4", both, "", []string{"both a Slurm array task (SLURM_ARRAY_TASK_ID=0) and a Kubernetes completion index (JOB_COMPLETION_INDEX=2)", "k/n"}},
		{"outside", "auto", map[string]string{"HOSTNAME": "laptop"}, "", []string{"auto: this process is in no Slurm job array", "no Kubernetes Indexed Job", "k/n"}},
		{"outside, auto/4", "auto/4", nil, "", []string{"auto/4: this process is in no Slurm job array"}},
		{"auto/0", "auto/0", slurmTask("1", "1", "0", "4", "0", "3"), "", []string{"auto/0: want auto, or auto/N with N >= 1"}},
		{"auto/x", "auto/x", slurmTask("1", "1", "0", "4", "0", "3"), "", []string{"auto/x: want auto"}},
		{"auto/+4", "auto/+4", slurmTask("1", "1", "0", "4", "0", "3"), "", []string{"auto/+4: want auto"}},
		{"task past the array", "auto", slurmTask("1", "1", "5", "4", "0", "3"), "",
			[]string{"auto: the environment does not hold one Slurm array task: SLURM_ARRAY_TASK_ID=5, SLURM_ARRAY_TASK_COUNT=4, _MIN=0, _MAX=3", "k/n"}},
		{"count 0", "auto", slurmTask("1", "1", "0", "0", "0", "0"), "", []string{"SLURM_ARRAY_TASK_COUNT=0", "k/n"}},
		{"no array job id", "auto", map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "2"}, "",
			[]string{"the 2 tasks of Slurm array are numbered 1 to 2"}},
		{"task +1", "auto", slurmTask("1", "1", "+1", "4", "0", "3"), "", []string{`SLURM_ARRAY_TASK_ID="+1" is not a number >= 0`}},
		{"task 01", "auto", slurmTask("1", "1", "01", "4", "0", "3"), "", []string{`SLURM_ARRAY_TASK_ID="01"`}},
		{"index with a blank", "auto/4", map[string]string{"JOB_COMPLETION_INDEX": "1 "}, "", []string{`JOB_COMPLETION_INDEX="1 "`}},
		{"automatic", "automatic", slurmTask("1", "1", "0", "4", "0", "3"), "", []string{"automatic: want auto"}},
	}
	for _, c := range cases {
		got, err := AutoShard(c.spec, getenvOf(c.env))
		switch {
		case c.want != "" && (err != nil || got != c.want):
			t.Errorf("%s: AutoShard(%q) = %q, %v; want %s", c.name, c.spec, got, err, c.want)
		case c.want == "" && err == nil:
			t.Errorf("%s: AutoShard(%q) = %q, want an error", c.name, c.spec, got)
		case c.want == "":
			for _, s := range c.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: error %q does not say %q", c.name, err, s)
				}
			}
		}
		if got != "" {
			if _, _, err := ParseShard(got); err != nil {
				t.Errorf("%s: %q is not a shard: %v", c.name, got, err)
			}
		}
	}
}

func TestIsAutoShard(t *testing.T) {
	for spec, want := range map[string]bool{"auto": true, "auto/8": true, "auto/x": true, "automatic": false, "1/8": false, "": false} {
		if got := IsAutoShard(spec); got != want {
			t.Errorf("IsAutoShard(%q) = %v", spec, got)
		}
	}
}

func TestThisJob(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want *Scheduler
		text string
	}{
		{"array task", slurmTask("1", "13", "2", "4", "0", "3"), &Scheduler{Name: Slurm, Job: "1", Task: "2"}, "slurm job 1, task 2"},
		{"job", map[string]string{"SLURM_JOB_ID": "5"}, &Scheduler{Name: Slurm, Job: "5"}, "slurm job 5"},
		{"Indexed Job pod", map[string]string{"JOB_COMPLETION_INDEX": "3", "HOSTNAME": "sweep-2026-3"}, &Scheduler{Name: Kubernetes, Job: "sweep-2026", Task: "3"},
			"kubernetes Job sweep-2026, index 3"},
		{"pod, host name of another form", map[string]string{"JOB_COMPLETION_INDEX": "3", "HOSTNAME": "worker"}, &Scheduler{Name: Kubernetes, Task: "3"}, "kubernetes, index 3"},
		{"outside", map[string]string{"HOSTNAME": "laptop"}, nil, ""},
	}
	for _, c := range cases {
		got := ThisJob(getenvOf(c.env))
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: ThisJob = %+v, want %+v", c.name, got, c.want)
		}
		if s := got.String(); s != c.text {
			t.Errorf("%s: String() = %q, want %q", c.name, s, c.text)
		}
	}
}

// TestSegmentSchedulerJSON checks the record a segment keeps of its job,
// and that a segment outside a scheduler keeps none.
func TestSegmentSchedulerJSON(t *testing.T) {
	b, err := json.Marshal(Segment{Scheduler: &Scheduler{Name: Slurm, Job: "17", Task: "3"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `"scheduler":{"name":"slurm","job":"17","task":"3"}`; !strings.Contains(string(b), want) {
		t.Errorf("segment: %s, want %s", b, want)
	}
	if b, _ := json.Marshal(Segment{}); strings.Contains(string(b), "scheduler") {
		t.Errorf("segment outside a scheduler: %s", b)
	}
}

// TestMergeNamesEachShardsJob merges two shards that ran as tasks of a
// Slurm array: each segment of the merged run names its shard (directory
// and k/n) and the array's job and task it ran in.
func TestMergeNamesEachShardsJob(t *testing.T) {
	dir := t.TempDir()
	var ins []string
	for k := range 2 {
		in := filepath.Join(dir, fmt.Sprintf("shard-%d", k))
		writeShard(t, in, k, 2, Finished, nil)
		m, err := ReadManifest(in)
		if err != nil {
			t.Fatal(err)
		}
		m.Segments[0].Scheduler = &Scheduler{Name: Slurm, Job: "17", Task: fmt.Sprint(k)}
		if err := WriteManifest(in, m); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, in)
	}
	out := filepath.Join(dir, "merged")
	if _, err := Merge(context.Background(), out, []string{ins[1], ins[0]}); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range m.Segments {
		got = append(got, fmt.Sprintf("%s %s %s", filepath.Base(s.Source), s.Shard, s.Scheduler))
	}
	want := []string{"shard-1 1/2 slurm job 17, task 1", "shard-0 0/2 slurm job 17, task 0"}
	if !slices.Equal(got, want) {
		t.Errorf("merged segments: %q, want %q", got, want)
	}
}
