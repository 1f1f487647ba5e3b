package history

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// TrendFileVersion is the version of trend.json's format: a field is only
// ever added within a version; one removed or changing meaning makes the
// next version. Version 2: options.busy is the share beyond which a night
// is judged against busy nights (no longer the share beyond which its
// slowdowns were no alarms); an alarm's new means not delivered yet.
const TrendFileVersion = 2

// TrendFile is trend.json: what trend found, for programs. Times are in
// integer nanoseconds, ratios unrounded (newest / baseline: above 1 is
// slower), dates RFC 3339 in UTC, runs relative to the results root,
// files (charts, bisect scripts, night pages) relative to the results
// root with slashes. Lists are never null: an empty list is [].
type TrendFile struct {
	Version int `json:"version"` // TrendFileVersion
	// Unacknowledged counts the new alarms of every series that no
	// annotation acknowledges (trend exits 1 on those of the series whose
	// newest night is within a day of the newest of all).
	Unacknowledged int           `json:"unacknowledged_alarms"`
	Series         []TrendSeries `json:"series"` // the series of the newest night first
	Skipped        []TrendSkip   `json:"skipped"`
}

// TrendSeries is one series of trend.json: its signature, and what the
// detectors found (absent when they did not run: Evaluated is false).
type TrendSeries struct {
	ID        string        `json:"id"`  // Signature.ID: also the charts' file prefix
	Key       string        `json:"key"` // Signature.Key, for people
	Signature Signature     `json:"signature"`
	Evaluated bool          `json:"evaluated"` // the detectors ran on it
	Newest    NightRef      `json:"newest"`
	Options   *TrendOptions `json:"options,omitempty"`
	// Machine is the change common to the strategies, newest / baseline.
	Machine    *MachineChange   `json:"machine,omitempty"`
	Strategies []*StrategyTrend `json:"strategies"` // per strategy of the newest night: figures, gate, counters, verdict
	Alarms     []*Alarm         `json:"alarms"`     // the newest night's and the untrended nights', acknowledged or not
	Blind      []*Blind         `json:"blind"`      // the strategies the gate has not judged for BlindNights nights or more
	Steps      []*Step          `json:"steps"`      // change points over the series, in night order
	Notes      []string         `json:"notes"`
	// Nights are every night of the series, oldest first: date, revision,
	// page, verdicts and alarms of each (verdicts where the gate was
	// computed for that night).
	Nights []*NightRow  `json:"nights"`
	Charts []TrendChart `json:"charts"` // the charts written, per measure
}

// TrendOptions are the detectors' settings a series was evaluated with,
// defaults filled in.
type TrendOptions struct {
	Baseline  int     `json:"baseline"`  // previous nights of the gate's baseline
	Threshold float64 `json:"threshold"` // minimum effect, a share (0.05: 5%)
	Top       int     `json:"top"`       // moved puzzles listed per alarm
	// Busy is the share of the workers' CPU time other work may take during a night
	// before it is a busy night, judged against busy nights only (1 or
	// more: every night is quiet).
	Busy float64 `json:"busy"`
}

// TrendSkip is a run in no series, and why.
type TrendSkip struct {
	Run    string `json:"run"`
	Reason string `json:"reason"`
}

// trendFile gathers the history and its reports into trend.json's form.
func trendFile(h *History, reports []*Report, views []*seriesView) *TrendFile {
	f := &TrendFile{Version: TrendFileVersion, Series: []TrendSeries{}, Skipped: []TrendSkip{}}
	for i, s := range h.Series {
		var r *Report
		if i < len(reports) {
			r = reports[i]
		}
		n := s.Newest()
		ts := TrendSeries{ID: s.ID, Key: s.Key, Signature: s.Signature,
			Newest:     NightRef{Index: len(s.Nights), Run: n.Run, Start: n.Start, Revision: n.Revision},
			Strategies: []*StrategyTrend{}, Alarms: []*Alarm{}, Blind: []*Blind{}, Steps: []*Step{}, Notes: []string{}, Nights: []*NightRow{},
			Charts: views[i].Charts}
		if ts.Charts == nil {
			ts.Charts = []TrendChart{}
		}
		if r != nil {
			ts.Evaluated = true
			d := r.Options.withDefaults()
			ts.Options = &TrendOptions{Baseline: d.Baseline, Threshold: d.Threshold, Top: d.Top, Busy: d.Busy}
			ts.Machine = r.Machine
			ts.Strategies = append(ts.Strategies, r.Strategies...)
			ts.Alarms = append(ts.Alarms, r.Alarms...)
			ts.Blind = append(ts.Blind, r.Blind...)
			ts.Steps = append(ts.Steps, r.Steps...)
			ts.Notes = append(ts.Notes, r.Notes...)
			ts.Nights = append(ts.Nights, r.Nights...)
			for _, a := range r.Alarms {
				if a.Unacknowledged() {
					f.Unacknowledged++
				}
			}
		} else {
			ts.Notes = append(ts.Notes, views[i].Notes...)
		}
		if len(ts.Nights) == 0 {
			// No report rows: the nights as the series holds them,
			// newest-first views turned back to oldest first.
			for j := len(views[i].Nights) - 1; j >= 0; j-- {
				nv := views[i].Nights[j]
				night := s.Nights[nv.Index-1]
				ts.Nights = append(ts.Nights, &NightRow{Night: NightRef{Index: nv.Index, Run: night.Run, Start: night.Start, Revision: night.Revision},
					Page: nv.PagePath})
			}
		}
		f.Series = append(f.Series, ts)
	}
	for _, sk := range h.Skipped {
		f.Skipped = append(f.Skipped, TrendSkip(sk))
	}
	return f
}

// encodeTrendFile encodes f as indented JSON, HTML left unescaped (the
// file is data, not a page).
func encodeTrendFile(f *TrendFile) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", TrendJSON, err)
	}
	return b.Bytes(), nil
}
