package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// BisectDir is the directory of the results root where trend writes its
// files, the bisect scripts among them.
const BisectDir = "trend"

// The exit codes of a bisect script, as `git bisect run` reads them.
const (
	BisectGood  = 0   // the commit is as the good night
	BisectBad   = 1   // the commit shows the alarm's change
	BisectSkip  = 125 // the commit cannot be tested: it does not build, or its sweep failed
	BisectAbort = 255 // nothing can be tested: no reference to compare with (git bisect run stops)
)

// WriteBisect writes the `git bisect run` script of alarm a of report r
// into root/BisectDir, executable, and returns its path relative to root
// (slash-separated: the caller records it in a.Bisect). An alarm with no
// good night or no puzzle has no script: WriteBisect says so.
//
// The script, run from the repository's work tree at each commit git
// bisect checks out, builds the tool there (exit 125, skip, when it does
// not build), sweeps the alarm's puzzles with its strategy under the
// series' settings (limits, -unique, -runs, workers, seed, and the
// corpora the alarm's night recorded in run.json, whose SHA-256 it
// checks: another corpus at that commit is a skip), and compares the
// sweep with the reference:
//
//   - a time alarm (AlarmTime, AlarmStep): `batch compare -threshold
//     1+Threshold REF NEW`, bad (1) when compare exits 1 (surely slower),
//     good (0) when it exits 0, skip otherwise;
//   - a counters alarm: `batch compare -json REF NEW`, bad when a compared
//     unit changed status, calls or guesses, good when none did, skip
//     when no unit could be compared.
//
// The reference is the good night's run directory while it holds its
// rows. Once `batch prune` removed them, or when the environment has
// BISECT_REFERENCE=revision (a time alarm bisected on another machine,
// or after the machine's speed changed), the script builds the good
// night's revision (git archive, into the repository's git directory,
// once for the whole bisection) and sweeps the puzzles with it: the
// counters are deterministic, and the times are then measured on the
// same machine, minutes apart. Without a known good revision (a build
// with no VCS stamp) there is nothing to compare with, and the script
// exits 255, which stops git bisect run.
//
// Every value in the script is single-quoted unless it is plainly safe:
// run names, paths and ids may hold spaces, quotes or $.
func WriteBisect(root string, r *Report, a *Alarm) (rel string, err error) {
	if err := checkBisect(r, a); err != nil {
		return "", err
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	badDir, goodDir := nightDir(absRoot, r.Series, a.Night), nightDir(absRoot, r.Series, *a.Good)
	m, err := rundir.ReadManifest(badDir)
	if err != nil {
		return "", fmt.Errorf("writing the bisect script of %s on %s: %w", a.Solver, a.Night.Run, err)
	}
	name := bisectName(r.Series.ID, a)
	script := bisectScript(absRoot, name, r, a, m, badDir, goodDir)
	dir := filepath.Join(root, BisectDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("writing the bisect script: %w", err)
	}
	path := filepath.Join(dir, name)
	tmp, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", fmt.Errorf("writing the bisect script: %w", err)
	}
	_, err = tmp.WriteString(script)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o755)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("writing the bisect script %s: %w", path, err)
	}
	return BisectDir + "/" + name, nil
}

// nightDir returns the absolute run directory of the night ref names:
// the directory of a run named outside the results root (Night.Dir),
// else the run under absRoot.
func nightDir(absRoot string, s *Series, ref NightRef) string {
	for _, n := range s.Nights {
		if n.Run == ref.Run && n.Dir != "" {
			return n.Dir
		}
	}
	return filepath.Join(absRoot, filepath.FromSlash(ref.Run))
}

// checkBisect says why no script can be written for a, if it cannot.
func checkBisect(r *Report, a *Alarm) error {
	switch {
	case r == nil || r.Series == nil:
		return errors.New("writing a bisect script: no series")
	case a == nil:
		return errors.New("writing a bisect script: no alarm")
	case a.Kind != AlarmTime && a.Kind != AlarmStep && a.Kind != AlarmCounters:
		return fmt.Errorf("writing the bisect script of %s on %s: unknown alarm kind %q", a.Solver, a.Night.Run, a.Kind)
	case a.Good == nil:
		return fmt.Errorf("writing the bisect script of %s on %s: the alarm has no good night", a.Solver, a.Night.Run)
	case len(a.Puzzles) == 0:
		return fmt.Errorf("writing the bisect script of %s on %s: the alarm names no puzzle", a.Solver, a.Night.Run)
	case a.Solver == "" || a.Night.Run == "" || a.Good.Run == "":
		return errors.New("writing a bisect script: the alarm lacks its strategy or its nights")
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// bisectName is the script's file name: the series, the strategy, the
// kind of alarm and the night, each reduced to [A-Za-z0-9._-].
func bisectName(series string, a *Alarm) string {
	clean := func(s string) string { return strings.Trim(unsafeName.ReplaceAllString(s, "_"), "_.") }
	return fmt.Sprintf("bisect-%s-%s-%s-%s.sh", clean(series), clean(a.Solver), clean(a.Kind), clean(a.Night.Run))
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

// bisectScript returns the text of the script name of alarm a, whose
// night, in badDir, has run.json m; goodDir is the good night's.
func bisectScript(absRoot, name string, r *Report, a *Alarm, m *rundir.Manifest, badDir, goodDir string) string {
	sig := r.Series.Signature
	threshold := r.Options.Threshold
	if threshold <= 0 {
		threshold = DefaultThreshold
	}
	goodRev, goodNote := bisectRevision(a.Good.Revision)
	badRev, badNote := bisectRevision(a.Night.Revision)

	var ids []int
	for _, p := range a.Puzzles {
		ids = append(ids, p.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	idList := make([]string, len(ids))
	for i, id := range ids {
		idList[i] = strconv.Itoa(id)
	}

	// The sweep's flags: those of the series' settings, a flag at its
	// default left out (a commit older than the flag runs without it).
	flags := []string{"-timeout", time.Duration(sig.Timeout).String()}
	if sig.Workers > 0 {
		flags = append(flags, "-workers", strconv.Itoa(sig.Workers))
	}
	if sig.MaxCalls > 0 {
		flags = append(flags, "-max-calls", strconv.FormatUint(sig.MaxCalls, 10))
	}
	if sig.Runs > 0 && sig.Runs != rundir.MaxRuns {
		flags = append(flags, "-runs", strconv.Itoa(sig.Runs))
	}
	if sig.Unique {
		flags = append(flags, "-unique")
	}
	if m.Settings.Seed != 1 {
		flags = append(flags, "-seed", strconv.FormatUint(m.Settings.Seed, 10))
	}
	// The corpora as the night named them (a relative path is found from
	// the work tree, where the night ran), a stream by the copy kept in
	// the night's directory.
	var corpora, sums []string
	for i, c := range m.Settings.Corpora {
		sum := ""
		if i < len(m.Corpora) {
			sum = m.Corpora[i].SHA256
			if m.Corpora[i].Stream {
				c = filepath.Join(badDir, rundir.StreamFile(i))
			}
		}
		corpora = append(corpora, c)
		sums = append(sums, sum)
	}

	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	q := report.ShellQuote
	p("#!/bin/sh")
	p("# %s: written by batch trend for `git bisect run`.", name)
	p("#")
	p("# Alarm (%s): %s", a.Kind, commentText(a.Text))
	p("# Series %s: %s", r.Series.ID, commentText(r.Series.Key))
	p("# Bad night:  %s (%s), revision %s", commentText(a.Night.Run), a.Night.Start.UTC().Format("2006-01-02 15:04"), commentText(a.Night.Revision))
	p("# Good night: %s (%s), revision %s", commentText(a.Good.Run), a.Good.Start.UTC().Format("2006-01-02 15:04"), commentText(a.Good.Revision))
	p("#")
	p("# Use, in a clean work tree of the tool's repository (git bisect checks out each commit):")
	p("#")
	start := "git bisect start " + orPlaceholder(badRev, "BAD") + " " + orPlaceholder(goodRev, "GOOD")
	p("#   %s", start)
	p("#   git bisect run sh %s", commentText(q(filepath.Join(absRoot, BisectDir, name))))
	p("#   git bisect reset")
	if badNote != "" {
		p("#")
		p("# The bad night's revision %s", commentText(badNote))
	}
	if goodNote != "" {
		p("#")
		p("# The good night's revision %s", commentText(goodNote))
	}
	if badRev == "" || goodRev == "" {
		p("# Name the commits yourself: the last one known good, the first one known bad.")
	}
	p("#")
	p("# At each commit it builds the tool (exit 125, skip, when it does not build), sweeps the")
	p("# alarm's %d %s with %s under the series' settings, and compares the sweep with",
		len(ids), report.Plural(len(ids), "puzzle", "puzzles"), commentText(a.Solver))
	p("# the good night's rows (or, when `batch prune` removed them, with a sweep of the good")
	p("# night's revision, built once into the git directory). Exit 0: good; 1: bad; 125: skip;")
	p("# 255: nothing to compare with (git bisect run stops). The good revision's sweep stays")
	p("# in .git/batch-bisect/ for the next steps: remove it once the bisection is done.")
	switch a.Kind {
	case AlarmCounters:
		p("# Bad: a compared unit's status, calls or guesses differ from the reference's.")
	default:
		p("# Bad: batch compare -threshold %s exits 1 (the 95%% interval of the median time's ratio",
			strconv.FormatFloat(1+threshold, 'f', -1, 64))
		p("# lies above it).")
	}
	p("# Environment: GO, the go command (default go); BATCH_COMPARE, a build of batch to compare")
	p("# with at every commit (default: the one built at the commit); BISECT_REFERENCE=revision,")
	p("# sweep the good revision as the reference even while the good night has its rows: for a")
	p("# time alarm bisected on another machine, or after the machine's speed changed.")
	p("")
	p("set -u")
	p("solver=%s", q(a.Solver))
	p("ids=%s", q(strings.Join(idList, ",")))
	p("good=%s", q(goodDir))
	p("good_rev=%s", q(goodRev))
	if a.Kind != AlarmCounters {
		p("threshold=%s", q(strconv.FormatFloat(1+threshold, 'f', -1, 64)))
	}
	p("name=%s", q(strings.TrimSuffix(name, ".sh")))
	p("go=${GO:-go}")
	p("")
	p("say() { echo \"bisect: $(git rev-parse --short HEAD 2>/dev/null || echo '?'): $*\" >&2; }")
	p("")
	p("# sweep BATCH DIR: the alarm's puzzles with its strategy, the night's settings, into DIR;")
	p("# its output in DIR.log, shown when it fails.")
	p("sweep() {")
	var args []string
	for _, f := range flags {
		args = append(args, q(f))
	}
	fmt.Fprintf(&b, "\t\"$1\" -quiet -report=false -out \"$2\" -ids \"$ids\" -solvers \"$solver\" %s", strings.Join(args, " "))
	for _, c := range corpora {
		fmt.Fprintf(&b, " \\\n\t\t%s", q(c))
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
	for i, c := range corpora {
		p("check_corpus %s %s", q(c), q(sums[i]))
	}
	p("")
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
	p("sweep \"$tmp/batch\" \"$tmp/new\" || exit %d", BisectSkip)
	p("")
	switch a.Kind {
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
	return b.String()
}

func orPlaceholder(rev, placeholder string) string {
	if rev == "" {
		return placeholder
	}
	return rev
}
