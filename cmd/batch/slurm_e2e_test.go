package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// slurmPuzzles narrows the job script's selection for the test: 8
// puzzles on which every default strategy, backtrack too, takes at most
// 16 ms, so that each shard sweeps in well under a second.
const slurmPuzzles = "-ids 3,4,8,9,10,16,18,20"

// TestSlurmRecipe runs the README's Slurm recipe on a real one-node Slurm
// cluster: it starts munged, slurmctld and slurmd as root in a temporary
// directory, runs the README's commands as written in a directory with
// ./batch and examples/slurm/shard.sh (the job array of -shard auto, its
// selection of puzzles narrowed), waits for the jobs, and checks that
// every task and the merge job ended well, and the merged run against a
// one-machine run of the script's settings: the same rows and counters,
// and a segment per shard naming its directory, k/n, and the array's
// job and the task. The daemons are stopped by their process ids, and no
// process of the cluster may be left. Without root or Slurm it skips.
func TestSlurmRecipe(t *testing.T) {
	testenv.Heavy(t, "starts a one-node Slurm cluster and runs the README's job array and merge job on it: about 8 s")
	c, work, narrowed := slurmWork(t)
	recipe := readmeBlock(t, repoRoot(t), "sbatch --parsable examples/slurm/shard.sh")
	start := time.Now()
	submitted := c.command(t, work, "sh", "-ec", recipe)
	c.waitForJobs(t, 2*time.Minute)
	t.Logf("the array and the merge job ran in %s", time.Since(start).Round(time.Millisecond))

	// Every job ended well: the 4 tasks of the array and the merge.
	var arrayJob, tasks []string
	mergeJob := ""
	for _, j := range c.jobs(t) {
		if j["JobState"] != "COMPLETED" || j["ExitCode"] != "0:0" {
			t.Errorf("job %s (%s): %s, exit code %s", j["JobId"], j["JobName"], j["JobState"], j["ExitCode"])
		}
		if j["ArrayTaskId"] != "" {
			arrayJob = append(arrayJob, j["ArrayJobId"])
			tasks = append(tasks, j["ArrayTaskId"])
		} else {
			mergeJob = j["JobId"]
		}
	}
	slices.Sort(tasks)
	if arrayJob = slices.Compact(arrayJob); len(arrayJob) != 1 || !slices.Equal(tasks, []string{"0", "1", "2", "3"}) || mergeJob == "" {
		t.Fatalf("jobs: array %v of tasks %v, merge %q; want one array of tasks 0 to 3 and a merge job", arrayJob, tasks, mergeJob)
	}
	if want := "Submitted batch job " + mergeJob + "\n"; submitted != want {
		t.Errorf("the recipe printed %q, want %q", submitted, want)
	}
	logs := c.jobOutputs(work)
	if t.Failed() {
		t.Fatalf("the jobs' output:\n%s", logs)
	}
	merged := filepath.Join(work, "results", arrayJob[0])
	if want := fmt.Sprintf("merged 4 runs into results/%s: 48 rows", arrayJob[0]); !strings.Contains(logs, want) {
		t.Errorf("the merge job's output does not say %q:\n%s", want, logs)
	}
	if _, err := os.Stat(filepath.Join(merged, "index.html")); err != nil {
		t.Errorf("the merged run's report: %v", err)
	}

	// A one-machine run of the script's settings: its batch line without
	// -shard and with its own -out, as many workers as the tasks had.
	line := regexp.MustCompile(`(?m)^exec \./batch .* -timeout .*$`).FindString(narrowed) // not the -resume of a requeued task
	line = replaceOnce(t, line, " -shard auto ", " ")
	line = regexp.MustCompile(` -out "[^"]*"`).ReplaceAllString(line, " -out results/one")
	one := exec.Command("sh", "-ec", line)
	one.Dir = work
	one.Env = append(os.Environ(), "SLURM_CPUS_PER_TASK=2")
	if b, err := one.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", line, err, b)
	}
	sameRows(t, readRows(t, filepath.Join(work, "results/one/results.csv")), readRows(t, filepath.Join(merged, "results.csv")))
	m, single := manifest(t, merged), manifest(t, filepath.Join(work, "results/one"))
	m.Settings.Shard = single.Settings.Shard
	if a, b := fmt.Sprintf("%+v", m.Settings), fmt.Sprintf("%+v", single.Settings); a != b {
		t.Errorf("merged settings %s, one machine's %s", a, b)
	}
	if m.Shards != 4 || len(m.Segments) != 4 || m.Rows != 48 {
		t.Fatalf("merged run.json: %d shards, %d segments, %d rows; want 4, 4, 48", m.Shards, len(m.Segments), m.Rows)
	}
	for _, s := range m.Segments {
		k := strings.TrimPrefix(s.Source, "results/"+arrayJob[0]+"-")
		want := rundir.Scheduler{Name: rundir.Slurm, Job: arrayJob[0], Task: k}
		if s.Shard != k+"/4" || s.Scheduler == nil || *s.Scheduler != want {
			t.Errorf("merged segment of %s: shard %s, scheduler %+v; want %s/4, %+v", s.Source, s.Shard, s.Scheduler, k, want)
		}
	}
}

// slurmWork starts a one-node cluster (startSlurm) and makes a directory
// work in it with ./batch and examples/slurm/shard.sh, its selection of
// puzzles narrowed to slurmPuzzles (narrowed is the script). Without root
// or Slurm it skips.
func slurmWork(t *testing.T) (c *slurmCluster, work, narrowed string) {
	t.Helper()
	needsBinary(t)
	if os.Geteuid() != 0 {
		t.Skip("Slurm: not root: the test's one-node cluster runs slurmd, which needs root")
	}
	bins, missing := slurmBinaries()
	if len(missing) > 0 {
		t.Skipf("Slurm: %s not found (Debian: apt-get install slurm-wlm munge, as .ci/run does)", strings.Join(missing, ", "))
	}
	script, err := os.ReadFile(filepath.Join(repoRoot(t), "examples/slurm/shard.sh"))
	if err != nil {
		t.Fatal(err)
	}
	narrowed = replaceOnce(t, string(script), " -timeout 0 ", " -timeout 0 "+slurmPuzzles+" ")

	c = startSlurm(t, bins)
	work = filepath.Join(c.dir, "work")
	if err := os.MkdirAll(filepath.Join(work, "examples/slurm"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(batchBin, filepath.Join(work, "batch")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "examples/slurm/shard.sh"), []byte(narrowed), 0o755); err != nil {
		t.Fatal(err)
	}
	return c, work, narrowed
}

// TestSlurmRequeuedTask: a task of the job script's array that Slurm
// starts again (scontrol requeue; a lost node or preemption requeues it
// too) after its first start was killed part way resumes its shard: the
// task completes, the shard holds all its rows, with a segment for each
// start, and the array merges. The script ran the sweep again, which
// refused the directory its first start left ("directory already holds a
// run (status running): use -resume"): the task failed and the shard
// stayed unfinished.
func TestSlurmRequeuedTask(t *testing.T) {
	testenv.Heavy(t, "starts a one-node Slurm cluster, runs the job script's array and requeues a task: about 10 s")
	c, work, _ := slurmWork(t)
	array := strings.TrimSpace(c.command(t, work, "sbatch", "--parsable", "examples/slurm/shard.sh"))
	c.waitForJobs(t, 2*time.Minute)

	// Task 2's first start, as a kill leaves it: one row of its 12, and
	// run.json still running.
	shard := filepath.Join(work, "results", array+"-2")
	rows := filepath.Join(shard, rundir.ResultsFile)
	b, err := os.ReadFile(rows)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.jobOutputs(work))
	}
	if err := os.WriteFile(rows, b[:nthLineEnd(b, 2)], 0o644); err != nil {
		t.Fatal(err)
	}
	editManifest(t, shard, func(m map[string]any) {
		m["status"], m["rows"] = rundir.Running, 1
		segs := m["segments"].([]any)
		seg := segs[len(segs)-1].(map[string]any)
		seg["status"], seg["rows"] = rundir.Running, 1
	})

	c.command(t, work, "scontrol", "requeue", array+"_2")
	// Slurm holds a requeued job back for a while (its BeginTime); the
	// test lets it start at once.
	c.command(t, work, "scontrol", "update", "JobId="+array+"_2", "StartTime=now")
	c.waitForJobs(t, 2*time.Minute)
	logs := c.jobOutputs(work)
	for _, j := range c.jobs(t) {
		if j["JobState"] != "COMPLETED" || j["ExitCode"] != "0:0" {
			t.Errorf("job %s (task %s): %s, exit code %s", j["JobId"], j["ArrayTaskId"], j["JobState"], j["ExitCode"])
		}
	}
	m := manifest(t, shard)
	if m.Status != rundir.Finished || m.Rows != 12 || len(m.Segments) != 2 {
		t.Fatalf("the requeued shard: status %s, %d rows, %d segments; want finished, 12, 2\n%s", m.Status, m.Rows, len(m.Segments), logs)
	}
	want := rundir.Scheduler{Name: rundir.Slurm, Job: array, Task: "2"}
	for _, seg := range m.Segments {
		if seg.Scheduler == nil || *seg.Scheduler != want {
			t.Errorf("the requeued shard's segment: scheduler %+v, want %+v", seg.Scheduler, want)
		}
	}
	out := c.command(t, work, "sh", "-ec", "./batch merge -o results/"+array+" results/"+array+"-*")
	if want := fmt.Sprintf("merged 4 runs into results/%s: 48 rows", array); !strings.Contains(out, want) {
		t.Errorf("the merge says %q, want %q", out, want)
	}
}

// replaceOnce replaces old by new in s, and fails t unless old is there
// exactly once: the test's edits of the README's recipe must not miss.
func replaceOnce(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q is in %q %d times, want once", old, s, n)
	}
	return strings.Replace(s, old, new, 1)
}

// readmeBlock returns the README's one fenced sh block that holds has.
func readmeBlock(t *testing.T, root, has string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, m := range regexp.MustCompile("(?ms)^```sh\n(.*?)^```$").FindAllStringSubmatch(string(b), -1) {
		if strings.Contains(m[1], has) {
			found = append(found, m[1])
		}
	}
	if len(found) != 1 {
		t.Fatalf("README.md: %d sh blocks hold %q, want one", len(found), has)
	}
	return found[0]
}

// slurmBinaries looks up the programs of a one-node cluster, and returns
// those it found by name and the names of those it did not.
func slurmBinaries() (map[string]string, []string) {
	bins := map[string]string{}
	var missing []string
	for _, name := range []string{"mungekey", "munged", "slurmctld", "slurmd", "sinfo", "squeue", "scontrol", "scancel", "sbatch"} {
		path, err := exec.LookPath(name)
		if err != nil {
			// munged and the daemons are in sbin, which a non-login
			// PATH may lack.
			for _, dir := range []string{"/usr/sbin", "/sbin", "/usr/local/sbin"} {
				if _, serr := os.Stat(filepath.Join(dir, name)); serr == nil {
					path, err = filepath.Join(dir, name), nil
					break
				}
			}
		}
		if err != nil {
			missing = append(missing, name)
			continue
		}
		bins[name] = path
	}
	return bins, missing
}

// slurmCluster is a one-node Slurm cluster of the test's own: munged,
// slurmctld and slurmd, its key, socket, configuration, ports, state and
// spool in dir.
type slurmCluster struct {
	dir, conf string
	env       []string // the test's environment with SLURM_CONF: every process of the cluster has it
	bins      map[string]string
	daemons   []*daemon // in the order started
}

// daemon is a daemon the test started (in the foreground: it is the
// test's child); done receives its Wait.
type daemon struct {
	name string
	cmd  *exec.Cmd
	done chan error
}

// startSlurm starts a one-node cluster in a new temporary directory and
// returns once its node is idle. A cleanup stops it (stop) and removes
// the directory.
func startSlurm(t *testing.T, bins map[string]string) *slurmCluster {
	t.Helper()
	dir, err := os.MkdirTemp("", "batch-slurm")
	if err != nil {
		t.Fatal(err)
	}
	// munged refuses a socket in a directory that not everyone may enter.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf"), bins: bins}
	t.Cleanup(func() {
		c.stop(t)
		os.RemoveAll(dir)
	})
	for _, d := range []string{"munge", "run", "log", "state", "spool"} {
		mode := os.FileMode(0o755)
		if d == "munge" {
			mode = 0o700 // the key's
		}
		if err := os.Mkdir(filepath.Join(dir, d), mode); err != nil {
			t.Fatal(err)
		}
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	socket := filepath.Join(dir, "run/munge.socket")
	conf := fmt.Sprintf(`ClusterName=batchtest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[5]s
CredType=cred/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/run/slurmctld.pid
SlurmdPidFile=%[2]s/run/slurmd.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
# Slurm delays the launch of a batch job by up to 3 s by default, which
# would make the array's tasks, one at a time on 2 CPUs, 3 s apart.
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=main Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, dir, freePort(t), freePort(t), socket)
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c.env = append(os.Environ(), "SLURM_CONF="+c.conf)
	key := filepath.Join(dir, "munge/munge.key")
	c.command(t, dir, bins["mungekey"], "-c", "-k", key)
	c.start(t, "munged", "-F", "-S", socket, "--key-file="+key, "--log-file="+filepath.Join(dir, "log/munged.log"),
		"--pid-file="+filepath.Join(dir, "run/munged.pid"), "--seed-file="+filepath.Join(dir, "munge/seed"))
	c.await(t, "munged's socket", 20*time.Second, func() bool {
		_, err := os.Stat(socket)
		return err == nil
	})
	c.start(t, "slurmctld", "-D", "-i")
	c.start(t, "slurmd", "-D", "-N", host)
	c.await(t, "the node idle (sinfo)", 60*time.Second, func() bool {
		out, err := c.output(dir, "sinfo", "-h", "-N", "-o", "%T")
		return err == nil && strings.TrimSpace(out) == "idle"
	})
	return c
}

// freePort returns a TCP port that nothing listened on a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// start starts the daemon name in the foreground with args, its output
// in dir/log/NAME.out.
func (c *slurmCluster) start(t *testing.T, name string, args ...string) {
	t.Helper()
	log, err := os.Create(filepath.Join(c.dir, "log", name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(c.bins[name], args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.dir, c.env, log, log
	// A test binary that dies (go test's -timeout) takes its daemons
	// with it; stop ends them otherwise.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	d := &daemon{name: name, cmd: cmd, done: make(chan error, 1)}
	go func() { d.done <- cmd.Wait() }()
	c.daemons = append(c.daemons, d)
}

// await polls ready until it holds, and fails t past timeout. A daemon
// of the cluster that exits meanwhile fails t at once. Slurm tells that a
// node is up, and a job over, only through their state (sbatch --wait
// polls it too, every 2 s or more): the test polls, every 50 ms.
func (c *slurmCluster) await(t *testing.T, what string, timeout time.Duration, ready func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !ready() {
		for _, d := range c.daemons {
			if len(d.done) > 0 {
				t.Fatalf("waiting for %s: %s exited\n%s", what, d.name, c.logs())
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: not after %s\n%s", what, timeout, c.logs())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// output runs a client of the cluster (a name of bins, or a program) in
// dir and returns its standard output.
func (c *slurmCluster) output(dir, name string, args ...string) (string, error) {
	if path, ok := c.bins[name]; ok {
		name = path
	}
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, c.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}

// command is output that fails t on an error.
func (c *slurmCluster) command(t *testing.T, dir, name string, args ...string) string {
	t.Helper()
	out, err := c.output(dir, name, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, c.logs())
	}
	return out
}

// waitForJobs waits until the queue is empty: every job submitted has
// ended.
func (c *slurmCluster) waitForJobs(t *testing.T, timeout time.Duration) {
	t.Helper()
	c.await(t, "the jobs to end (squeue)", timeout, func() bool {
		out, err := c.output(c.dir, "squeue", "-h", "-o", "%i")
		return err == nil && strings.TrimSpace(out) == ""
	})
}

// jobs returns the fields of every job the controller remembers (ended
// jobs for MinJobAge, 300 s by default), from scontrol show job -o.
func (c *slurmCluster) jobs(t *testing.T) []map[string]string {
	t.Helper()
	var jobs []map[string]string
	for _, line := range strings.Split(strings.TrimSpace(c.command(t, c.dir, "scontrol", "show", "job", "-o")), "\n") {
		fields := map[string]string{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				fields[k] = v
			}
		}
		jobs = append(jobs, fields)
	}
	return jobs
}

// jobOutputs returns the output files of the jobs run in dir
// (slurm-*.out), each under its name.
func (c *slurmCluster) jobOutputs(dir string) string {
	paths, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
	var b strings.Builder
	for _, p := range paths {
		text, _ := os.ReadFile(p)
		fmt.Fprintf(&b, "== %s\n%s", filepath.Base(p), text)
	}
	return b.String()
}

// logs returns the end of each log of the cluster, for a failure.
func (c *slurmCluster) logs() string {
	paths, _ := filepath.Glob(filepath.Join(c.dir, "log/*"))
	var b strings.Builder
	for _, p := range paths {
		text, _ := os.ReadFile(p)
		lines := strings.Split(strings.TrimSpace(string(text)), "\n")
		fmt.Fprintf(&b, "== %s\n%s\n", p, strings.Join(lines[max(len(lines)-15, 0):], "\n"))
	}
	return b.String()
}

// stop cancels the jobs still queued (a test that failed), stops the
// daemons by their process ids (SIGTERM, then SIGKILL after 10 s), last
// started first, and fails t if any process of the cluster is left: one
// whose environment holds this cluster's SLURM_CONF (the daemons, the
// job steps, the jobs), which it then kills.
func (c *slurmCluster) stop(t *testing.T) {
	if len(c.daemons) >= 2 { // slurmctld runs: it can cancel
		if out, err := c.output(c.dir, "squeue", "-h", "-o", "%A"); err == nil && strings.TrimSpace(out) != "" {
			c.output(c.dir, "scancel", strings.Fields(out)...)
			deadline := time.Now().Add(10 * time.Second)
			for time.Now().Before(deadline) {
				if out, err := c.output(c.dir, "squeue", "-h", "-o", "%A"); err != nil || strings.TrimSpace(out) == "" {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(10 * time.Second):
			t.Errorf("%s (pid %d) did not end 10 s after SIGTERM: killed", d.name, d.cmd.Process.Pid)
			d.cmd.Process.Kill()
			<-d.done
		}
	}
	// Job steps (slurmstepd) outlive slurmd by the moment they take to
	// end: the check waits up to 10 s for them.
	marker := []byte("SLURM_CONF=" + c.conf + "\x00")
	var left []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		left = left[:0]
		paths, _ := filepath.Glob("/proc/[0-9]*/environ")
		for _, p := range paths {
			env, err := os.ReadFile(p)
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			if err != nil || pid == os.Getpid() || !bytes.Contains(env, marker) {
				continue
			}
			cmdline, _ := os.ReadFile(filepath.Join(filepath.Dir(p), "cmdline"))
			left = append(left, fmt.Sprintf("pid %d: %s", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
		}
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(left) > 0 {
		t.Errorf("processes of the cluster left after its daemons were stopped (killed now):\n%s", strings.Join(left, "\n"))
		for _, l := range left {
			var pid int
			fmt.Sscanf(l, "pid %d:", &pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
