package external

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sudokubatch/solvers"
)

// Version is the version of docs/PROTOCOL.md that the tool speaks: the
// handshake's first line is "sudokubatch 2".
const Version = 2

var protocolLine = fmt.Sprintf("sudokubatch %d\n", Version)

// hello is what a program said in its handshake (sanitized: valid UTF-8,
// no control characters).
type hello struct {
	name, version string
	caps          []string
	count, ns     bool
	calls         bool     // it reports calls, and is sent max_calls
	counters      []string // the counters it reports, of calls, guesses, backtracks
	sizes         [17]bool // by side
}

// parseHello parses "solver NAME VERSION [CAPABILITY ...]".
func parseHello(line []byte) (hello, error) {
	f := strings.Fields(Sanitize(line))
	if len(f) < 3 || f[0] != "solver" {
		hint := ""
		if bytes.HasPrefix(line, []byte("sudokubatch")) || len(f) == 0 {
			hint = fmt.Sprintf(" (this batch speaks protocol %d)", Version)
		}
		return hello{}, fmt.Errorf("the handshake is %s, want \"solver NAME VERSION [CAPABILITY ...]\"%s (docs/PROTOCOL.md)", quote(line), hint)
	}
	h := hello{name: f[1], version: f[2], caps: f[3:]}
	h.sizes[9] = true
	for _, c := range h.caps {
		switch {
		case c == "count":
			h.count = true
		case c == "ns":
			h.ns = true
		case c == "calls" || c == "guesses" || c == "backtracks":
			h.calls = h.calls || c == "calls"
			h.counters = append(h.counters, c)
		case strings.HasPrefix(c, "sizes="):
			h.sizes = [17]bool{}
			for _, v := range strings.Split(strings.TrimPrefix(c, "sizes="), ",") {
				switch v {
				case "4", "9", "16":
					n, _ := strconv.Atoi(v)
					h.sizes[n] = true
				default:
					return hello{}, fmt.Errorf("the handshake's %s: want sides 4, 9 or 16, e.g. sizes=9 or sizes=4,9,16", c)
				}
			}
		}
	}
	return h, nil
}

// request is what a request asks, for checking its answer.
type request struct {
	n        uint64 // its number: the answer starts with it
	count    bool   // a count request
	maxCalls uint64 // max_calls sent, 0 for none
}

// appendRequest appends the request line "N solve|count ID GRID
// [max_calls=M]" to b.
func appendRequest(b []byte, rq request, id int, p *solvers.Puzzle) []byte {
	b = strconv.AppendUint(b, rq.n, 10)
	if rq.count {
		b = append(b, " count "...)
	} else {
		b = append(b, " solve "...)
	}
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, ' ')
	for _, v := range p.Cells[:p.Len()] {
		b = append(b, solvers.Symbol(v))
	}
	if rq.maxCalls > 0 {
		b = append(b, " max_calls="...)
		b = strconv.AppendUint(b, rq.maxCalls, 10)
	}
	return append(b, '\n')
}

// parseAnswer parses an answer line to rq about p into res. A line that
// answers an earlier request of the process is a faultLate whose n says
// which; any other line that breaks the protocol a faultProtocol.
func parseAnswer(line []byte, rq request, p *solvers.Puzzle, res *solvers.Result) error {
	protocol := func(format string, a ...any) error {
		return &fault{kind: faultProtocol, msg: fmt.Sprintf(format, a...)}
	}
	f := bytes.Fields(line)
	if len(f) < 2 {
		return protocol("the answer %s is not \"N STATUS ...\"", quote(line))
	}
	n, err := strconv.ParseUint(string(f[0]), 10, 63)
	switch {
	case err != nil:
		return protocol("the line %s is not an answer: an answer starts with the number of the request it answers, %d (docs/PROTOCOL.md)", quote(line), rq.n)
	case n < rq.n:
		return &fault{kind: faultLate, n: n, msg: fmt.Sprintf("the line %s came after its answer (a second answer to request %d)", quote(line), n)}
	case n > rq.n:
		return protocol("the line %s answers request %d, not %d: an answer starts with the number of the request it answers (docs/PROTOCOL.md)", quote(line), n, rq.n)
	}
	kv := f[2:]
	switch string(f[1]) {
	case "solved":
		if rq.count || len(f) < 3 {
			return protocol("the answer %s: want %s", quote(line), want(rq.count))
		}
		res.Status = solvers.StatusSolved
		parseSolution(f[2], p, res)
		kv = f[3:]
	case "unsolvable":
		res.Status = solvers.StatusUnsolvable
	case "limit":
		if rq.maxCalls == 0 {
			return protocol("the answer %s: limit, but the request had no max_calls", quote(line))
		}
		res.Status = solvers.StatusLimit
	case "count":
		if !rq.count || len(f) < 3 {
			return protocol("the answer %s: want %s", quote(line), want(rq.count))
		}
		c, err := strconv.Atoi(string(f[2]))
		if err != nil || c < 0 || c > 2 {
			return protocol("the answer %s: the count %q is not 0, 1 or 2", quote(line), f[2])
		}
		res.Counted, res.Count = true, c
		kv = f[3:]
		if c == 0 {
			res.Status = solvers.StatusUnsolvable
			break
		}
		res.Status = solvers.StatusSolved
		if len(kv) == 0 || bytes.IndexByte(kv[0], '=') >= 0 {
			res.Status = solvers.StatusWrong
			res.Err = fmt.Errorf("counted %d solutions and gave none", c)
			break
		}
		parseSolution(kv[0], p, res)
		kv = kv[1:]
	case "unsupported":
		res.Status = solvers.StatusUnsupported
		res.Err = errors.New("the solver: unsupported " + Sanitize(bytes.Join(f[2:], []byte(" "))))
		return nil
	case "error":
		res.Status = solvers.StatusError
		res.Err = errors.New("the solver: " + Sanitize(bytes.Join(f[2:], []byte(" "))))
		return nil
	default:
		return protocol("the answer %s: unknown status %s", quote(line), quote(f[1]))
	}
	for _, pair := range kv {
		k, v, ok := bytes.Cut(pair, []byte("="))
		if !ok {
			return protocol("the answer %s: %s is not KEY=VALUE", quote(line), quote(pair))
		}
		var dst *uint64
		var ns uint64
		switch string(k) {
		case "calls":
			dst = &res.Calls
		case "guesses":
			dst = &res.Guesses
		case "backtracks":
			dst = &res.Backtracks
		case "ns":
			dst = &ns
		default:
			continue // a key of a later version
		}
		n, err := strconv.ParseUint(string(v), 10, 63)
		if err != nil {
			return protocol("the answer %s: %s is not a non-negative integer", quote(line), quote(pair))
		}
		*dst = n
		if dst == &ns {
			res.SelfNS = max(int64(n), 1) // 0 would read as none
		}
	}
	if rq.maxCalls > 0 && res.Calls > rq.maxCalls {
		return protocol("the answer %s: calls=%d past the request's max_calls=%d (a program that counts calls stops there and answers limit)",
			quote(line), res.Calls, rq.maxCalls)
	}
	return nil
}

func want(count bool) string {
	if count {
		return "\"N count C [SOLUTION]\" to a count request"
	}
	return "\"N solved SOLUTION\" to a solve request"
}

// parseSolution reads a solution in the grid alphabet into res; one that
// is not a grid of p's size makes the answer wrong (the checker says why
// for the others).
func parseSolution(tok []byte, p *solvers.Puzzle, res *solvers.Result) {
	g := solvers.NewGrid(p.Box)
	if len(tok) != g.Len() {
		res.Status = solvers.StatusWrong
		res.Err = fmt.Errorf("wrong solution: %d characters, want %d", len(tok), g.Len())
		return
	}
	for i, c := range tok {
		var v int
		switch {
		case c >= '0' && c <= '9':
			v = int(c - '0')
		case c >= 'A' && c <= 'G':
			v = int(c-'A') + 10
		default:
			v = -1
		}
		if v < 0 || v > p.Box*p.Box {
			res.Status = solvers.StatusWrong
			res.Err = fmt.Errorf("wrong solution: character %s at cell %d", quote([]byte{c}), i)
			return
		}
		g.Cells[i] = uint8(v)
	}
	res.Solution = g
	res.Filled = p.Empty()
}

// Sanitize returns text from a program (a name, a message) as the tool
// records and prints it: bytes that are not UTF-8 become U+FFFD, as
// run.json's encoder writes them, and control characters (a terminal's
// escapes among them) are written out as \x1b, so that every file the
// tool writes is valid UTF-8 and agrees with run.json, and no program
// writes to the terminal through the tool.
func Sanitize(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		switch {
		case r == utf8.RuneError && size == 1:
			s.WriteRune(utf8.RuneError)
		case unicode.IsControl(r) && r != '\t':
			fmt.Fprintf(&s, `\x%02x`, r)
		default:
			s.WriteRune(r)
		}
	}
	return s.String()
}
