package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"sudokubatch/pipeline"
	"sudokubatch/report"
)

// display is the progress display of a sweep: the pipeline reports to it
// (pipeline.Progress), and whoever knows the number of units tells it the
// total, before, during or after the run, from any goroutine. Everything
// a display shows is created by newProgress, before the run can report
// to it; calls after Finish are ignored.
type display interface {
	pipeline.Progress
	SetTotal(total int) // units in the run; -1 while unknown
}

// newProgress returns the progress display for a run started now: a
// progress bar with rate and ETA when w is a terminal (throttled:
// progressbar syncs its file on every write), a plain line every `every`
// otherwise. The total is unknown (-1) until SetTotal.
func newProgress(w io.Writer, terminal bool, every time.Duration) display {
	if terminal {
		return &barProgress{w: w, bar: progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(w),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetDescription("units"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("units"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionClearOnFinish(),
		)}
	}
	now := time.Now()
	return &lineProgress{w: w, every: every, total: -1, start: now, last: now}
}

// barProgress is a progressbar/v3 bar. The bar locks itself; mu orders
// Finish with the other calls, so that nothing is drawn after it.
type barProgress struct {
	w        io.Writer
	mu       sync.Mutex
	bar      *progressbar.ProgressBar
	finished bool
}

func (p *barProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.bar.ChangeMax(total)
	}
}

func (p *barProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.bar.Add(n)
	}
}

func (p *barProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.finished {
		p.finished = true
		p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}

// lineProgress prints "progress: done/total units (x%), rate, ETA" at
// most once per `every`; without a total, the count and the rate.
type lineProgress struct {
	w        io.Writer
	every    time.Duration
	mu       sync.Mutex
	total    int
	done     int
	start    time.Time
	last     time.Time
	finished bool
}

func (p *lineProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

func (p *lineProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done += n
	if now := time.Now(); now.Sub(p.last) >= p.every {
		p.last = now
		p.print(now)
	}
}

func (p *lineProgress) print(now time.Time) {
	el := now.Sub(p.start)
	rate := float64(p.done) / el.Seconds()
	if p.total > 0 {
		eta := "?"
		if rate > 0 {
			eta = time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second).String()
		}
		fmt.Fprintf(p.w, "progress: %d/%s (%.1f%%), %.0f units/s, elapsed %s, ETA %s\n",
			p.done, report.Count(p.total, "unit", "units"), 100*float64(p.done)/float64(p.total), rate, el.Round(time.Second), eta)
		return
	}
	fmt.Fprintf(p.w, "progress: %s, %.0f units/s, elapsed %s\n", report.Count(p.done, "unit", "units"), rate, el.Round(time.Second))
}

func (p *lineProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = true
}
