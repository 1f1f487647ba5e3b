package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

// corpusHead returns the first n lines of the default corpus.
func corpusHead(t *testing.T, n int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "data/sudoku17.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.SplitAfter(string(b), "\n")[:n], "")
}

// pageGrids returns how many puzzle grids the run's pages (its page and
// its puzzles page) show, and how many puzzles they show without one.
func pageGrids(t *testing.T, run string) (grids, without int) {
	t.Helper()
	for _, name := range []string{"index.html", "puzzles.html"} {
		page, err := os.ReadFile(filepath.Join(run, name))
		if err != nil {
			t.Fatal(err)
		}
		grids += strings.Count(string(page), `<table class="sudoku"`)
		without += strings.Count(string(page), "No grid: the corpus cannot be read here")
	}
	return grids, without
}

// The page shows the grids of the puzzles it lists when the corpus is
// the copy embedded in the binary (a binary run from a directory without
// data/), and show finds the run's puzzles there.
func TestPageShowsGridsOfEmbeddedCorpus(t *testing.T) {
	tmp := t.TempDir() // no data/ here: the default corpus is the embedded copy
	mustOK(t, batch(t, tmp, "-range", "0:20", "-solvers", "bitboard", "-out", "embedded", "-quiet"))
	if grids, without := pageGrids(t, filepath.Join(tmp, "embedded")); grids == 0 || without != 0 {
		t.Errorf("embedded corpus: the page shows %d grids and %d puzzles without one", grids, without)
	}
	// show finds the run's puzzle in the embedded copy too.
	r := batch(t, tmp, "show", "2", "-run", "embedded", "-solvers", "bitboard")
	mustOK(t, r)
	if !strings.Contains(r.stdout, "#2 of data/sudoku17.txt, line 3: 9x9, 17 clues") {
		t.Errorf("show 2 of the embedded corpus:\n%s", r.stdout)
	}
}

// The page shows the grids of a gzipped corpus's puzzles.
func TestPageShowsGridsOfGzippedCorpus(t *testing.T) {
	tmp := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(corpusHead(t, 20)))
	zw.Close()
	if err := os.WriteFile(filepath.Join(tmp, "c.txt.gz"), gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	mustOK(t, batch(t, tmp, "-solvers", "bitboard", "-out", "gzipped", "-quiet", "c.txt.gz"))
	if grids, without := pageGrids(t, filepath.Join(tmp, "gzipped")); grids == 0 || without != 0 {
		t.Errorf("gzipped corpus: the page shows %d grids and %d puzzles without one", grids, without)
	}
}

// `batch show N -run DIR` where the run read standard input finds the
// puzzle in the run's copy of it (stream-0), not in today's stdin.
func TestShowReadsTheRunsCopyOfStdin(t *testing.T) {
	tmp := t.TempDir()
	head := corpusHead(t, 10)
	mustOK(t, batchIn(t, tmp, head, "-solvers", "norvig", "-out", "run", "-quiet", "-"))
	p3 := strings.Split(head, "\n")[3]

	// Nothing on stdin now, then another puzzle: neither is read.
	for _, stdin := range []string{"", "4000300200040020\n"} {
		r := batchIn(t, tmp, stdin, "show", "3", "-run", "run", "-solvers", "norvig")
		mustOK(t, r)
		if !strings.Contains(r.stdout, "#3 of -, line 4: 9x9, 17 clues") || !strings.Contains(r.stdout, "Where #3 ranks in run run") {
			t.Errorf("stdin %q: show 3 of the run's stdin:\n%s", stdin, r.stdout)
		}
		if row := gridRow(p3[:9]); !strings.Contains(r.stdout, row) {
			t.Errorf("stdin %q: not puzzle #3 (%s):\n%s", stdin, p3, r.stdout)
		}
	}

	// Without its copy, the run's corpus is not here: said, exit 2.
	os.Remove(filepath.Join(tmp, "run", "stream-0"))
	if r := batch(t, tmp, "show", "3", "-run", "run"); r.code != 2 || !strings.Contains(r.stderr, "the corpus of run run, -, is not here") {
		t.Errorf("copy removed: exit %d, %s", r.code, r.stderr)
	}
}

// gridRow writes a row of nine digits as show draws it ('.' for 0).
func gridRow(digits string) string {
	var b strings.Builder
	for i, c := range digits {
		if i%3 == 0 {
			b.WriteString("| ")
		}
		if c == '0' {
			c = '.'
		}
		b.WriteRune(c)
		b.WriteByte(' ')
	}
	return b.String() + "|"
}

// A corpus file's hash kept in the user's cache is recorded in run.json
// only when the cache holds it whole: a cache file cut short (its size
// lost digits) or damaged (its hash not hex) is not believed, and the
// file is hashed again. run.json then records the file's size and
// SHA-256, which -resume compares with the file's.
func TestKeptCorpusHashDamagedCache(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", filepath.Join(tmp, "cache"))
	// The committed corpus (4 MB, above the size from which a hash is
	// kept), whose last change is its checkout's: settled, so its hash
	// is kept at the first run. The link is the path the cache keeps it
	// under.
	target := filepath.Join(repoRoot(t), "data/sudoku17.txt")
	if err := os.Symlink(target, filepath.Join(tmp, "c.txt")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	want := rundir.CorpusInfo{Size: int64(len(b)), SHA256: hex.EncodeToString(sum[:])}
	recorded := func(out string) rundir.CorpusInfo {
		t.Helper()
		mustOK(t, batch(t, tmp, "-limit", "1", "-solvers", "bitboard", "-report=false", "-quiet", "-out", out, "c.txt"))
		m, err := rundir.ReadManifest(filepath.Join(tmp, out))
		if err != nil {
			t.Error(err) // a run.json that no command reads
			return rundir.CorpusInfo{}
		}
		return rundir.CorpusInfo{Size: m.Corpora[0].Size, SHA256: m.Corpora[0].SHA256}
	}
	if got := recorded("first"); got != want {
		t.Fatalf("first run: run.json records %+v, want %+v", got, want)
	}
	kept, _ := filepath.Glob(filepath.Join(tmp, "cache", "sudokubatch", "corpus-*"))
	if len(kept) != 1 {
		t.Skipf("%s changed less than a few seconds ago: its hash is not kept yet (%d files kept)", target, len(kept))
	}
	good, err := os.ReadFile(kept[0])
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(string(good), "\n")
	id, _, _ := strings.Cut(line, "\t")
	for name, damaged := range map[string]string{
		"cut in its size":           line[:len(line)-3],
		"holding a hash not in hex": id + "\t" + strings.Repeat("zz", 32) + " " + strconv.Itoa(len(b)) + "\n",
		"holding another size":      id + "\t" + want.SHA256 + " 12\n",
	} {
		if err := os.WriteFile(kept[0], []byte(damaged), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := recorded(strings.ReplaceAll(name, " ", "-")); got != want {
			t.Errorf("a cache %s: run.json records %+v, want %+v", name, got, want)
		}
	}
}
