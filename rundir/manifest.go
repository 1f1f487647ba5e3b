package rundir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// CorpusInfo is what a run records of one corpus file.
type CorpusInfo struct {
	Path string `json:"path"` // as given; "-" is standard input
	// Stream is set for a corpus that can be read only once (standard
	// input, a pipe, a FIFO): the run keeps the bytes it read in the run
	// directory (see StreamFile).
	Stream bool   `json:"stream,omitempty"`
	Size   int64  `json:"size"`   // bytes of the file as stored (compressed size for .gz); of a stream, the bytes read
	SHA256 string `json:"sha256"` // of those bytes
	Gzip   bool   `json:"gzip"`   // read through gzip
	// Complete is set once the file was read to its end: the counts
	// below are then the whole file's (Lines = Puzzles + Skipped), else
	// those of the part read.
	Complete bool   `json:"complete"`
	Lines    int    `json:"lines"`           // lines (a line ends at LF, CRLF or a lone CR)
	Puzzles  int    `json:"puzzles"`         // puzzle lines (valid or not): ids 0 to Puzzles-1
	Invalid  int    `json:"invalid"`         // puzzle lines that are not puzzles
	Skipped  int    `json:"skipped"`         // blank lines, comments and a puzzle-count header
	Error    string `json:"error,omitempty"` // why the file could not be read to its end (e.g. a damaged .gz, with the byte offset)
}

// Identity returns what identifies the corpus (path, stream, size,
// SHA-256, gzip), without what a reading of it learned (counts, whether
// it was read whole, its error).
func (c CorpusInfo) Identity() CorpusInfo {
	return CorpusInfo{Path: c.Path, Stream: c.Stream, Size: c.Size, SHA256: c.SHA256, Gzip: c.Gzip}
}

// Machine describes where (part of) a run ran.
type Machine struct {
	Host       string `json:"host"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GoVersion  string `json:"go_version"`
	Version    string `json:"tool_version"` // VCS revision of the tool
	// BuildTags are the build tags the tool was built with (-tags), e.g.
	// "slowdown": a build of one revision with other tags is another
	// build.
	BuildTags string `json:"build_tags,omitempty"`
	// Binary identifies the program itself, whatever directory it ran
	// in: "vcs:" and the revision of its build info's VCS stamp (of a
	// tree without changes), else "sha256:" and the SHA-256 of its
	// executable; empty in run.json written before it. Two nights ran
	// the same build when their Binary, Go version and tags are equal.
	Binary string `json:"binary,omitempty"`
}

// Settings are the parts of a run that decide its rows: two runs with
// equal settings over the same corpora give the same counters.
type Settings struct {
	Solvers   []string `json:"solvers"`
	TimeoutNS int64    `json:"timeout_ns"` // 0: none
	Timeout   string   `json:"timeout"`    // the same, for people
	MaxCalls  uint64   `json:"max_calls"`  // 0: none
	Seed      uint64   `json:"seed"`
	IDs       []int    `json:"ids,omitempty"`
	Range     string   `json:"range,omitempty"`
	Limit     int      `json:"limit,omitempty"`
	Shard     string   `json:"shard,omitempty"` // "k/n"
	Unique    bool     `json:"unique"`
	Corpora   []string `json:"corpora"`
	// Runs is how many times at most a cheap unit is timed (-runs);
	// 0 in a run.json written before it: the default, MaxRuns.
	Runs int `json:"runs,omitempty"`
	// External lists the external solvers among Solvers (-ext), with
	// their provenance: -resume and merge refuse a changed executable.
	External []External `json:"external,omitempty"`
}

// External is an external solver of a run (-ext NAME=COMMAND,
// docs/PROTOCOL.md) and what identifies the program that was swept.
type External struct {
	Name       string   `json:"name"`       // the strategy's name in the run
	Command    string   `json:"command"`    // COMMAND as given
	Args       []string `json:"args"`       // COMMAND split into arguments
	Executable string   `json:"executable"` // the program run: Args[0] looked up in PATH, absolute
	SHA256     string   `json:"sha256"`     // of Executable's contents
	// Files are the arguments that name regular files (a script, a data
	// file) and the files of -ext-files (Named), with their SHA-256: a
	// changed script is a changed solver.
	Files    []FileSum `json:"files,omitempty"`
	Reported string    `json:"reported"` // the name the program gave in its handshake
	Version  string    `json:"version"`  // the version it gave
	Caps     []string  `json:"caps"`     // the capabilities it gave
	// NullNS, NullP99NS and NullAloneNS are set in runs written before
	// the null round trip was measured during the sweep (Timing.Null):
	// the null measured before it, which those runs subtracted from each
	// unit's time (ns), its p99, and its median with one worker at a
	// time (subtracted from the units re-timed alone).
	NullNS      int64 `json:"null_ns,omitempty"`
	NullP99NS   int64 `json:"null_p99_ns,omitempty"`
	NullAloneNS int64 `json:"null_alone_ns,omitempty"`
}

// FileSum is a file and the SHA-256 of its contents; or a directory of
// -ext-files and the SHA-256 of the list of its files' (Files of them).
type FileSum struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Named  bool   `json:"named,omitempty"` // given with -ext-files
	Files  int    `json:"files,omitempty"` // a directory: the files hashed
}

// ExternalNamed returns the external solver of the settings named name.
func (s *Settings) ExternalNamed(name string) (External, bool) {
	for _, e := range s.External {
		if e.Name == name {
			return e, true
		}
	}
	return External{}, false
}

// MaxRuns is the most timed runs of a cheap unit, and -runs's default.
const MaxRuns = 5

// TimingBlock is the number of puzzles of a timing block: the pipeline
// reads the selected puzzles of a shard in blocks of TimingBlock and
// times the block's units one strategy at a time, within milliseconds of
// each other, so that a comparison of two runs (report's compare) can
// pair the units timed under the same conditions by their block.
const TimingBlock = 256

// OtherShare returns the share of the workers' CPU time that other work
// took during the segment, and false when the segment did not record
// OtherCPUNS. Other work first fills the CPUs the workers leave idle
// (NumCPU - Workers of them): only what it used beyond those took time
// from the workers. So on 2 CPUs a sweep with 2 workers shares them with
// anything else that ran, and one with 1 worker shares its CPU only
// when the other work needed more than the other CPU.
func (s *Segment) OtherShare() (float64, bool) {
	if s.OtherCPUNS <= 0 || s.DurationNS <= 0 || s.Machine.NumCPU <= 0 {
		return 0, false
	}
	workers := min(max(s.Workers, 1), s.Machine.NumCPU)
	spare := float64(s.Machine.NumCPU-workers) * float64(s.DurationNS)
	return min(max(float64(s.OtherCPUNS)-spare, 0)/(float64(workers)*float64(s.DurationNS)), 1), true
}

// Segment is one invocation that wrote rows into the run (the first run,
// each -resume, or a merged shard).
type Segment struct {
	Start      time.Time `json:"start"`
	End        time.Time `json:"end,omitzero"`
	DurationNS int64     `json:"duration_ns"`      // wall time, End - Start
	CPUNS      int64     `json:"cpu_ns,omitempty"` // CPU time of the process (user and system), when it closed the segment
	// OtherCPUNS is the CPU time the machine's other work took during the
	// segment: the time its CPUs were busy (steal included) less this
	// process's own (Linux; 0 where the system does not tell). Over
	// the wall time it is what others took of the CPUs while the units
	// were timed (see OtherShare).
	OtherCPUNS int64    `json:"other_cpu_ns,omitempty"`
	Command    []string `json:"command"`
	Workers    int      `json:"workers"`
	Rows       int      `json:"rows"`            // rows this segment wrote
	Status     string   `json:"status"`          // running, finished, interrupted, failed, killed
	Error      string   `json:"error,omitempty"` // why it failed
	Machine    Machine  `json:"machine"`
	Source     string   `json:"source,omitempty"` // the shard directory, for merged runs
	Shard      string   `json:"shard,omitempty"`  // that shard's k/n, for merged runs
	Timing     *Timing  `json:"timing,omitempty"` // how this segment timed its units
	// Scheduler is the scheduler's job and task the process ran in
	// (ThisJob), nil outside one.
	Scheduler *Scheduler `json:"scheduler,omitempty"`
}

// Timing is how a segment timed its units: the timer's overhead it
// subtracted, the units whose repeated runs disagreed, what the
// re-timing at its end did (its noise figure), and the garbage
// collector's part of it.
type Timing struct {
	TimerNS    int64   `json:"timer_ns"`
	Unstable   int     `json:"unstable"`
	Retimed    int     `json:"retimed"`   // units timed again at the end
	Slow       int     `json:"slow"`      // of which outliers confirmed slow
	Noise      int     `json:"noise"`     // sweep times not confirmed
	Confirmed  int     `json:"confirmed"` // slowest units confirmed
	Left       int     `json:"left"`      // candidates not re-timed (time allowed spent)
	RetimeNS   int64   `json:"retime_ns"`
	RetimeErr  string  `json:"retime_error,omitempty"` // the rows could not be amended: they keep their sweep times
	GCCycles   uint64  `json:"gc_cycles"`
	GCPauseNS  int64   `json:"gc_pause_ns"`
	GCCPUShare float64 `json:"gc_cpu_share"`
	// Null is the null round trip of each external solver, measured
	// during the segment's sweep: the part of its units' times (ns) that
	// is the pipes and the wake-ups, not the program.
	Null []NullRoundTrip `json:"null,omitempty"`
}

// NullRoundTrip is the null round trip of an external solver during a
// sweep (docs/PROTOCOL.md, "Times"): round trips with a built-in echo
// peer behind the same guard and pipes, taken between the solver's
// requests by the workers that send them, at most one a millisecond per
// process (the re-timing's included).
type NullRoundTrip struct {
	Name     string `json:"name"` // the strategy
	Samples  int    `json:"samples"`
	MedianNS int64  `json:"median_ns"`
	P10NS    int64  `json:"p10_ns"`
	P90NS    int64  `json:"p90_ns"`
	P99NS    int64  `json:"p99_ns"`
}

// Manifest is run.json: the provenance of a run directory.
type Manifest struct {
	Tool   string    `json:"tool"`
	RunID  string    `json:"run_id"`
	Status string    `json:"status"` // running, finished, interrupted, failed
	Start  time.Time `json:"start"`
	End    time.Time `json:"end,omitzero"`
	// DurationNS is the run's wall time: the sum of its segments' (the
	// time its processes ran, without the gaps between a kill and a
	// resume); of a merged run, the span from the first shard's start to
	// the last one's end, the shards running side by side.
	DurationNS int64  `json:"duration_ns"`
	Duration   string `json:"duration"`
	// CPUNS is the CPU time of the segments that recorded theirs (of a
	// merged run, the work of every shard's machines).
	CPUNS     int64        `json:"cpu_ns,omitempty"`
	Settings  Settings     `json:"settings"`
	Corpora   []CorpusInfo `json:"corpora"`
	Rows      int          `json:"rows"` // rows in results.csv
	Segments  []Segment    `json:"segments"`
	Highlight []int        `json:"highlight,omitempty"` // -highlight: puzzle ids marked in the report
	// NoHighlight records -highlight none: the report marks no puzzle,
	// not even the default corpus's classic example.
	NoHighlight bool `json:"no_highlight,omitempty"`
	// Shards: a run merged from shards (Merge) joins this many, each
	// swept by its own processes (shard k holds the ids k mod Shards);
	// 0 otherwise. The settings of a merged run have no shard.
	Shards int `json:"shards,omitempty"`
}

// The statuses of a run and of its segments. A run is finished only when
// every unit of its selection has its row and every corpus was read to
// its end; failed when rows could not be written or a corpus could not be
// read to its end (see CorpusInfo.Error). Killed is a segment whose
// process ended without closing the run (kill -9, a crash): the next
// Resume closes it.
const (
	Running     = "running"
	Finished    = "finished"
	Interrupted = "interrupted"
	Failed      = "failed"
	Killed      = "killed"
)

// StreamFile is the name, in a run directory, of the copy of corpus i
// when it is a stream (CorpusInfo.Stream): the bytes read, as read.
func StreamFile(i int) string { return fmt.Sprintf("stream-%d", i) }

// ReadManifest reads dir/run.json and validates it (see Validate). It
// refuses anything but a regular file (OpenRegular), so that a FIFO in
// its place cannot block it.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	f, err := OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("reading run info: %w", err)
	}
	b, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading run info: %w", err)
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseManifest decodes and validates the bytes of a run.json.
func ParseManifest(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("not a run.json: %w", err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate checks a manifest read from disk: its settings as the flags
// are checked (Settings.Validate), its corpora against them, its
// statuses and counts. The error names the field.
func (m *Manifest) Validate() error {
	if err := m.Settings.Validate(); err != nil {
		return err
	}
	if !slices.Contains([]string{Running, Finished, Interrupted, Failed}, m.Status) {
		return fmt.Errorf("status: %q is not a run status", m.Status)
	}
	if m.Rows < 0 || m.DurationNS < 0 || m.CPUNS < 0 {
		return errors.New("rows, duration_ns, cpu_ns: negative")
	}
	if len(m.Corpora) != 0 && len(m.Corpora) != len(m.Settings.Corpora) {
		return fmt.Errorf("corpora: %d corpora, but settings.corpora has %d", len(m.Corpora), len(m.Settings.Corpora))
	}
	for i, c := range m.Corpora {
		field := fmt.Sprintf("corpora[%d]", i)
		switch {
		case c.Path != m.Settings.Corpora[i]:
			return fmt.Errorf("%s.path: %q, but settings.corpora[%d] is %q", field, c.Path, i, m.Settings.Corpora[i])
		case c.Size < 0 || c.Lines < 0 || c.Puzzles < 0 || c.Invalid < 0 || c.Skipped < 0:
			return fmt.Errorf("%s: a negative count", field)
		case c.Invalid > c.Puzzles:
			return fmt.Errorf("%s: %d invalid lines among %d puzzle lines", field, c.Invalid, c.Puzzles)
		case c.Complete && c.Lines != c.Puzzles+c.Skipped:
			return fmt.Errorf("%s: %d lines, but %d puzzle lines and %d skipped", field, c.Lines, c.Puzzles, c.Skipped)
		case c.SHA256 != "" && !isHex(c.SHA256, 64):
			return fmt.Errorf("%s.sha256: %q is not a SHA-256", field, c.SHA256)
		}
	}
	for i, s := range m.Segments {
		field := fmt.Sprintf("segments[%d]", i)
		switch {
		case !slices.Contains([]string{Running, Finished, Interrupted, Failed, Killed}, s.Status):
			return fmt.Errorf("%s.status: %q is not a segment status", field, s.Status)
		case s.Rows < 0 || s.Workers < 0 || s.DurationNS < 0 || s.CPUNS < 0:
			return fmt.Errorf("%s: a negative count", field)
		}
	}
	if m.Shards < 0 || (m.Shards > 0 && m.Settings.Shard != "") {
		return fmt.Errorf("shards: %d, with settings.shard %q: want a count >= 0, and no shard of a merged run", m.Shards, m.Settings.Shard)
	}
	for i, id := range m.Highlight {
		if id < 0 {
			return fmt.Errorf("highlight[%d]: %d, want an id >= 0", i, id)
		}
	}
	return nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// end closes the segment at t (not before its start) with status.
func (s *Segment) end(t time.Time, status string) {
	s.End, s.Status = t, status
	if s.End.Before(s.Start) {
		s.End = s.Start
	}
	s.DurationNS = s.End.Sub(s.Start).Nanoseconds()
}

// closeKilled closes the segments that a killed process left running
// (whoever calls it holds the run's lock, so their process is gone):
// status killed, ending at last, the last write into the directory. With
// rows >= 0, the rows in results.csv, the last of them is given the rows
// that no other segment wrote; else their counts stay as recorded. It
// reports whether there was any.
func (m *Manifest) closeKilled(last time.Time, rows int) bool {
	others := 0
	var killed []*Segment
	for i := range m.Segments {
		s := &m.Segments[i]
		if s.Status == Running {
			killed = append(killed, s)
		} else {
			others += s.Rows
		}
	}
	for i, s := range killed {
		s.end(last, Killed)
		if rows >= 0 {
			if i == len(killed)-1 {
				s.Rows = max(rows-others, 0)
			} else {
				s.Rows = 0
			}
			others += s.Rows
		}
	}
	if len(killed) > 0 {
		m.sumDurations()
	}
	return len(killed) > 0
}

// sumDurations sets the run's wall time and CPU time from its segments'
// (see DurationNS).
func (m *Manifest) sumDurations() {
	m.DurationNS, m.CPUNS = 0, 0
	for _, s := range m.Segments {
		d := s.DurationNS
		if d == 0 && !s.End.IsZero() {
			d = s.End.Sub(s.Start).Nanoseconds() // a run.json from before segments had their own
		}
		m.DurationNS += max(d, 0)
		m.CPUNS += max(s.CPUNS, 0)
	}
	if m.Shards > 0 && !m.End.IsZero() {
		m.DurationNS = max(m.End.Sub(m.Start).Nanoseconds(), 0)
	}
	m.Duration = time.Duration(m.DurationNS).Round(time.Millisecond).String()
}

// ErrCorpusChanged is wrapped by the error of CheckCorpus when a corpus is
// not the one the run read.
var ErrCorpusChanged = errors.New("corpus changed")

// CheckCorpus compares corpus i as it is now (size and SHA-256 of its
// bytes) with what the run recorded, and names the file and both
// checksums when they differ. A corpus the run recorded no checksum for
// (a stream, or a run.json from before they were recorded at the start)
// passes: there is nothing to compare.
func (m *Manifest) CheckCorpus(i int, now CorpusInfo) error {
	if i >= len(m.Corpora) || m.Corpora[i].SHA256 == "" {
		return nil
	}
	was := m.Corpora[i]
	if was.Size != now.Size || was.SHA256 != now.SHA256 {
		return fmt.Errorf("%w: %s is not the file the run read: now %d bytes, SHA-256 %s; the run read %d bytes, SHA-256 %s",
			ErrCorpusChanged, now.Path, now.Size, now.SHA256, was.Size, was.SHA256)
	}
	return nil
}

// UpdateCorpora records what this process read of the corpora: counts of
// a corpus read to its end replace the recorded ones; counts of a part
// (an interrupted read) replace only counts of a smaller part.
func (m *Manifest) UpdateCorpora(read []CorpusInfo) {
	if len(m.Corpora) != len(read) {
		m.Corpora = read
		return
	}
	for i, r := range read {
		was := &m.Corpora[i]
		switch {
		case r.Complete || r.Error != "":
			*was = r
		case !was.Complete && r.Lines >= was.Lines:
			*was = r
		}
	}
}

// WriteManifest writes dir/run.json atomically (a temporary file renamed),
// so that a crash never leaves half a run.json. On a full disk, where
// the temporary file cannot be written, it overwrites run.json in place
// when the new one (indented, or else compact) fits in the space the old
// one holds (a run stopped by a full disk is then recorded failed, not
// left running).
func WriteManifest(dir string, ri *Manifest) error {
	b, err := json.MarshalIndent(ri, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, ManifestFile)
	b = append(b, '\n')
	err = WriteFile(path, b)
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		if overwriteInPlace(path, b) == nil {
			return nil
		}
		// Without the indentation, a third smaller.
		if compact, cerr := json.Marshal(ri); cerr == nil && overwriteInPlace(path, append(compact, '\n')) == nil {
			return nil
		}
	}
	return err
}

// overwriteInPlace writes data over the file at path, if the blocks the
// file holds can take it: no block is asked of a full disk, and the
// file is not changed when they cannot.
func overwriteInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || int64(len(data)) > sys.Blocks*512 {
		return errors.New("the new file does not fit in the old one's blocks")
	}
	if _, err := f.WriteAt(data, 0); err != nil {
		return err
	}
	if err := f.Truncate(int64(len(data))); err != nil {
		return err
	}
	return f.Sync()
}

// WriteFile writes path through a temporary file in the same directory
// and a rename, so that path is either the old file or the new one in
// full, readable by all (mode 0644) like the rest of a run directory.
func WriteFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(0o644) // CreateTemp makes 0600 files: let other users read the report
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("writing %s: %w", path, werr)
	}
	return nil
}
