package rundir

import "testing"

// TestEscapeFormulaRoundTripsShortStrings checks EscapeFormula and UnescapeFormula on
// every string of up to five bytes over the bytes that matter: the
// unescape of the escape is the string, an escaped string starts with a
// quote and does not run as a formula, and UnescapeFormula changes only
// escaped strings.
func TestEscapeFormulaRoundTripsShortStrings(t *testing.T) {
	alphabet := "'=+-@\t\ra"
	level := []string{""}
	for n := 0; n <= 5; n++ {
		var next []string
		for _, s := range level {
			e := EscapeFormula(s)
			if UnescapeFormula(e) != s {
				t.Fatalf("UnescapeFormula(EscapeFormula(%q) = %q) = %q", s, e, UnescapeFormula(e))
			}
			if e != s && (e != "'"+s || !isFormula(s)) {
				t.Fatalf("EscapeFormula(%q) = %q", s, e)
			}
			if runsAsFormula(e) {
				t.Fatalf("EscapeFormula(%q) = %q runs as a formula", s, e)
			}
			if u := UnescapeFormula(s); u != s && EscapeFormula(u) != s {
				t.Fatalf("UnescapeFormula(%q) = %q, which EscapeFormula does not give back", s, u)
			}
			for _, c := range []byte(alphabet) {
				next = append(next, s+string(c))
			}
		}
		level = next
	}
}
