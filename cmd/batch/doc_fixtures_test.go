package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"sudokubatch/rundir"
)

// The runs and files a block of doc examples reads: template runs made
// once per test and copied into each sandbox where its lines name them.

// The fixtures' settings: a finished run of narrowIDs.
var fixtureSweep = []string{"-solvers", "norvig,dlx,bitboard", "-ids", narrowIDs, "-quiet"}

// docTemplates are runs made once per test and copied where a block's
// examples need one: plain (rows only), reported, a shard, interrupted.
type docTemplates struct {
	dir    string
	mu     sync.Mutex
	made   map[string]string
	failed map[string]bool // not made: the first test to try said why
}

func newDocTemplates(t *testing.T) *docTemplates {
	return &docTemplates{dir: t.TempDir(), made: map[string]string{}, failed: map[string]bool{}}
}

// get returns the template run of kind (plain, reported, interrupted,
// shard-K-of-N), made at the first call.
func (d *docTemplates) get(t *testing.T, kind string) string {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	if dir, ok := d.made[kind]; ok {
		return dir
	}
	if d.failed[kind] {
		t.Fatalf("the template run %s could not be made (see the first test that needed it)", kind)
	}
	d.failed[kind] = true // until made
	dir := filepath.Join(d.dir, kind)
	args := append(append([]string{}, fixtureSweep...), "-out", dir)
	var k, n int
	switch {
	case kind == "plain":
		args = append(args, "-report=false")
	case kind == "reported":
	case kind == "interrupted":
		d.interrupted(t, dir)
		d.made[kind], d.failed[kind] = dir, false
		return dir
	case fmtScan(kind, "shard-%d-of-%d", &k, &n):
		args = append(args, "-report=false", "-shard", fmt.Sprintf("%d/%d", k, n))
	default:
		t.Fatalf("no template %q", kind)
	}
	mustOK(t, batch(t, d.dir, args...))
	d.made[kind], d.failed[kind] = dir, false
	return dir
}

// interrupted makes at dir a run of the default corpus interrupted by
// Ctrl-C: one worker solves with backtrack #28 (103 million calls: a
// second or more), #34 (87 million) and #38 (3 million). A unit that
// takes a batch's target (16 ms) goes to the worker alone, so a Ctrl-C
// sent once the row of #28 is written, while #34 runs, leaves #38
// unsolved. It tries three times: on a loaded machine the test may not
// run again until #34 and #38 are solved, and the run finishes.
func (d *docTemplates) interrupted(t *testing.T, dir string) {
	t.Helper()
	for try := 1; ; try++ {
		os.RemoveAll(dir)
		p := start(t, d.dir, false, "-solvers", "backtrack", "-ids", "28,34,38", "-timeout", "0", "-workers", "1",
			"-quiet", "-report=false", "-out", dir)
		waitForRows(t, filepath.Join(dir, rundir.ResultsFile), 1)
		p.cmd.Process.Signal(syscall.SIGINT)
		r := p.wait(t, time.Minute)
		if r.code != exitInterrupted {
			t.Fatalf("the interrupted fixture: exit %d, want 130\n%s", r.code, r.stderr)
		}
		m := manifest(t, dir)
		if m.Status == rundir.Interrupted && m.Rows < 3 {
			return
		}
		if try == 3 {
			t.Fatalf("the interrupted fixture: status %s with %d rows after 3 tries, want interrupted with #38 unsolved", m.Status, m.Rows)
		}
		t.Logf("the interrupted fixture: status %s with %d rows: the Ctrl-C came after the last unit; again", m.Status, m.Rows)
	}
}

func fmtScan(s, format string, a ...any) bool {
	n, err := fmt.Sscanf(s, format, a...)
	return err == nil && n == len(a)
}

// runID is the id a run copied to path gets: its name when that is one,
// else the next of a sequence of nights.
var runIDName = regexp.MustCompile(`^\d{8}-\d{6}$`)

// copyRun copies the template run src to dst as run id: run.json and
// summary.json say id, and the run started at its time.
func copyRun(t *testing.T, src, dst, id string) {
	t.Helper()
	err := filepath.Walk(src, func(path string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if fi.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	at, err := time.Parse("20060102-150405", id)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dst, rundir.ManifestFile)
	var m map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	old, _ := m["run_id"].(string)
	m["run_id"], m["start"], m["end"] = id, at, at.Add(time.Minute)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(b))
	// summary.json names its run as run.json does (history checks it).
	sum := filepath.Join(dst, rundir.SummaryJSON)
	if b, err := os.ReadFile(sum); err == nil {
		writeFile(t, sum, strings.ReplaceAll(string(b), `"run_id": "`+old+`"`, `"run_id": "`+id+`"`))
	}
}

// corpus writes the first 24 lines of the 17-clue corpus to path,
// gzipped when its name ends in .gz.
func (s *sandbox) corpus(t *testing.T, root, path string) {
	t.Helper()
	if s.made[path] {
		return
	}
	s.made[path] = true
	text := firstLines(t, root, 0, 24)
	full := filepath.Join(s.dir, path)
	os.MkdirAll(filepath.Dir(full), 0o755)
	if !strings.HasSuffix(path, ".gz") {
		writeFile(t, full, text)
		return
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(text))
	zw.Close()
	writeFile(t, full, b.String())
}

// outputPattern is a regexp of the paths an output argument may name:
// {} (GNU parallel), $VAR and * stand for any text, {a,b} for a or b.
func outputPattern(v string) *regexp.Regexp {
	q := regexp.QuoteMeta(v)
	q = regexp.MustCompile(`\\\{\\\}|\\\$\w+|\\\*`).ReplaceAllString(q, ".*")
	q = regexp.MustCompile(`\\\{([^}]*)\\\}`).ReplaceAllStringFunc(q, func(m string) string {
		return "(" + strings.ReplaceAll(m[2:len(m)-2], ",", "|") + ")"
	})
	return regexp.MustCompile("^" + q + "$")
}

// expandBraces expands {a,b} in a path as bash does.
func expandBraces(v string) []string {
	i := strings.IndexByte(v, '{')
	j := strings.IndexByte(v, '}')
	if i < 0 || j < i || !strings.Contains(v[i:j], ",") {
		return []string{v}
	}
	var out []string
	for _, alt := range strings.Split(v[i+1:j], ",") {
		out = append(out, expandBraces(v[:i]+alt+v[j+1:])...)
	}
	return out
}

var (
	shardPath  = regexp.MustCompile(`^(.*shard-)(\d+)$`)
	corpusName = regexp.MustCompile(`^[\w.-][\w./-]*\.(txt|gz)$`)
)

// docNeeds are what the lines of a block read, by kind: each a path
// relative to the sandbox that no line before writes.
type docNeeds struct {
	runs, corpora, roots, interrupted []string
	acks                              [][2]string      // -ack NIGHT STRATEGY: a night that alarmed of STRATEGY
	outputs                           []*regexp.Regexp // what the lines scanned write
	reports                           bool             // a line runs trend: the runs need their summaries
}

// in adds the paths v names (bash's {a,b} expanded) to list, but those a
// line before writes.
func (n *docNeeds) in(list *[]string, v string) {
	for _, p := range expandBraces(v) {
		if p == "" || p == "-" || slices.ContainsFunc(n.outputs, func(re *regexp.Regexp) bool { return re.MatchString(p) }) {
			continue
		}
		*list = append(*list, p)
	}
}

// scan adds what l reads, then what it writes (its -out, -o, > files).
func (n *docNeeds) scan(l docLine) {
	var outs []*regexp.Regexp
	inBatch := map[int]bool{}
	for _, inv := range invocations(l.words) {
		n.reports = n.reports || inv.sub == "trend"
		for i := inv.at; i < inv.end; i++ {
			inBatch[i] = true
		}
	}
	for i, w := range l.words {
		switch {
		case (w.val == ">" || w.val == ">>") && i+1 < len(l.words):
			outs = append(outs, outputPattern(l.words[i+1].val))
		case i > 0 && l.words[i-1].op && l.words[i-1].val != "|": // a redirection's file
		case !inBatch[i] && !w.op && corpusName.MatchString(w.val): // zcat big.txt.gz
			n.in(&n.corpora, w.val)
		}
	}
	for _, inv := range invocations(l.words) {
		args := parseArgs(l.words, inv, docFlagsOf(inv.sub))
		_, resume := flagArg(args, "resume")
		night, ack := flagArg(args, "ack")
		if pos := positionals(args); ack && len(pos) > 0 {
			// -ack NIGHT STRATEGY "why": the night must have raised an
			// alarm of the strategy (trend refuses it otherwise).
			n.acks = append(n.acks, [2]string{night.value, pos[0]})
		}
		for _, a := range args {
			switch {
			case a.name == "out" && resume:
				n.in(&n.interrupted, a.value)
			case a.name == "out" || a.name == "o" || a.name == "cpuprofile":
				outs = append(outs, outputPattern(a.value))
			case a.name == "corpus":
				n.in(&n.corpora, a.value)
			case a.name == "run":
				n.in(&n.runs, a.value)
			case a.name == "root":
				n.in(&n.roots, a.value)
			case a.name != "":
			case inv.sub == "run":
				n.in(&n.corpora, a.value)
			case inv.sub == "prune":
				n.in(&n.roots, a.value)
			case inv.sub == "report" || inv.sub == "compare" || inv.sub == "merge" || (inv.sub == "trend" && !ack):
				n.in(&n.runs, a.value)
			}
		}
	}
	n.outputs = append(n.outputs, outs...)
}

// fixtures makes, before a block runs, what its lines read: results/latest
// always; the runs, shards, corpora, roots and interrupted runs their
// arguments name, unless a line before writes them.
func (s *sandbox) fixtures(t *testing.T, root string, lines []docLine) {
	t.Helper()
	var n docNeeds
	for _, l := range lines {
		n.scan(l)
	}
	s.reports = n.reports
	os.MkdirAll(filepath.Join(s.dir, "results"), 0o755)
	s.run(t, "results/20261126-230501", "plain")
	os.Symlink("20261126-230501", filepath.Join(s.dir, "results", "latest"))
	shards := map[string][]int{} // prefix (results/shard-) -> indices named, -1 for a glob
	for _, p := range n.runs {
		switch m := shardPath.FindStringSubmatch(p); {
		case strings.HasSuffix(p, "/"+rundir.ResultsFile):
			s.run(t, filepath.Dir(p), "plain")
		case m != nil:
			k, _ := strconv.Atoi(m[2])
			shards[m[1]] = append(shards[m[1]], k)
		case strings.HasSuffix(p, "shard-*"):
			shards[strings.TrimSuffix(p, "*")] = append(shards[strings.TrimSuffix(p, "*")], -1)
		case strings.ContainsAny(p, "*$") || p == "results/latest":
		default:
			s.run(t, p, "plain")
		}
	}
	for prefix, ks := range shards {
		count := slices.Max(ks) + 1
		if count == 0 { // a glob alone: three shards
			count = 3
		}
		for k := range count {
			s.run(t, fmt.Sprintf("%s%d", prefix, k), fmt.Sprintf("shard-%d-of-%d", k, count))
		}
	}
	for _, p := range n.corpora {
		if !strings.HasPrefix(p, "examples/") {
			s.corpus(t, root, p)
		}
	}
	for _, p := range n.roots {
		s.run(t, filepath.Join(p, "20261101-230501"), "plain")
		s.run(t, filepath.Join(p, "20261102-230501"), "plain")
	}
	for _, p := range n.interrupted {
		s.run(t, p, "interrupted")
	}
	for _, a := range n.acks {
		s.alarmed(t, a[0], a[1])
	}
}

// alarmed makes results/night a night that raised an alarm of solver:
// four nights before it, plain, then night with one puzzle's calls of
// solver changed by another build (a counters change).
func (s *sandbox) alarmed(t *testing.T, night, solver string) {
	t.Helper()
	path := "results/" + night
	if s.made[path] {
		return
	}
	at, err := time.Parse("20060102-150405", night)
	if err != nil {
		t.Fatalf("-ack %s: not a night's name: %v", night, err)
	}
	var before string
	for k := 4; k >= 1; k-- { // enough history for the alarm
		before = "results/" + at.Add(time.Duration(-24*k)*time.Hour).Format("20060102-150405")
		s.run(t, before, "plain")
	}
	s.made[path] = true
	first, _, _ := strings.Cut(narrowIDs, ",") // a puzzle the template solved
	id, _ := strconv.Atoi(first)
	fakeNight(t, filepath.Join(s.dir, "results"), filepath.Join(s.dir, before), night, solver, 1, 24, id)
}
