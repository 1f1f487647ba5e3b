package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chromedp/chromedp"
)

// checkColumnsInView loads the page at path width px wide and checks
// that the header cells of the first table matching sel whose text
// begins with each of heads are shown within the viewport and within
// the table's scrolling box as the page opens: a reader on a phone sees
// those columns without a sideways swipe.
func checkColumnsInView(t checker, browser context.Context, path string, width int64, sel string, heads []string) {
	t.Helper()
	ctx, _ := browserTab(t, browser)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900), chromedp.Navigate(fileURL(t, path))); err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	b, err := json.Marshal(heads)
	if err != nil {
		t.Fatalf("%v", err)
	}
	out := evalJS[[]string](t, ctx, fmt.Sprintf(columnsInViewJS, sel, b))
	for _, bad := range out {
		t.Errorf("%s at %d px, table %s: %s", path, width, sel, bad)
	}
}

// columnsInViewJS returns what is wrong with the header cells named
// (%[2]s) of the table %[1]q: missing, hidden, or past the right edge of
// the viewport or of the table's scrolling box.
const columnsInViewJS = `(() => {
	const table = document.querySelector(%[1]q), out = [];
	if (!table) return ["no such table"];
	const box = table.closest('.scroll') || table.parentElement, edge = Math.min(innerWidth, box.getBoundingClientRect().right) + 0.5;
	const ths = [...table.querySelectorAll('thead th')];
	for (const name of %[2]s) {
		const th = ths.find(th => th.textContent.replace(/\s+/g, ' ').trim().startsWith(name));
		if (!th) { out.push('no column ' + JSON.stringify(name)); continue; }
		const r = th.getBoundingClientRect();
		if (r.width === 0 || getComputedStyle(th).display === 'none') out.push('column ' + JSON.stringify(name) + ' hidden');
		else if (r.right > edge) out.push('column ' + JSON.stringify(name) + ' ends at ' + Math.round(r.right) + ' px, past ' + Math.round(edge) + ' px: a sideways swipe away');
	}
	return out;
})()`
