package report

import "strings"

// ShortRevision is a revision cut to its first 7 hex digits, "+" after them
// for a build of a tree with changes ("+dirty"); what follows the hash
// (" (checkout)") is left out. A revision that is no hash ("unknown",
// "(devel)") is kept.
func ShortRevision(rev string) string {
	hex := len(rev) - len(strings.TrimLeft(rev, "0123456789abcdef"))
	if hex >= 7 {
		h := rev[:7]
		if strings.Contains(rev[hex:], "dirty") {
			h += "+"
		}
		return h
	}
	if rev == "" {
		return "unknown"
	}
	return rev
}
