package progress

import (
	"fmt"
	"io"
	"sync"
	"time"

	"sudokubatch/report"
)

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
			eta = report.FormatDuration(time.Duration(float64(p.total-p.done) / rate * float64(time.Second)))
		}
		fmt.Fprintf(p.w, "progress: %d/%s (%.1f%%), %.0f units/s, elapsed %s, ETA %s\n",
			p.done, report.Count(p.total, "unit", "units"), 100*float64(p.done)/float64(p.total), rate, report.FormatDuration(el), eta)
		return
	}
	fmt.Fprintf(p.w, "progress: %s, %.0f units/s, elapsed %s\n", report.Count(p.done, "unit", "units"), rate, report.FormatDuration(el))
}

func (p *lineProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished = true
}
