// Package nightly holds the nightly recipes (see docs/NIGHTLY.md); this
// test runs nightly.sh with a fake batch.
package nightly

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fakeBatch logs each command line to $FAKE_LOG, one [argument] each,
// and exits $FAKE_SWEEP, $FAKE_TREND or $FAKE_PRUNE.
const fakeBatch = `#!/bin/sh
for a; do printf '[%s]' "$a"; done >> "$FAKE_LOG"
echo >> "$FAKE_LOG"
case $1 in
trend) exit "${FAKE_TREND:-0}" ;;
prune) exit "${FAKE_PRUNE:-0}" ;;
*) exit "${FAKE_SWEEP:-0}" ;;
esac
`

const (
	sweepLine = "[-quiet][-timeout][0][-max-calls][10000000][-limit][5]"
	trendLine = "[trend]"
	pruneLine = "[prune][-keep][30]"
)

// nightly runs nightly.sh -limit 5 in a new directory with the fake
// batch and env, and returns its exit code and the commands it ran.
func nightly(t *testing.T, dir string, env ...string) (int, []string) {
	t.Helper()
	script, err := filepath.Abs("nightly.sh")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "batch")
	if err := os.WriteFile(bin, []byte(fakeBatch), 0o755); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "log")
	cmd := exec.Command("sh", script, "-limit", "5")
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "BATCH="+bin, "FAKE_LOG="+log, "KEEP=30"), env...)
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := errors.AsType[*exec.ExitError](err); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
	b, _ := os.ReadFile(log)
	return code, strings.Fields(string(b))
}

func TestNightlyExitCodes(t *testing.T) {
	all := []string{sweepLine, trendLine, pruneLine}
	cases := []struct {
		name string
		env  []string
		want int
		ran  []string
	}{
		{"a quiet night", nil, 0, all},
		{"a new alarm", []string{"FAKE_TREND=1"}, 1, all},
		{"a wrong answer: trend runs all the same", []string{"FAKE_SWEEP=1"}, 1, all},
		{"trend's usage error", []string{"FAKE_TREND=2"}, 2, all},
		{"a sweep's usage error stops the night", []string{"FAKE_SWEEP=2"}, 2, all[:1]},
		{"an interrupted sweep stops the night", []string{"FAKE_SWEEP=130"}, 130, all[:1]},
		{"a failed prune does not fail the night", []string{"FAKE_PRUNE=1"}, 0, all},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			code, ran := nightly(t, dir, c.env...)
			if code != c.want || strings.Join(ran, "\n") != strings.Join(c.ran, "\n") {
				t.Errorf("exit %d after\n%s\nwant exit %d after\n%s", code, strings.Join(ran, "\n"), c.want, strings.Join(c.ran, "\n"))
			}
			if _, err := os.Stat(filepath.Join(dir, "results")); err != nil {
				t.Errorf("no results directory: %v", err)
			}
		})
	}
}

func TestNightlyRefusesASecondNightAtOnce(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock(1): nightly.sh runs without the lock")
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "results"), 0o755)
	f, err := os.Create(filepath.Join(dir, "results", ".nightly.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	if code, ran := nightly(t, dir); code != 75 || len(ran) != 0 {
		t.Errorf("exit %d after %v, want 75 and nothing run", code, ran)
	}
}

func TestNightlyPassesShellcheck(t *testing.T) {
	if _, err := exec.LookPath("shellcheck"); err != nil {
		t.Skip("no shellcheck")
	}
	if out, err := exec.Command("shellcheck", "-s", "sh", "nightly.sh").CombinedOutput(); err != nil {
		t.Errorf("shellcheck -s sh nightly.sh: %v\n%s", err, out)
	}
}

// TestSystemdUnitsVerify runs systemd-analyze verify on the units, their
// /srv/sudokubatch paths pointed at this directory and the user at the
// current one (verify checks that ExecStart's file exists and the user
// is known).
func TestSystemdUnitsVerify(t *testing.T) {
	if _, err := exec.LookPath("systemd-analyze"); err != nil {
		t.Skip("no systemd-analyze")
	}
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	units := []string{"batch-nightly.service", "batch-nightly.timer", "batch-nightly-failed.service"}
	args := []string{"verify", "--man=no"}
	for _, u := range units {
		b, err := os.ReadFile(u)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), "/srv/sudokubatch/examples/nightly/", here+"/")
		text = strings.ReplaceAll(text, "User=sudokubatch", "User="+strconv.Itoa(os.Getuid()))
		if err := os.WriteFile(filepath.Join(dir, u), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, filepath.Join(dir, u))
	}
	if out, err := exec.Command("systemd-analyze", args...).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestReadmeCronLineUnderCronPath (issue 35, defect 10): the README's
// cron line, run as cron runs it (env -i PATH=/usr/bin:/bin, in its own
// sh), from a checkout holding ./batch as the README builds it, runs the
// night: the sweep, trend and prune, exit 0. Before, nightly.sh ran
// "batch" from PATH: "batch: not found", exit 127, every night.
func TestReadmeCronLineUnderCronPath(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	for l := range strings.Lines(string(readme)) {
		if strings.HasPrefix(l, "30 23 * * * ") {
			line = strings.TrimSpace(strings.TrimPrefix(l, "30 23 * * * "))
		}
	}
	if line == "" {
		t.Fatal("README.md has no cron line (30 23 * * * ...)")
	}
	// A checkout: the script where the line runs it, and ./batch (a fake
	// that logs its arguments into results/fake.log).
	dir := t.TempDir()
	script, err := os.ReadFile("nightly.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "examples", "nightly"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "examples", "nightly", "nightly.sh"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\nfor a; do printf '[%s]' \"$a\"; done >> results/fake.log\necho >> results/fake.log\n"
	if err := os.WriteFile(filepath.Join(dir, "batch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	line = strings.ReplaceAll(line, "/srv/sudokubatch", dir)
	cmd := exec.Command("env", "-i", "PATH=/usr/bin:/bin", "sh", "-c", line)
	out, err := cmd.CombinedOutput()
	log, _ := os.ReadFile(filepath.Join(dir, "results", "nightly.log"))
	if err != nil {
		t.Fatalf("the cron line: %v\n%s\nresults/nightly.log:\n%s", err, out, log)
	}
	ran, _ := os.ReadFile(filepath.Join(dir, "results", "fake.log"))
	want := "[-quiet][-timeout][0][-max-calls][10000000]\n[trend]\n[prune][-keep][30]\n"
	if string(ran) != want {
		t.Errorf("the night ran\n%s\nwant\n%s\nresults/nightly.log:\n%s", ran, want, log)
	}
}

// TestNightlyBuildsOnlyUnderTheLock: in a checkout, a night started while
// the last one still runs builds nothing: the build (a minute of both
// cores) would skew the running night's times and replace the ./batch it
// runs trend and prune with. Before, nightly.sh built first and took the
// lock after.
func TestNightlyBuildsOnlyUnderTheLock(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("no flock(1): nightly.sh runs without the lock")
	}
	script, err := filepath.Abs("nightly.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir() // a checkout of the tool, as nightly.sh recognizes one
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module sudokubatch\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "cmd", "batch"), 0o755)
	os.MkdirAll(filepath.Join(dir, "results"), 0o755)
	built := filepath.Join(dir, "built")
	fakeGo := filepath.Join(t.TempDir(), "go")
	if err := os.WriteFile(fakeGo, []byte("#!/bin/sh\necho \"$@\" >> "+built+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "results", ".nightly.lock"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GO="+fakeGo, "BATCH=")
	out, err := cmd.CombinedOutput()
	ee, _ := errors.AsType[*exec.ExitError](err)
	if ee == nil || ee.ExitCode() != 75 {
		t.Errorf("%v, want exit 75\n%s", err, out)
	}
	if b, err := os.ReadFile(built); err == nil {
		t.Errorf("the night refused for the lock built first: go %s", b)
	}
}

// TestNightlySaysHowToFinishAKilledSweep: a sweep killed outright (exit
// 137: SIGKILL, which leaves no line of its own) ends the night with a
// line saying that batch -resume finishes its run. Before, the log said
// only "the sweep exited 137".
func TestNightlySaysHowToFinishAKilledSweep(t *testing.T) {
	script, err := filepath.Abs("nightly.sh")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "batch")
	if err := os.WriteFile(bin, []byte(fakeBatch), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "BATCH="+bin, "FAKE_LOG="+filepath.Join(t.TempDir(), "log"), "FAKE_SWEEP=137")
	out, err := cmd.CombinedOutput()
	ee, _ := errors.AsType[*exec.ExitError](err)
	if ee == nil || ee.ExitCode() != 137 || !strings.Contains(string(out), bin+" -resume finishes its run") {
		t.Errorf("%v, want exit 137 and how to finish the run:\n%s", err, out)
	}
}
