package proxy

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/opsapi/mocktoolkit/spec"
)

// exchange is what the proxy saw of one request and its answer, while it is under way.
type exchange struct {
	start  time.Time
	op     *spec.Operation // nil when the request is not one of the 24 operations
	routed bool            // op was found by routedPath, not by the exact path
	// unrouted: routed, and the upstream answered that it does not route the path there (404,
	// 405, a redirect): not the operation's exchange, so not counted as checked.
	unrouted bool
	// unanswered: the upstream gave no answer through no fault of its own (the client went
	// away, sent a broken body, or the proxy stopped first): nothing of it was judged, so not
	// counted as checked, and an operation with only such exchanges is not reported passed.
	unanswered bool
	// upstreamSilent: no answer came from the upstream (upstreamFailed): the request may still
	// be carried out there, at any time.
	upstreamSilent bool
	method         string
	target         string // path and query, as the client sent them
	path           string

	reqHeader http.Header
	reqBody   []byte // at most maxBody bytes
	reqWhole  bool   // reqBody is the whole request body
	reqJudged bool   // its fields were judged (set by check: whole, and in an encoding read)
	reqPlain  []byte // the request body decoded, when it came compressed and was read (set by check)

	status        int
	respHeader    http.Header
	hopDropped    http.Header // headers the answer's Connection header named: not forwarded, judged (tapTransport)
	respBody      []byte      // at most maxBody bytes, decoded when it was gzip
	respWhole     bool        // respBody is the whole answer body, decoded
	noWholeAnswer bool        // the upstream gave no whole answer a client can read (UP-1): none, cut short, or not the gzip it says

	violations []Violation
	notes      []string

	abort context.CancelCauseFunc // cancels the exchange's upstream request
	held  int64                   // bytes of the answer read ahead, until it is written out

	body         *requestBody // the request body as forwarded
	answerHeader http.Header  // the header of the client's answer, before it is written
}

// note adds a remark about how the exchange was (or was not) checked.
func (ex *exchange) note(s string) { ex.notes = append(ex.notes, s) }

// readAhead reads up to limit bytes of body and returns them with a body that yields the same
// bytes as body would have (what was read, then the rest, then body's error if any). whole
// says the bytes are the entire body. length is the length the body announced (-1 when
// unknown): such a body is read into one buffer of its size, one of unknown length into a
// buffer that grows as its bytes come (readGrowing). grant is asked for each buffer's bytes
// before they are taken: when it refuses, the reading stops there, the body not whole, and
// the rest follows what was read.
func readAhead(body io.ReadCloser, limit, length int64, grant func(n int64) bool) (kept []byte, replay io.ReadCloser, whole bool, err error) {
	if body == nil || body == http.NoBody {
		return nil, body, true, nil
	}
	stopped := false
	switch {
	case length >= 0 && length <= limit && !grant(length+1):
		stopped = true
	case length >= 0 && length <= limit:
		kept = make([]byte, length+1) // one more: a body longer than announced still shows
		var n int
		n, err = io.ReadFull(body, kept)
		kept = kept[:n]
		if errors.Is(err, io.ErrUnexpectedEOF) && int64(n) == length || errors.Is(err, io.EOF) && n == 0 {
			err = nil // the body ended where it said it would
		}
	default:
		kept, stopped, err = readGrowing(body, limit+1, grant)
	}
	switch {
	case err != nil:
		return kept, readCloser{io.MultiReader(bytes.NewReader(kept), errReader{err}), body}, false, err
	case stopped || int64(len(kept)) > limit:
		return kept[:min(int64(len(kept)), limit)], readCloser{io.MultiReader(bytes.NewReader(kept), body), body}, false, nil
	}
	return kept, readCloser{bytes.NewReader(kept), body}, true, nil
}

// readCloser reads from one reader and closes another.
type readCloser struct {
	io.Reader
	io.Closer
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// codings is a Content-Encoding as one lower-case coding, identity left out ("identity, gzip" is
// gzip, RFC 9110 8.4): "" for none, the list as written for several real ones.
func codings(enc string) string {
	var real []string
	for c := range strings.SplitSeq(strings.ToLower(enc), ",") {
		if c = strings.TrimSpace(c); c != "" && c != "identity" {
			real = append(real, c)
		}
	}
	return strings.Join(real, ", ")
}

// decodeBody returns the body as the client will read it once decoded, when the answer's
// Content-Encoding is one the checks can read (none, identity, gzip) and it decodes within
// limit bytes; otherwise why the body stays unchecked, for the journal's note. broken tells
// that the body is not what its Content-Encoding says (not gzip, or a gzip stream cut short):
// no client can read it, which is the deployment's violation (UP-1), not a limit of the proxy.
func decodeBody(h http.Header, body []byte, limit int64) (decoded []byte, why string, broken bool) {
	enc := h.Get("Content-Encoding")
	switch codings(enc) {
	case "":
		return body, "", false
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Sprintf("the answer body is not gzip though its Content-Encoding says so (%s): no client can read it", gzipProblem(err)), true
		}
		decoded, err := io.ReadAll(io.LimitReader(zr, limit+1))
		if int64(len(decoded)) > limit {
			return nil, fmt.Sprintf("answer body over %d bytes once decoded: passed through, its fields unchecked", limit), false
		}
		if err != nil {
			return nil, fmt.Sprintf("the answer's gzip stream is broken or cut short (%s) after %d decoded bytes: no client can read it whole", gzipProblem(err), len(decoded)), true
		}
		return decoded, "", false
	default:
		return nil, "answer Content-Encoding " + strconv.Quote(enc) + " is not one the proxy decodes: its fields unchecked", false
	}
}

// gzipProblem words why a gzip stream cannot be read, for the people reading a verdict.
func gzipProblem(err error) string {
	switch {
	case errors.Is(err, gzip.ErrHeader):
		return "its bytes do not start as gzip's do"
	case errors.Is(err, gzip.ErrChecksum):
		return "its checksum does not match what it holds"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "the bytes end before the gzip stream does"
	}
	return err.Error()
}

// transferProblem words why an answer's body could not be read to its end.
func transferProblem(err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return "the connection closed before the body's end"
	}
	return err.Error()
}
