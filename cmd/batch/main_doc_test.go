package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestPackageDocListsEverySubcommand: the doc comment of main.go lists
// each command of the table, one line each, in the table's order, and no
// other.
func TestPackageDocListsEverySubcommand(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if strings.HasPrefix(line, "\t") {
			listed = append(listed, strings.Fields(line)[0])
		}
	}
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if strings.Join(listed, " ") != strings.Join(names, " ") {
		t.Errorf("the package doc lists %q, the table of commands %q", listed, names)
	}
}
