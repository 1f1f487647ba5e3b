package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"sudokubatch/rundir"
)

// DeliveryFile is the record, in the results root, of what trend has
// told: per series, the newest night a trend evaluated, and each alarm a
// trend delivered (printed, and exited 1 on). An alarm is new until it is
// delivered, whichever night raised it: a root trended for the first time,
// or after nights no trend ran on, exits 1 on every alarm no trend told
// and no annotation acknowledges. Like annotations.json, it is not
// rebuilt from the run directories: removed, every open alarm is told
// once more.
const DeliveryFile = "delivered.json"

// deliveryVersion is the version of the delivery file's format.
const deliveryVersion = 1

// Delivered is the delivery file: what trend runs have told, per series.
type Delivered struct {
	Version int                      `json:"version"`
	Series  map[string]*SeriesRecord `json:"series"` // by Series.ID
}

// SeriesRecord is what trend runs have told of one series.
type SeriesRecord struct {
	// Trended is the run id of the newest night of the series a trend
	// evaluated, TrendedStart its start: the nights after it are examined
	// for alarms of their own by the next trend.
	Trended      string           `json:"trended"`
	TrendedStart time.Time        `json:"trended_start"`
	Alarms       []DeliveredAlarm `json:"alarms"`
}

// DeliveredAlarm is an alarm a trend delivered: its strategy, its family
// (counters, slower for a time alarm or a step, missing) and the night
// its change started.
type DeliveredAlarm struct {
	Solver string    `json:"solver"`
	Family string    `json:"family"`
	RunID  string    `json:"run_id"` // the night the change started
	Run    string    `json:"run"`
	At     time.Time `json:"at"` // when it was delivered
}

// family is the family of an alarm kind: a slowdown is one alarm whether
// the gate or a change point found it.
func family(kind string) string {
	if kind == AlarmTime || kind == AlarmStep {
		return "slower"
	}
	return kind
}

// ReadDelivered reads the delivery file of root. A missing file is an
// empty record (nothing told yet); a damaged one an error naming the file
// and the reason.
func ReadDelivered(root string) (*Delivered, error) {
	d := &Delivered{Version: deliveryVersion, Series: map[string]*SeriesRecord{}}
	path := filepath.Join(root, DeliveryFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(b, d); err != nil {
		return &Delivered{Version: deliveryVersion, Series: map[string]*SeriesRecord{}}, decodeError(path, b, err)
	}
	if d.Version != deliveryVersion {
		return &Delivered{Version: deliveryVersion, Series: map[string]*SeriesRecord{}},
			fmt.Errorf("%s: %w %d; this build reads version %d", path, errOtherVersion, d.Version, deliveryVersion)
	}
	if d.Series == nil {
		d.Series = map[string]*SeriesRecord{}
	}
	return d, nil
}

// firstUntrended returns the index in s of the first night no trend
// evaluated (len(s.Nights) when the newest was); 0 for a series never
// trended.
func (d *Delivered) firstUntrended(s *Series) int {
	rec := d.Series[s.ID]
	if rec == nil {
		return 0
	}
	for i, n := range s.Nights {
		if n.RunID == rec.Trended {
			return i + 1
		}
	}
	for i, n := range s.Nights {
		if n.Start.After(rec.TrendedStart) {
			return i
		}
	}
	return len(s.Nights)
}

// find returns the delivery of alarm a of series s, or nil. A slowdown
// is the one delivered when its start is within a night of the
// delivered one's (one more night can move where a change point is cut).
func (d *Delivered) find(s *Series, a *Alarm) *DeliveredAlarm {
	rec := d.Series[s.ID]
	if rec == nil {
		return nil
	}
	fam := family(a.Kind)
	for i := range rec.Alarms {
		da := &rec.Alarms[i]
		if da.Solver != a.Solver || da.Family != fam {
			continue
		}
		if da.RunID == s.Nights[a.Start.Index-1].RunID {
			return da
		}
		if fam == "slower" {
			if j := slices.IndexFunc(s.Nights, func(n *Night) bool { return n.RunID == da.RunID }); j >= 0 && abs(j-(a.Start.Index-1)) <= 1 {
				return da
			}
		}
	}
	return nil
}

// RecordTrend records in root's delivery file what a trend told: the
// newest night of each series it evaluated (reports, one per series of
// h; nil for one not evaluated), and the alarms delivered, those the
// trend exited 1 on. The file is read, changed and written back under
// the root's lock, so that two trends at once both count; a damaged file
// is replaced (its alarms are told again).
func RecordTrend(root string, h *History, reports []*Report, delivered []*Alarm, at time.Time) error {
	return withRootLock(root, func() error {
		d, err := ReadDelivered(root)
		if err != nil && !isDamaged(err) {
			return err
		}
		for i, s := range h.Series {
			if i >= len(reports) || reports[i] == nil {
				continue
			}
			rec := d.Series[s.ID]
			if rec == nil {
				rec = &SeriesRecord{Alarms: []DeliveredAlarm{}}
				d.Series[s.ID] = rec
			}
			if n := s.Newest(); n.Start.After(rec.TrendedStart) || rec.Trended == "" {
				rec.Trended, rec.TrendedStart = n.RunID, n.Start
			}
			for _, a := range reports[i].Alarms {
				if !slices.Contains(delivered, a) || d.find(s, a) != nil {
					continue
				}
				start := s.Nights[a.Start.Index-1]
				rec.Alarms = append(rec.Alarms, DeliveredAlarm{Solver: a.Solver, Family: family(a.Kind), RunID: start.RunID, Run: start.Run, At: at.UTC()})
			}
		}
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return err
		}
		return rundir.WriteFile(filepath.Join(root, DeliveryFile), append(b, '\n'))
	})
}

// isDamaged reports whether err is ReadDelivered's for a file that reads
// but does not decode (or is of another version): such a file is
// replaced, not a failure.
func isDamaged(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, errOtherVersion)
}

// errOtherVersion marks a file of another format version.
var errOtherVersion = errors.New("of version")

// applyDeliveries marks each alarm of r new unless it was delivered, and
// gives the date of its delivery.
func applyDeliveries(d *Delivered, r *Report) {
	for _, a := range r.Alarms {
		if da := d.find(r.Series, a); da != nil {
			at := da.At
			a.New, a.Delivered = false, &at
		} else {
			a.New, a.Delivered = true, nil
		}
	}
}
