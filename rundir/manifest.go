package rundir

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
}

// Segment is one invocation that wrote rows into the run (the first run,
// each -resume, or a merged shard).
type Segment struct {
	Start   time.Time `json:"start"`
	End     time.Time `json:"end,omitzero"`
	Command []string  `json:"command"`
	Workers int       `json:"workers"`
	Rows    int       `json:"rows"`
	Status  string    `json:"status"` // running, finished, interrupted, failed
	Machine Machine   `json:"machine"`
	Source  string    `json:"source,omitempty"` // the shard directory, for merged runs
}

// Manifest is run.json: the provenance of a run directory.
type Manifest struct {
	Tool       string       `json:"tool"`
	RunID      string       `json:"run_id"`
	Status     string       `json:"status"` // running, finished, interrupted, failed
	Start      time.Time    `json:"start"`
	End        time.Time    `json:"end,omitzero"`
	DurationNS int64        `json:"duration_ns"` // wall time of all segments
	Duration   string       `json:"duration"`
	Settings   Settings     `json:"settings"`
	Corpora    []CorpusInfo `json:"corpora"`
	Rows       int          `json:"rows"` // rows in results.csv
	Segments   []Segment    `json:"segments"`
	Highlight  []int        `json:"highlight,omitempty"` // -highlight: puzzle ids marked in the report
}

// The statuses of a run and of its segments.
const (
	Running     = "running"
	Finished    = "finished"
	Interrupted = "interrupted"
	Failed      = "failed"
)

// ReadManifest reads dir/run.json.
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading run info: %w", err)
	}
	var ri Manifest
	if err := json.Unmarshal(b, &ri); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return &ri, nil
}

// WriteManifest writes dir/run.json atomically (a temporary file renamed),
// so that a crash never leaves half a run.json.
func WriteManifest(dir string, ri *Manifest) error {
	b, err := json.MarshalIndent(ri, "", "  ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'))
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
