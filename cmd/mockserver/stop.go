package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// stopServer stops srv as SIGTERM asks (D65, D201, D203): no new connections, requests in
// flight finish for up to shutdownTimeout; those still running then have their context
// cancelled with cause (the mock skips the rest of a delay and answers, the proxy answers 502),
// and a second, short wait lets them write their answers. srv's requests must run under the
// context cutOff cancels (http.Server.BaseContext). Only requests that still do not end (a
// client stalled while sending its body: no context reaches a blocked read) have their
// connections closed; the stop goes on (reports, the state file) and returns nil, since the
// server did all it could.
func stopServer(ctx context.Context, srv *http.Server, cutOff context.CancelCauseFunc, cause error, logger *slog.Logger) error {
	graceCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(graceCtx); !errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	logger.Warn(fmt.Sprintf("requests still in flight after %s were cut short and answered", shutdownTimeout))
	cutOff(cause)
	finalCtx, cancel2 := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel2()
	if err := srv.Shutdown(finalCtx); errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("connections still open after that (clients stalled sending a request or not reading their answer) were closed")
		return srv.Close()
	}
	return nil
}
