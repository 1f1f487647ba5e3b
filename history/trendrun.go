package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"sudokubatch/report"
	"sudokubatch/rundir"
)

// Outcome is one batch trend over a results root: the history read, the
// report of each series, and what the trend could not record. Trend
// makes it; the caller prints it (WriteText), writes the files
// (WriteFiles) and records what it told (Record), in that order.
type Outcome struct {
	Root    string
	Named   bool // runs were named: a selection, whose files and verdicts are not the root's
	Refresh *Refresh
	Index   *Index
	History *History
	Reports []*Report // one per series of History
	Memo    Memo
	// Warnings are for stderr: a damaged delivery record replaced, a
	// bisect script that could not be written.
	Warnings []string
	// Failed are the writes of what the next trend reads that failed
	// (the index, the verdicts, the record of what was told): trend exits
	// 1 on them, since the next trend would not know what this one did.
	Failed []error
}

// Trend reads the history of root (Update), or of the runs named, and
// evaluates each series with the root's acknowledgements and record of
// what was told (ReadDelivered), the verdicts kept in the index, and
// writes a bisect script for each new alarm that names puzzles and a
// good night (WriteBisect). The error is for a root that cannot be
// listed, annotations that cannot be read, a run that cannot be named
// (*UsageError), or a series the detectors fail on.
func Trend(ctx context.Context, root string, runs []string, opt Options) (*Outcome, error) {
	o := &Outcome{Root: root, Named: len(runs) > 0}
	idx, refresh, err := Update(root)
	if err != nil {
		return nil, &UsageError{err}
	}
	o.Refresh, o.Index = refresh, idx
	if refresh.WriteErr != nil {
		o.Failed = append(o.Failed, fmt.Errorf("the index: %w", refresh.WriteErr))
	}
	acks, err := ReadAnnotations(root)
	if err != nil {
		return nil, &UsageError{fmt.Errorf("reading the acknowledgements: %w", err)}
	}
	delivered, err := ReadDelivered(root)
	if err != nil {
		o.Warnings = append(o.Warnings, fmt.Sprintf("%v: read as empty (every open alarm is told again)", err))
	}
	o.History = idx.All()
	if o.Named {
		if o.History, err = idx.Selected(root, runs); err != nil {
			return nil, err
		}
	}
	o.Memo = idx.Memo()
	opt.Memo, opt.Delivered = o.Memo, delivered
	o.Reports = make([]*Report, len(o.History.Series))
	for i, s := range o.History.Series {
		if o.Reports[i], err = Evaluate(ctx, root, s, acks, opt); err != nil {
			return nil, fmt.Errorf("series %s: %w", s.ID, err)
		}
	}
	for _, r := range o.Reports {
		for _, a := range r.Alarms {
			if !a.New || a.Good == nil || len(a.Puzzles) == 0 || a.Ack != nil {
				continue
			}
			rel, err := WriteBisect(root, r, a)
			if err != nil {
				o.Warnings = append(o.Warnings, fmt.Sprintf("the bisect script of %s's %s alarm: %v", a.Solver, a.Kind, err))
				continue
			}
			a.Bisect = rel
		}
	}
	return o, nil
}

// CheckRoot returns nil when root is a directory, and else a
// *UsageError saying that it does not exist or is not a directory.
func CheckRoot(root string) error {
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &UsageError{fmt.Errorf("results root %s does not exist (-root names the directory of the run directories, results by default: run trend where the sweeps wrote theirs)", root)}
	case err != nil || !fi.IsDir():
		return &UsageError{fmt.Errorf("results root %s: not a directory (-root names the directory of the run directories)", root)}
	}
	return nil
}

// UsageError is an error of the command line or of the root (exit 2).
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Counted returns the new, unacknowledged alarms that make trend exit 1:
// those of the series whose newest night started within a day of the
// newest night of all (a series that stopped running long ago does not
// fail every night that follows).
func (o *Outcome) Counted() []*Alarm {
	var newest time.Time
	for _, s := range o.History.Series {
		if t := s.Newest().Start; t.After(newest) {
			newest = t
		}
	}
	var out []*Alarm
	for i, s := range o.History.Series {
		if o.Reports[i] == nil || newest.Sub(s.Newest().Start) > 24*time.Hour {
			continue
		}
		for _, a := range o.Reports[i].Alarms {
			if a.Unacknowledged() {
				out = append(out, a)
			}
		}
	}
	return out
}

// WriteFiles writes trend's files of the whole root (the package's
// WriteFiles) and keeps the verdicts in the index; with runs named it
// writes neither: they describe the whole root. It returns the files
// written, and what could not be written of them (a chart not drawn, a
// file not written: for people, the next trend does not read them).
func (o *Outcome) WriteFiles() ([]string, error) {
	if o.Named {
		return nil, nil
	}
	if err := o.Index.SaveMemo(o.Refresh.Path, o.Memo); err != nil {
		o.Failed = append(o.Failed, fmt.Errorf("the verdicts: %w", err))
	}
	return WriteFiles(o.Root, o.History, o.Reports)
}

// FilesLine says where trend's files went, once WriteFiles wrote those
// of written: with runs named, that the root's were left as they were;
// "" when none was written.
func (o *Outcome) FilesLine(written []string) string {
	if o.Named {
		return fmt.Sprintf("(runs named: %s, %s, %s, the charts and the verdicts kept in %s are left as they were; batch trend -root %s writes them)",
			TrendMD, TrendJSON, PageFile, IndexFile, o.Root)
	}
	if len(written) == 0 {
		return ""
	}
	return fmt.Sprintf("wrote %s, %s, %s and %d chart files (PNG, SVG and a small PNG each) in %s",
		TrendMD, TrendJSON, PageFile, max(len(written)-3, 0), o.Root)
}

// EndLine is trend's last line on stderr: the nights and series read,
// and took, the time it took: "trend: 12 nights in 2 series in 1.204s".
func (o *Outcome) EndLine(took time.Duration) string {
	nights := 0
	for _, s := range o.History.Series {
		nights += len(s.Nights)
	}
	return fmt.Sprintf("trend: %s in %s in %s", report.Count(nights, "night", "nights"),
		report.Count(len(o.History.Series), "series", "series"), took.Round(time.Millisecond))
}

// Record records in the root's delivery file that this trend evaluated
// the newest night of each series, and delivered the alarms it exits 1
// on (Counted), at time at.
func (o *Outcome) Record(at time.Time) {
	if err := RecordTrend(o.Root, o.History, o.Reports, o.Counted(), at); err != nil {
		o.Failed = append(o.Failed, fmt.Errorf("what was told: %w", err))
	}
}

// Exit says how trend ends: whether it fails (exit 1: new alarms it
// delivers, or writes that failed) and the exit's note: those alarms,
// the writes, and on any exit the strategies the gate is blind to ("":
// nothing to say).
func (o *Outcome) Exit() (note string, fail bool) {
	var parts []string
	if alarms := o.Counted(); len(alarms) > 0 {
		var what []string
		for _, a := range alarms {
			what = append(what, fmt.Sprintf("%s (%s, night %s)", a.Solver, a.Kind, a.Night.Run))
		}
		parts = append(parts, fmt.Sprintf("%s: %s (acknowledge with batch trend -ack NIGHT STRATEGY \"why\")",
			report.Count(len(alarms), "new alarm", "new alarms"), strings.Join(what, ", ")))
		fail = true
	}
	if len(o.Failed) > 0 {
		parts = append(parts, fmt.Sprintf("what this trend found could not be recorded in %s (%v): the next trend knows nothing of it, and tells its alarms again",
			o.Root, strings.ReplaceAll(errors.Join(o.Failed...).Error(), "\n", "; ")))
		fail = true
	}
	var blind []string
	for i, r := range o.Reports {
		for _, b := range r.Blind {
			blind = append(blind, fmt.Sprintf("%s (series %s, %s)", b.Solver, o.History.Series[i].ID, report.Count(b.Nights, "night", "nights")))
		}
	}
	if len(blind) > 0 {
		if !fail {
			parts = append(parts, "no new alarm")
		}
		parts = append(parts, "but the gate is blind to "+strings.Join(blind, ", ")+": it judged none of those nights, so a slowdown there is no alarm (the notes say why)")
	}
	return strings.Join(parts, "; "), fail
}

// CheckAck returns nil when the night of entry e raised an alarm of
// strategy solver (new or known, as trend would have told it that
// night: the series cut after the night), and else an error saying why
// an acknowledgement of it is refused: an acknowledgement silences an
// alarm and restarts the strategy's baseline from its night, and
// without an alarm it would restart the baseline alone.
func CheckAck(ctx context.Context, root string, idx *Index, acks []Ack, e *Entry, solver string, opt Options) error {
	for _, s := range idx.All().Series {
		k := slices.Index(s.Nights, e.Night)
		if k < 0 {
			continue
		}
		cut := *s
		cut.Nights = s.Nights[:k+1]
		opt.Memo = idx.Memo()
		r, err := Evaluate(ctx, root, &cut, acks, opt)
		if err != nil {
			return err
		}
		for _, a := range r.Alarms {
			if a.Solver == solver && (a.Night.Index == k+1 || a.Start.Index == k+1) {
				return nil
			}
		}
		// A step found on a later night is an alarm dated to the night
		// it starts, which the series cut there cannot show: the whole
		// series can. The whole series shows it as an alarm only while it
		// is new (the night that found it); on the nights after, as a step
		// of alarm size (stepAlarms' bounds), which the trend of the night
		// that found it alarmed on unless the gate had.
		if k+1 < len(s.Nights) {
			whole, err := Evaluate(ctx, root, s, acks, opt)
			if err != nil {
				return err
			}
			for _, a := range whole.Alarms {
				if a.Solver == solver && (a.Night.Index == k+1 || a.Start.Index == k+1) {
					return nil
				}
			}
			for _, st := range whole.Steps {
				if st.Solver == solver && st.Night.Index == k+1 && alarmSized(st, whole.Options) {
					return nil
				}
			}
		}
		verdict := "absent"
		if tr := trendNamed(r, solver); tr != nil {
			verdict = tr.Verdict
		}
		if e.Night.StrategyNamed(solver) == nil && verdict == "absent" {
			var names []string
			for _, st := range e.Night.Strategy {
				names = append(names, st.Solver)
			}
			return fmt.Errorf("night %s has no strategy %s and raised no alarm of it (it has %s)", e.Run, solver, strings.Join(names, ", "))
		}
		return fmt.Errorf("night %s raised no alarm of %s (its verdict there: %s); an acknowledgement silences an alarm and restarts the strategy's baseline from its night: with none to silence it would only restart the baseline, and is refused",
			e.Run, solver, verdict)
	}
	return fmt.Errorf("night %s is in no series", e.Run)
}

// LookupNamed finds the entry of a night named on the command line: a run
// directory of root by its path (through a symbolic link such as
// results/latest) or its name.
func (idx *Index) LookupNamed(root, named string) *Entry {
	if in, name := rundir.Locate(named); in == filepath.Join(rundir.Locate(root)) {
		if e := idx.Lookup(name); e != nil {
			return e
		}
	}
	if e := idx.Lookup(named); e != nil {
		return e
	}
	return idx.Lookup(filepath.Base(named))
}
