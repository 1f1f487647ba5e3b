package main

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sudokubatch/report"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// pageVar names the run directory whose page TestPageLoadTime measures
// (scripts/page-size.sh sets it).
const pageVar = "SUDOKUBATCH_PAGE"

// pageLoads is how many times each page is loaded; the median is the
// figure.
const pageLoads = 5

// TestPageLoadTime measures the pages of the run directory $SUDOKUBATCH_PAGE
// (index.html, and puzzles.html and charts.html when there are): their bytes, the
// images' bytes, and the time from navigation start to the load event in
// headless Chromium, the median of pageLoads loads, each in a new tab,
// after one untimed.
// It is a measurement, not a check: it logs the figures
// (scripts/page-size.sh prints them) and fails only when it cannot
// measure.
func TestPageLoadTime(t *testing.T) {
	run := os.Getenv(pageVar)
	if run == "" {
		t.Skipf("measures the page of a run: %s=DIR (scripts/page-size.sh sets it)", pageVar)
	}
	path := findBrowser(t)
	var images, svgs int64
	var nImages, nSVGs int
	err := filepath.WalkDir(filepath.Join(run, "charts"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".svg") {
			svgs += fi.Size()
			nSVGs++
		} else {
			images += fi.Size()
			nImages++
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	t.Logf("run %s", run)
	t.Logf("charts/: %d PNG %s, %d SVG %s", nImages, kBytes(images), nSVGs, kBytes(svgs))
	browser := startBrowser(t, path)
	for _, name := range []string{"index.html", report.PuzzlesPageFile, "charts.html"} {
		page := filepath.Join(run, name)
		fi, err := os.Stat(page)
		if err != nil {
			if name == "index.html" {
				t.Fatal(err)
			}
			continue
		}
		var loads, dcls []time.Duration
		var loaded []string
		for i := range pageLoads + 1 {
			ctx, _ := browserTab(t, browser)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(fileURL(t, page))); err != nil {
				t.Fatalf("loading %s: %v", page, err)
			}
			m := evalJS[navTiming](t, ctx, navTimingJS)
			if i == 0 {
				continue // a first load, untimed: the files into the page cache
			}
			loads = append(loads, time.Duration(m.Load*float64(time.Millisecond)))
			dcls = append(dcls, time.Duration(m.DOMContentLoaded*float64(time.Millisecond)))
			loaded = m.Images
		}
		var loadedBytes int64
		for _, r := range loaded {
			u, err := url.Parse(r)
			if err != nil || u.Scheme != "file" {
				continue
			}
			if fi, err := os.Stat(filepath.FromSlash(u.Path)); err == nil {
				loadedBytes += fi.Size()
			}
		}
		t.Logf("%s: %s; load event %v median of %d (%v), DOMContentLoaded %v; by the load event %d images loaded, %s",
			name, kBytes(fi.Size()), medianDuration(loads).Round(time.Millisecond), pageLoads, roundDurations(loads), medianDuration(dcls).Round(time.Millisecond),
			len(loaded), kBytes(loadedBytes))
	}
}

// navTiming is the page's navigation timing, milliseconds from
// navigation start, and the images loaded by the load event (a lazy one
// out of view is not; the Resource Timing entries leave out file:
// URLs).
type navTiming struct {
	Load             float64  `json:"load"`
	DOMContentLoaded float64  `json:"dcl"`
	Images           []string `json:"images"`
}

const navTimingJS = `new Promise(done => {
	const read = () => {
		const n = performance.getEntriesByType('navigation')[0];
		if (!n || n.loadEventEnd === 0) return setTimeout(read, 10);
		done({load: n.loadEventEnd - n.startTime, dcl: n.domContentLoadedEventEnd - n.startTime,
			images: [...document.images].filter(i => i.complete && i.naturalWidth > 0).map(i => i.src)});
	};
	read();
})`

func medianDuration(ds []time.Duration) time.Duration {
	s := slices.Sorted(slices.Values(ds))
	return s[len(s)/2]
}

func roundDurations(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

func kBytes(n int64) string { return fmt.Sprintf("%d bytes (%.1f kB)", n, float64(n)/1000) }
