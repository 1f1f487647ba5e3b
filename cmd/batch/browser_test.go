package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sudokubatch/history"
	"sudokubatch/internal/testenv"
	"sudokubatch/report"
	"sudokubatch/rundir"

	"github.com/chromedp/chromedp"
)

// TestPageInBrowser writes a run's page (the default strategies over 100
// puzzles of the default corpus with #39949 among them, highlighted,
// charts also as SVG, -timeout 20ms so that backtrack's stopped units
// cost little; the second night of a series, batch trend run after each,
// so that it links the history page) and checks it in headless Chromium
// at 1280 and 390 px wide, with the run's other pages (charts.html,
// puzzles.html, the comparison with the previous night) and the history
// page: no console errors or uncaught exceptions; every link, image,
// image source and object resolves to a file of the run or an element of
// the page; the images load; a click on a sortable table's numeric header
// sorts its rows by the cells' data-v, ascending then descending, and
// with JavaScript off the rows are those it shows; every puzzle named is
// a link, and a click on one lands on the puzzle, on the page or on the
// puzzles page; the page and its main column do not overflow
// horizontally; at 1280 px the run's page is at most maxPageHeight tall
// (the run has every default strategy, as a default sweep does: its
// page has as many sections, charts and rows as a whole corpus's);
// loaded at #p-39949, the run's page and the puzzles page show #39949 in
// the viewport, and neither it nor the page's height moves once the
// images in view have loaded. The checks run first over two pages of
// testdata/browser, to show they pass a page that keeps the contract and
// report each fault of one that does not.
func TestPageInBrowser(t *testing.T) {
	testenv.Heavy(t, "starts Chromium and checks pages in it at two widths, 10-15 s")
	path := findBrowser(t)
	start := time.Now()
	// The fixtures first: the sweep changes the working directory.
	good, bad := browserFixture(t, "good.html"), browserFixture(t, "bad.html")
	root := repoRoot(t)
	// Two nights of one series, batch trend between them: the second's
	// page has a previous night to compare with and a history page.
	results := t.TempDir()
	run := filepath.Join(results, "night2")
	for _, out := range []string{filepath.Join(results, "night1"), run} {
		mustOK(t, batchMain(t, root, "-timeout", "20ms", "-svg", "-highlight", "39949,39901",
			"-range", "39900:40000", "-out", out, "-quiet"))
		mustOK(t, batchMain(t, root, "trend", "-root", results))
	}
	t.Logf("sweeps in %v", time.Since(start).Round(time.Millisecond))
	browser := startBrowser(t, path)
	t.Logf("sweep and browser started in %v (%s)", time.Since(start).Round(time.Millisecond), path)

	// The checks themselves, over two pages of testdata/browser: one
	// that keeps the contract and passes, one whose every fault must be
	// reported.
	t.Run("fixture/good/390px", func(t *testing.T) {
		checkPage(t, browser, good, 390, true, "")
		checkJump(t, browser, good, "p-12", 390)
		checkPageHeight(t, browser, good)
	})
	t.Run("fixture/bad/390px", func(t *testing.T) {
		r := &checkRecorder{T: t}
		for _, check := range []func(){
			func() { checkPage(r, browser, bad, 390, true, "") },
			func() { checkJump(r, browser, bad, "p-grow", 390) },
			func() { checkPageHeight(r, browser, bad) },
		} {
			func() {
				defer r.recover()
				check()
			}()
		}
		t.Logf("the checks reported, as they must:\n%s", strings.Join(r.errs, "\n"))
		for _, want := range []string{
			`"http://example.org/" (elsewhere): not a file of the run`,
			`"gone.csv" (gone.csv): no such file`,
			`charts.html has no element with id "chart-none"`,
			`"#p-99" (#99): no element has that id`,
			`<img> "charts/missing.png" (missing): no such file`,
			`image charts/missing.png did not load`,
			`the page overflows: scrollWidth 6`,
			`<main> overflows`,
			`600 px wide`,
			`console: error: boom`,
			`console: error: Failed to load resource`,
			`console: exception: Uncaught Error: sorting failed`,
			`column 1 ("calls", 3 rows): after a click, not ascending`,
			`after a click, aria-sort="", want "ascending"`,
			`link #p-99: no element has that id`,
			`link #p-hidden: its element is not shown`,
			`a puzzle named but not linked: p: Puzzle #42`,
			`#p-grow: the page can grow after the jump: section.lazy: content-visibility: auto`,
			`#p-grow: the page can grow after the jump: img charts/dot.png: no width and height`,
			`px wide, more than 15000`,
		} {
			if !slices.ContainsFunc(r.errs, func(e string) bool { return strings.Contains(e, want) }) {
				t.Errorf("the checks did not report %q; they reported:\n%s", want, strings.Join(r.errs, "\n"))
			}
		}
	})

	pages := checkRunPages(t, browser, run)
	for _, width := range pageWidths {
		t.Run(fmt.Sprintf("jump/%dpx", width), func(t *testing.T) {
			for _, page := range []string{rundir.PageFile, report.PuzzlesPageFile} {
				checkJump(t, browser, filepath.Join(run, page), "p-39949", width)
			}
		})
		t.Run(fmt.Sprintf("history/%dpx", width), func(t *testing.T) {
			checkPage(t, browser, filepath.Join(results, history.PageFile), width, false, "history")
		})
		// What a reader looks for first is in view without a swipe: the
		// run's median, p99 and change since the history; the comparison's
		// ratio and verdict.
		t.Run(fmt.Sprintf("columns/%dpx", width), func(t *testing.T) {
			checkColumnsInView(t, browser, filepath.Join(run, rundir.PageFile), width, "table.headline",
				[]string{"strategy", "median", "p99", "vs. history"})
			checkColumnsInView(t, browser, filepath.Join(run, "compare-previous", rundir.PageFile), width, "#verdicts",
				[]string{"strategy", "median NEW", "median NEW/OLD", "verdict", "calls"})
		})
	}
	t.Logf("%d pages at %d widths in %v", len(pages)+1, len(pageWidths), time.Since(start).Round(time.Millisecond))
}

// checkPageHeight loads the page at path in a new tab 1280 px wide and
// checks its height (checkHeight).
func checkPageHeight(t checker, browser context.Context, path string) {
	t.Helper()
	ctx, _ := browserTab(t, browser)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(pageWidths[0], 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	checkHeight(t, ctx)
}

// TestRunPageInBrowser checks the pages of the run directory
// $SUDOKUBATCH_PAGE as TestPageInBrowser checks those of the run it
// sweeps: the page of a whole corpus, say, or of a night.
func TestRunPageInBrowser(t *testing.T) {
	run := os.Getenv(pageVar)
	if run == "" {
		t.Skipf("checks the pages of a run: %s=DIR", pageVar)
	}
	start := time.Now()
	browser := startBrowser(t, findBrowser(t))
	pages := checkRunPages(t, browser, run)
	// A link to the classic example lands on it, when the run has it.
	if b, err := os.ReadFile(filepath.Join(run, rundir.PageFile)); err == nil && strings.Contains(string(b), `id="p-39949"`) {
		for _, width := range pageWidths {
			t.Run(fmt.Sprintf("jump/%dpx", width), func(t *testing.T) {
				checkJump(t, browser, filepath.Join(run, rundir.PageFile), "p-39949", width)
			})
		}
	}
	t.Logf("%d pages at %d widths in %v", len(pages), len(pageWidths), time.Since(start).Round(time.Millisecond))
}

// checkRunPages checks every page of the run directory run (index.html,
// charts.html, the comparison with the previous night) at each of
// pageWidths, a subtest each, and returns their paths in run.
func checkRunPages(t *testing.T, browser context.Context, run string) []string {
	var pages []string
	err := filepath.WalkDir(run, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		rel, err := filepath.Rel(run, path)
		pages = append(pages, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range pages {
		for _, width := range pageWidths {
			t.Run(fmt.Sprintf("%s/%dpx", name, width), func(t *testing.T) {
				checkPage(t, browser, filepath.Join(run, name), width, name == "index.html",
					strings.ReplaceAll(strings.TrimSuffix(name, ".html"), "/", "-"))
			})
		}
	}
	return pages
}

// browserFixture copies testdata/browser/NAME to index.html of a new directory,
// with charts.html, puzzles.html, charts/dot.png (a 40x30 image) and rows.csv beside
// it, and returns the page's path.
func browserFixture(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "charts"), 0o755); err != nil {
		t.Fatal(err)
	}
	for from, to := range map[string]string{name: "index.html", "charts.html": "charts.html", "puzzles.html": "puzzles.html"} {
		b, err := os.ReadFile(filepath.Join("testdata/browser", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img := image.NewGray(image.Rect(0, 0, 40, 30))
	img.SetGray(20, 15, color.Gray{Y: 255})
	f, err := os.Create(filepath.Join(dir, "charts", "dot.png"))
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte("id\n1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "index.html")
}

// checkRecorder is a checker that keeps what the checks report, for the tests
// of the checks; its Fatalf ends the check (recover catches it).
type checkRecorder struct {
	*testing.T
	errs []string
}

type checkRecorderFatal struct{}

func (r *checkRecorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *checkRecorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic(checkRecorderFatal{})
}

// recover, deferred, ends a check that called Fatalf.
func (r *checkRecorder) recover() {
	if v := recover(); v != nil {
		if _, ok := v.(checkRecorderFatal); !ok {
			panic(v)
		}
	}
}
