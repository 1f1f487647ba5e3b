package history

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// bisectPlan is what the bisect script of an alarm is made of: the
// alarm and its nights' revisions, its puzzles, and the sweep's flags and
// corpora, as the alarm's night ran them.
type bisectPlan struct {
	absRoot, name string // the results root; the script's file name
	r             *Report
	a             *Alarm
	goodDir       string // the good night's run directory
	threshold     string // 1+Threshold, as batch compare -threshold takes it

	goodRev, goodNote string // bisectRevision of the good night
	badRev, badNote   string // and of the bad one

	ids     []string // the alarm's puzzle ids, sorted, distinct
	flags   []string // the sweep's flags: the night's settings and workers
	corpora []string // the night's corpora, as it named them
	sums    []string // their SHA-256, "" when not recorded
}

// bisectScript returns the text of the script name of alarm a, whose
// night, in badDir, has run.json m; goodDir is the good night's. The
// script is its header (what it bisects, how to run it), its variables,
// its shell functions (sweep, check_corpus), the build and the reference
// it compares with, then the verdict of its comparison.
func bisectScript(absRoot, name string, r *Report, a *Alarm, m *rundir.Manifest, badDir, goodDir string) string {
	pl := planBisect(absRoot, name, r, a, m, badDir, goodDir)
	var t scriptText
	pl.header(&t)
	pl.variables(&t)
	pl.functions(&t)
	pl.reference(&t)
	pl.verdict(&t)
	return t.String()
}

// planBisect gathers what bisectScript writes (see there).
func planBisect(absRoot, name string, r *Report, a *Alarm, m *rundir.Manifest, badDir, goodDir string) *bisectPlan {
	threshold := r.Options.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	pl := &bisectPlan{absRoot: absRoot, name: name, r: r, a: a, goodDir: goodDir,
		threshold: strconv.FormatFloat(1+threshold, 'f', -1, 64)}
	pl.goodRev, pl.goodNote = bisectRevision(a.Good.Revision)
	pl.badRev, pl.badNote = bisectRevision(a.Night.Revision)

	var ids []int
	for _, p := range a.Puzzles {
		ids = append(ids, p.ID)
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		pl.ids = append(pl.ids, strconv.Itoa(id))
	}

	// The sweep's flags: those of the night's settings, a flag at its
	// default left out (a commit older than the flag runs without it),
	// the alarm's strategy's -ext when it is an external solver (the
	// others are not swept), then the workers, which are the series'
	// (its segments'), not a setting.
	s := m.Settings
	s.External = nil
	if x, ok := m.Settings.ExternalNamed(a.Solver); ok {
		s.External = []rundir.External{x}
	}
	pl.flags = s.ReplayFlags(rundir.ReplaySweep)
	if w := r.Series.Signature.Workers; w > 0 {
		pl.flags = append(pl.flags, "-workers", strconv.Itoa(w))
	}
	// The corpora as the night named them (a relative path is found from
	// the work tree, where the night ran), a stream by the copy kept in
	// the night's directory.
	for i, c := range m.Settings.Corpora {
		sum := ""
		if i < len(m.Corpora) {
			sum = m.Corpora[i].SHA256
			if m.Corpora[i].Stream {
				c = filepath.Join(badDir, rundir.StreamFile(i))
			}
		}
		pl.corpora = append(pl.corpora, c)
		pl.sums = append(pl.sums, sum)
	}
	return pl
}

// scriptText is the text of a script being written.
type scriptText struct{ strings.Builder }

// line writes one line of the script: format and args as fmt.Sprintf
// takes them.
func (t *scriptText) line(format string, args ...any) { fmt.Fprintf(t, format+"\n", args...) }

// header writes the script's comments: the alarm, its nights, how to
// run the script, what it does and the environment it reads.
func (pl *bisectPlan) header(t *scriptText) {
	p, q, a, r := t.line, report.ShellQuote, pl.a, pl.r
	p("#!/bin/sh")
	p("# %s: written by batch trend for `git bisect run`.", pl.name)
	p("#")
	p("# Alarm (%s): %s", a.Kind, commentText(a.Text))
	p("# Series %s: %s", r.Series.ID, commentText(r.Series.Key))
	p("# Bad night:  %s (%s), revision %s", commentText(a.Night.Run), a.Night.Start.UTC().Format("2006-01-02 15:04"), commentText(a.Night.Revision))
	p("# Good night: %s (%s), revision %s", commentText(a.Good.Run), a.Good.Start.UTC().Format("2006-01-02 15:04"), commentText(a.Good.Revision))
	p("#")
	p("# Use, in a clean work tree of the tool's repository (git bisect checks out each commit):")
	p("#")
	start := "git bisect start " + orPlaceholder(pl.badRev, "BAD") + " " + orPlaceholder(pl.goodRev, "GOOD")
	p("#   %s", start)
	p("#   git bisect run sh %s", commentText(q(filepath.Join(pl.absRoot, BisectDir, pl.name))))
	p("#   git bisect reset")
	if pl.badNote != "" {
		p("#")
		p("# The bad night's revision %s", commentText(pl.badNote))
	}
	if pl.goodNote != "" {
		p("#")
		p("# The good night's revision %s", commentText(pl.goodNote))
	}
	if pl.badRev == "" || pl.goodRev == "" {
		p("# Name the commits yourself: the last one known good, the first one known bad.")
	}
	p("#")
	p("# At each commit it builds the tool (exit 125, skip, when it does not build), sweeps the")
	p("# alarm's %d %s with %s under the series' settings, and compares the sweep with",
		len(pl.ids), report.Plural(len(pl.ids), "puzzle", "puzzles"), commentText(a.Solver))
	p("# the good night's rows (or, when `batch prune` removed them, with a sweep of the good")
	p("# night's revision, built once into the git directory). Exit 0: good; 1: bad; 125: skip;")
	p("# 255: nothing to compare with (git bisect run stops). The good revision's sweep stays")
	p("# in .git/batch-bisect/ for the next steps: remove it once the bisection is done.")
	switch pl.a.Kind {
	case AlarmCounters:
		p("# Bad: a compared unit's status, calls or guesses differ from the reference's.")
	default:
		p("# Bad: batch compare -threshold %s exits 1 (the 95%% interval of the median time's ratio",
			pl.threshold)
		p("# lies above it).")
	}
	p("# Environment: GO, the go command (default go); BATCH_COMPARE, a build of batch to compare")
	p("# with at every commit (default: the one built at the commit); BISECT_REFERENCE=revision,")
	p("# sweep the good revision as the reference even while the good night has its rows: for a")
	p("# time alarm bisected on another machine, or after the machine's speed changed.")
	p("")
}

// variables writes the script's settings: the strategy, the puzzles, the
// good night and revision, the threshold of a time alarm.
func (pl *bisectPlan) variables(t *scriptText) {
	p, q, a := t.line, report.ShellQuote, pl.a
	p("set -u")
	p("solver=%s", q(a.Solver))
	p("ids=%s", q(strings.Join(pl.ids, ",")))
	p("good=%s", q(pl.goodDir))
	p("good_rev=%s", q(pl.goodRev))
	if a.Kind != AlarmCounters {
		p("threshold=%s", q(pl.threshold))
	}
	p("name=%s", q(strings.TrimSuffix(pl.name, ".sh")))
	p("go=${GO:-go}")
	p("")
}

// functions writes the script's shell functions, say, sweep (the
// alarm's puzzles under the night's settings) and check_corpus, and
// checks the corpora: another file at this commit is a skip.
func (pl *bisectPlan) functions(t *scriptText) {
	p, q := t.line, report.ShellQuote
	p("say() { echo \"bisect: $(git rev-parse --short HEAD 2>/dev/null || echo '?'): $*\" >&2; }")
	p("")
	p("# sweep BATCH DIR: the alarm's puzzles with its strategy, the night's settings, into DIR;")
	p("# its output in DIR.log, shown when it fails.")
	p("sweep() {")
	var args []string
	for _, f := range pl.flags {
		args = append(args, q(f))
	}
	fmt.Fprintf(t, "\t\"$1\" -quiet -report=false -out \"$2\" -ids \"$ids\" -solvers \"$solver\" %s", strings.Join(args, " "))
	for _, c := range pl.corpora {
		fmt.Fprintf(t, " \\\n\t\t%s", q(c))
	}
	p(" >\"$2.log\" 2>&1")
	p("\trc=$?")
	p("\tif [ \"$rc\" -gt 1 ] || ! [ -s \"$2/results.csv\" ]; then")
	p("\t\ttail -n 20 \"$2.log\" >&2")
	p("\t\tsay \"the sweep failed (exit $rc)\"")
	p("\t\treturn 1")
	p("\tfi")
	p("}")
	p("")
	p("# The corpora must be the night's: another file at this commit is another selection.")
	p("check_corpus() { # PATH SHA256")
	p("\t[ -n \"$2\" ] && [ -f \"$1\" ] && command -v sha256sum >/dev/null 2>&1 || return 0")
	p("\tsum=$(sha256sum < \"$1\") || return 0")
	p("\tif [ \"${sum%%%% *}\" != \"$2\" ]; then")
	p("\t\tsay \"corpus $1 is not the night's (SHA-256 ${sum%%%% *}, want $2): skip\"")
	p("\t\texit %d", BisectSkip)
	p("\tfi")
	p("}")
	for i, c := range pl.corpora {
		p("check_corpus %s %s", q(c), q(pl.sums[i]))
	}
	p("")
}

// reference writes the build of the tool at the commit (a skip when it
// does not build) and the choice of the reference: the good night's rows,
// else a sweep of the good revision, built once into the git directory.
func (pl *bisectPlan) reference(t *scriptText) {
	p := t.line
	p("tmp=$(mktemp -d \"${TMPDIR:-/tmp}/batch-bisect.XXXXXX\") || exit %d", BisectAbort)
	p("trap 'rm -rf \"$tmp\"' EXIT")
	p("trap 'exit 130' HUP INT TERM")
	p("")
	p("if ! \"$go\" build -o \"$tmp/batch\" ./cmd/batch; then")
	p("\tsay \"does not build: skip\"")
	p("\texit %d", BisectSkip)
	p("fi")
	p("compare=${BATCH_COMPARE:-$tmp/batch}")
	p("")
	p("if [ \"${BISECT_REFERENCE:-}\" != revision ] && { [ -f \"$good/results.csv\" ] || [ -f \"$good/results.csv.gz\" ]; }; then")
	p("\tref=$good")
	p("elif [ -z \"$good_rev\" ]; then")
	p("\tsay \"no reference: the good night's rows are gone ($good: batch prune) or BISECT_REFERENCE=revision, and its revision is unknown: nothing to compare with\"")
	p("\texit %d", BisectAbort)
	p("else")
	p("\t# The rows were pruned: sweep the good revision once, kept in the git directory.")
	p("\tcache=$(git rev-parse --git-path \"batch-bisect/$name/$good_rev\") || exit %d", BisectAbort)
	p("\tcase $cache in /*) ;; *) cache=$PWD/$cache ;; esac")
	p("\tref=$cache/run")
	p("\tif ! [ -f \"$cache/done\" ]; then")
	p("\t\tsay \"sweeping the good revision $good_rev as the reference (the good night's rows are gone, or BISECT_REFERENCE=revision)\"")
	p("\t\trm -rf \"$cache\" && mkdir -p \"$cache/src\" || exit %d", BisectAbort)
	p("\t\tif ! git archive \"$good_rev\" | tar -xf - -C \"$cache/src\" ||")
	p("\t\t\t! (cd \"$cache/src\" && \"$go\" build -o \"$cache/batch\" ./cmd/batch) ||")
	p("\t\t\t! sweep \"$cache/batch\" \"$ref\"; then")
	p("\t\t\tsay \"could not sweep the good revision $good_rev\"")
	p("\t\t\texit %d", BisectAbort)
	p("\t\tfi")
	p("\t\t: > \"$cache/done\"")
	p("\tfi")
	p("fi")
	p("")
}

// verdict writes the sweep at the commit and its comparison with the
// reference: by the counters of a counters alarm, by batch compare's
// threshold of a time alarm.
func (pl *bisectPlan) verdict(t *scriptText) {
	p := t.line
	p("sweep \"$tmp/batch\" \"$tmp/new\" || exit %d", BisectSkip)
	p("")
	switch pl.a.Kind {
	case AlarmCounters:
		p("\"$compare\" compare -json \"$ref\" \"$tmp/new\" > \"$tmp/compare.json\"")
		p("rc=$?")
		p("if [ \"$rc\" -ne 0 ]; then")
		p("\tsay \"batch compare exited $rc: skip\"")
		p("\texit %d", BisectSkip)
		p("fi")
		p("# The counts of the strategy's compared units whose counters changed.")
		p("counts=$(tr -d ' \\t\\r\\n' < \"$tmp/compare.json\" |")
		p("\tsed -n 's/.*\"compared\":\\([0-9]*\\),\"changed\":{\"any\":[0-9]*,\"status\":\\([0-9]*\\),\"calls\":\\([0-9]*\\),\"guesses\":\\([0-9]*\\).*/\\1 \\2 \\3 \\4/p')")
		p("# shellcheck disable=SC2086 # four numbers, split on purpose")
		p("set -- $counts")
		p("if [ $# -ne 4 ]; then")
		p("\tsay \"batch compare -json does not give the counts of changed units: skip\"")
		p("\texit %d", BisectSkip)
		p("fi")
		p("if [ \"$1\" -eq 0 ]; then")
		p("\tsay \"no unit compared (timeouts in either sweep): skip\"")
		p("\texit %d", BisectSkip)
		p("fi")
		p("if [ \"$2\" -gt 0 ] || [ \"$3\" -gt 0 ] || [ \"$4\" -gt 0 ]; then")
		p("\tsay \"bad: of $1 units, status changed on $2, calls on $3, guesses on $4\"")
		p("\texit %d", BisectBad)
		p("fi")
		p("say \"good: the counters of $1 units as the reference's\"")
		p("exit %d", BisectGood)
	default:
		p("\"$compare\" compare -threshold \"$threshold\" \"$ref\" \"$tmp/new\" > \"$tmp/compare.txt\"")
		p("rc=$?")
		p("case $rc in")
		p("0) say \"good: not surely slower than x$threshold\"; exit %d ;;", BisectGood)
		p("1) say \"bad: surely slower than x$threshold\"; exit %d ;;", BisectBad)
		p("*) say \"batch compare exited $rc: skip\"; exit %d ;;", BisectSkip)
		p("esac")
	}
}

func orPlaceholder(rev, placeholder string) string {
	if rev == "" {
		return placeholder
	}
	return rev
}

var commitID = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// bisectRevision returns the git revision of a night's build (its
// Revision, from run.json), or "" when it has none, and what the
// revision is worth when it is not plain.
func bisectRevision(v string) (rev, note string) {
	rev = v
	if s, ok := strings.CutSuffix(rev, " (checkout)"); ok {
		rev, note = s, "read from the checkout's git files (a build without VCS stamping; changes to the work tree are not seen)"
	}
	if s, ok := strings.CutSuffix(rev, "+dirty"); ok {
		rev, note = s, "built from a work tree with changes not committed: the commit is approximate"
	}
	if !commitID.MatchString(rev) {
		return "", fmt.Sprintf("%q: the build had no VCS stamp (go run, or -buildvcs=false outside a checkout)", v)
	}
	return rev, note
}

// commentText makes s safe on a comment line: no line break, no control
// character.
func commentText(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
