package history

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"path/filepath"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

//go:embed page.tmpl
var pageSource string

// pageTemplate is the history page. html/template escapes every text
// (run names, why texts, notes) for its context.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	// href is safe as it is: pageHref escapes every segment, and its
	// only scheme is file: (html/template would refuse that one).
	"href": func(path string) template.URL { return template.URL(pageHref(path)) },
	"css":  func(s string) template.CSS { return template.CSS(s) }, // a color of hexColor
}).Parse(pageSource))

// pageData is what the page template reads.
type pageData struct {
	Summary  string
	MD, JSON string
	Series   []*seriesView
	Skipped  []Skipped
}

// WriteFiles writes trend's files for the history h under root, given
// one report per series of h (in the order of h.Series; nil for a series
// whose detectors could not run):
//
//  1. root/ChartDir/<series>-<measure>.png and .svg: per series the
//     median time (with its 95% interval as a band), the p99 time, the
//     total calls and the timeouts per night, each strategy in its color,
//     steps and alarms marked;
//  2. root/TrendMD: per series the verdict table of the newest night,
//     its alarms (with their moved puzzles and bisect scripts), the steps,
//     the notes, the newest nights; then the runs skipped;
//  3. root/TrendJSON: the same for programs (TrendFile);
//  4. root/PageFile: the history page, which shows the charts and links
//     each night's own page.
//
// Each file is written atomically (a temporary file renamed). A chart
// that cannot be drawn is left out of the page and named in the error;
// the other files are still written. WriteFiles returns the paths of the
// files written (root joined with their names), charts first.
func WriteFiles(root string, h *History, reports []*Report) (written []string, err error) {
	if h == nil {
		return nil, errors.New("writing trend files: no history")
	}
	if len(reports) > len(h.Series) {
		return nil, fmt.Errorf("writing trend files: %d reports for %d series", len(reports), len(h.Series))
	}
	var errs []error
	charts := make([][]TrendChart, len(h.Series))
	for i, s := range h.Series {
		if len(s.Nights) == 0 {
			return written, fmt.Errorf("writing trend files: series %s has no night", s.ID)
		}
		var r *Report
		if i < len(reports) {
			r = reports[i]
		}
		cs, err := writeCharts(root, s, r)
		for _, c := range cs {
			written = append(written, filepath.Join(root, filepath.FromSlash(c.PNG)), filepath.Join(root, filepath.FromSlash(c.SVG)))
		}
		charts[i] = cs
		if err != nil {
			errs = append(errs, err)
		}
	}
	views := buildViews(root, h, reports, charts)

	write := func(name string, b []byte) {
		path := filepath.Join(root, name)
		if err := rundir.WriteFile(path, b); err != nil {
			errs = append(errs, err)
			return
		}
		written = append(written, path)
	}
	write(TrendMD, writeMarkdown(h, views))
	if b, err := encodeTrendFile(trendFile(h, reports, views)); err != nil {
		errs = append(errs, err)
	} else {
		write(TrendJSON, b)
	}
	if b, err := renderPage(h, views); err != nil {
		errs = append(errs, err)
	} else {
		write(PageFile, b)
	}
	return written, errors.Join(errs...)
}

// renderPage renders the history page.
func renderPage(h *History, views []*seriesView) ([]byte, error) {
	d := pageData{
		Summary: fmt.Sprintf("%s, %s skipped.", report.Count(len(h.Series), "series", "series"), report.Count(len(h.Skipped), "run", "runs")),
		MD:      TrendMD, JSON: TrendJSON, Series: views, Skipped: h.Skipped,
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("writing the history page: %w", err)
	}
	return b.Bytes(), nil
}
