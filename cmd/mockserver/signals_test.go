package main

import (
	"context"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// SIGHUP (the terminal closing) stops the command the orderly way, as SIGTERM and Ctrl-C do:
// the state file and the reports are written. Left to its default, SIGHUP killed the process
// with nothing saved.
func TestHangupStopsInOrder(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
		if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
			t.Errorf("%v did not end the command's context", sig)
		}
		stop()
	}
}
