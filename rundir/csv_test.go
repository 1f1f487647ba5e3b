package rundir

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"sudokubatch/solvers"
)

// FuzzReader feeds arbitrary bytes to the results.csv reader: it must
// return rows or errors (wrapping ErrBadRow for bad rows), never panic,
// and a row it accepts must survive a write and a read unchanged.
func FuzzReader(f *testing.F) {
	head := strings.Join(Header, ",") + "\n"
	f.Add([]byte(head + "0,1,norvig,solved,1000,1,0,0,64,17,,1,693,,c.txt\n"))
	f.Add([]byte(head + `3,4,dlx,invalid,0,0,0,0,0,0,,9,,"x.txt:4: bad ""symbol""",c.txt` + "\n"))
	f.Add([]byte(head + "1,2,a,timeout,5,6,7,8,9,10,2,11,,,\n1,2\n"))
	f.Add([]byte("id,line\n1,2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data), "f.csv")
		if err != nil {
			return
		}
		for rd.Scan() {
			r, err := rd.Row()
			if err != nil {
				var re *RowError
				if !errors.Is(err, ErrBadRow) || !errors.As(err, &re) || re.Line != rd.Line() {
					t.Fatalf("error %v is not a *RowError at line %d wrapping ErrBadRow", err, rd.Line())
				}
				continue
			}
			row := *r
			var buf bytes.Buffer
			w := NewWriter(&buf)
			w.WriteHeader()
			w.Write(&row)
			w.Flush()
			rd2, err := NewReader(&buf, "again.csv")
			if err != nil {
				t.Fatal(err)
			}
			if !rd2.Scan() {
				t.Fatalf("row %+v written as %q does not read back: %v", row, buf.String(), rd2.Err())
			}
			back, err := rd2.Row()
			if err != nil {
				t.Fatalf("row %+v written as %q does not read back: %v", row, buf.String(), err)
			}
			// Line breaks in messages become spaces when written.
			row.Error = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(row.Error)
			row.Corpus = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(row.Corpus)
			row.Solution = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(row.Solution)
			row.Solver = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(row.Solver)
			if *back != row {
				t.Fatalf("round trip changed the row:\n%+v\n%+v", row, back)
			}
		}
	})
}

// TestWriterRoundTrip writes rows whose corpus and seed change, repeat and
// come back (the writer encodes each once per change) and reads them back.
func TestWriterRoundTrip(t *testing.T) {
	var rows []Row
	for i, c := range []struct {
		corpus string
		seed   uint64
	}{{"", 0}, {"", 0}, {"a.txt", 0}, {"a.txt", 7}, {"a.txt", 7}, {"b, c.txt", 7}, {"a.txt", 18446744073709551615}, {"", 7}, {"a.txt", 0}} {
		rows = append(rows, Row{ID: i, Line: i + 1, Solver: "dlx", Status: solvers.StatusSolved, NS: int64(i), Calls: 1,
			Clues: 17, Solutions: -1, Seed: c.seed, Corpus: c.corpus})
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.WriteHeader()
	for i := range rows {
		w.Write(&rows[i])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rd, err := NewReader(&buf, "rt.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range rows {
		if !rd.Scan() {
			t.Fatalf("row %d: no more rows (%v)", i, rd.Err())
		}
		got, err := rd.Row()
		if err != nil || *got != want {
			t.Fatalf("row %d: %+v, %v; want %+v", i, got, err, want)
		}
	}
	if rd.Scan() || rd.Err() != nil {
		t.Fatalf("a row after the last, or an error: %v", rd.Err())
	}
}

// TestReaderBadLinesAreValues reads a file whose second and fourth lines
// are not rows: each is a *RowError naming its line, and the rows after
// them are read.
func TestReaderBadLinesAreValues(t *testing.T) {
	head := strings.Join(Header, ",") + "\n"
	good := "0,1,norvig,solved,1000,1,0,0,64,17,,1,,,c.txt,1,1000,1000,,0,\n"
	data := head + good + "1,2,norvig,solved,x,1,0,0,64,17,,1,,,c.txt,1,1000,1000,,0,\n" + good + "2,3,a\"b,solved\n" + good
	rd, err := NewReader(strings.NewReader(data), "r.csv")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rd.Scan() {
		if _, err := rd.Row(); err != nil {
			got = append(got, err.Error())
		} else {
			got = append(got, fmt.Sprintf("row at %d", rd.Line()))
		}
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
	want := []string{"row at 2", `r.csv:3: bad row: ns "x" is not an integer`, "row at 4", "r.csv:5: bad row:", "row at 6"}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("line %d: %q, want %q...", i+2, got[i], want[i])
		}
	}
}

// TestNeedsQuotes compares needsQuotes, which skips eight bytes at a time
// while none is below '-', with a plain scan, on strings with a special
// byte (or a space, or a byte above 0x7f) at every position.
func TestNeedsQuotes(t *testing.T) {
	plain := func(s string) bool {
		return strings.HasPrefix(s, " ") || strings.ContainsAny(s, ",\"\r\n")
	}
	base := strings.Repeat("123456789", 4)
	for n := 0; n <= len(base); n++ {
		for i := 0; i < n; i++ {
			for _, c := range []byte{',', '"', '\r', '\n', ' ', '-', '.', 0x2c ^ 0x80, 0xff, 0} {
				b := []byte(base[:n])
				b[i] = c
				s := string(b)
				if got, want := needsQuotes(s), plain(s); got != want {
					t.Fatalf("needsQuotes(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
	if needsQuotes(base) || !needsQuotes(base+",") {
		t.Fatal("needsQuotes misjudges a plain grid and one with a comma at the end")
	}
}

// TestAppendInt compares appendUint and appendInt with strconv on every
// power of ten and its neighbours, on numbers of every length with random
// digits, and on the ends of the ranges.
func TestAppendInt(t *testing.T) {
	check := func(v uint64) {
		t.Helper()
		prefix := []byte("x,")
		if got, want := string(appendUint(prefix, v)), "x,"+strconv.FormatUint(v, 10); got != want {
			t.Fatalf("appendUint(%d) = %q, want %q", v, got, want)
		}
		if i := int64(v); i >= 0 {
			if got, want := string(appendInt(nil, i)), strconv.FormatInt(i, 10); got != want {
				t.Fatalf("appendInt(%d) = %q, want %q", i, got, want)
			}
			if got, want := string(appendInt(nil, -i)), strconv.FormatInt(-i, 10); got != want {
				t.Fatalf("appendInt(%d) = %q, want %q", -i, got, want)
			}
		}
	}
	p := uint64(1)
	for range 20 { // 1 to 10^19
		for _, d := range []int64{-2, -1, 0, 1, 2} {
			check(p + uint64(d)) // wraps around 0 for 1-2
		}
		p *= 10
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		check(rng.Uint64() >> rng.IntN(64))
	}
	for v := range uint64(20000) {
		check(v)
	}
	check(math.MaxUint64)
	check(math.MaxInt64)
	if got := string(appendInt(nil, math.MinInt64)); got != strconv.FormatInt(math.MinInt64, 10) {
		t.Fatalf("appendInt(MinInt64) = %q", got)
	}
}

// TestDigits: digits reads every string of 1 to 20 decimal digits as
// strconv.ParseUint does, refusing those beyond 64 bits, and refuses
// what is not only digits, or more than 20 of them, for strconv to judge.
func TestDigits(t *testing.T) {
	check := func(s string) {
		t.Helper()
		v, ok := digits(s)
		want, err := strconv.ParseUint(s, 10, 64)
		plain := len(s) > 0 && len(s) <= 20 && strings.Trim(s, "0123456789") == ""
		switch {
		case ok && (err != nil || v != want):
			t.Fatalf("digits(%q) = %d, want %d (%v)", s, v, want, err)
		case !ok && plain && err == nil:
			t.Fatalf("digits(%q) refused, want %d", s, want)
		}
	}
	p := uint64(1)
	for range 20 {
		for _, d := range []int64{-2, -1, 0, 1, 2} {
			check(strconv.FormatUint(p+uint64(d), 10))
		}
		p *= 10
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		check(strconv.FormatUint(rng.Uint64()>>rng.IntN(64), 10))
	}
	for _, s := range []string{"", "0", "00000000000000000001", "18446744073709551615", "18446744073709551616",
		"18446744073709551619", "18446744073709551620", "19999999999999999999", "99999999999999999999",
		"100000000000000000000", "+1", "-1", "1a", " 1"} {
		check(s)
	}
}
