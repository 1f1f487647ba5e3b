package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"sudokubatch/history"
	"sudokubatch/report"
	"sudokubatch/rundir"
)

// trendAbout is what `batch trend -h` says the command does.
const trendAbout = "Read the history of nightly runs: every run directory under -root (default " + rundir.DefaultRoot + "), or the\n" +
	"runs named. The figures of each finished run come from its run.json and summary.json, gathered\n" +
	"into an index, -root/" + history.IndexFile + ", that trend refreshes (only runs new or changed since are read)\n" +
	"and rebuilds from the run directories when it is missing or damaged. Runs form series by\n" +
	"signature: corpora (SHA-256), selection (-ids, -range, -limit, -shard), -timeout, -max-calls,\n" +
	"-unique, -runs, the machine (CPU model and count) and the workers; runs of another signature\n" +
	"are another series, never mixed. With runs named, the series is the newest named run's.\n\n" +
	"Three detectors judge the newest night of each series, per strategy:\n" +
	"  counters  its calls, guesses and status, puzzle by puzzle, against the newest earlier night\n" +
	"            that has its rows (units a timeout stopped in either night are not compared; a\n" +
	"            randomised strategy only under the same seed): any change is an alarm, with ids;\n" +
	"  time      the nightly gate: its times against the per-puzzle median of its previous -baseline\n" +
	"            nights as busy as it (other work above -busy of the workers' CPU time, or not),\n" +
	"            paired by puzzle, the ratio of median times with its 95% interval divided by the\n" +
	"            machine's factor (the median of the strategies' ratios); slower when that interval\n" +
	"            lies beyond -threshold and the spread of the strategy's own nightly level. The\n" +
	"            nights after, \"still slower\", the same alarm. Slower against nights not as busy\n" +
	"            (too few are) is \"slower on a busy machine\", when every strategy moved beyond\n" +
	"            twice the threshold \"slower, machine moved\": not judged, and in no later\n" +
	"            baseline; a strategy not judged for 3 nights in a row is said blind, every night.\n" +
	"            A night of the build\n" +
	"            of its baseline (the same binary) is \"slower, same build\" (-same-build alarms);\n" +
	"  steps     change points of its nightly median over the series, busy and quiet nights apart,\n" +
	"            at least 3 nights on each side (one slow night is a spike, not a step).\n" +
	"A strategy of the last nights missing from the newest is an alarm too.\n\n" +
	"-ack NIGHT STRATEGY \"why\" records in -root/" + history.AnnotationsFile + " that the change of STRATEGY on NIGHT is\n" +
	"known: its alarms are acknowledged and its baseline starts afresh from NIGHT (refused for a night\n" +
	"that raised no alarm of it).\n\n" +
	"An alarm is new until a trend has printed it and exited 1 (-root/" + history.DeliveryFile + " records it): a\n" +
	"first trend, or one after nights no trend ran on, tells every alarm not told yet, and examines\n" +
	"the nights since the last trend for their own. Only the rows of the few nights the detectors\n" +
	"compare are read. Exit 1 on a new alarm that no annotation acknowledges (of the series whose\n" +
	"newest night is within a day of the newest of all), or when what trend found could not be\n" +
	"recorded; 0 otherwise; 2 on a usage error, a root or run that does not exist, or an annotations\n" +
	"file that cannot be read. With runs named, the root's files and kept verdicts are left alone."

// trendFlags are trend's settings.
type trendFlags struct {
	root, ack string
	nights    int
	opt       history.Options
}

func trendMain(e *env, args []string) error {
	fs := newFlagSet(e, "trend", "[-root DIR] [flags] [RUN ...] | -ack NIGHT STRATEGY \"why\"", trendAbout,
		"  batch trend                               # every run under results/\n"+
			"  batch trend -root /srv/nightly -nights 0  # another root, every night listed\n"+
			"  batch trend -threshold 10% -baseline 14\n"+
			"  batch trend -ack 20261125-230501 dlx \"dlx: the column order changed\"\n"+
			"  batch trend results/20261124-230501 results/20261125-230502 results/latest\n")
	var tf trendFlags
	fs.StringVar(&tf.root, "root", rundir.DefaultRoot, "results root `directory`: its run directories, "+history.IndexFile+" and "+history.AnnotationsFile)
	fs.IntVar(&tf.nights, "nights", 10, "list the newest `n` nights of each series; 0 for all")
	threshold := fs.String("threshold", "5%", "the smallest change of median time that is an alarm: a `share` (5%, 0.05) or a ratio (1.05)")
	fs.IntVar(&tf.opt.Baseline, "baseline", history.DefaultBaseline, fmt.Sprintf("the gate's baseline: the previous `n` nights (at least %d)", history.MinBaseline))
	busy := fs.String("busy", "10%", "the `share` of the workers' CPU time other work may take during a night before it is a busy one, judged against busy nights (run.json records it); none: every night is quiet")
	fs.BoolVar(&tf.opt.SameBuild, "same-build", false, "alarm on a slowdown whose night ran the binary of its baseline nights too (by default it is \"slower, same build\": the machine's)")
	fs.StringVar(&tf.ack, "ack", "", "acknowledge the change of a strategy on `NIGHT` (a run directory): -ack NIGHT STRATEGY \"why\"")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var err error
	if tf.opt.Threshold, err = history.ParseShare(*threshold); err != nil {
		return usageErr("-threshold %s: %v", *threshold, err)
	}
	if tf.opt.Busy = 1; *busy != "none" {
		if tf.opt.Busy, err = history.ParseShare(*busy); err != nil {
			return usageErr("-busy %s: %v, or none", *busy, err)
		}
	}
	switch {
	case tf.nights < 0:
		return usageErr("-nights %d: want a count >= 0", tf.nights)
	case tf.opt.Baseline < history.MinBaseline:
		return usageErr("-baseline %d: want at least %d nights", tf.opt.Baseline, history.MinBaseline)
	}
	if err := history.CheckRoot(tf.root); err != nil {
		return err
	}
	runs := fs.Args()
	if tf.ack != "" {
		if len(runs) != 2 {
			return usageErr("-ack %s: want -ack NIGHT STRATEGY \"why\" (%d arguments after NIGHT)", tf.ack, len(runs))
		}
		return ackMain(e, tf, runs[0], runs[1])
	}
	for _, run := range runs {
		if _, err := os.Stat(run); err != nil {
			if to, lerr := os.Readlink(run); lerr == nil && errors.Is(err, os.ErrNotExist) {
				// results/latest left pointing at a night removed by hand.
				return usageErr("run %s: a link to %s, which does not exist (removed?): name a run directory that exists", run, to)
			}
			return usageErr("run %s: %v", run, err)
		}
	}
	return trendRun(e, tf, runs)
}

// trendRun reads the history, runs the detectors and prints them
// (history.Trend, history.WriteText), writes trend's files, records what
// it told, and exits by history.Outcome.Exit.
func trendRun(e *env, tf trendFlags, runs []string) error {
	start := time.Now()
	o, err := history.Trend(e.ctx, tf.root, runs, tf.opt)
	if err != nil {
		return err
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(e.stderr, "batch trend: %s\n", w)
	}
	if err := history.WriteText(e.stdout, tf.root, o.Refresh, o.History, o.Reports, tf.nights); err != nil {
		return err
	}
	// The files describe the whole root: with runs named, the history of
	// those runs only is printed, and the root's files are left as they are.
	written, err := o.WriteFiles()
	if err != nil {
		e.notef("batch trend: %v\n", err)
	}
	if line := o.FilesLine(written); line != "" {
		fprintf(e.stdout, e.width(), "\n%s\n", line)
	}
	o.Record(time.Now())
	fmt.Fprintf(e.stderr, "%s%s\n", o.EndLine(time.Since(start)), report.PeakNote())
	note, fail := o.Exit()
	if fail {
		return &exitError{exitWrong, errors.New(note)}
	}
	if note != "" {
		fmt.Fprintf(e.stderr, "trend: exit 0: %s\n", note)
	}
	return nil
}

// ackMain records an acknowledgement (history.AckNight) and prints the
// history after it.
func ackMain(e *env, tf trendFlags, solver, why string) error {
	ack, err := history.AckNight(e.ctx, tf.root, tf.ack, solver, why, tf.opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "trend: acknowledged %s on night %s: %s (in %s)\n", solver, ack.Run, why, filepath.Join(tf.root, history.AnnotationsFile))
	return trendRun(e, tf, nil)
}
