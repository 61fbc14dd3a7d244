package proxy

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/opsapi/mocktoolkit/conformance/check"
	"github.com/opsapi/mocktoolkit/internal/prefer"
	"github.com/opsapi/mocktoolkit/internal/text"
)

// This file starts a recording over when the mock rebuilds the world it records (D174): the
// records its answers showed before a reset, a loaded snapshot or a world deleted and made
// again are not the world's any more, and kept, a group deleted before the reset stayed out of
// the file while the reset brought it back (and a comment gone with the reset stayed in). The
// signals are the ones the proxy's tracker forgets on (D123): such a control answered through
// the proxy with the mock's X-Mock-World-Build, and a new X-Mock-World-Build on an answer of
// a world a client names by X-Mock-World or --upstream names by its /__worlds/<name> path.

// defaultWorld is the name of the mock's world served without a prefix or header (mockserver's
// DefaultWorld; the proxy does not import the mock it judges).
const defaultWorld = "default"

// maxPastBuilds bounds the builds a recording remembers it left behind.
const maxPastBuilds = 64

// controlWriter passes a control's answer through and, as its header goes out (before the
// client can send anything after it), starts the recording over when the control rebuilt the
// recorded world.
type controlWriter struct {
	http.ResponseWriter
	r    *ScenarioRecorder
	req  *http.Request
	done bool
}

func (c *controlWriter) WriteHeader(code int) {
	if !c.done {
		c.done = true
		c.r.controlAnswered(c.req, code, c.Header())
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *controlWriter) Write(b []byte) (int, error) {
	if !c.done {
		c.WriteHeader(http.StatusOK)
	}
	return c.ResponseWriter.Write(b)
}

// Flush lets streamed answers through.
func (c *controlWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (c *controlWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// isControl tells a request to one of the mock's controls (/__mock/…), in any world.
func isControl(path string) bool { return strings.Contains(path, "/__mock/") }

// controlAnswered starts the recording over when req, a mock's control answered code with
// header h, replaced the records of the recorded world: a reset, a loaded snapshot or a deleted
// world (rebuildingControl), answered 2xx with the mark the mock sets on those controls (as
// resetsCounts reads it; a clock move replaces no record, and a deployment answering 2xx to
// every path is not reset).
func (r *ScenarioRecorder) controlAnswered(req *http.Request, code int, h http.Header) {
	build := h.Get(prefer.WorldBuild)
	if code < 200 || code > 299 || build == "" {
		return
	}
	what, records := rebuildingControl(req.Method, req.URL.Path)
	if !records {
		return
	}
	target := r.worldOf(req)
	if what == "the world deleted" {
		target = req.URL.Query().Get("name")
	}
	r.reading.Lock() // not amid an answer being recorded
	defer r.reading.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if target != r.recordedWorld() {
		return
	}
	r.restart(fmt.Sprintf("%s through the proxy", what))
	if what == "the world deleted" {
		// Its answer names the last build of the records dropped; the world made again has a
		// new one, which the next answer brings.
		r.leaveBuild(build)
		r.build = ""
		return
	}
	r.leaveBuild(r.build)
	r.build = build
}

// sameBuild tells whether an answer of the recorded world, marked with build, is one the
// recording keeps; a new build starts the recording over, and an answer of a build it left
// behind (answered before a rebuild, recorded after it) is left out with a note. r.mu is held.
func (r *ScenarioRecorder) sameBuild(path, build string) bool {
	switch {
	case build == "" || build == r.build:
		return true
	case r.pastBuilds[build]:
		r.note(fmt.Sprintf("an answer of %s was not recorded: it came from the records of the world before its rebuild, which the recording started over at", path))
		return false
	case r.build != "":
		r.restart(fmt.Sprintf("the mock's %s changed from %s to %s", prefer.WorldBuild, text.Clip(r.build, 40), text.Clip(build, 40)))
		r.leaveBuild(r.build)
	}
	r.build = build
	return true
}

// leaveBuild remembers build as one the recording left behind; r.mu is held.
func (r *ScenarioRecorder) leaveBuild(build string) {
	if build == "" {
		return
	}
	if len(r.pastBuilds) >= maxPastBuilds {
		clear(r.pastBuilds)
	}
	r.pastBuilds[build] = true
}

// buildTrusted tells whether the X-Mock-World-Build of an answer to req is the mock's word on
// its world: for a world the client names by X-Mock-World or --upstream by its path, as the
// tracker takes it (D123).
func (r *ScenarioRecorder) buildTrusted(req *http.Request) bool {
	return req.Header.Get(check.WorldHeader) != "" || r.upstreamWorld() != ""
}

// upstreamWorld is the world --upstream names by its /__worlds/<name> path, "" when it names
// none (or the recorder stands in front of another handler than a Proxy).
func (r *ScenarioRecorder) upstreamWorld() string {
	p, ok := r.next.(*Proxy)
	if !ok || !p.upstreamWorld() {
		return ""
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(p.upstream.Path, "/__worlds/"), "/")
	return name
}

// worldOf is the mock world a request through the proxy is served by: a /__worlds/<name>
// prefix on its path, else the world --upstream names, else its X-Mock-World, else the default
// world (the mock's order).
func (r *ScenarioRecorder) worldOf(req *http.Request) string {
	if rest, ok := strings.CutPrefix(req.URL.Path, "/__worlds/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		return name
	}
	if w := r.upstreamWorld(); w != "" {
		return w
	}
	if w := req.Header.Get(check.WorldHeader); w != "" {
		return w
	}
	return defaultWorld
}

// recordedWorld is the name of the world the recording keeps, by worldOf's order; r.mu is
// held.
func (r *ScenarioRecorder) recordedWorld() string {
	if w := r.upstreamWorld(); w != "" {
		return w
	}
	if r.world != "" {
		return r.world
	}
	return defaultWorld
}

// restart drops what the recording kept of the world before its rebuild (why): records,
// removals, carts, the records left out and the notes on them. The credentials and names it
// saw stay, so that a text recorded after the rebuild quoting one is still scrubbed (D196);
// the world it records stays. r.mu is held.
func (r *ScenarioRecorder) restart(why string) {
	dropped := r.kept + r.over
	for _, n := range r.leftKinds {
		dropped += n
	}
	r.restarts++
	r.restartWhy = why
	r.restartDropped += dropped
	r.seen = map[string]map[int64]map[string]any{}
	r.carts, r.cartAt = nil, map[string]int{}
	r.notes, r.notesOver = map[string]bool{}, 0
	r.kept, r.over = 0, 0
	r.left, r.leftKinds, r.leftIDs = map[string]*leftOutReason{}, map[string]int{}, map[string]bool{}
}

// restartNote is the log's line on the recording's restarts, "" when it never restarted.
// r.mu is held.
func (r *ScenarioRecorder) restartNote() string {
	if r.restarts == 0 {
		return ""
	}
	times := "restarted"
	if r.restarts > 1 {
		times = fmt.Sprintf("restarted %d times, the last", r.restarts)
	}
	records := fmt.Sprintf("%d records", r.restartDropped)
	if r.restartDropped == 1 {
		records = "1 record"
	}
	return fmt.Sprintf("the recording %s at a rebuild of the world it records (%s): the file holds only what the answers showed after it; the %s kept before are not in it, since the rebuilt world does not hold them as they were",
		times, r.restartWhy, records)
}

// Restarts is how many times the recording started over at a rebuild of the world it records
// (a reset, a loaded snapshot or a deleted world; D174), 0 when it never did.
func (r *ScenarioRecorder) Restarts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.restarts
}

// answerBuild tells whether an answer to req, with header h, of the recorded world is one the
// recording keeps (sameBuild), the build of a world the mock names being its word (D123).
func (r *ScenarioRecorder) answerBuild(req *http.Request, h http.Header) bool {
	if !r.buildTrusted(req) {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sameBuild(req.URL.Path, h.Get(prefer.WorldBuild))
}
