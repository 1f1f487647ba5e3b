package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sudokubatch/history"
	"sudokubatch/rundir"
)

// TestTrendGroupsRunsBySignature sweeps a slice three times in process
// (two at -timeout 100ms, one at 200ms), leaves a fourth run interrupted,
// and checks that trend finds two series and skips the unfinished run;
// then that runs named on the command line keep the newest one's series
// and skip the others as another signature.
func TestTrendGroupsRunsBySignature(t *testing.T) {
	dir := t.TempDir()
	sweep := func(out, timeout string) string {
		t.Helper()
		r := batchMain(t, dir, "-solvers", "norvig,bitboard", "-range", "0:50", "-runs", "1", "-timeout", timeout, "-out", "results/"+out)
		if r.code != 0 {
			t.Fatalf("sweep %s: exit %d\n%s", out, r.code, r.stderr)
		}
		return filepath.Join(dir, "results", out)
	}
	sweep("n1", "100ms")
	sweep("n2", "100ms")
	sweep("n3", "200ms")
	n4 := sweep("n4", "100ms")
	editManifest(t, n4, func(m map[string]any) { m["status"] = rundir.Interrupted })

	r := batchMain(t, dir, "trend")
	if r.code != 0 {
		t.Fatalf("trend: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"2 series, 1 run skipped",
		"rebuilt from 4 run directories", // no index yet
		"series 1/2", "timeout=100ms max-calls=none unique=false runs=1", ": 2 nights",
		"series 2/2", "timeout=200ms", ": 1 night\n",
		"newest night n2", "newest night n3",
		"n4: not finished (status interrupted)",
	} {
		if !hasText(r.stdout, want) {
			t.Errorf("trend's output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "  norvig") || !strings.Contains(r.stdout, "bitboard") || !strings.Contains(r.stdout, "timeouts") {
		t.Errorf("trend's output lacks the per-strategy lines:\n%s", r.stdout)
	}
	if _, err := history.ReadIndex(filepath.Join(dir, "results", history.IndexFile)); err != nil {
		t.Errorf("trend wrote no readable index: %v", err)
	}

	// The second time, from the index; nothing read.
	if r = batchMain(t, dir, "trend"); r.code != 0 || !hasText(r.stdout, "4 run directories, 0 read (new or changed), 4 from the index") {
		t.Errorf("second trend: exit %d, want every run from the index:\n%s%s", r.code, r.stdout, r.stderr)
	}

	// Named runs: the series of the newest (n3), the others skipped.
	r = batchMain(t, dir, "trend", "results/n1", "results/n3", "results/n4")
	if r.code != 0 || !strings.Contains(r.stdout, "1 series, 2 runs skipped") || !strings.Contains(r.stdout, "newest night n3") ||
		!strings.Contains(r.stdout, "results/n1: other signature (") || !strings.Contains(r.stdout, "not finished") {
		t.Errorf("trend n1 n3 n4: exit %d, want n3's series, n1 another signature, n4 not finished:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// hasText reports whether text is in out, each run of white space in
// either read as one space: a sentence trend wrapped to the terminal's
// width is found whole.
func hasText(out, text string) bool {
	return strings.Contains(strings.Join(strings.Fields(out), " "), strings.Join(strings.Fields(text), " "))
}

func TestTrendUsage(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "results"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "results", "latest-file"), "not a root")
	// results/latest pointing at a night removed by hand.
	if err := os.Symlink("20261125-230501", filepath.Join(dir, "results", "latest")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty root", []string{"trend"}, 0, "0 series, 0 runs skipped"},
		{"missing root", []string{"trend", "-root", "nope"}, 2, "results root nope does not exist"},
		{"root a file", []string{"trend", "-root", "results/latest-file"}, 2, "results root results/latest-file: not a directory"},
		{"missing run", []string{"trend", "results/nope"}, 2, "run results/nope:"},
		{"latest gone", []string{"trend", "results/latest"}, 2, "run results/latest: a link to 20261125-230501, which does not exist (removed?): name a run directory that exists"},
		{"negative nights", []string{"trend", "-nights", "-1"}, 2, "-nights -1"},
		{"help", []string{"help", "trend"}, 0, "Examples:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := batchMain(t, dir, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("%v: exit %d, want %d and %q:\n%s%s", tc.args, r.code, tc.code, tc.want, r.stdout, r.stderr)
			}
		})
	}
}

// TestTrendSaysHowToMendDamagedAnnotations: annotations.json damaged by
// hand (an editor left it cut) stops trend with exit 2 naming the file,
// its line and what to do, every night until it is mended: it is the
// one file of the history people write, and nothing rebuilds it.
func TestTrendSaysHowToMendDamagedAnnotations(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "results"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "results", "annotations.json"), "{\"version\": 1, \"acks\": [\n  {\"run\": ")
	r := batchMain(t, dir, "trend")
	if r.code != 2 || !strings.Contains(r.stderr, "annotations.json line 2") || !strings.Contains(r.stderr, "mend it by hand") {
		t.Errorf("trend over a cut annotations.json: exit %d, want 2 naming the file, its line and what to do:\n%s%s", r.code, r.stdout, r.stderr)
	}
}
