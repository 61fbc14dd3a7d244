package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logFlushEvery is how long a log line may wait in the buffer.
const logFlushEvery = 100 * time.Millisecond

// logBuffer batches the per-request log lines into few writes: unbuffered, every request would
// cost a write system call of its own, a sizeable share of a request's CPU under load
// (docs/performance.md). Lines are flushed when the buffer fills, every logFlushEvery, and at
// Close, so none is lost at a graceful stop.
type logBuffer struct {
	mu    sync.Mutex
	w     *bufio.Writer
	stop  chan struct{}
	done  chan struct{}
	close sync.Once
}

func newLogBuffer(w io.Writer) *logBuffer {
	b := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushLoop()
	return b
}

// Write buffers one log record (slog writes a whole record per call).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *logBuffer) flushLoop() {
	defer close(b.done)
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			b.flush()
		case <-b.stop:
			b.flush()
			return
		}
	}
}

func (b *logBuffer) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.w.Flush()
}

// Close flushes what is buffered and stops the flushing goroutine.
func (b *logBuffer) Close() error {
	b.close.Do(func() { close(b.stop) })
	<-b.done
	return nil
}
