package history

import (
	_ "embed"
	"html/template"
	"sync"
)

//go:embed page.tmpl
var pageSource string

// pageTemplate is the history page (html/template escapes every text
// for its context), parsed when first needed: not in every process.
// Its href is safe as it is: pageHref escapes every segment, and its
// only scheme is file: (html/template would refuse that one).
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"href": func(path string) template.URL { return template.URL(pageHref(path)) },
		"css":  func(s string) template.CSS { return template.CSS(s) }, // a color of hexColor
	}).Parse(pageSource))
})
