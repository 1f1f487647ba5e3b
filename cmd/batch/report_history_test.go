package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sudokubatch/internal/testenv"
	"sudokubatch/rundir"
)

// TestPageHistoryColumn: the page of a night of a results root that keeps
// a history (batch trend ran there) has the history's column, with each
// strategy's verdict of that night, the alarmed one marked, and links the
// history page; a root without history has none. An older night's page
// says what its own night said.
func TestPageHistoryColumn(t *testing.T) {
	testenv.Heavy(t, "sequential reports and trend, no goroutines of its own: 2 s, 22 s under -race")
	base := t.TempDir()
	sweepNights(t, base, 1)
	n1 := filepath.Join(base, "n1")
	root := t.TempDir()
	for k := 1; k <= 4; k++ {
		fakeNight(t, root, n1, fmt.Sprintf("n%d", k), "*", 1, 24*k)
	}
	fakeNight(t, root, n1, "n5", "dlx", 1.25, 24*5)
	page := func(night string) string {
		t.Helper()
		dir := filepath.Join(root, night)
		if r := batchMain(t, "", "report", dir); r.code != 0 {
			t.Fatalf("report %s: exit %d\n%s", night, r.code, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, rundir.PageFile))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// No history yet: no column.
	if p := page("n4"); strings.Contains(p, "vs. history") {
		t.Error("a root without history.json: the page has a history column")
	}
	if r := trendOver(t, root); r.code != 1 {
		t.Fatalf("trend: exit %d, want 1 (dlx slower on n5)\n%s%s", r.code, r.stdout, r.stderr)
	}
	p := page("n5")
	for _, want := range []string{">vs. history</th>",
		`class="alarm"`, `>slower<small>×1.250<span class="ci"> [1.250, 1.250]</span></small>`,
		`id="history">Night 5 of its series in`, "new alarm: dlx (time).", `<a href="../index.html">The history page</a>`} {
		if !strings.Contains(p, want) {
			t.Errorf("n5's page lacks %q", want)
		}
	}
	if n := len(regexp.MustCompile(`>no change<small>×1\.000`).FindAllString(p, -1)); n != 2 {
		t.Errorf("n5's page: %d strategies with no change ×1.000, want norvig and bitboard", n)
	}
	// n4's page: its own night, no alarm.
	if p := page("n4"); !strings.Contains(p, "Night 4 of its series") || !strings.Contains(p, "no new alarm.") || strings.Contains(p, `class="alarm"`) {
		t.Errorf("n4's page does not say its own night's verdicts")
	}
}

// TestPageHistoryThroughLatest: `batch report` (results/latest, a
// symbolic link to the newest night) writes the history's verdict of the
// night it points at, as `batch report results/<id>` does: the same
// column, the same sentence. Its results root is the one of the run
// that latest points at (rundir.Locate), not the link's name.
func TestPageHistoryThroughLatest(t *testing.T) {
	testenv.Heavy(t, "a sweep, a trend and two reports by the binary: 3 s")
	needsBinary(t)
	base := t.TempDir()
	sweepNights(t, base, 1)
	work := t.TempDir()
	root := filepath.Join(work, rundir.DefaultRoot)
	for k := 1; k <= 4; k++ {
		fakeNight(t, root, filepath.Join(base, "n1"), fmt.Sprintf("n%d", k), "*", 1, 24*k)
	}
	fakeNight(t, root, filepath.Join(base, "n1"), "n5", "dlx", 1.25, 24*5)
	if err := os.Symlink("n5", filepath.Join(root, rundir.LatestLink)); err != nil {
		t.Fatal(err)
	}
	if r := trendOver(t, root); r.code != 1 {
		t.Fatalf("trend: exit %d, want 1 (dlx slower on n5)\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The history's column and sentence of a page.
	verdicts := regexp.MustCompile(`<td[^>]*>(?:no change|slower)<small>[^<]*(?:<span[^>]*>[^<]*</span>)?</small>|id="history">[^<]*`)
	page := func(args ...string) []string {
		t.Helper()
		r := batch(t, work, append([]string{"report"}, args...)...)
		if r.code != 0 {
			t.Fatalf("report %v: exit %d\n%s", args, r.code, r.stderr)
		}
		if strings.Contains(r.stderr, "history column") {
			t.Errorf("report %v: %s", args, r.stderr)
		}
		b, err := os.ReadFile(filepath.Join(root, "n5", rundir.PageFile))
		if err != nil {
			t.Fatal(err)
		}
		return verdicts.FindAllString(string(b), -1)
	}
	named := page(filepath.Join(rundir.DefaultRoot, "n5"))
	if len(named) != 4 || !strings.Contains(strings.Join(named, "\n"), "Night 5 of its series") {
		t.Fatalf("batch report results/n5: the history's verdicts are not on the page: %q", named)
	}
	if latest := page(); !slices.Equal(latest, named) {
		t.Errorf("batch report (results/latest) writes other history verdicts than batch report results/n5:\n%q\nwant\n%q", latest, named)
	}
}
