package pipeline

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// NewProgress returns the progress display for a run: a progress bar
// with rate and ETA when w is a terminal (throttled: progressbar syncs its
// file on every write), a plain line every `every` otherwise.
func NewProgress(w io.Writer, terminal bool, every time.Duration) Progress {
	if terminal {
		return &barProgress{w: w}
	}
	return &lineProgress{w: w, every: every}
}

// barProgress is a progressbar/v3 bar.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(total int) {
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(p.w),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetDescription("units"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("units"),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionFullWidth(),
		progressbar.OptionClearOnFinish(),
	)
}

func (p *barProgress) SetTotal(total int) { p.bar.ChangeMax(total) }
func (p *barProgress) Add(n int)          { p.bar.Add(n) }
func (p *barProgress) Finish()            { p.bar.Finish(); fmt.Fprintln(p.w) }

// lineProgress prints "progress: done/total units (x%), rate, ETA" at
// most once per `every`.
type lineProgress struct {
	w     io.Writer
	every time.Duration
	mu    sync.Mutex
	total int
	done  int
	start time.Time
	last  time.Time
}

func (p *lineProgress) Start(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total, p.start, p.last = total, time.Now(), time.Now()
}

func (p *lineProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

func (p *lineProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
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
		fmt.Fprintf(p.w, "progress: %d/%d units (%.1f%%), %.0f units/s, elapsed %s, ETA %s\n",
			p.done, p.total, 100*float64(p.done)/float64(p.total), rate, el.Round(time.Second), eta)
		return
	}
	fmt.Fprintf(p.w, "progress: %d units, %.0f units/s, elapsed %s\n", p.done, rate, el.Round(time.Second))
}

func (p *lineProgress) Finish() {}

// TotalSetter is implemented by progress displays whose total can be set
// once it is known (it is counted beside the run).
type TotalSetter interface{ SetTotal(int) }
