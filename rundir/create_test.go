package rundir

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"sudokubatch/solvers"
)

// TestCreateKilledAtEachStep kills a process (SIGKILL, as kill -9) after
// each step of Create, and after the temporary file of run.json is
// written but not renamed: the directory left behind is either reusable
// by a new run (Create) or resumable (Resume), never neither (before, a
// kill between results.csv and run.json left a directory that Create
// refused as a run and Resume as no run).
func TestCreateKilledAtEachStep(t *testing.T) {
	if dir := os.Getenv("RUNDIR_CREATE_DIR"); dir != "" {
		step := os.Getenv("RUNDIR_KILL_AT")
		createStep = func(s string) {
			if s == step {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
		if step == "temp" {
			os.MkdirAll(dir, 0o755)
			f, _ := os.CreateTemp(dir, "."+ManifestFile+".*")
			f.WriteString(`{"tool": "sudok`)
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
		Create(dir, testManifest())
		return
	}
	for _, step := range []string{"temp", "locked", "manifest", "results", "header"} {
		t.Run(step, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			cmd := exec.Command(os.Args[0], "-test.run=^TestCreateKilledAtEachStep$")
			cmd.Env = append(os.Environ(), "RUNDIR_CREATE_DIR="+dir, "RUNDIR_KILL_AT="+step)
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the child was not killed: %v", err)
			}
			d, err := Create(dir, testManifest())
			if err == nil {
				d.Close(Finished, "")
				return // reusable
			}
			if !errors.Is(err, ErrExists) {
				t.Fatalf("after a kill at %q: Create: %v, want success or ErrExists", step, err)
			}
			d, err = Resume(dir, tenPuzzles)
			if err != nil {
				t.Fatalf("after a kill at %q: neither reusable nor resumable: %v", step, err)
			}
			if err := d.Write(&Row{ID: 3, Solver: "norvig", Status: solvers.StatusSolved, Corpus: "c", Solutions: -1}); err != nil {
				t.Fatal(err)
			}
			if err := d.Close(Finished, ""); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
			rd, err := NewReader(bytes.NewReader(b), "results.csv")
			if err != nil || !rd.Scan() {
				t.Fatalf("after resume: %v, results.csv %q", err, b)
			}
			if row, err := rd.Row(); err != nil || row.ID != 3 {
				t.Fatalf("after resume: row %+v, %v", row, err)
			}
		})
	}
}

func testManifest() *Manifest {
	return &Manifest{Tool: "sudokubatch", Settings: Settings{Solvers: []string{"norvig"}, Corpora: []string{"c"}}}
}
