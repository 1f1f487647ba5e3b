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
	Path    string `json:"path"`    // as given; "-" is standard input
	Size    int64  `json:"size"`    // bytes of the file as stored (compressed size for .gz)
	SHA256  string `json:"sha256"`  // of the file as stored
	Gzip    bool   `json:"gzip"`    // read through gzip
	Puzzles int    `json:"puzzles"` // puzzle lines (valid or not)
	Invalid int    `json:"invalid"` // puzzle lines that are not puzzles
	Lines   int    `json:"lines"`   // all lines, with comments and blanks
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
