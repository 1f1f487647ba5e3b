package report

import (
	_ "embed"
	"html/template"
	"io"
	"sync"

	"sudokubatch/rundir"
)

// ChartsPageFile is the page of a run's charts full size, each with its
// whole caption, beside index.html: the run page shows thumbnails that
// link to it.
const ChartsPageFile = rundir.ChartsPage

//go:embed html_charts.tmpl
var chartsTemplate string

var chartsTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("charts").Parse(chartsTemplate))
})

// renderChartsPage writes the charts page of p's charts.
func renderChartsPage(w io.Writer, p *page) error {
	return chartsTmpl().Execute(w, struct {
		Title, Back string
		Charts      []pageChart
	}{p.Title, "index.html#charts", p.Charts})
}
