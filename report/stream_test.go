package report

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// writeRandomRun writes a results.csv of n puzzles in run order, with
// ties, zeros, stopped and unmeasured units, over corpora corpus files,
// and returns its path.
func writeRandomRun(t testing.TB, dir string, seed uint64, n, corpora int, names []string) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	path := filepath.Join(dir, "results.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWriter(f)
	w.WriteHeader()
	for c := range corpora {
		corpus := []string{"data/a.txt", "b,c.txt", "x/y.gz"}[c%3]
		id := 0
		for range n / corpora {
			id += 1 + rng.IntN(2)
			for si, name := range names {
				if rng.IntN(50) == 0 {
					continue // a missing unit
				}
				st := solvers.StatusSolved
				switch k := rng.IntN(100); {
				case k < 3:
					st = solvers.StatusTimeout
				case k < 5 && si == 1:
					st = solvers.StatusLimit
				case k < 6:
					st = solvers.StatusInvalid
				case k < 7:
					st = solvers.StatusError
				case k < 9:
					st = solvers.StatusUnsolvable
				}
				ns := int64(math.Exp(rng.NormFloat64()*1.5+10+float64(si))) / int64(1+rng.IntN(3))
				if rng.IntN(100) == 0 {
					ns = 0
				}
				if si == 2 {
					ns = ns / 1000 * 1000 // many ties
				}
				calls := uint64(rng.ExpFloat64() * float64(1+si*50))
				if si == 1 {
					calls = uint64(math.Exp(rng.NormFloat64()*2 + 8))
				}
				g := uint64(0)
				if rng.IntN(3) > 0 {
					g = calls / 2
				}
				row := Row{ID: id, Line: id + 1, Solver: name, Status: st, NS: ns, Calls: calls, Guesses: g,
					Backtracks: g / 2, Clues: 17, Solutions: -1, Corpus: corpus}
				if err := w.Write(&row); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return path
}

// loadBoth reads the run at path in memory and as a stream; the stream
// is closed, and must close cleanly, when the test ends.
func loadBoth(t *testing.T, path string) (*Results, *Stream) {
	t.Helper()
	res, err := LoadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenStream(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Error(err)
		}
	})
	return res, st
}

// checkStreamSummary compares the summary of the stream with Summarize
// of the same rows in memory.
func checkStreamSummary(t *testing.T, path string, order []string, opt SummaryOptions) {
	t.Helper()
	res, st := loadBoth(t, path)
	if order != nil {
		res.OrderSolvers(order)
		st.OrderSolvers(order)
	}
	want := Summarize(res, opt)
	got, err := st.Summarize(opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name  string
		write func(*Summary, *bytes.Buffer) error
	}{
		{"md", func(s *Summary, b *bytes.Buffer) error { return s.WriteMarkdown(b) }},
		{"json", func(s *Summary, b *bytes.Buffer) error { return s.WriteJSON(b) }},
		{"bench", func(s *Summary, b *bytes.Buffer) error { return s.WriteBench(b) }},
		{"hard", func(s *Summary, b *bytes.Buffer) error { return s.WriteHardCSV(b) }},
		{"text", func(s *Summary, b *bytes.Buffer) error { return s.WriteText(b) }},
	} {
		var a, b bytes.Buffer
		if err := f.write(want, &a); err != nil {
			t.Fatal(err)
		}
		if err := f.write(got, &b); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: %s differs from the in-memory summary (-memory +stream):\n%s", path, f.name, lineDiff(a.String(), b.String()))
		}
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("%s: the stream's summary differs from the in-memory one", path)
	}
}

func TestStreamSummaryMini(t *testing.T) {
	checkStreamSummary(t, filepath.Join("testdata", "mini", "results.csv"), nil, miniOptions(t))
}

func TestStreamSummaryRandom(t *testing.T) {
	for _, cap := range []int{4096, 3} {
		old := selCap
		selCap = cap
		for seed := range uint64(4) {
			dir := t.TempDir()
			n := []int{1, 7, 3000, 20000}[seed]
			path := writeRandomRun(t, dir, seed, n, 1+int(seed%3), []string{"norvig", "dlx", "bitboard"})
			checkStreamSummary(t, path, []string{"bitboard", "norvig"}, SummaryOptions{Top: 5, Highlight: []int{3, 40, 3, 1 << 40}})
		}
		selCap = old
	}
}

// TestStreamChartsAndPage compares the charts and the page drawn from a
// stream with those drawn from the same rows in memory, byte for byte.
func TestStreamChartsAndPage(t *testing.T) {
	if testing.Short() {
		t.Skip("draws several sets of charts")
	}
	cases := []struct {
		n, corpora int
		names      []string
		cap        int
	}{
		{1, 1, []string{"norvig", "bitboard"}, 4096},
		{9, 2, []string{"dlx"}, 4096},
		{2000, 1, []string{"norvig", "dlx", "bitboard"}, 4096},
		{2000, 3, []string{"dlx", "norvig", "backtrack"}, 5},
	}
	for k, c := range cases {
		old := selCap
		selCap = c.cap
		dir := t.TempDir()
		path := writeRandomRun(t, dir, uint64(10+k), c.n, c.corpora, c.names)
		res, st := loadBoth(t, path)
		opt := SummaryOptions{Top: 4, Highlight: []int{1, 3, 8}}
		copt := ChartOptions{Highlight: opt.Highlight, SVG: true, Title: "t"}
		want := Summarize(res, opt)
		got, err := st.Summarize(opt)
		if err != nil {
			t.Fatal(err)
		}
		memDir, strDir := filepath.Join(dir, "mem"), filepath.Join(dir, "str")
		memCharts, err := WriteCharts(memDir, res, copt)
		if err != nil {
			t.Fatal(err)
		}
		strCharts, err := st.WriteCharts(strDir, copt)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(memCharts, strCharts) {
			t.Errorf("case %d: charts %v, want %v", k, strCharts, memCharts)
		}
		if err := WritePage(memDir, res, want, PageOptions{Charts: memCharts}); err != nil {
			t.Fatal(err)
		}
		if err := st.WritePage(strDir, got, PageOptions{Charts: strCharts}); err != nil {
			t.Fatal(err)
		}
		files := []string{PageFile}
		for _, c := range memCharts {
			files = append(files, c.File)
			if c.SVG != "" {
				files = append(files, c.SVG)
			}
		}
		for _, f := range files {
			a, err1 := os.ReadFile(filepath.Join(memDir, f))
			b, err2 := os.ReadFile(filepath.Join(strDir, f))
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("case %d: %s differs between the stream and memory", k, f)
			}
		}
		selCap = old
	}
}

func TestStreamNotInOrder(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.csv")
	rows := strings.Join(Header, ",") + "\n" +
		"2,3,dlx,solved,10,1,0,0,81,17,,0,,,c\n" +
		"1,2,dlx,solved,10,1,0,0,81,17,,0,,,c\n"
	if err := os.WriteFile(path, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStream(path); !errors.Is(err, ErrNotStreamable) {
		t.Errorf("OpenStream of rows out of order: %v, want ErrNotStreamable", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("OpenStream left %d files, want only results.csv", len(ents))
	}
}
