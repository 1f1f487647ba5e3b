package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// TestKillResumeStress kills runs with SIGKILL at random instants, from
// the start of the process (a third of the instants fall in its first 30
// ms: start-up and the creation of the run directory) to the end of the
// sweep, resumes each (the resume itself killed at a random instant half
// of the time), and finishes it. Every time, results.csv ends with the
// rows of an uninterrupted run, each unit exactly once, and run.json
// tells each process's segment: killed ones closed as killed, the last
// finished, their rows adding up to the rows results.csv holds. A merge
// of each run, killed at a random instant and run again, gives the same
// rows, credited as they are held.
func TestKillResumeStress(t *testing.T) {
	testenv.Heavy(t, "kills a sweep of 16,000 units and resumes it 24 times, and merges of it")
	root := repoRoot(t)
	dir := t.TempDir()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, root, 0, 4000))
	args := []string{"-solvers", "norvig,dlx,bitboard,singles", "-timeout", "0", "-max-calls", "20000", "-quiet", "-report=false", "-workers", "2"}
	t0 := time.Now()
	mustOK(t, batch(t, dir, append(args, "-out", "whole", corpus)...))
	span := time.Since(t0)
	want := readRows(t, filepath.Join(dir, "whole", rundir.ResultsFile))
	instants := 24
	if testing.Short() {
		instants = 6
	}
	for i := range instants {
		delay := time.Duration(rand.Int64N(int64(30 * time.Millisecond)))
		if i%3 != 0 {
			delay = time.Duration(rand.Int64N(int64(span)))
		}
		out := fmt.Sprintf("run-%d", i)
		killAfter := func(d time.Duration, args ...string) {
			p := start(t, dir, false, args...)
			select {
			case <-p.done:
			case <-time.After(d):
				p.cmd.Process.Kill()
			}
			<-p.done
		}
		killAfter(delay, append(args, "-out", out, corpus)...)
		if rand.IntN(2) == 0 {
			killAfter(time.Duration(rand.Int64N(int64(span))), "-resume", "-quiet", "-report=false", "-out", out)
		}
		r := batch(t, dir, "-resume", "-quiet", "-report=false", "-out", out)
		if r.code == 2 && strings.Contains(r.stderr, "no run to resume") {
			// Killed before the directory held a run: a new run may use it.
			r = batch(t, dir, append(args, "-out", out, corpus)...)
		}
		if r.code != 0 {
			t.Fatalf("instant %d (%s): exit %d\n%s", i, delay, r.code, r.stderr)
		}
		got := readRows(t, filepath.Join(dir, out, rundir.ResultsFile))
		sameRows(t, want, got)
		m := manifest(t, filepath.Join(dir, out))
		rows := 0
		for k, s := range m.Segments {
			rows += s.Rows
			last := k == len(m.Segments)-1
			if (last && s.Status != rundir.Finished) || (!last && s.Status != rundir.Killed && s.Status != rundir.Finished) ||
				s.End.Before(s.Start) || s.End.IsZero() {
				t.Fatalf("instant %d (%s): segment %d of %d: %+v", i, delay, k, len(m.Segments), s)
			}
		}
		// The rows run.json credits (the run's, and its segments' sum)
		// are the rows results.csv holds.
		if m.Status != rundir.Finished || rows != len(got) || m.Rows != len(got) || !m.Corpora[0].Complete || m.Corpora[0].Puzzles != 4000 {
			t.Fatalf("instant %d (%s): run.json status %s, rows %d (segments %d), results.csv %d, corpus %+v", i, delay, m.Status, m.Rows, rows, len(got), m.Corpora[0])
		}
		// A merge of the run (one shard) killed at a random instant, then
		// run again, gives the same rows, credited as they are held.
		merged := out + "-merged"
		killAfter(time.Duration(rand.Int64N(int64(span/4))), "merge", "-o", merged, out)
		if _, err := os.Stat(filepath.Join(dir, merged, rundir.ManifestFile)); err != nil {
			mustOK(t, batch(t, dir, "merge", "-o", merged, out))
		}
		got = readRows(t, filepath.Join(dir, merged, rundir.ResultsFile))
		sameRows(t, want, got)
		mm := manifest(t, filepath.Join(dir, merged))
		rows = 0
		for _, s := range mm.Segments {
			rows += s.Rows
		}
		if mm.Status != rundir.Finished || mm.Rows != len(got) || rows != len(got) {
			t.Fatalf("instant %d: merged run.json status %s, rows %d (segments %d), results.csv %d", i, mm.Status, mm.Rows, rows, len(got))
		}
		os.RemoveAll(filepath.Join(dir, out))
		os.RemoveAll(filepath.Join(dir, merged))
	}
}
