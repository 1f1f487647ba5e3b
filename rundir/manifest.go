package rundir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
		return nil, fmt.Errorf("%snot a run.json: %w", lineOf(b, err), err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// lineOf returns "line N: ", the line of b where decoding it failed with
// err (a value not JSON, or not of its field's type: run.json is edited
// by hand), or "" when err says no place.
func lineOf(b []byte, err error) string {
	var at int64
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		at = se.Offset
	} else if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		at = te.Offset
	} else {
		return ""
	}
	return fmt.Sprintf("line %d: ", 1+bytes.Count(b[:min(max(at, 0), int64(len(b)))], []byte("\n")))
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
	for _, c := range []struct {
		field string
		n     int64
	}{{"rows", int64(m.Rows)}, {"duration_ns", m.DurationNS}, {"cpu_ns", m.CPUNS}} {
		if c.n < 0 {
			return fmt.Errorf("%s: %d, want a count >= 0", c.field, c.n)
		}
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

// isHex reports whether s is n lowercase hex digits, as
// hex.EncodeToString writes them (a SHA-256: n = 2*sha256.Size).
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
