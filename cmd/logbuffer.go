package cmd

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// logFlushEvery bounds how long a served request's log line waits before it is written, as
// nginx's access_log buffer=… flush=… does: a write system call a request was about 4% of the
// server's time for a comment list (#25), and someone tailing the log does not see a tenth of a
// second.
const logFlushEvery = 100 * time.Millisecond

// logBufferMax is written at once when reached, so a burst never holds much memory.
const logBufferMax = 64 << 10

// logBuffer gathers log lines and writes them to w in one call at most logFlushEvery after the
// first of them, or when logBufferMax is reached. serve's logger flushes it at once for warnings
// and errors (flushingHandler) and when it stops.
type logBuffer struct {
	mu      sync.Mutex
	w       io.Writer
	buf     []byte
	pending bool // a flush is scheduled
}

func newLogBuffer(w io.Writer) *logBuffer {
	return &logBuffer{w: w, buf: make([]byte, 0, logBufferMax)}
}

// Write keeps p (a whole line: slog's handlers write one line a call) for the next flush.
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logBufferMax {
		return len(p), b.flushLocked()
	}
	if !b.pending {
		b.pending = true
		time.AfterFunc(logFlushEvery, func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.pending = false
			b.flushLocked()
		})
	}
	return len(p), nil
}

// Flush writes what is held.
func (b *logBuffer) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushLocked()
}

func (b *logBuffer) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	// A line that could not be written is dropped, as an unbuffered handler drops it: holding it
	// would grow the buffer without end on a full disk.
	b.buf = b.buf[:0]
	return err
}

// flushingHandler writes through a logBuffer, flushing it after every warning or error, so what
// an operator must see, and what precedes it, is never held.
type flushingHandler struct {
	slog.Handler
	b *logBuffer
}

func (h flushingHandler) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= slog.LevelWarn {
		if ferr := h.b.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return flushingHandler{h.Handler.WithAttrs(as), h.b}
}

func (h flushingHandler) WithGroup(name string) slog.Handler {
	return flushingHandler{h.Handler.WithGroup(name), h.b}
}

// bufferLogs makes the default logger write to w through a logBuffer at level, and answers the
// buffer, which the caller flushes when it stops.
func bufferLogs(w io.Writer, level string) (*logBuffer, error) {
	l, err := logLevel(level)
	if err != nil {
		return nil, err
	}
	b := newLogBuffer(w)
	slog.SetDefault(slog.New(flushingHandler{slog.NewTextHandler(b, &slog.HandlerOptions{Level: l}), b}))
	return b, nil
}
