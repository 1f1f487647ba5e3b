package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Sizes the house keeps (docs/DESIGN.md): a file of code is at most
// maxFileLines lines and a function at most maxFuncLines, so that each
// can be read whole; cmd/batch, which only wires, at most
// maxCommandLines outside its tests.
const (
	maxFileLines    = 500
	maxFuncLines    = 100
	maxCommandLines = 1600
)

// TestSizes checks the sizes over every Go file of the repository but
// the tests.
func TestSizes(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	command := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "results") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		lines := strings.Count(string(src), "\n")
		if lines > maxFileLines {
			t.Errorf("%s: %d lines, more than %d: split it along what it does", rel, lines, maxFileLines)
		}
		if filepath.Dir(rel) == filepath.Join("cmd", "batch") {
			command += lines
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
			if n > maxFuncLines {
				t.Errorf("%s: func %s: %d lines, more than %d", rel, fn.Name.Name, n, maxFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if command > maxCommandLines {
		t.Errorf("cmd/batch: %d lines outside its tests, more than %d: what is not flags and wiring belongs in a package", command, maxCommandLines)
	}
}
