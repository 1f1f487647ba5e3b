package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The checks of a page in the browser (the DOM contract of the run's
// page: docs/DESIGN.md). Each reports to a checker: the test's, or a
// recorder when the checks themselves are tested.

// pageWidths are the viewport widths the pages are checked at: a laptop
// and a phone.
var pageWidths = []int64{1280, 390}

// checkPage loads the page at path in a new tab width px wide and checks
// it (see TestPageInBrowser); runPage says it is a run's index.html,
// which must have thumbnails, sortable tables and puzzle links (another
// page, charts.html, is checked for what it has); shot names its
// screenshot (SHOT-WIDTH.png) when $SUDOKUBATCH_SCREENSHOTS asks for them.
func checkPage(t checker, browser context.Context, path string, width int64, runPage bool, shot string) {
	ctx, consoleErrors := browserTab(t, browser)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}

	// The images: the thumbnails on the run's page, every image on the
	// others (charts.html: each chart full size).
	sel := "img"
	if runPage {
		sel = ".thumbs img"
		if evalJS[int](t, ctx, `document.querySelectorAll('.thumbs img').length`) == 0 {
			t.Errorf("no thumbnails (.thumbs img) on the page")
			sel = "img"
		}
	}
	images := evalJS[[]imageState](t, ctx, fmt.Sprintf(imagesJS, sel))
	for _, im := range images {
		if !im.Complete || im.Width == 0 {
			t.Errorf("image %s did not load (complete %v, naturalWidth %d)", im.Src, im.Complete, im.Width)
		}
	}
	if dir := os.Getenv(screenshotsVar); dir != "" && shot != "" {
		// A full-page capture draws content under content-visibility:
		// auto out of view as blank: it is drawn for the capture.
		evalJS[bool](t, ctx, `(() => { const s = document.createElement('style'); s.id = 'test-shot';
			s.textContent = '* { content-visibility: visible !important; }'; document.head.append(s); return true; })()`)
		img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		evalJS[bool](t, ctx, `(document.getElementById('test-shot').remove(), true)`)
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		file := filepath.Join(dir, fmt.Sprintf("%s-%d.png", shot, width))
		if err := os.WriteFile(file, img, 0o644); err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		t.Logf("screenshot: %s", file)
	}

	for _, bad := range checkRefs(path, evalJS[[]pageRef](t, ctx, refsJS), evalJS[[]string](t, ctx, idsJS)) {
		t.Errorf("link %s", bad)
	}

	o := evalJS[pageOverflow](t, ctx, overflowJS)
	if o.DocScroll > o.DocClient {
		t.Errorf("the page overflows: scrollWidth %d > clientWidth %d; sticking out: %q", o.DocScroll, o.DocClient, o.Culprits)
	}
	switch {
	case !o.Main:
		t.Errorf("no <main> element (the main column)")
	case o.MainScroll > o.MainClient:
		t.Errorf("<main> overflows: scrollWidth %d > clientWidth %d; sticking out: %q", o.MainScroll, o.MainClient, o.MainCulprits)
	}

	// The run's page must have sortable tables and puzzle links; another
	// page is checked for what it has. Its height is bounded.
	if runPage && width == pageWidths[0] {
		checkWithoutScript(t, browser, path, evalJS[[][]string](t, ctx, sortableRowsJS))
		t.Logf("%s: %d px tall at %d px wide", filepath.Base(path), checkHeight(t, ctx), width)
	}
	checkSorting(t, ctx, runPage)
	clickPuzzleLinks(t, ctx, runPage)
	if runPage {
		for _, u := range evalJS[[]string](t, ctx, unlinkedPuzzlesJS) {
			t.Errorf("a puzzle named but not linked: %s", u)
		}
	}
	for _, e := range consoleErrors() {
		t.Errorf("console: %s", e)
	}
}

// maxSortChecks is how many sortable tables checkSorting clicks at most.
const maxSortChecks = 4

// checkSorting clicks, in each table.sortable (there must be one when
// required; maxSortChecks of them at most, the first ones and the last),
// the header of a column whose cells all have a numeric data-v, twice:
// the rows must be in ascending then descending order of it, the
// header's aria-sort saying so, the rows the same.
func checkSorting(t checker, ctx context.Context, required bool) {
	columns := evalJS[[]sortColumn](t, ctx, sortColumnsJS)
	if len(columns) == 0 && required {
		t.Errorf("no sortable table (table.sortable) on the page")
	}
	// The tables share one script: the first few and the last are
	// enough, each click costing a round trip to the browser.
	var check []sortColumn
	for _, c := range columns {
		if c.Column >= 0 {
			check = append(check, c)
		}
	}
	if len(check) > maxSortChecks {
		check = append(check[:maxSortChecks-1:maxSortChecks-1], check[len(check)-1])
	}
	for _, c := range check {
		what := fmt.Sprintf("table.sortable %d, column %d (%q, %d rows)", c.Table, c.Column, c.Header, c.Rows)
		before := evalJS[sortState](t, ctx, fmt.Sprintf(sortStateJS, c.Table, c.Column))
		for _, want := range []string{"ascending", "descending"} {
			if !evalJS[bool](t, ctx, fmt.Sprintf(markJS, fmt.Sprintf(
				`(t => t.tHead.rows[t.tHead.rows.length - 1].cells[%d])(document.querySelectorAll('table.sortable')[%d])`, c.Column, c.Table))) {
				t.Errorf("%s: the header is not shown, its <details> open", what)
				break
			}
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("[data-test-click]"))); err != nil {
				t.Fatalf("%s: clicking the header: %v", what, err)
			}
			after := evalJS[sortState](t, ctx, fmt.Sprintf(sortStateJS, c.Table, c.Column))
			ordered := slices.IsSorted(after.Values)
			if want == "descending" {
				ordered = slices.IsSortedFunc(after.Values, func(a, b float64) int { return cmp.Compare(b, a) })
			}
			if !ordered {
				t.Errorf("%s: after a click, not %s: %v", what, want, after.Values)
			}
			if after.AriaSort != want {
				t.Errorf("%s: after a click, aria-sort=%q, want %q", what, after.AriaSort, want)
			}
			if !slices.Equal(after.Rows, before.Rows) {
				t.Errorf("%s: sorting changed the rows", what)
			}
		}
	}
	if len(columns) > 0 && len(check) == 0 {
		t.Errorf("no table.sortable has a column of numeric data-v cells to sort by")
	}
}

// maxLinkChecks is how many puzzle links clickPuzzleLinks clicks at most.
const maxLinkChecks = 4

// clickPuzzleLinks clicks up to maxLinkChecks of the page's puzzle links
// (first, last and between; there must be one when required): each must
// land on its puzzle, the element of that id shown in the viewport.
func clickPuzzleLinks(t checker, ctx context.Context, required bool) {
	hrefs := evalJS[[]string](t, ctx, puzzleLinksJS)
	if len(hrefs) == 0 {
		if required {
			t.Errorf("no visible puzzle link (a[href^=\"#p-\"]) on the page")
		}
		return
	}
	var pick []string
	n := min(maxLinkChecks, len(hrefs))
	for i := range n {
		pick = append(pick, hrefs[i*(len(hrefs)-1)/max(1, n-1)])
	}
	for _, href := range slices.Compact(pick) {
		js := fmt.Sprintf(`[...document.querySelectorAll('a[href=%q]')].find(a => a.checkVisibility())`, href)
		if !strings.HasPrefix(href, "#") {
			// A link to another page (the puzzles page): follow it as a
			// click would, to where it points, and come back.
			back := evalJS[string](t, ctx, `location.href`)
			to := evalJS[string](t, ctx, fmt.Sprintf(`document.querySelector('a[href=%q]').href`, href))
			if err := chromedp.Do(ctx, chromedp.Navigate(to)); err != nil {
				t.Fatalf("following the link to %s: %v", href, err)
			}
			checkLanding(t, ctx, href, href[strings.Index(href, "#"):])
			if err := chromedp.Do(ctx, chromedp.Navigate(back)); err != nil {
				t.Fatalf("back from %s: %v", href, err)
			}
			continue
		}
		if !evalJS[bool](t, ctx, fmt.Sprintf(markJS, js)) {
			t.Errorf("link %s: gone", href)
			continue
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("[data-test-click]"))); err != nil {
			t.Fatalf("clicking the link to %s: %v", href, err)
		}
		checkLanding(t, ctx, href, href)
	}
}

// checkLanding checks where a link (href) went: location.hash is hash,
// and the element of that id is shown, in the viewport.
func checkLanding(t checker, ctx context.Context, href, hash string) {
	t.Helper()
	l := evalJS[landing](t, ctx, landingJS)
	switch {
	case l.Hash != hash:
		t.Errorf("link %s: location.hash %q after the click", href, l.Hash)
	case !l.Found:
		t.Errorf("link %s: no element has that id", href)
	case !l.Shown:
		t.Errorf("link %s: its element is not shown (in a closed <details>, or display: none)", href)
	case l.Bottom <= 0 || l.Top >= l.Viewport:
		t.Errorf("link %s: its element is out of the viewport (top %.0f, bottom %.0f, viewport height %.0f)", href, l.Top, l.Bottom, l.Viewport)
	}
}

// maxPageHeight is how tall, in pixels at 1280 wide, the run's page may
// be: a default sweep's page, its puzzles' entries on a page of their own.
const maxPageHeight = 15000

// checkHeight checks that the page in ctx's tab is at most maxPageHeight
// tall, and returns its height.
func checkHeight(t checker, ctx context.Context) int {
	t.Helper()
	h := evalJS[int](t, ctx, heightJS)
	if h > maxPageHeight {
		t.Errorf("the page is %d px tall at %d px wide, more than %d", h, pageWidths[0], maxPageHeight)
	}
	return h
}

// checkJump loads the page at path in a new tab width px wide at the
// fragment #id, as a link from elsewhere (the history page, summary.md)
// does: the element must be in the viewport, and neither it nor the
// page's height may move once what came into view has loaded; nothing
// on the page may grow it once shown (growersJS: such a growth comes
// after a jump or not, as the browser's frames fall).
func checkJump(t checker, browser context.Context, path, id string, width int64) {
	t.Helper()
	ctx, _ := browserTab(t, browser)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(fileURL(t, path)+"#"+id)); err != nil {
		t.Fatalf("loading %s#%s: %v", path, id, err)
	}
	for _, g := range evalJS[[]string](t, ctx, growersJS) {
		t.Errorf("#%s: the page can grow after the jump: %s", id, g)
	}
	j := evalJS[jumpState](t, ctx, fmt.Sprintf(jumpJS, id))
	switch {
	case !j.Found:
		t.Errorf("#%s: no element has that id", id)
	case j.Height2 != j.Height1:
		t.Errorf("#%s: the page grew after the jump, from %.0f to %.0f px", id, j.Height1, j.Height2)
	case j.Top2 != j.Top1:
		t.Errorf("#%s: the element moved after the jump, from %.0f to %.0f px", id, j.Top1, j.Top2)
	case j.Bottom2 <= 0 || j.Top2 >= j.Viewport:
		t.Errorf("#%s: out of the viewport after the jump (top %.0f, bottom %.0f, viewport height %.0f)", id, j.Top2, j.Bottom2, j.Viewport)
	}
}

// checkWithoutScript loads the page at path with JavaScript off: its
// sortable tables must hold the rows they hold with it on, in the same
// order (withScript, as sortableRowsJS reads them before any click).
func checkWithoutScript(t checker, browser context.Context, path string, withScript [][]string) {
	t.Helper()
	ctx, _ := browserTab(t, browser)
	off := chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
		return err
	})
	if err := chromedp.Do(ctx, off, chromedp.EmulateViewport(pageWidths[0], 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("loading %s without JavaScript: %v", path, err)
	}
	without := evalJS[[][]string](t, ctx, sortableRowsJS)
	if len(without) != len(withScript) {
		t.Errorf("without JavaScript, %d sortable tables; with it, %d", len(without), len(withScript))
		return
	}
	for i := range without {
		if !slices.Equal(without[i], withScript[i]) {
			t.Errorf("table.sortable %d: without JavaScript its %d rows differ from the %d with it (first: %.80q / %.80q)",
				i, len(without[i]), len(withScript[i]), strings.Join(without[i][:min(1, len(without[i]))], ""), strings.Join(withScript[i][:min(1, len(withScript[i]))], ""))
		}
	}
}
