package progress

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/schollz/progressbar/v3"

	"sudokubatch/report"
)

const (
	// barThrottle is the least time between two draws of the bar.
	barThrottle = 100 * time.Millisecond
	// barRemeasure is how often the bar asks the terminal's width again
	// (it may be resized during a sweep).
	barRemeasure = time.Second
	// minBar is the fewest columns of the bar itself: fewer say nothing
	// the percentage does not.
	minBar = 10
)

// barProgress is the progress on a terminal: one line, redrawn in place,
//
//	units  43% |████████              | (17408/40000, 28222 units/s) [1s:2s]
//
// (elapsed:left in the brackets; a spinner, the count, the rate and the
// elapsed time while the total is unknown). progressbar/v3 draws it,
// throttled, with the fields (barLayout) that fit the width of the
// terminal it is drawn on (stderr; the library's own full width measures
// stdout, 80 when redirected), asked again every barRemeasure; a line it
// draws is never wider than the terminal (barWriter). This code draws
// the line itself (barLine: the words that fit) where the library cannot:
// in a terminal too narrow for its percentage and a bar of minBar
// columns, or narrowed during the sweep below the fields the bar was
// made with (the library cannot turn a field off).
type barProgress struct {
	w     io.Writer
	cols  func() int // the terminal's columns; 0: unknown (80)
	mu    sync.Mutex // the bar is used under it only: options are set on it between its calls
	bar   *progressbar.ProgressBar
	out   *barWriter
	lay   barLayout
	width int // the terminal's columns when last asked
	// own: this code draws the line (the bar's fields do not fit).
	own      bool
	total    int // -1 while unknown
	done     int
	start    time.Time
	measured time.Time // when the width was last asked
	drawn    time.Time // of the last line this code drew; zero before the first
	finished bool
}

func newBar(w io.Writer, cols func() int, start time.Time) *barProgress {
	p := &barProgress{w: w, cols: cols, total: -1, start: start, measured: start}
	p.out = &barWriter{w: w}
	p.width = p.columns()
	p.makeBar()
	return p
}

// columns returns the terminal's width now.
func (p *barProgress) columns() int {
	if c := p.cols(); c > 0 {
		return c
	}
	return 80
}

// makeBar makes the progressbar/v3 bar for p.total units (-1: unknown),
// laid out for p.width.
func (p *barProgress) makeBar() {
	p.lay = chooseBarLayout(p.width, p.total)
	p.setOwn(p.lay.own)
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(p.out), // not an *os.File: the library fsyncs those at each write
		progressbar.OptionSetDescription("units"),
		progressbar.OptionSetItsString("units"),
		progressbar.OptionThrottle(barThrottle),
		// The line is redrawn after \r; barWriter clears what a longer
		// line before left to its right.
		progressbar.OptionUseANSICodes(true),
	}
	p.bar = progressbar.NewOptions(p.total, append(opts, p.lay.options()...)...)
}

// setOwn says whether this code draws the line, muting the bar if so.
func (p *barProgress) setOwn(own bool) {
	p.own = own
	p.out.cols, p.out.muted = p.width, own
}

// SetTotal gives the bar its total: a bar made again, with the units
// done so far, since the spinner's count wraps at its width (its elapsed
// time and rate start then: the count of a file's units comes within
// milliseconds of the start).
func (p *barProgress) SetTotal(total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished || total == p.total || total <= 0 {
		return
	}
	p.total = total
	p.bar.Exit()
	p.makeBar()
	if p.done > 0 {
		p.bar.Add(p.done)
	}
}

func (p *barProgress) Add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.done += n
	now := time.Now()
	if now.Sub(p.measured) >= barRemeasure {
		p.measured = now
		if w := p.columns(); w != p.width {
			p.resize(w)
		}
	}
	p.bar.Add(n) // muted by barWriter while this code draws the line
	if p.own && (p.drawn.IsZero() || now.Sub(p.drawn) >= barThrottle) {
		p.drawn = now
		fmt.Fprintf(p.w, "\r%s\x1b[K", barLine(p.done, p.total, now.Sub(p.start), p.width))
	}
}

// resize fits the bar to a terminal now width columns wide: the bar's
// fields keep their place and its bar takes the columns they leave;
// when they leave fewer than minBar, this code draws the line.
func (p *barProgress) resize(width int) {
	p.width = width
	if p.lay.own {
		p.setOwn(true)
		return
	}
	inner, ok := p.lay.fit(width, p.total)
	if ok {
		p.lay.inner = inner
		progressbar.OptionSetWidth(max(inner, 1))(p.bar)
	}
	p.setOwn(!ok)
}

// Finish clears the bar's line and ends it.
func (p *barProgress) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.finished {
		return
	}
	p.finished = true
	p.bar.Exit() // not Finish, which draws the bar full
	if p.out.wrote || !p.drawn.IsZero() {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w)
}

// barLayout is what a bar of progressbar/v3 shows: the count, the rate
// and the time (elapsed and left, or elapsed while the total is
// unknown), and how many columns its bar takes; own: none of that fits,
// and this code draws the line.
type barLayout struct {
	count, rate, time bool
	inner             int
	own               bool
}

// The widest each field the library draws can be, in columns: it sizes
// them as it draws, so the layout allows for the most they take. A rate
// is "%.0f units/s" (or "/min"), up to 10 million units a second; a time
// is Go's time.Duration text, up to 999h59m59s left and 99h59m59s
// elapsed; an unknown total is counted up to 10 digits.
const (
	rateColumns    = len(", 1234567 units/min")
	timeColumns    = len(" [99h59m59s:999h59m59s]")
	elapsedColumns = len(" [99h59m59s] ")
	countDigits    = 10
)

// fit returns the columns l's bar takes in a terminal of width columns
// for total units (-1: unknown: no bar, a spinner), and whether l fits:
// its line stays under width columns (one that fills the last column
// leaves some terminals' cursor on the next row), with a bar of at least
// minBar columns when the total is known.
func (l barLayout) fit(width, total int) (inner int, ok bool) {
	n := 1 // the space the library ends a line with
	if total <= 0 {
		// "\r| units (123/-, 45 units/s) [3s] ": a spinner and its words.
		n += len("| units ")
		if l.count {
			n += len("(") + countDigits + len("/-)")
		}
	} else {
		// "\runits  43% |" + bar + "| (123/456, 45 units/s) [3s:5s] "
		n += len("units  43% |") + len("| ")
		if l.count {
			n += len("(") + 2*len(strconv.Itoa(total)) + len("/)")
		}
	}
	if l.rate {
		n += rateColumns
	}
	switch {
	case l.time && total <= 0:
		n += elapsedColumns
	case l.time:
		n += timeColumns
	}
	if total <= 0 {
		return 0, n <= width-1
	}
	inner = width - 1 - n
	return inner, inner >= minBar
}

// chooseBarLayout returns the layout of a bar of total units (-1:
// unknown) in a terminal of width columns: the most fields that fit
// (barLayout.fit), the rate left out first, then the time, then the
// count; own when none fits.
func chooseBarLayout(width, total int) barLayout {
	for _, l := range []barLayout{{count: true, rate: true, time: true}, {count: true, time: true}, {count: true}, {}} {
		if inner, ok := l.fit(width, total); ok && (total > 0 || l.count) {
			l.inner = inner
			return l
		}
	}
	return barLayout{own: true}
}

// options returns the options of progressbar/v3 that draw l.
func (l barLayout) options() []progressbar.Option {
	opts := []progressbar.Option{
		progressbar.OptionSetWidth(max(l.inner, 1)),
		progressbar.OptionSetPredictTime(l.time),
		progressbar.OptionSetElapsedTime(l.time),
	}
	if l.count {
		opts = append(opts, progressbar.OptionShowCount())
	}
	if l.rate {
		opts = append(opts, progressbar.OptionShowIts())
	}
	return opts
}

// barWriter is what progressbar/v3 writes its line to: each draw, one
// write after a carriage return, is cut to the terminal's width less one
// column and followed by "erase to the end of the line"; nothing is
// written while muted (this code draws the line).
type barWriter struct {
	w     io.Writer
	cols  int
	muted bool
	wrote bool
}

func (bw *barWriter) Write(b []byte) (int, error) {
	if bw.muted {
		return len(b), nil
	}
	line := strings.TrimRight(strings.TrimPrefix(string(b), "\r"), " ")
	if r := []rune(line); len(r) > bw.cols-1 {
		line = string(r[:max(bw.cols-1, 0)])
	}
	bw.wrote = true
	if _, err := io.WriteString(bw.w, "\r"+line+"\x1b[K"); err != nil {
		return 0, err
	}
	return len(b), nil
}

// barLine returns the line this code draws for done of total units (-1:
// unknown) after elapsed, in at most width-1 columns, where the bar of
// progressbar/v3 does not fit: the percentage, the count and the time
// left, or the count, the rate and the elapsed time while the total is
// unknown, the words from the end left out until it fits.
func barLine(done, total int, elapsed time.Duration, width int) string {
	cols := max(width-1, 1)
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	if total <= 0 {
		return fitWords(cols, fmt.Sprintf("units %d", done), fmt.Sprintf("%.0f units/s", rate), report.FormatDuration(elapsed))
	}
	pct := 100 * min(done, total) / total
	eta := "?"
	if rate > 0 {
		eta = report.FormatDuration(time.Duration(float64(max(total-done, 0)) / rate * float64(time.Second)))
	}
	return fitWords(cols, fmt.Sprintf("units %d%%", pct), fmt.Sprintf("%d/%d", done, total), eta+" left")
}

// fitWords joins words with commas, leaving out words from the end until
// the line fits in cols columns; a first word too long is cut.
func fitWords(cols int, words ...string) string {
	for n := len(words); n > 1; n-- {
		if line := strings.Join(words[:n], ", "); utf8.RuneCountInString(line) <= cols {
			return line
		}
	}
	r := []rune(words[0])
	return string(r[:min(len(r), cols)])
}
