package report

import (
	"fmt"
	"io"
	"strings"

	"sudokubatch/rundir"
)

// WritePruned writes what `batch prune` did (or, with opt.DryRun, would
// do): a line per run pruned with the files and bytes, per kept run
// gzipped, per run directory left whole with why, then the totals.
func WritePruned(w io.Writer, res *rundir.PruneResult, opt rundir.PruneOptions) error {
	var b strings.Builder
	verb, freed := "removed", "freed"
	if opt.DryRun {
		verb, freed = "would remove", "would free"
	}
	for _, p := range res.Pruned {
		fmt.Fprintf(&b, "%s: %s %s (%s)\n", p.Dir, verb, strings.Join(p.Files, ", "), FormatBytes(p.Bytes))
	}
	for _, g := range res.Gzipped {
		if opt.DryRun {
			fmt.Fprintf(&b, "%s: would gzip %s (%s)\n", g.Dir, rundir.ResultsFile, FormatBytes(g.Bytes))
		} else {
			fmt.Fprintf(&b, "%s: gzipped %s (%s saved)\n", g.Dir, rundir.ResultsFile, FormatBytes(g.Bytes))
		}
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(&b, "%s: left whole: %s\n", s.Dir, s.Why)
	}
	fmt.Fprintf(&b, "%s %s of %s; %s kept whole (-keep %d); %s\n", freed, FormatBytes(res.Bytes),
		Count(len(res.Pruned)+len(res.Gzipped), "run", "runs"), Count(len(res.Kept), "finished run", "finished runs"), opt.Keep,
		Count(len(res.Skipped), "run directory skipped", "run directories skipped"))
	_, err := io.WriteString(w, b.String())
	return err
}
