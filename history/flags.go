package history

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseShare reads a threshold of batch trend (-threshold, -busy): "5%",
// a share below 1 (0.05) or a ratio of 1 or more (1.05), as the share of
// change it is, above 0 and below 1.
func ParseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	f, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, fmt.Errorf("want a share such as 5%%, 0.05 or 1.05")
	case pct:
		f /= 100
	case f >= 1:
		f--
	}
	if f <= 0 || f >= 1 {
		return 0, fmt.Errorf("want a change above 0%% and below 100%%")
	}
	return f, nil
}

// AckNight records in root's annotations (Acknowledge) that the change of
// solver on the night named night (a run directory, as batch trend -ack
// names it) is known, for the reason why, when that night raised an
// alarm of it (CheckAck), and returns the acknowledgement. What the
// command line got wrong (no run of that name, not a night of the
// history, no reason, no alarm to acknowledge, annotations that cannot
// be read) is a *UsageError, and nothing is recorded.
func AckNight(ctx context.Context, root, night, solver, why string, opt Options) (Ack, error) {
	idx, _, err := Update(root)
	if err != nil {
		return Ack{}, &UsageError{err}
	}
	en := idx.LookupNamed(root, night)
	switch {
	case en == nil:
		return Ack{}, &UsageError{fmt.Errorf("-ack %s: no run of that name under %s", night, root)}
	case en.Night == nil:
		return Ack{}, &UsageError{fmt.Errorf("-ack %s: not a night of the history: %s", night, en.Skip)}
	case strings.TrimSpace(why) == "":
		return Ack{}, &UsageError{fmt.Errorf("-ack %s %s: an acknowledgement needs a reason: -ack NIGHT STRATEGY \"why\"", night, solver)}
	}
	acks, err := ReadAnnotations(root)
	if err != nil {
		return Ack{}, &UsageError{fmt.Errorf("reading the acknowledgements: %w", err)}
	}
	if err := CheckAck(ctx, root, idx, acks, en, solver, opt); err != nil {
		return Ack{}, &UsageError{fmt.Errorf("-ack %s %s: %v: nothing recorded", night, solver, err)}
	}
	ack := Ack{Run: en.Run, RunID: en.Night.RunID, Solver: solver, Why: why}
	if _, err := Acknowledge(root, ack); err != nil {
		return Ack{}, err
	}
	return ack, nil
}
