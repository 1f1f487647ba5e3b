package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// twoShards sweeps the first n puzzles of the corpus in two shards
// (in process) with extra flags, and returns their directories.
func twoShards(t *testing.T, dir string, n int, extra ...[]string) []string {
	t.Helper()
	corpus := writeFile(t, filepath.Join(dir, "c.txt"), firstLines(t, repoRoot(t), 0, n))
	var shards []string
	for k := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("s%d", k))
		args := []string{"-solvers", "bitboard,dlx", "-timeout", "0", "-quiet", "-report=false", "-shard", fmt.Sprintf("%d/2", k), "-out", out}
		if k < len(extra) {
			args = append(args, extra[k]...)
		}
		mustOK(t, batchMain(t, "", append(args, corpus)...))
		shards = append(shards, out)
	}
	return shards
}

// TestMergeKilledThenMergedAgain kills `batch merge` (SIGKILL) at a few
// instants from its start to its end: the output is never a partial run,
// the same merge run again gives results.csv byte for byte as an
// unkilled merge, with run.json crediting the rows results.csv holds,
// and -resume of the merged run is refused, naming its shards (issue 26,
// defect 1: a merge killed 50 ms in left a run "running" with a torn
// results.csv, a second merge refused it, and -resume solved the missing
// units again and credited more rows than the file holds).
func TestMergeKilledThenMergedAgain(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 3000)
	want := filepath.Join(dir, "want")
	t0 := time.Now()
	mustOK(t, batch(t, dir, "merge", "-o", want, shards[0], shards[1]))
	span := time.Since(t0)
	wantRows, err := readRowsFile(filepath.Join(want, rundir.ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	killed := 0
	for i, delay := range []time.Duration{2 * time.Millisecond, 10 * time.Millisecond, span / 3, 2 * span / 3} {
		out := filepath.Join(dir, fmt.Sprintf("m%d", i))
		p := start(t, dir, false, "merge", "-o", out, shards[0], shards[1])
		select {
		case <-p.done:
		case <-time.After(delay):
			p.cmd.Process.Kill()
		}
		<-p.done
		if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		}
		if m, err := rundir.ReadManifest(out); err == nil {
			if rows, _ := readRowsFile(filepath.Join(out, rundir.ResultsFile)); m.Status != rundir.Finished || !bytes.Equal(rows, wantRows) {
				t.Fatalf("killed after %s: %s holds a partial run (status %s, %d bytes of rows)", delay, out, m.Status, len(rows))
			}
			continue // the merge ended before the kill
		} else if _, serr := os.Stat(out); serr == nil {
			t.Fatalf("killed after %s: %s exists but holds no run: %v", delay, out, err)
		}
		r := batch(t, dir, "merge", "-o", out, shards[0], shards[1])
		if r.code != 0 {
			t.Fatalf("the same merge after a kill at %s: exit %d\n%s", delay, r.code, r.stderr)
		}
		rows, err := readRowsFile(filepath.Join(out, rundir.ResultsFile))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(rows, wantRows) {
			t.Errorf("killed after %s, merged again: results.csv differs from an unkilled merge's", delay)
		}
		m := manifest(t, out)
		credited := 0
		for _, s := range m.Segments {
			credited += s.Rows
		}
		if lines := bytes.Count(rows, []byte("\n")) - 1; m.Status != rundir.Finished || m.Rows != lines || credited != lines {
			t.Errorf("killed after %s, merged again: status %s, rows %d, segments credit %d, results.csv %d rows", delay, m.Status, m.Rows, credited, lines)
		}
		if _, err := os.Stat(rundir.MergeTemp(out)); err == nil {
			t.Errorf("killed after %s, merged again: the temporary run %s is still there", delay, rundir.MergeTemp(out))
		}
	}
	if killed == 0 {
		t.Fatalf("no merge was killed before it ended (an unkilled merge took %s): the test tried nothing", span)
	}
	r := batch(t, dir, "-resume", "-quiet", "-report=false", "-out", want)
	if r.code != 2 || !strings.Contains(r.stderr, "merged from 2 shards ("+shards[0]+", "+shards[1]+")") {
		t.Errorf("-resume of a merged run: exit %d, want 2 and the shards named\n%s", r.code, r.stderr)
	}
	if m := manifest(t, want); m.Rows != 6000 || len(m.Segments) != 2 {
		t.Errorf("the refused -resume changed run.json: %d rows, %d segments", m.Rows, len(m.Segments))
	}
}

// TestMergeRefusesDifferentRunsAndUnfinishedShards: shards swept with
// different -runs are refused like the other settings, naming the shard
// and the setting, and a shard that is not finished is refused with the
// -resume that finishes it (issue 26, defect 5: merge kept the first
// shard's -runs, and merged an interrupted shard with exit 0).
func TestMergeRefusesDifferentRunsAndUnfinishedShards(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 200, nil, []string{"-runs", "2"})
	r := batchMain(t, "", "merge", "-o", filepath.Join(dir, "m"), shards[0], shards[1])
	if r.code != 2 || !strings.Contains(r.stderr, shards[1]) || !strings.Contains(r.stderr, "runs 5 vs 2") {
		t.Errorf("merge of shards with -runs 5 and 2: exit %d, want 2 naming %s and runs\n%s", r.code, shards[1], r.stderr)
	}

	dir = t.TempDir()
	shards = twoShards(t, dir, 200)
	m := manifest(t, shards[1])
	m.Status = rundir.Interrupted // as a Ctrl-C leaves it
	if err := rundir.WriteManifest(shards[1], m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "m")
	r = batchMain(t, "", "merge", "-o", out, shards[0], shards[1])
	if r.code != 2 || !strings.Contains(r.stderr, "shard "+shards[1]+" is not finished (status interrupted)") ||
		!strings.Contains(r.stderr, "batch -resume -out "+shards[1]) {
		t.Errorf("merge of an interrupted shard: exit %d, want 2 and a -resume of it\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused merge left %s", out)
	}
}

// TestMergedWallTimeIsTheSpan: a merged run's wall time is the span from
// the first shard's start to the last one's end, not the sum of the
// shards' (they run side by side), and its CPU time is the sum of the
// shards' (issue 26, item 9).
func TestMergedWallTimeIsTheSpan(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 200)
	// The shards ran at the same time, each for 10 s, on two machines.
	t0 := time.Date(2026, 3, 1, 2, 0, 0, 0, time.UTC)
	for k, s := range shards {
		m := manifest(t, s)
		m.Start, m.End = t0.Add(time.Duration(k)*time.Second), t0.Add(time.Duration(10+k)*time.Second)
		m.Segments[0].Start, m.Segments[0].End, m.Segments[0].DurationNS = m.Start, m.End, int64(10*time.Second)
		if m.Segments[0].CPUNS <= 0 {
			t.Fatalf("shard %s: segment records no CPU time", s)
		}
		if err := rundir.WriteManifest(s, m); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "m")
	r := batchMain(t, "", "merge", "-o", out, shards[0], shards[1])
	mustOK(t, r)
	if !strings.Contains(r.stdout, "wall time 11.0s, from the first shard's start to the last one's end; CPU time ") {
		t.Errorf("merge does not print the span and the CPU time:\n%s", r.stdout)
	}
	m := manifest(t, out)
	if m.DurationNS != int64(11*time.Second) || m.Duration != "11s" {
		t.Errorf("merged wall time %d ns (%s), want the span 11s", m.DurationNS, m.Duration)
	}
	if cpu := m.Segments[0].CPUNS + m.Segments[1].CPUNS; m.CPUNS != cpu {
		t.Errorf("merged CPU time %d ns, want the shards' sum %d", m.CPUNS, cpu)
	}
}

// TestOutInsideAnotherRunIsRefused: -out (and merge -o) inside another
// run's directory is a usage error naming that run, and writes nothing
// (issue 26, item 9).
func TestOutInsideAnotherRunIsRefused(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 100)
	for _, args := range [][]string{
		{"-solvers", "bitboard", "-limit", "3", "-quiet", "-report=false", "-out", filepath.Join(shards[0], "inner")},
		{"merge", "-o", filepath.Join(shards[0], "sub", "m"), shards[0], shards[1]},
	} {
		r := batchMain(t, "", args...)
		if r.code != 2 || !strings.Contains(r.stderr, shards[0]+" holds a run") {
			t.Errorf("%v: exit %d, want 2 naming %s\n%s", args, r.code, shards[0], r.stderr)
		}
	}
	entries, _ := os.ReadDir(shards[0])
	for _, e := range entries {
		if e.IsDir() {
			t.Errorf("a refused run left %s in %s", e.Name(), shards[0])
		}
	}
}

// TestMergeRefusesAShardCutShort: a finished shard whose results.csv
// holds fewer rows than its run.json counts (a copy from its node that
// stopped part way, at a line's end or inside one) is refused, naming
// the shard, the two counts and the -resume that sweeps what is missing,
// and nothing is left at -o. The merge took such a shard's rows as all of
// it and wrote a finished run that lacked the rest, with exit 0.
func TestMergeRefusesAShardCutShort(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 200)
	rows := filepath.Join(shards[1], rundir.ResultsFile)
	b, err := os.ReadFile(rows)
	if err != nil {
		t.Fatal(err)
	}
	want := manifest(t, shards[1]).Rows
	for _, cut := range []struct {
		name string
		keep int // bytes of results.csv
		read int // whole rows in them
	}{
		{"at a line's end", nthLineEnd(b, 51), 50},   // the header and 50 rows
		{"inside a line", nthLineEnd(b, 51) + 7, 50}, // and 7 bytes of the next
	} {
		if err := os.WriteFile(rows, b[:cut.keep], 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "m")
		r := batch(t, "", "merge", "-o", out, shards[0], shards[1])
		msg := fmt.Sprintf("batch: merge: shard %s: %s holds %d rows, its run.json counts %d: the rows file is not the shard's whole (a copy cut short?): copy the shard again, or sweep its missing units with batch -resume -out %s, then merge again\n",
			shards[1], rows, cut.read, want, shards[1])
		if r.code != exitUsage || r.stderr != msg {
			t.Errorf("%s: merge of a shard cut short: exit %d, stderr\n%s\nwant exit 2 and\n%s", cut.name, r.code, r.stderr, msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused merge left %s", cut.name, out)
		}
	}
}

// nthLineEnd returns the offset just past the n-th newline of b.
func nthLineEnd(b []byte, n int) int {
	at := 0
	for range n {
		at += bytes.IndexByte(b[at:], '\n') + 1
	}
	return at
}

// TestMergeOfAShardStillSwept: a shard whose lock is held (its sweep
// still running; here the test holds it, as a sweep does) is refused,
// saying to wait for it and merge again; the error only named the lock's
// pid ("run directory in use by pid 19539").
func TestMergeOfAShardStillSwept(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 20)
	lock, err := rundir.LockDir(shards[1])
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	out := filepath.Join(dir, "m")
	r := batch(t, "", "merge", "-o", out, shards[0], shards[1])
	msg := fmt.Sprintf("batch: merge: shard %s: run directory in use by pid %d: it is still being swept (or merged): wait for that process to end, then merge again\n", shards[1], os.Getpid())
	if r.code != exitUsage || r.stderr != msg {
		t.Errorf("merge of a shard being swept: exit %d, stderr\n%s\nwant exit 2 and\n%s", r.code, r.stderr, msg)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused merge left %s", out)
	}
}

// TestMergeMissingShardSaysWhatToDo: the merge of an array one of whose
// tasks never wrote its directory (cancelled or failed before it
// started: the glob of the recipe's merge finds the others) names the
// missing shard and says how to get it; it said only "missing shard
// 1/2".
func TestMergeMissingShardSaysWhatToDo(t *testing.T) {
	dir := t.TempDir()
	shards := twoShards(t, dir, 20)
	out := filepath.Join(dir, "m")
	r := batch(t, "", "merge", "-o", out, shards[0])
	msg := "batch: merge: missing shard 1/2 (no run given is that shard): give its directory, or sweep it with the other shards' flags and -shard 1/2 (a shard's run.json holds its command), then merge again\n"
	if r.code != exitUsage || r.stderr != msg {
		t.Errorf("merge without shard 1/2: exit %d, stderr\n%s\nwant exit 2 and\n%s", r.code, r.stderr, msg)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("the refused merge left %s", out)
	}
}
