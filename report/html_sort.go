package report

import (
	_ "embed"
	"html/template"
)

// sortableJS makes every table.sortable of a page sort by a click on a
// column's header: a few lines inside the page, no network, file://.
//
//go:embed sortable.js
var sortableJS string

// sortFuncs gives the page templates sortScript, the script to put in a
// <script> element.
var sortFuncs = template.FuncMap{"sortScript": func() template.JS { return template.JS(sortableJS) }}
