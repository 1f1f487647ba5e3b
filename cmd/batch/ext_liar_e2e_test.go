package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExternalSelfTimeThatLiesIsNotTaken: a solver whose answers are
// right but take milliseconds, and that reports ns=1 for each, is not
// ranked by the times it reported (it was: 1.00ns, faster than every
// built-in strategy) but by its round trips less the null, and the
// summary says why.
func TestExternalSelfTimeThatLiesIsNotTaken(t *testing.T) {
	needsBinary(t)
	tmp := t.TempDir()
	p0 := "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
	s0 := "693784512487512936125963874932651487568247391741398625319475268856129743274836159"
	os.WriteFile(filepath.Join(tmp, "c.txt"), []byte(strings.Repeat(p0+"\n", 6)), 0o644)
	// Each answer waits for a sleep of 2 ms (a process started), then
	// claims 1 ns.
	liar := "liar=sh -c 'read l; echo solver liar 1 ns; while read n v id g; do sleep 0.002; echo \"$n solved " + s0 + " ns=1\"; done'"
	r := batch(t, tmp, "-solvers", "bitboard,liar", "-ext", liar, "-timeout", "5s", "-out", "run", "c.txt")
	mustOK(t, r)
	if text := strings.Join(strings.Fields(r.stdout), " "); !strings.Contains(text, "liar: ranked by the round trip less the null round trip, not by the times it reported: the median time it reported (1.00ns) is under a 10th of its median round trip less the null") {
		t.Errorf("stdout does not say why liar's times are not taken:\n%s", r.stdout)
	}
	b, err := os.ReadFile(filepath.Join(tmp, "run", "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Strategies []struct {
			Solver string `json:"solver"`
			Basis  string `json:"time_basis"`
			TimeNS struct {
				Median struct{ Value float64 } `json:"median"`
			} `json:"time_ns"`
		} `json:"strategies"`
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	for _, s := range sum.Strategies {
		if s.Solver == "liar" && (s.Basis != "round trip less null" || s.TimeNS.Median.Value < 1e6) {
			t.Errorf("liar ranked by %q, median %g ns: want its round trips less the null, over 1 ms", s.Basis, s.TimeNS.Median.Value)
		}
	}
}
