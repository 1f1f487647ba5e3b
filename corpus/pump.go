package corpus

import "io"

// pump reads a stream in a goroutine of its own, so that a read that
// waits (a slow pipe, a FIFO that nobody opened for writing yet) does not
// hold up its caller: Read returns ErrStopped as soon as halt is closed.
// Open runs in the goroutine too, since opening a FIFO waits for a
// writer. Two buffers go round between the goroutine and Read.
type pump struct {
	chunks chan pumpChunk
	free   chan []byte
	halt   <-chan struct{}
	halt2  <-chan struct{} // a second one, set by Run on a stream opened before it (see Streams)
	// onWait, if set, is called by Read before it waits for the next
	// chunk; its error is returned by Read.
	onWait func() error
	quit   chan struct{}
	cur    []byte // the bytes of buf not read yet
	buf    []byte // the buffer of the last chunk, given back once read
	err    error
}

type pumpChunk struct {
	b   []byte
	err error
}

func newPump(open func() (io.Reader, func() error, error), halt <-chan struct{}) *pump {
	p := &pump{chunks: make(chan pumpChunk, 2), free: make(chan []byte, 2), halt: halt, quit: make(chan struct{})}
	p.free <- make([]byte, 64<<10)
	p.free <- make([]byte, 64<<10)
	go func() {
		r, closeFn, err := open()
		if err != nil {
			p.chunks <- pumpChunk{nil, err}
			return
		}
		defer closeFn()
		for {
			var buf []byte
			select {
			case buf = <-p.free:
			case <-p.quit:
				return
			}
			n, err := r.Read(buf)
			select {
			case p.chunks <- pumpChunk{buf[:n], err}:
			case <-p.quit:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return p
}

func (p *pump) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		if p.err != nil {
			return 0, p.err
		}
		if p.buf != nil {
			p.free <- p.buf
			p.buf = nil
		}
		if p.onWait != nil {
			// Nothing has come yet: before waiting, let the caller hand
			// over what it holds (the reader's part-filled batch).
			select {
			case c := <-p.chunks:
				p.take(c)
				continue
			default:
			}
			if err := p.onWait(); err != nil {
				return 0, err
			}
		}
		select {
		case c := <-p.chunks:
			p.take(c)
		case <-p.halt:
			return 0, ErrStopped
		case <-p.halt2:
			return 0, ErrStopped
		}
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// take makes c the chunk that Read reads from.
func (p *pump) take(c pumpChunk) {
	p.buf, p.cur, p.err = c.b[:cap(c.b)], c.b, c.err
	if c.b == nil {
		p.buf = nil
	}
}

// Close ends the pump's goroutine, at once if it waits to hand a chunk
// over, or after its read returns.
func (p *pump) Close() error {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	return nil
}
