package rundir

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// shardPuzzles is the corpus size of the shards the merge tests write:
// enough rows that a merge killed after mergeStepRows rows leaves a
// results.csv torn in the middle.
const shardPuzzles = 1500

// writeShard writes shard k of n, finished, into dir: every unit of
// solvers norvig and dlx over the ids k mod n of a corpus of
// shardPuzzles puzzles, with settings changed by edit and its run.json
// status set to status.
func writeShard(t *testing.T, dir string, k, n int, status string, edit func(*Settings)) {
	t.Helper()
	m := &Manifest{Tool: "sudokubatch", RunID: filepath.Base(dir), Start: time.Date(2026, 1, 2, 3, 0, k, 0, time.UTC),
		Settings: Settings{Solvers: []string{"norvig", "dlx"}, Corpora: []string{"c.txt"}, Shard: fmt.Sprintf("%d/%d", k, n), Runs: MaxRuns},
		Corpora:  []CorpusInfo{{Path: "c.txt", Size: 82 * shardPuzzles, SHA256: strings.Repeat("ab", 32), Complete: true, Lines: shardPuzzles, Puzzles: shardPuzzles}}}
	if edit != nil {
		edit(&m.Settings)
	}
	d, err := Create(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Begin(Segment{Start: m.Start, Command: []string{"batch", "-shard", m.Settings.Shard}, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for id := k; id < shardPuzzles; id += n {
		for i, s := range m.Settings.Solvers {
			row := Row{ID: id, Line: id + 1, Solver: s, Status: solvers.StatusSolved, Calls: uint64(id*7 + i), NS: int64(1000 + id),
				Solutions: -1, Solution: strings.Repeat("1", 81), Corpus: "c.txt"}
			if err := d.Write(&row); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := d.Close(status, ""); err != nil {
		t.Fatal(err)
	}
}

// mergedRun is what a merge leaves in out, for comparison: results.csv
// and run.json, and the names of the directory's files.
func mergedRun(t *testing.T, out string) (rows []byte, m *Manifest, files []string) {
	t.Helper()
	rows, err := os.ReadFile(filepath.Join(out, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	if m, err = ReadManifest(out); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		files = append(files, e.Name())
	}
	return rows, m, files
}

// TestMergeKilledThenMergedAgainIsWhole kills a merge (SIGKILL, as kill
// -9) at each of its steps: while it creates the run, after some of its
// rows, with the run built but not in place, and once in place. The
// output is never a partial run (absent, or the whole merged run), and
// the same merge run again gives the run an unkilled merge gives, which
// -resume refuses (issue 26, defect 1: a merge killed 50 ms in left a
// run "running" with a torn results.csv, which a second merge refused
// and -resume "finished" by solving the shards' units again, crediting
// more rows than results.csv holds).
func TestMergeKilledThenMergedAgainIsWhole(t *testing.T) {
	if step := os.Getenv("RUNDIR_MERGE_KILL_AT"); step != "" {
		kill := func(s string) {
			if s == step {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
		createStep, mergeStep = kill, kill
		_, err := Merge(context.Background(), os.Getenv("RUNDIR_MERGE_OUT"), strings.Split(os.Getenv("RUNDIR_MERGE_INS"), ","))
		fmt.Fprintf(os.Stderr, "the merge was not killed at %q: %v\n", step, err)
		os.Exit(3)
	}
	dir := t.TempDir()
	ins := []string{filepath.Join(dir, "s1"), filepath.Join(dir, "s0")}
	writeShard(t, ins[1], 0, 2, Finished, nil)
	writeShard(t, ins[0], 1, 2, Finished, nil)
	if _, err := Merge(context.Background(), filepath.Join(dir, "want"), ins); err != nil {
		t.Fatal(err)
	}
	wantRows, wantM, wantFiles := mergedRun(t, filepath.Join(dir, "want"))
	if wantM.Rows != 2*shardPuzzles || bytes.Count(wantRows, []byte("\n")) != 2*shardPuzzles+1 || wantM.Status != Finished {
		t.Fatalf("unkilled merge: status %s, %d rows in run.json, %d lines in results.csv", wantM.Status, wantM.Rows, bytes.Count(wantRows, []byte("\n")))
	}
	for _, step := range []string{"locked", "manifest", "results", "header", "created", "rows", "built", "renamed"} {
		t.Run(step, func(t *testing.T) {
			out := filepath.Join(dir, "m-"+step)
			cmd := exec.Command(os.Args[0], "-test.run=^TestMergeKilledThenMergedAgainIsWhole$")
			cmd.Env = append(os.Environ(), "RUNDIR_MERGE_KILL_AT="+step, "RUNDIR_MERGE_OUT="+out, "RUNDIR_MERGE_INS="+strings.Join(ins, ","))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Fatalf("the merge was not killed: %v\n%s", err, stderr.Bytes())
			}
			// What the kill left: no run at out, or the whole one.
			if _, err := os.Stat(filepath.Join(out, ManifestFile)); err == nil {
				if rows, m, _ := mergedRun(t, out); !bytes.Equal(rows, wantRows) || m.Status != Finished {
					t.Fatalf("killed at %q: out holds a run %s with %d bytes of rows, want the whole merged run", step, m.Status, len(rows))
				}
			} else if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("killed at %q: out exists without a run: %v", step, err)
			}
			if step == "renamed" {
				return // merged: a new merge into out is refused, as into any run
			}
			m, err := Merge(context.Background(), out, ins)
			if err != nil {
				t.Fatalf("the same merge after a kill at %q: %v", step, err)
			}
			rows, got, files := mergedRun(t, out)
			if !bytes.Equal(rows, wantRows) {
				t.Errorf("killed at %q then merged again: results.csv differs from an unkilled merge's", step)
			}
			got.RunID, wantM.RunID = "", ""
			if fmt.Sprint(*got) != fmt.Sprint(*wantM) || m.Rows != wantM.Rows {
				t.Errorf("killed at %q then merged again: run.json\n%+v\nwant\n%+v", step, *got, *wantM)
			}
			if fmt.Sprint(files) != fmt.Sprint(wantFiles) {
				t.Errorf("killed at %q then merged again: files %v, want %v", step, files, wantFiles)
			}
			if _, err := os.Stat(MergeTemp(out)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("killed at %q then merged again: the temporary run is still there: %v", step, err)
			}
			if _, err := Resume(out, tenPuzzles); !errors.Is(err, ErrMerged) {
				t.Errorf("resume of the merged run: %v, want ErrMerged", err)
			}
		})
	}
}

// TestMergeIntoAnEmptyDirectory: the output may be an empty directory,
// or one that holds only the lock of a killed creation, as for a run;
// a directory with other files is refused and left as it was.
func TestMergeIntoAnEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	ins := []string{filepath.Join(dir, "s0"), filepath.Join(dir, "s1")}
	writeShard(t, ins[0], 0, 2, Finished, nil)
	writeShard(t, ins[1], 1, 2, Finished, nil)
	for name, files := range map[string][]string{"empty": nil, "lock": {LockFile}, "other": {"notes.txt"}} {
		out := filepath.Join(dir, name)
		if err := os.Mkdir(out, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(out, f), []byte("1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := Merge(context.Background(), out, ins)
		if name == "other" {
			if !errors.Is(err, ErrNotEmpty) {
				t.Errorf("merge into a directory with other files: %v, want ErrNotEmpty", err)
			}
			if _, serr := os.Stat(filepath.Join(out, "notes.txt")); serr != nil {
				t.Errorf("the refused merge changed %s: %v", out, serr)
			}
			continue
		}
		if err != nil {
			t.Errorf("merge into a directory holding %v: %v", files, err)
			continue
		}
		if m, err := ReadManifest(out); err != nil || m.Rows != 2*shardPuzzles {
			t.Errorf("merge into a directory holding %v: %v, %+v", files, err, m)
		}
	}
}
