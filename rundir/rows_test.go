package rundir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/solvers"
)

// makeRun creates a run in dir with n rows of corpus c (ten puzzles)
// started at start, and closes it with status.
func makeRun(t *testing.T, dir string, n int, start time.Time, status string) {
	t.Helper()
	m := testManifest()
	m.Start = start
	d, err := Create(dir, m)
	if err != nil {
		t.Fatal(err)
	}
	for id := range n {
		if err := d.Write(&Row{ID: id, Solver: "norvig", Status: solvers.StatusSolved, Corpus: "c", Solutions: -1, NS: int64(1000 + id)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(status, ""); err != nil {
		t.Fatal(err)
	}
}

// rowsOf returns the decompressed bytes of the rows of the run in dir.
func rowsOf(t *testing.T, dir string) []byte {
	t.Helper()
	r, err := OpenRows(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exists(path string) bool { _, err := os.Lstat(path); return err == nil }

// TestCompressedRowsReadByOtherTools: results.csv.gz, written with
// github.com/klauspost/compress's gzip, is a gzip that other tools read
// as they read compress/gzip's: zcat gives back results.csv's bytes and
// Python's gzip and csv modules its rows (each tool skipped where it is
// not installed).
func TestCompressedRowsReadByOtherTools(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	makeRun(t, dir, 300, time.Now(), Finished)
	want, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
	if _, err := Compress(dir); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, ResultsGzip)
	t.Run("zcat", func(t *testing.T) {
		zcat, err := exec.LookPath("zcat")
		if err != nil {
			t.Skip("no zcat")
		}
		got, err := exec.Command(zcat, gz).Output()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("zcat gives %d bytes, not results.csv's %d", len(got), len(want))
		}
	})
	t.Run("python", func(t *testing.T) {
		py, err := exec.LookPath("python3")
		if err != nil {
			t.Skip("no python3")
		}
		const script = `import csv, gzip, sys
rows = list(csv.DictReader(gzip.open(sys.argv[1], "rt", newline="")))
print(len(rows), rows[-1]["id"], rows[-1]["ns"], rows[-1]["corpus"])`
		out, err := exec.Command(py, "-c", script, gz).CombinedOutput()
		if err != nil {
			t.Fatalf("python3: %v\n%s", err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "300 299 1299 c" {
			t.Errorf("Python reads %q, want 300 rows, the last id 299, ns 1299, corpus c", got)
		}
	})
}

// TestCompressOnlyAFinishedRun: an interrupted run stays plain (for
// -resume); once finished, Compress leaves results.csv.gz alone with the
// same bytes, OpenRows reads them, and a Resume makes them plain again.
func TestCompressOnlyAFinishedRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	makeRun(t, dir, 4, time.Now(), Interrupted)
	if _, err := Compress(dir); err == nil || !strings.Contains(err.Error(), "interrupted, not finished") {
		t.Fatalf("Compress of an interrupted run: %v, want a refusal", err)
	}
	if !exists(filepath.Join(dir, ResultsFile)) || exists(filepath.Join(dir, ResultsGzip)) {
		t.Fatal("an interrupted run's rows are not plain")
	}
	d, err := Resume(dir, tenPuzzles)
	if err != nil {
		t.Fatal(err)
	}
	d.Close(Finished, "")
	want, _ := os.ReadFile(filepath.Join(dir, ResultsFile))
	c, err := Compress(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Plain != int64(len(want)) || c.Gzip <= 0 {
		t.Errorf("Compress says %+v, want plain %d", c, len(want))
	}
	if exists(filepath.Join(dir, ResultsFile)) || !exists(filepath.Join(dir, ResultsGzip)) {
		t.Fatal("after Compress: want results.csv.gz alone")
	}
	if p, _ := RowsPath(dir); filepath.Base(p) != ResultsGzip {
		t.Errorf("RowsPath = %s", p)
	}
	if got := rowsOf(t, dir); !bytes.Equal(got, want) {
		t.Fatalf("gzipped rows differ:\n%s\nwant\n%s", got, want)
	}
	if c, err := Compress(dir); err != nil || c != (Compression{}) {
		t.Errorf("Compress again: %+v, %v; want nothing done", c, err)
	}
	d, err = Resume(dir, tenPuzzles)
	if err != nil {
		t.Fatalf("Resume of a gzipped run: %v", err)
	}
	defer d.Close(Finished, "")
	if d.Rows() != 4 || exists(filepath.Join(dir, ResultsGzip)) {
		t.Errorf("resumed: %d rows, gzip there %v; want 4 rows in a plain results.csv", d.Rows(), exists(filepath.Join(dir, ResultsGzip)))
	}
	if got, _ := os.ReadFile(filepath.Join(dir, ResultsFile)); !bytes.Equal(got, want) {
		t.Error("results.csv made plain again differs")
	}
}

// TestCompressRefusesALockedRun: a run in use is not compressed.
func TestCompressRefusesALockedRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	makeRun(t, dir, 2, time.Now(), Finished)
	lock, err := LockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if _, err := Compress(dir); !errors.Is(err, ErrLocked) {
		t.Fatalf("Compress of a locked run: %v, want ErrLocked", err)
	}
	if !exists(filepath.Join(dir, ResultsFile)) {
		t.Fatal("results.csv gone")
	}
}

// TestRowsPathPrefersPlain: when both files are there (a Compress killed
// between its rename and its remove), results.csv is read; with neither,
// the error names both and, beside a summary, batch prune.
func TestRowsPathPrefersPlain(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ResultsFile), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(dir, ResultsGzip), []byte("y"), 0o644)
	if p, err := RowsPath(dir); err != nil || filepath.Base(p) != ResultsFile {
		t.Errorf("RowsPath = %s, %v; want results.csv", p, err)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, SummaryJSON), []byte("{}"), 0o644)
	_, err := RowsPath(empty)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "no results.csv or results.csv.gz") || !strings.Contains(err.Error(), "batch prune") {
		t.Errorf("RowsPath of a pruned run: %v", err)
	}
}

// TestOpenRowsNamesADamagedGzip: a gzip cut short fails the read naming
// the file; a file that is no gzip fails the open.
func TestOpenRowsNamesADamagedGzip(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	gz.Write(bytes.Repeat([]byte("id,solver\n"), 1000))
	gz.Close()
	cut := filepath.Join(dir, "cut.csv.gz")
	os.WriteFile(cut, b.Bytes()[:b.Len()/2], 0o644)
	r, err := OpenRows(cut)
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r)
	r.Close()
	if err == nil || !strings.Contains(err.Error(), cut) {
		t.Errorf("reading a cut gzip: %v, want an error naming %s", err, cut)
	}
	plain := filepath.Join(dir, "plain.csv.gz")
	os.WriteFile(plain, []byte("id,solver\n"), 0o644)
	if _, err := OpenRows(plain); err == nil || !strings.Contains(err.Error(), "not a gzip file") {
		t.Errorf("OpenRows of a plain file named .gz: %v", err)
	}
}

// TestPruneKeepsSummariesAndSparesTheRunsItMust: of six finished runs,
// the newest two keep everything; the target of latest, a locked run and
// an interrupted one are left whole; the others lose their rows, stream
// copy and temporary files and keep run.json, the summary, the page and
// its charts. -dry-run removes nothing and counts the same bytes.
func TestPruneKeepsSummariesAndSparesTheRunsItMust(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 11, 1, 23, 0, 0, 0, time.UTC)
	names := []string{"n1", "n2", "n3", "n4", "n5", "n6"}
	for i, n := range names {
		dir := filepath.Join(root, n)
		makeRun(t, dir, 3, t0.Add(time.Duration(i)*24*time.Hour), Finished)
		for _, f := range []string{SummaryJSON, SummaryMarkdown, SummaryBench, HardCSV, PageFile, StreamFile(0), "." + ResultsFile + ".123"} {
			os.WriteFile(filepath.Join(dir, f), []byte("0123456789"), 0o644)
		}
		os.MkdirAll(filepath.Join(dir, ChartsDir), 0o755)
		os.WriteFile(filepath.Join(dir, ChartsDir, "time.png"), []byte("png"), 0o644)
	}
	if _, err := Compress(filepath.Join(root, "n3")); err != nil {
		t.Fatal(err)
	}
	makeRun(t, filepath.Join(root, "n0-interrupted"), 2, t0.Add(-time.Hour), Interrupted)
	os.Symlink("n1", filepath.Join(root, LatestLink))
	lock, err := LockDir(filepath.Join(root, "n2"))
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	os.MkdirAll(filepath.Join(root, "not-a-run"), 0o755)

	var want int64
	for _, n := range []string{"n3", "n4"} {
		for _, f := range []string{ResultsFile, ResultsGzip, StreamFile(0), "." + ResultsFile + ".123"} {
			if st, err := os.Stat(filepath.Join(root, n, f)); err == nil {
				want += st.Size()
			}
		}
	}
	dry, err := Prune(root, PruneOptions{Keep: 2, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if dry.Bytes != want || len(dry.Pruned) != 2 {
		t.Errorf("dry run: %d bytes of %d runs, want %d of 2", dry.Bytes, len(dry.Pruned), want)
	}
	if !exists(filepath.Join(root, "n4", ResultsFile)) {
		t.Fatal("-dry-run removed a file")
	}

	res, err := Prune(root, PruneOptions{Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	var pruned, skipped []string
	for _, p := range res.Pruned {
		pruned = append(pruned, filepath.Base(p.Dir))
	}
	for _, s := range res.Skipped {
		skipped = append(skipped, filepath.Base(s.Dir)+": "+s.Why)
	}
	slices.Sort(pruned)
	if !slices.Equal(pruned, []string{"n3", "n4"}) || res.Bytes != want {
		t.Errorf("pruned %v (%d bytes), want [n3 n4] (%d bytes)", pruned, res.Bytes, want)
	}
	if k := res.Kept; len(k) != 2 || filepath.Base(k[0]) != "n6" || filepath.Base(k[1]) != "n5" {
		t.Errorf("kept %v, want n6, n5", k)
	}
	joined := strings.Join(skipped, "\n")
	for _, w := range []string{"n0-interrupted: not finished (interrupted)", "n1: the target of", "n2: in use"} {
		if !strings.Contains(joined, w) {
			t.Errorf("skipped:\n%s\nlacks %q", joined, w)
		}
	}
	for _, n := range names {
		dir := filepath.Join(root, n)
		rows := exists(filepath.Join(dir, ResultsFile)) || exists(filepath.Join(dir, ResultsGzip))
		if gone := n == "n3" || n == "n4"; rows == gone {
			t.Errorf("%s: rows there %v", n, rows)
		}
		for _, f := range []string{ManifestFile, SummaryJSON, SummaryMarkdown, SummaryBench, HardCSV, PageFile, filepath.Join(ChartsDir, "time.png")} {
			if !exists(filepath.Join(dir, f)) {
				t.Errorf("%s: %s removed", n, f)
			}
		}
	}
	if exists(filepath.Join(root, "n4", StreamFile(0))) || exists(filepath.Join(root, "n4", "."+ResultsFile+".123")) {
		t.Error("n4: stream copy or temporary file kept")
	}
	if _, err := ReadManifest(filepath.Join(root, "n4")); err != nil {
		t.Errorf("a pruned run's run.json: %v", err)
	}
}

// TestPruneDropPage: with DropPage a pruned run keeps run.json and the
// summary only.
func TestPruneDropPage(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "old")
	makeRun(t, dir, 2, time.Now().Add(-time.Hour), Finished)
	makeRun(t, filepath.Join(root, "new"), 2, time.Now(), Finished)
	for _, f := range []string{SummaryJSON, SummaryMarkdown, SummaryBench, HardCSV, PageFile, ChartsPage, PuzzlesPage} {
		os.WriteFile(filepath.Join(dir, f), []byte("0123456789"), 0o644)
	}
	for _, d := range []string{ChartsDir, ComparePreviousDir} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
		os.WriteFile(filepath.Join(dir, d, "time.png"), []byte("png"), 0o644)
	}
	res, err := Prune(root, PruneOptions{Keep: 1, DropPage: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Pruned) != 1 || !slices.Contains(res.Pruned[0].Files, ChartsDir+"/") {
		t.Fatalf("pruned %+v", res.Pruned)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if want := []string{LockFile, ManifestFile, SummaryBench, SummaryJSON, SummaryMarkdown}; !slices.Equal(names, want) {
		t.Errorf("left %v, want %v", names, want)
	}
}

// TestPruneGzipsKeptPlainRows: with Gzip the kept finished runs' plain
// rows are gzipped (and read back the same), a run in use is not, and a
// dry run changes nothing.
func TestPruneGzipsKeptPlainRows(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	makeRun(t, a, 5, time.Now().Add(-time.Hour), Finished)
	makeRun(t, b, 5, time.Now(), Finished)
	want, _ := os.ReadFile(filepath.Join(a, ResultsFile))
	lock, err := LockDir(b)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	if res, err := Prune(root, PruneOptions{Keep: 2, Gzip: true, DryRun: true}); err != nil || len(res.Gzipped) != 2 || exists(filepath.Join(a, ResultsGzip)) {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	res, err := Prune(root, PruneOptions{Keep: 2, Gzip: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Gzipped) != 1 || res.Gzipped[0].Dir != a || len(res.Pruned) != 0 {
		t.Errorf("gzipped %+v, pruned %+v; want a alone gzipped", res.Gzipped, res.Pruned)
	}
	if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Why, "not gzipped: in use") {
		t.Errorf("skipped %+v, want b in use", res.Skipped)
	}
	if exists(filepath.Join(a, ResultsFile)) || !bytes.Equal(rowsOf(t, a), want) {
		t.Error("a: want its rows in results.csv.gz alone, the same bytes")
	}
	if !exists(filepath.Join(b, ResultsFile)) {
		t.Error("b, in use, was gzipped")
	}
}
