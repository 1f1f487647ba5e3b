package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// rewriteRun copies the run in src to dst, changing each row with edit.
func rewriteRun(t *testing.T, src, dst string, edit func(r *rundir.Row)) {
	t.Helper()
	in, err := os.Open(filepath.Join(src, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := rundir.NewReader(in, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(dst, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := rundir.NewWriter(out)
	w.WriteHeader()
	for rd.Scan() {
		row, err := rd.Row()
		if err != nil {
			t.Fatal(err)
		}
		edit(row)
		w.Write(row)
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	info, err := rundir.ReadManifest(src)
	if err != nil {
		t.Fatal(err)
	}
	info.RunID = filepath.Base(dst)
	if err := rundir.WriteManifest(dst, info); err != nil {
		t.Fatal(err)
	}
}

func TestCompare(t *testing.T) {
	root := repoRoot(t)
	tmp := t.TempDir()
	args := append([]string{"-solvers", "norvig,dlx,bitboard", "-limit", "30"}, deterministic...)
	mustOK(t, batch(t, root, append(args, "-out", tmp+"/a")...))
	mustOK(t, batch(t, root, append(args, "-out", tmp+"/b")...))

	// Two runs of the same code: no counter changes; times are the
	// machine's, so no -threshold here.
	r := batch(t, root, "compare", tmp+"/a", tmp+"/b")
	mustOK(t, r)
	for _, want := range []string{"OLD " + tmp + "/a: run a (finished), 30 puzzles of data/sudoku17.txt, 90 rows",
		"No counter changed", "norvig", "dlx", "bitboard"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}

	// A copy of a where dlx takes 3 times as long and norvig's #7 makes
	// 5 times its calls: exit 1 past -threshold, naming dlx on stderr.
	rewriteRun(t, tmp+"/a", tmp+"/c", func(row *rundir.Row) {
		switch {
		case row.Solver == "dlx":
			row.NS *= 3
		case row.Solver == "norvig" && row.ID == 7:
			row.Calls *= 5
		}
	})
	r = batch(t, root, "compare", "-threshold", "1.5", tmp+"/a", tmp+"/c")
	if r.code != 1 || !strings.Contains(r.stderr, "slower than -threshold 1.5") || !strings.Contains(r.stderr, "dlx (median time ×3") ||
		strings.Contains(r.stderr, "norvig") {
		t.Fatalf("slower dlx: exit %d\nstderr: %s", r.code, r.stderr)
	}
	for _, want := range []string{"Slower than ×1.5 (median time NEW/OLD): dlx (×3.00).", "norvig    #7"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// Under the threshold: exit 0. Without one: no check.
	mustOK(t, batch(t, root, "compare", "-threshold", "3.5", tmp+"/a", tmp+"/c"))
	mustOK(t, batch(t, root, "compare", tmp+"/a", tmp+"/c"))

	// -json, with results.csv files for arguments.
	r = batch(t, root, "compare", tmp+"/a/results.csv", tmp+"/c/results.csv", "-json", "-threshold", "1.5")
	if r.code != 1 {
		t.Fatalf("-json: exit %d\n%s", r.code, r.stderr)
	}
	var c report.Comparison
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil {
		t.Fatalf("-json output: %v\n%s", err, r.stdout)
	}
	if len(c.Strategies) != 3 || len(c.Slower) != 1 || c.Slower[0] != "dlx" || c.Strategies[0].Changed.Calls != 1 ||
		c.Strategies[0].Largest[0].Puzzle.ID != 7 || c.Strategies[1].MedianRatio.Value != 3 {
		t.Errorf("-json: %+v", c)
	}

	// Runs that cannot be compared, and usage errors: exit 2.
	os.WriteFile(tmp+"/other.txt", []byte("4000300200040020\n"), 0o644)
	mustOK(t, batch(t, root, "-solvers", "dlx", "-out", tmp+"/other", "-quiet", tmp+"/other.txt"))
	mustOK(t, batch(t, root, "-solvers", "singles", "-out", tmp+"/single", "-quiet", tmp+"/other.txt"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{tmp + "/a", tmp + "/other"}, "no puzzle in both (OLD is over data/sudoku17.txt; NEW over " + tmp + "/other.txt)"},
		{[]string{tmp + "/other", tmp + "/single"}, "no strategy in both (OLD has dlx; NEW has singles)"},
		{[]string{tmp + "/a", tmp + "/nope"}, "reading run " + tmp + "/nope"},
		{[]string{tmp + "/a", tmp}, "no results.csv in it"},
		{[]string{"-threshold", "0.9", tmp + "/a", tmp + "/b"}, "-threshold 0.9: want a ratio >= 1"},
	} {
		r := batch(t, root, append([]string{"compare"}, tc.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("compare %v: exit %d, stderr %s", tc.args, r.code, r.stderr)
		}
	}
	// One run: NEW is results/latest, and there is none in an empty directory.
	if r := batch(t, t.TempDir(), "compare", tmp+"/a"); r.code != 2 || !strings.Contains(r.stderr, "compare needs two runs") {
		t.Errorf("compare with one run and no results/latest: exit %d, stderr %s", r.code, r.stderr)
	}
	rewriteRun(t, tmp+"/other", tmp+"/other2", func(row *rundir.Row) { row.Corpus = "elsewhere.txt" })
	os.Remove(tmp + "/other2/run.json") // no checksum to join the corpora by
	if r := batch(t, root, "compare", tmp+"/other", tmp+"/other2"); r.code != 2 ||
		!strings.Contains(r.stderr, "no puzzle in both") || !strings.Contains(r.stderr, "warning: corpus "+tmp+"/other.txt is only in OLD") {
		t.Errorf("other corpora: exit %d, stderr %s", r.code, r.stderr)
	}
}
