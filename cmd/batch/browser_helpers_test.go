package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
)

// The browser tests drive a headless Chromium through the DevTools
// protocol (chromedp) over pages the command wrote: one browser for a
// test, a tab for each page and width.

// checker is what the page's checks report to: a *testing.T, or a
// recorder when the checks themselves are tested.
type checker interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
	Cleanup(func())
}

// chromeVar names the browser to use in place of the first of
// browserNames found on PATH.
const chromeVar = "SUDOKUBATCH_CHROME"

// screenshotsVar names a directory the browser test writes full-page
// screenshots to (PAGE-WIDTH.png), for people to look at.
const screenshotsVar = "SUDOKUBATCH_SCREENSHOTS"

var browserNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findBrowser returns the path of the browser to drive: $SUDOKUBATCH_CHROME
// (the test fails when it names no program), else the first of
// browserNames on PATH; it skips t, in one line, when there is none.
func findBrowser(t testing.TB) string {
	t.Helper()
	if name := os.Getenv(chromeVar); name != "" {
		path, err := exec.LookPath(name)
		if err != nil {
			t.Fatalf("%s=%s: %v", chromeVar, name, err)
		}
		return path
	}
	for _, name := range browserNames {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skipf("no browser: none of %s on PATH and %s unset (.ci/run installs the Debian package chromium)",
		strings.Join(browserNames, ", "), chromeVar)
	return ""
}

// startBrowser starts the browser at path, headless, and returns a
// context whose tabs (chromedp.NewContext of it) share it; the browser
// ends with the test.
func startBrowser(t testing.TB, path string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path),
		// CI may run as root, where Chromium's sandbox refuses to start.
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	browser, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return browser
}

// browserTab opens a tab of browser and collects what the page writes to its
// console as errors: console.error calls, uncaught exceptions, and the
// browser's own log errors (a resource that failed to load). errs
// returns them so far; the tab closes when the test ends.
func browserTab(t checker, browser context.Context) (ctx context.Context, errs func() []string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	var mu sync.Mutex
	var got []string
	messages := chromedp.Console(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				where := m.URL
				if where != "" {
					where = fmt.Sprintf(" (%s:%d)", filepath.Base(where), m.Line+1)
				}
				mu.Lock()
				got = append(got, m.String()+where)
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// fileURL returns the file:// URL of path.
func fileURL(t checker, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// evalJS evaluates the JavaScript expression js in ctx's tab and decodes
// its value (awaited when it is a promise) into a T.
func evalJS[T any](t checker, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %.60q...: %v", js, err)
	}
	return v
}

// pageRef is a reference of a page to a resource: an a[href], img[src],
// link[href] or script[src], as written in the page.
type pageRef struct {
	Tag  string `json:"tag"`
	Ref  string `json:"ref"`
	Text string `json:"text"`
}

const refsJS = `(() => {
	const out = [];
	for (const [sel, attr] of [['a[href]', 'href'], ['img[src]', 'src'], ['source[srcset]', 'srcset'], ['object[data]', 'data'], ['link[href]', 'href'], ['script[src]', 'src']]) {
		for (const e of document.querySelectorAll(sel)) {
			out.push({tag: e.tagName.toLowerCase(), ref: e.getAttribute(attr), text: (e.textContent || e.alt || '').trim().slice(0, 40)});
		}
	}
	return out;
})()`

const idsJS = `[...document.querySelectorAll('[id]')].map(e => e.id)`

// idAttr finds the id attributes of an HTML file (the pages' ids are
// written plainly, in double quotes).
var idAttr = regexp.MustCompile(`\sid="([^"]*)"`)

// checkRefs reports each reference of the page at page (a file of run)
// that does not resolve: a #fragment with no element of that id on the
// page (ids lists the page's), a relative path that is not a file (a
// fragment after it naming no id of that file), or a reference outside
// the files (a scheme: http:, javascript:; a page read offline and kept
// with its run links nothing else). Duplicate ids are reported too.
func checkRefs(page string, refs []pageRef, ids []string) []string {
	var bad []string
	have := map[string]bool{}
	for _, id := range ids {
		if have[id] {
			bad = append(bad, fmt.Sprintf("id %q is on two elements", id))
		}
		have[id] = true
	}
	fileIDs := map[string]map[string]bool{}
	for _, r := range refs {
		what := fmt.Sprintf("<%s> %q (%s)", r.Tag, r.Ref, r.Text)
		u, err := url.Parse(r.Ref)
		switch {
		case r.Ref == "":
			bad = append(bad, what+": empty")
			continue
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: %v", what, err))
			continue
		case u.Scheme == "data" && r.Tag == "img":
			continue
		case u.Scheme != "" || u.Host != "" || strings.HasPrefix(u.Path, "/"):
			bad = append(bad, what+": not a file of the run (an absolute URL)")
			continue
		}
		if u.Path == "" {
			if !have[u.Fragment] {
				bad = append(bad, what+": no element has that id")
			}
			continue
		}
		target := filepath.Join(filepath.Dir(page), filepath.FromSlash(u.Path))
		fi, err := os.Stat(target)
		if err != nil || !fi.Mode().IsRegular() {
			bad = append(bad, what+": no such file")
			continue
		}
		if u.Fragment == "" {
			continue
		}
		if fileIDs[target] == nil {
			fileIDs[target] = map[string]bool{}
			b, err := os.ReadFile(target)
			if err != nil {
				bad = append(bad, fmt.Sprintf("%s: %v", what, err))
				continue
			}
			for _, m := range idAttr.FindAllSubmatch(b, -1) {
				fileIDs[target][string(m[1])] = true
			}
		}
		if !fileIDs[target][u.Fragment] {
			bad = append(bad, fmt.Sprintf("%s: %s has no element with id %q", what, u.Path, u.Fragment))
		}
	}
	return bad
}

// imageState is an image of the page once it was scrolled into view and
// loaded or failed.
type imageState struct {
	Src      string `json:"src"`
	Complete bool   `json:"complete"`
	Width    int    `json:"width"`
}

// imagesJS scrolls each image matching %s that is shown into view (so
// that a lazy one loads), waits for it to load or fail (5 s at most), and
// returns its state. An image not shown (display: none at this width,
// the fallback of an object that shows) is never loaded.
const imagesJS = `(async () => {
	const out = [];
	for (const img of [...document.querySelectorAll(%q)].filter(i => i.checkVisibility())) {
		img.scrollIntoView({block: 'center'});
		if (!img.complete) {
			await new Promise(done => {
				img.addEventListener('load', done, {once: true});
				img.addEventListener('error', done, {once: true});
				setTimeout(done, 5000);
			});
		}
		out.push({src: img.getAttribute('src'), complete: img.complete, width: img.naturalWidth});
	}
	window.scrollTo(0, 0);
	return out;
})()`

// pageOverflow is the horizontal extent of the page and of its main column,
// and the elements sticking out of each.
type pageOverflow struct {
	DocScroll    int      `json:"docScroll"`
	DocClient    int      `json:"docClient"`
	Culprits     []string `json:"culprits"`
	Main         bool     `json:"main"`
	MainScroll   int      `json:"mainScroll"`
	MainClient   int      `json:"mainClient"`
	MainCulprits []string `json:"mainCulprits"`
}

// overflowJS measures overflow. A culprit of a box (the body against the
// viewport, main against its own width) is an element whose right edge
// is past the box's, with no box between them that scrolls or clips
// (overflow-x not visible), and whose parent is not one: the outermost
// first, five at most.
const overflowJS = `(() => {
	const de = document.documentElement, m = document.querySelector('main');
	const clipped = (e, box) => {
		for (let p = e.parentElement; p && p !== box; p = p.parentElement) if (getComputedStyle(p).overflowX !== 'visible') return true;
		return false;
	};
	const culprits = (box, limit) => {
		const out = [], past = e => e.getBoundingClientRect().right > limit + 0.5 && !clipped(e, box);
		for (const e of box.querySelectorAll('*')) {
			if (!past(e) || (e.parentElement !== box && past(e.parentElement))) continue;
			const r = e.getBoundingClientRect();
			const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
			out.push(name + ' ' + Math.round(r.width) + ' px wide, right edge at ' + Math.round(r.right) + ' px (limit ' + Math.round(limit) + '): ' + ((e.getAttribute('href') || e.getAttribute('src') || '') + ' ' + (e.textContent || '')).trim().slice(0, 60));
			if (out.length >= 5) break;
		}
		return out;
	};
	const mr = m ? m.getBoundingClientRect() : null, docOver = de.scrollWidth > de.clientWidth, mainOver = m && m.scrollWidth > m.clientWidth;
	return {docScroll: de.scrollWidth, docClient: de.clientWidth, culprits: docOver ? culprits(document.body, de.clientWidth) : [],
		main: !!m, mainScroll: m ? m.scrollWidth : 0, mainClient: m ? m.clientWidth : 0,
		mainCulprits: mainOver ? culprits(m, mr.left + m.clientLeft + m.clientWidth) : []};
})()`

// sortColumn is a table.sortable's column whose every body cell has a
// numeric data-v, picked for the sorting check: the first such column
// whose rows are not already in ascending order, else the first.
type sortColumn struct {
	Table  int    `json:"table"`
	Column int    `json:"column"`
	Header string `json:"header"`
	Rows   int    `json:"rows"`
}

const sortColumnsJS = `[...document.querySelectorAll('table.sortable')].map((t, ti) => {
	const rows = [...t.tBodies].flatMap(b => [...b.rows]);
	const head = t.tHead ? t.tHead.rows[t.tHead.rows.length - 1] : null;
	const ths = head ? [...head.cells] : [];
	let pick = -1;
	for (let c = 0; c < ths.length; c++) {
		const vs = rows.map(r => r.cells[c] && r.cells[c].hasAttribute('data-v') ? Number(r.cells[c].getAttribute('data-v')) : NaN);
		if (rows.length < 2 || vs.some(v => Number.isNaN(v))) continue;
		const sorted = vs.every((v, i) => i === 0 || vs[i - 1] <= v);
		if (pick < 0 || !sorted) pick = c;
		if (!sorted) break;
	}
	const th = pick >= 0 ? ths[pick] : null;
	return {table: ti, column: pick, header: th ? th.textContent.trim() : '', rows: rows.length};
})`

// sortState is a table's column after a click on its header.
type sortState struct {
	Values   []float64 `json:"values"`
	AriaSort string    `json:"ariaSort"`
	Rows     []string  `json:"rows"`
}

// sortStateJS reads table %d's column %d: its data-v values top to
// bottom, its header's aria-sort, and the rows' texts (sorted, to compare
// as a set).
const sortStateJS = `(() => {
	const t = document.querySelectorAll('table.sortable')[%d], c = %d;
	const rows = [...t.tBodies].flatMap(b => [...b.rows]);
	const head = t.tHead.rows[t.tHead.rows.length - 1];
	return {values: rows.map(r => Number(r.cells[c].getAttribute('data-v'))), ariaSort: head.cells[c].getAttribute('aria-sort') || '',
		rows: rows.map(r => r.textContent).sort()};
})()`

// markJS puts the attribute data-test-click on the element the
// expression %s gives, for a click through chromedp (a real mouse event)
// on it, opening the <details> it is in and scrolling it into view, and
// says whether it is shown. It waits two frames after the scroll: the
// content it brings into view (a lazy image, an entry under
// content-visibility: auto) is laid out then and may move it, and a
// click at where it was lands on something else.
const markJS = `(async () => {
	for (const e of document.querySelectorAll('[data-test-click]')) e.removeAttribute('data-test-click');
	const e = %s;
	if (!e) return false;
	for (let d = e.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
	e.setAttribute('data-test-click', '');
	for (let i = 0; i < 3; i++) {
		e.scrollIntoView({block: 'center'});
		await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
	}
	return e.checkVisibility();
})()`

// puzzleLinksJS lists the distinct targets of the visible puzzle links,
// on the page (#p-…) or on another (puzzles.html#p-…), as written (a
// link inside a closed <details> cannot be clicked: it has a box, but
// content-visibility hides it, and a click there lands on what is drawn).
const puzzleLinksJS = `[...new Set([...document.querySelectorAll('a[href*="#p-"]')].filter(a => a.checkVisibility()).map(a => a.getAttribute('href')))]`

// jumpState is where an element is after a jump to it, and the page's
// height then and once what came into view has loaded.
type jumpState struct {
	Found    bool    `json:"found"`
	Height1  float64 `json:"h1"`
	Height2  float64 `json:"h2"`
	Top1     float64 `json:"top1"`
	Top2     float64 `json:"top2"`
	Bottom2  float64 `json:"bottom2"`
	Viewport float64 `json:"viewport"`
}

// jumpJS reads, on a page loaded at the fragment #%s, the element's place
// and the page's height two frames after the load, then again once the
// images in view are decoded and two more frames are drawn (an image
// without its size, or content laid out only in view, would move it).
const jumpJS = `(async () => {
	const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
	await frames();
	const e = document.getElementById(%q);
	if (!e) return {found: false};
	const de = document.documentElement, r1 = e.getBoundingClientRect(), h1 = de.scrollHeight;
	const inView = [...document.images].filter(i => { const r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; });
	await Promise.all(inView.map(i => i.decode().catch(() => {})));
	await frames();
	await frames();
	const r2 = e.getBoundingClientRect();
	return {found: true, h1: h1, h2: de.scrollHeight, top1: r1.top, top2: r2.top, bottom2: r2.bottom, viewport: innerHeight};
})()`

// growersJS lists what can grow a page once it is shown:
// an element laid out only when in view (content-visibility: auto) and
// an image with no width and height (its box is empty until it loads);
// a dozen at most.
const growersJS = `(() => {
	const out = [];
	for (const e of document.querySelectorAll('body *')) {
		if (out.length >= 12) break;
		const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (typeof e.className === 'string' && e.className.trim() ? '.' + e.className.trim().split(/\s+/).join('.') : '');
		if (getComputedStyle(e).contentVisibility === 'auto') out.push(name + ': content-visibility: auto');
		else if (e.tagName === 'IMG' && !(e.hasAttribute('width') && e.hasAttribute('height'))) out.push(name + ' ' + e.getAttribute('src') + ': no width and height');
	}
	return out;
})()`

// heightJS is the page's height.
const heightJS = `document.documentElement.scrollHeight`

// landing is where a click on a puzzle link went.
type landing struct {
	Hash     string  `json:"hash"`
	Found    bool    `json:"found"`
	Shown    bool    `json:"shown"`
	Top      float64 `json:"top"`
	Bottom   float64 `json:"bottom"`
	Viewport float64 `json:"viewport"`
}

const landingJS = `(() => {
	const e = document.getElementById(decodeURIComponent(location.hash.slice(1)));
	const r = e ? e.getBoundingClientRect() : null;
	return {hash: location.hash, found: !!e, shown: !!e && e.checkVisibility(), top: r ? r.top : 0, bottom: r ? r.bottom : 0, viewport: innerHeight};
})()`

// unlinkedPuzzlesJS lists the texts naming a puzzle (#ID, FILE#ID) that
// are not inside a link, with the element holding them; code, pre
// (the command line, a grid) are left out, and so is the puzzle's own
// element (an id p-...), which names the puzzle it is.
const unlinkedPuzzlesJS = `(() => {
	const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n && out.length < 8; n = walk.nextNode()) {
		const e = n.parentElement;
		if (!/(^|[\s(,;:])[\w.\/-]*#\d+\b/.test(n.data) || e.closest('a, code, pre, script, style, title, [id^="p-"]')) continue;
		out.push(e.tagName.toLowerCase() + ': ' + e.textContent.trim().slice(0, 60));
	}
	return out;
})()`

// sortableRowsJS reads the rows of each table.sortable, top to bottom, as
// their cells' texts.
const sortableRowsJS = `[...document.querySelectorAll('table.sortable')].map(t =>
	[...t.tBodies].flatMap(b => [...b.rows]).map(r => [...r.cells].map(c => c.textContent.trim()).join(' | ')))`
