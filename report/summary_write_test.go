package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sudokubatch/rundir"
)

var benchLine = regexp.MustCompile(`^BenchmarkSolve/\S+ [1-9][0-9]* [0-9]+ ns/puzzle [0-9]+(\.[0-9]+)? calls/puzzle [0-9]+(\.[0-9]+)? guesses/puzzle$`)
var benchUnit = regexp.MustCompile(`^Unit \S+ [a-z]+=\S+$`)
var benchConfig = regexp.MustCompile(`^[a-z][^\sA-Z:]*: \S.*$`)

func TestWriteBench(t *testing.T) {
	for _, tt := range []struct {
		name    string
		opt     SummaryOptions
		lines   int
		configs int
	}{
		{"with run info", miniOptions(t), 3, 4},
		{"without", SummaryOptions{}, 3, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := loadMini(t, tt.opt)
			var b bytes.Buffer
			if err := s.WriteBench(&b); err != nil {
				t.Fatal(err)
			}
			var lines, configs int
			for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
				switch {
				case strings.HasPrefix(l, "Benchmark"):
					if !benchLine.MatchString(l) {
						t.Errorf("not a benchmark line: %q", l)
					}
					lines++
				case strings.HasPrefix(l, "Unit "):
					if !benchUnit.MatchString(l) {
						t.Errorf("not a unit line: %q", l)
					}
				case strings.HasPrefix(l, "# "):
				case benchConfig.MatchString(l):
					configs++
				default:
					t.Errorf("line %q is neither a benchmark, a config nor a comment", l)
				}
			}
			if lines != tt.lines || configs != tt.configs {
				t.Errorf("%d benchmark lines and %d config lines, want %d and %d:\n%s", lines, configs, tt.lines, tt.configs, b.String())
			}
		})
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		f    func(float64) string
		in   float64
		want string
	}{
		{fmtNS, 850, "850ns"},
		{fmtNS, 12.5, "12.5ns"},
		{fmtNS, 36675, "36.7µs"},
		{fmtNS, 999.6e3, "1.00ms"},
		{fmtNS, 1128458, "1.13ms"},
		{fmtNS, 101393387, "101ms"},
		{fmtNS, 12.34e9, "12.3s"},
		{fmtNS, 0, "0ns"},
		{fmtCount, 1, "1"},
		{fmtCount, 999, "999"},
		{fmtCount, 1000, "1.00k"},
		{fmtCount, 6.7, "6.70"},
		{fmtCount, 10739712, "10.7M"},
		{fmtCount, 69175316, "69.2M"},
		{fmtSig3, 0.5, "0.500"},
		{fmtSig3, 0.0892, "0.0892"},
		{fmtSig3, 530, "530"},
		{fmtSig3, 18436.2, "18.4k"},
		{fmtSig3, 999.95, "1.00k"},
		{fmtMultiple, 1, "×1.00"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.in); got != tt.want {
			t.Errorf("format(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := fmtEstimate(Estimate{2e6, BoundLower}, fmtNS); got != "≥2.00ms" {
		t.Errorf("lower bound: %q", got)
	}
}

func TestWriteSummaryFilesError(t *testing.T) {
	s := loadMini(t, SummaryOptions{})
	dir := filepath.Join(t.TempDir(), "missing")
	if err := WriteSummaryFiles(dir, s); err == nil {
		t.Fatal("no error writing into a missing directory")
	}
	// A file that exists is replaced in full.
	dir = t.TempDir()
	path := filepath.Join(dir, rundir.SummaryMarkdown)
	if err := os.WriteFile(path, []byte(strings.Repeat("old\n", 10000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteSummaryFiles(dir, s); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if strings.Contains(string(got), "old\n") || !strings.HasPrefix(string(got), "# Summary of testdata/mini.txt") {
		t.Errorf("summary.md not replaced:\n%.200s", got)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("summary.md mode %v (%v), want 0644", fi.Mode(), err)
	}
}

func ExampleSummary_WriteText() {
	const in = `id,line,solver,status,ns,calls,guesses,backtracks,filled,clues,solutions,seed,solution,error,corpus
0,1,backtrack,timeout,101393387,10739712,5369869,5369843,27,17,,1,,deadline passed,sudoku17.txt
0,1,norvig,solved,36675,1,0,0,64,17,,1,,,sudoku17.txt
1,2,backtrack,solved,2893000,301277,150650,150626,64,17,,1,,,sudoku17.txt
1,2,norvig,solved,61000,7,6,3,64,17,,1,,,sudoku17.txt
`
	res, err := ReadResults(context.Background(), strings.NewReader(in), "results.csv")
	if err != nil {
		panic(err)
	}
	Summarize(res, SummaryOptions{}).WriteText(os.Stdout)
	// Output:
	// sudoku17.txt: 2 puzzles, 2 strategies, 4 rows
	//
	//                   backtrack  norvig
	//   puzzles                 2       2
	//   solved                  1       2
	//   timeout                 1       0
	//   puzzles/s/core      ≤19.2   20.5k
	//   time mean         ≥52.1ms  48.8µs
	//   time median        2.89ms  36.7µs
	//   time p90           ≥101ms  61.0µs
	//   time p99           ≥101ms  61.0µs
	//   time max           ≥101ms  61.0µs
	//   time max at            #0      #1
	//   calls mean         ≥5.52M    4.00
	//   calls median         301k       1
	//   calls p90          ≥10.7M       7
	//   calls p99          ≥10.7M       7
	//   calls max          ≥10.7M       7
	//   calls max at           #0      #1
	//   no guess             0.0%   50.0%
	//   guesses/puzzle     ≥2.76M    3.00
	//
	// ≥: lower bound, ≤: upper bound: 1 unit stopped by a limit enters at its stopping value.
}
