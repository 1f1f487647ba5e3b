package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"sudokubatch/rundir"
)

// Signature is what makes two nights comparable: the same corpora (by
// SHA-256), the same selection of puzzles, the same limits, -unique and
// -runs, on the same machine (CPU model and count) with the same number
// of workers. Nights with different signatures belong to different
// series and are never compared. The strategies are not part of it: a
// strategy added to the nightly sweep starts its own line in the series.
// Neither is the seed: the detectors compare a randomised strategy only
// between nights of the same seed (Night.Seed).
type Signature struct {
	Corpora  []CorpusKey `json:"corpora"`
	IDs      []int       `json:"ids,omitempty"`
	Range    string      `json:"range,omitempty"`
	Limit    int         `json:"limit,omitempty"`
	Shard    string      `json:"shard,omitempty"`
	Timeout  int64       `json:"timeout_ns"` // 0: none
	MaxCalls uint64      `json:"max_calls"`  // 0: none
	Unique   bool        `json:"unique"`
	Runs     int         `json:"runs"`
	CPU      string      `json:"cpu"`
	NumCPU   int         `json:"num_cpu"`
	Workers  int         `json:"workers"`
}

// CorpusKey identifies a corpus by its content: its SHA-256, or, for a
// run that recorded none, its path and size (a weaker key, shown as such).
type CorpusKey struct {
	Name   string `json:"name"` // base name, for people
	SHA256 string `json:"sha256,omitempty"`
	Size   int64  `json:"size,omitempty"` // only without a SHA-256
}

// Equal reports whether s and o are the same signature.
func (s *Signature) Equal(o *Signature) bool { return s.ID() == o.ID() }

// ID returns a short, stable identifier of the signature: the first 12
// hex digits of the SHA-256 of its canonical form (corpus names left
// out, so that a corpus read under another path stays in its series).
func (s *Signature) ID() string {
	c := *s
	c.Corpora = make([]CorpusKey, len(s.Corpora))
	for i, k := range s.Corpora {
		c.Corpora[i] = CorpusKey{SHA256: k.SHA256, Size: k.Size}
		if k.SHA256 == "" {
			c.Corpora[i].Name = k.Name
		}
	}
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // plain fields: cannot fail
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:6])
}

// Key returns the signature for people, on one line: corpora (name and
// the start of the SHA-256), selection, limits, -unique, -runs, machine
// and workers, e.g.
//
//	sudoku17.txt@71755fa5 range=0:50 timeout=100ms max-calls=none unique=false runs=5 cpu="AMD EPYC 7B13" x2 workers=2
func (s *Signature) Key() string {
	var b strings.Builder
	for i, c := range s.Corpora {
		if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(c.Name)
		if c.SHA256 != "" {
			b.WriteString("@" + c.SHA256[:min(8, len(c.SHA256))])
		} else {
			fmt.Fprintf(&b, "@%dB(no sha256)", c.Size)
		}
	}
	switch {
	case len(s.IDs) > 0 && len(s.IDs) <= 5:
		b.WriteString(" ids=" + strings.Trim(strings.Join(strings.Fields(fmt.Sprint(s.IDs)), ","), "[]"))
	case len(s.IDs) > 5:
		sum := sha256.Sum256([]byte(fmt.Sprint(s.IDs)))
		fmt.Fprintf(&b, " ids=%d(%x)", len(s.IDs), sum[:4])
	}
	if s.Range != "" {
		b.WriteString(" range=" + s.Range)
	}
	if s.Limit > 0 {
		fmt.Fprintf(&b, " limit=%d", s.Limit)
	}
	if s.Shard != "" {
		b.WriteString(" shard=" + s.Shard)
	}
	b.WriteString(" timeout=")
	if s.Timeout > 0 {
		b.WriteString(time.Duration(s.Timeout).String())
	} else {
		b.WriteString("none")
	}
	b.WriteString(" max-calls=")
	if s.MaxCalls > 0 {
		b.WriteString(strconv.FormatUint(s.MaxCalls, 10))
	} else {
		b.WriteString("none")
	}
	fmt.Fprintf(&b, " unique=%t runs=%d cpu=%q x%d workers=%d", s.Unique, s.Runs, s.CPU, s.NumCPU, s.Workers)
	return b.String()
}

// signatureOf returns the signature of the run m describes, or the
// reason it has none: its segments ran on several machines or with
// several worker counts (its times mix conditions, it belongs to no
// series).
func signatureOf(m *rundir.Manifest) (Signature, string) {
	st := m.Settings
	s := Signature{
		IDs: st.IDs, Range: st.Range, Limit: st.Limit, Shard: st.Shard,
		Timeout: st.TimeoutNS, MaxCalls: st.MaxCalls, Unique: st.Unique, Runs: st.Runs,
	}
	if s.Runs == 0 {
		s.Runs = rundir.MaxRuns // a run.json from before -runs: the default
	}
	for i, path := range st.Corpora {
		k := CorpusKey{Name: filepath.Base(path)}
		if path == "" || path == "-" {
			k.Name = "stdin"
		}
		if i < len(m.Corpora) {
			k.SHA256 = m.Corpora[i].SHA256
			if k.SHA256 == "" {
				k.Size = m.Corpora[i].Size
			}
		}
		s.Corpora = append(s.Corpora, k)
	}
	if len(m.Segments) == 0 {
		return s, "run.json has no segment: no machine"
	}
	first := m.Segments[0]
	s.CPU, s.NumCPU, s.Workers = first.Machine.CPU, first.Machine.NumCPU, first.Workers
	for _, g := range m.Segments[1:] {
		switch {
		case g.Machine.CPU != s.CPU || g.Machine.NumCPU != s.NumCPU:
			return s, fmt.Sprintf("its segments ran on several machines (%q x%d, %q x%d)", s.CPU, s.NumCPU, g.Machine.CPU, g.Machine.NumCPU)
		case g.Workers != s.Workers && g.Rows > 0:
			return s, fmt.Sprintf("its segments ran with %d and %d workers", s.Workers, g.Workers)
		}
	}
	return s, ""
}
