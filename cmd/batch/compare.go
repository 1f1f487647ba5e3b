package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"sudokubatch/history"
	"sudokubatch/publish"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// compareAbout is what `batch compare -h` says the command does.
const compareAbout = "Compare run NEW (default results/latest) with run OLD (each a run directory or a results.csv\n" +
	"file, or results.csv.gz: a finished run's rows are gzipped), per strategy in both,\n" +
	"over the puzzles in both (joined on corpus and id; a corpus renamed but with the same SHA-256\n" +
	"in run.json is joined too):\n" +
	"  - counters, unit by unit and exactly: how many units changed status, calls, guesses or\n" +
	"    backtracks, and the largest changes of calls; units a timeout stopped in either run are\n" +
	"    counted apart, not compared (where a timeout stops depends on the machine);\n" +
	"  - time: the change NEW/OLD of the median and of the total time over the units measured in\n" +
	"    both, as benchstat prints it (+12.1%, -3.0%; ×17.8 from ×11 on), and a geomean row. A unit\n" +
	"    stopped by a timeout or a call limit enters at the time it had reached, a lower bound: a\n" +
	"    change is marked ≥ (it can only be higher), ≤ (only lower) or ? (either side);\n" +
	"  - paired by puzzle: the ratio of median times with its 95% interval (a bootstrap over timing\n" +
	"    blocks: each shard's puzzles 256 at a time, timed together, so the machine's drift between\n" +
	"    blocks and shards is in it; with a fixed seed), and a Wilcoxon signed-rank test of the\n" +
	"    times, and of the calls, puzzle by puzzle. The interval cannot see a machine that ran one\n" +
	"    whole run faster than the other (another process on its cores, its clock), which moves\n" +
	"    every time alike. A strategy's change is shown when the interval lies beyond -noise\n" +
	"    either way and the test agrees (p < 0.05), else it is \"~\" (no change; \"within the noise\"\n" +
	"    if the interval excludes ×1; \"?\": undecided, when stopped units make the ratio a bound\n" +
	"    that could say otherwise);\n" +
	"  - the largest time regressions beyond the noise, puzzle by puzzle, among the times\n" +
	"    confirmed in both runs (measured more than once; with a run written before the timing\n" +
	"    columns, among all times, said to be unconfirmed): past the strategy's own median change\n" +
	"    when it is slower, by more than -noise and than 3 robust standard deviations of its\n" +
	"    units' changes.\n" +
	"Every line fits the terminal's width (80 columns in a pipe; $COLUMNS when set).\n" +
	"Puzzles and strategies in one run only are listed. Warnings (other corpora, settings or\n" +
	"machines) go to stderr.\n\n" +
	"It also writes a page: the verdict table on top, then per strategy the scatter of NEW's time\n" +
	"against OLD's, puzzle by puzzle (log-log, the diagonal, the -noise band, the puzzles that moved\n" +
	"most labelled) and the histogram of the per-puzzle ratios NEW/OLD; into -o DIR, by default\n" +
	"into NEW's run directory as compare-<OLD's run id>/index.html (-page=false: none). The last\n" +
	"line of the output names it (on stderr with -json, whose stdout is the JSON alone); a page\n" +
	"that cannot be written is a warning, and the exit code stays the comparison's.\n\n" +
	"With -threshold, exit 1 when a strategy is surely slower than it: the lower end of the\n" +
	"interval of its ratio of median times is above -threshold (and the ratio is exact or can\n" +
	"only be higher), naming it on stderr; exit 2 when the runs cannot be read (a line that is not\n" +
	"a row, a unit on two rows, an id beyond its corpus) or share no strategy or puzzle."

func compareMain(e *env, args []string) error {
	fs := newFlagSet(e, "compare", "OLD [NEW] [-threshold r] [-json] [-o DIR]",
		compareAbout,
		"  batch compare results/20261120-230000 results/latest\n"+
			"  batch compare results/20261120-230000                # with results/latest\n"+
			"  batch compare -threshold 1.10 results/nightly-prev results/nightly  # 10%\n"+
			"  batch compare -json old/results.csv new/results.csv > diff.json\n"+
			"  batch compare -o /tmp/cmp results/20261120-230000 results/latest  # its page\n")
	threshold := fs.Float64("threshold", 0, "exit 1 when the 95% interval of a strategy's median time NEW/OLD lies above this `ratio`, e.g. 1.10; 0 for no check")
	noise := fs.Float64("noise", report.DefaultNoise, "the `ratio` of a machine's speeds between two runs that the verdicts allow for: slower or\n"+
		"faster only beyond it; 1 for none")
	asJSON := fs.Bool("json", false, "write the comparison as JSON (times in ns, counts and ratios exact)")
	top := fs.Int("top", report.DefaultCompareTop, "list the largest changes of calls and of time of at most `n` puzzles per strategy")
	out := fs.String("o", "", "write the page (index.html and charts/) into `directory` (default: NEW/compare-<OLD's run id>)")
	page := fs.Bool("page", true, "write the page with its charts (-page=false: the terminal's output only)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	paths := fs.Args()
	switch fs.NArg() {
	case 1:
		latest := filepath.Join(rundir.DefaultRoot, rundir.LatestLink)
		if _, err := os.Stat(latest); err != nil {
			return usageErr("compare needs two runs, OLD and NEW, and NEW defaults to %s, which is not here; name both: batch compare OLD NEW", latest)
		}
		paths = append(paths, latest)
	case 2:
	default:
		return usageErr("compare needs two runs, OLD and NEW (default results/latest); got %d %s; see batch compare -h",
			fs.NArg(), report.Plural(fs.NArg(), "argument", "arguments"))
	}
	copt := report.CompareOptions{Threshold: *threshold, Noise: *noise, Top: *top}
	if err := copt.Check(); err != nil {
		return usageErr("%v", err)
	}
	c, err := publish.Compare(e.ctx, paths[0], paths[1], copt)
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	if c != nil {
		for _, w := range c.Warnings {
			e.notef("batch: warning: %s\n", w)
		}
		// The page warns of a busy machine beside each run; the terminal
		// did not, under a verdict the machine may have made.
		for _, r := range []struct {
			label string
			run   *report.Run
		}{{"OLD", c.OldRun}, {"NEW", c.NewRun}} {
			if w := report.BusyWarning(r.run, history.DefaultBusy); w != "" {
				e.notef("batch: warning: %s %s: %s\n", r.label, r.run.Path, w)
			}
		}
	}
	if err != nil {
		return err
	}
	if *asJSON {
		err = c.WriteJSON(e.stdout)
	} else {
		err = c.WriteText(e.stdout, e.width())
	}
	if err != nil {
		return err
	}
	if *page {
		line, warnings, err := c.WritePageIn(e.ctx, *out)
		for _, w := range warnings {
			fmt.Fprintf(e.stderr, "batch: warning: %s\n", w)
		}
		if err != nil {
			return err
		}
		if w := e.stdout; line != "" {
			if *asJSON {
				w = e.stderr // stdout carries the JSON alone
			}
			fprintf(w, e.width(), "%s\n", line)
		}
	} else if *out != "" {
		fmt.Fprintf(e.stderr, "batch: warning: -o %s: no page written (-page=false)\n", *out)
	}
	if len(c.Slower) > 0 {
		return &exitError{exitWrong, fmt.Errorf("slower than -threshold %s in %s than in %s: %s",
			strconv.FormatFloat(*threshold, 'f', -1, 64), c.NewRun.Path, c.OldRun.Path, c.SlowerText())}
	}
	return nil
}
