package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"sudokubatch/rundir"
)

// AnnotationsFile is the file of acknowledgements in the results root,
// written by `batch trend -ack NIGHT STRATEGY "why"`. It is the one file
// of the history that people write (through trend): a rebuild of the
// index does not touch it.
const AnnotationsFile = "annotations.json"

// annotationsVersion is the version of the annotations file's format.
const annotationsVersion = 1

type annotations struct {
	Version int   `json:"version"`
	Acks    []Ack `json:"acks"`
}

// ReadAnnotations reads the acknowledgements of root. A missing file is
// none; a damaged one an error naming the file and the reason.
func ReadAnnotations(root string) ([]Ack, error) {
	path := filepath.Join(root, AnnotationsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// Nothing rebuilds the file: a damaged one stops trend until it is
	// mended, and the error says how.
	const mend = "mend it by hand, or remove it and acknowledge again with batch trend -ack"
	var a annotations
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("%w (%s)", decodeError(path, b, err), mend)
	}
	if a.Version != annotationsVersion {
		return nil, fmt.Errorf("%s: of version %d; this build reads version %d", path, a.Version, annotationsVersion)
	}
	for i, ack := range a.Acks {
		if ack.Run == "" || ack.Solver == "" {
			return nil, fmt.Errorf("%s: acks[%d]: no run or no strategy (%s)", path, i, mend)
		}
	}
	return a.Acks, nil
}

// Acknowledge adds ack to the annotations of root (replacing an earlier
// acknowledgement of the same night and strategy) and writes the file
// atomically, holding the root's lock from the read to the write, so
// that two acknowledgements at once both count. It returns the
// acknowledgements after the change.
func Acknowledge(root string, ack Ack) ([]Ack, error) {
	if strings.TrimSpace(ack.Why) == "" {
		return nil, errors.New("an acknowledgement needs a reason: -ack NIGHT STRATEGY \"why\"")
	}
	if ack.At.IsZero() {
		ack.At = time.Now().UTC()
	}
	var acks []Ack
	err := withRootLock(root, func() error {
		var err error
		if acks, err = ReadAnnotations(root); err != nil {
			return err
		}
		kept := acks[:0]
		for _, a := range acks {
			if !(a.Run == ack.Run && a.RunID == ack.RunID && a.Solver == ack.Solver) {
				kept = append(kept, a)
			}
		}
		acks = append(kept, ack)
		b, err := json.MarshalIndent(annotations{Version: annotationsVersion, Acks: acks}, "", "  ")
		if err != nil {
			return err
		}
		return rundir.WriteFile(filepath.Join(root, AnnotationsFile), append(b, '\n'))
	})
	if err != nil {
		return nil, err
	}
	return acks, nil
}

// ackSet finds the acknowledgement of a night and strategy.
type ackSet struct {
	by map[string]*Ack // run id + "\x00" + strategy
}

func newAckSet(acks []Ack) *ackSet {
	s := &ackSet{by: map[string]*Ack{}}
	for i := range acks {
		s.by[acks[i].RunID+"\x00"+acks[i].Solver] = &acks[i]
	}
	return s
}

// of returns the acknowledgement of strategy solver on night n, or nil.
func (s *ackSet) of(n *Night, solver string) *Ack {
	if s == nil {
		return nil
	}
	return s.by[n.RunID+"\x00"+solver]
}
