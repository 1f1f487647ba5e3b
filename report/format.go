package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sudokubatch/rundir"
	"time"
)

// The numbers of every human output (the summary, the page, the charts
// and the command's lines) are formatted here, and so are counts of
// things: one place decides "1 unit" and "2 units", "850ns", "1.23k".
// Machine-readable outputs (results.csv, summary.json, hard.csv) keep
// exact integers and do not use these.

// Plural returns one when n is 1 and many otherwise: the word alone,
// for a sentence that places the count itself ("3 units were").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count returns n and the word for n things: "1 unit", "2 units",
// "0 strategies".
func Count(n int, one, many string) string { return strconv.Itoa(n) + " " + Plural(n, one, many) }

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// fmtPct formats a percentage with one decimal: 44.4%.
func fmtPct(v float64) string { return fmt.Sprintf("%.1f%%", v) }

// fmtEstimate formats e with f, marked "≥" or "≤" when it is a bound.
func fmtEstimate(e Estimate, f func(float64) string) string {
	switch e.Bound {
	case BoundLower:
		return "≥" + f(e.Value)
	case BoundUpper:
		return "≤" + f(e.Value)
	case BoundAbsent:
		return "–"
	}
	return f(e.Value)
}

// round3 rounds v to three significant digits.
func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 3, 64), 64)
	return r
}

// fixed3 formats x, in [0, 1000) after rounding to three significant
// digits, with as many decimals as three significant digits need.
func fixed3(x float64) string {
	switch ax := math.Abs(x); {
	case ax == 0:
		return "0"
	case ax < 1: // 0.500, 0.0892
		return strconv.FormatFloat(x, 'f', 2-int(math.Floor(math.Log10(ax))), 64)
	case ax < 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	case ax < 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 0, 64)
}

// fmtSig3 formats v with three significant digits and an SI suffix:
// 0.5, 6.70, 530, 1.23k, 10.7M.
func fmtSig3(v float64) string {
	r := round3(v)
	for _, p := range []struct {
		scale  float64
		suffix string
	}{{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(r) >= p.scale {
			return fixed3(r/p.scale) + p.suffix
		}
	}
	return fixed3(r)
}

// fmtCount formats a count: exact below 1000 when it is an integer,
// fmtSig3 otherwise.
func fmtCount(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return fmtSig3(v)
}

// fmtNS formats nanoseconds with three significant digits in ns, µs, ms
// or s: 850ns, 36.7µs, 1.00ms, 102ms, 12.3s; from 100 s on, in minutes
// and seconds, then hours and minutes, then hours, as precise: 14m2s,
// 2h5m, 130h.
func fmtNS(ns float64) string {
	switch a := math.Abs(ns); {
	case a >= 100*3600e9:
		return strconv.FormatFloat(math.Round(ns/3600e9), 'f', 0, 64) + "h"
	case a >= 100*60e9:
		return strings.TrimSuffix(time.Duration(ns).Round(time.Minute).String(), "0s")
	case a >= 99.95e9:
		return time.Duration(ns).Round(time.Second).String()
	}
	r := round3(ns)
	switch a := math.Abs(r); {
	case a >= 1e9:
		return fixed3(r/1e9) + "s"
	case a >= 1e6:
		return fixed3(r/1e6) + "ms"
	case a >= 1e3:
		return fixed3(r/1e3) + "µs"
	}
	return fixed3(r) + "ns"
}

// FormatDuration formats d like the reports do: three significant digits
// in ns, µs, ms or s, and from 100 s on minutes and hours (fmtNS). It is
// the one formatter of a duration for a person: the tables, the
// command's lines (took, re-timed in, report in), the progress line.
func FormatDuration(d time.Duration) string { return fmtNS(float64(d)) }

// fmtMultiple formats a multiple of the median: ×1.00, ×530, ×1.23k.
func fmtMultiple(x float64) string { return "×" + fmtSig3(x) }

// FormatSecondsShort labels a time given in seconds: 1ns, 10µs, 2.5ms,
// 100ms, 1s, 10s.
func FormatSecondsShort(sec float64) string {
	switch a := math.Abs(sec); {
	case a == 0:
		return "0"
	case a < 1e-6:
		return TrimNumber(sec*1e9) + "ns"
	case a < 1e-3:
		return TrimNumber(sec*1e6) + "µs"
	case a < 1:
		return TrimNumber(sec*1e3) + "ms"
	default:
		return TrimNumber(sec) + "s"
	}
}

// FormatCountTick labels a counter on an axis, in the one format of
// every count the charts and pages show: 1, 20, 500, then 1k, 20k, 1M,
// 2.5G, 1T.
func FormatCountTick(v float64) string {
	for _, p := range []struct {
		scale  float64
		suffix string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if math.Abs(v) >= p.scale {
			return TrimNumber(v/p.scale) + p.suffix
		}
	}
	return TrimNumber(v)
}

// TrimNumber formats v with at most three significant digits and no
// trailing zeros: 1, 2.5, 100, 0.03.
func TrimNumber(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if r := strconv.FormatFloat(v, 'g', 3, 64); len(r) < len(s) && !strings.ContainsAny(r, "e") {
		s = r
	} else if strings.ContainsAny(r, "e") {
		// 3 significant digits would need an exponent: round instead.
		s = strconv.FormatFloat(math.Round(v), 'f', -1, 64)
	}
	return s
}

// FormatCountShort formats a counter compactly: 950, 12.3k, 4.5M, 1.2G,
// 3T.
func FormatCountShort(v float64) string {
	switch a := math.Abs(v); {
	case a < 1e4:
		return TrimNumber(math.Round(v))
	case a < 1e6:
		return TrimNumber(v/1e3) + "k"
	case a < 1e9:
		return TrimNumber(v/1e6) + "M"
	case a < 1e12:
		return TrimNumber(v/1e9) + "G"
	default:
		return TrimNumber(v/1e12) + "T"
	}
}

// FormatBytes formats n bytes for a person: B, kB, MB, GB (powers of 1000).
func FormatBytes(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// ShellQuote quotes s for a POSIX shell: in single quotes, each single
// quote of s written as quote, backslash, quote, quote (closed, escaped,
// reopened). A word of characters the shell never treats specially is
// left as it is.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/:=,@+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellCommand is args as one shell command line, each quoted as needed.
func ShellCommand(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = ShellQuote(a)
	}
	return strings.Join(q, " ")
}

// PeakNote is ", peak memory 21.5 MB" for the lines that end a command
// (the process's peak resident memory, rundir.PeakRSS, in decimal
// megabytes: FormatBytes), or "" where the peak is not known.
func PeakNote() string {
	if b, ok := rundir.PeakRSS(); ok {
		return ", peak memory " + FormatBytes(b)
	}
	return ""
}
