package redact

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounds of the headers a journal keeps of a request or an answer (D64, D97): each value at
// most MaxHeaderValue bytes, all of them at most MaxHeaders, so a client (or an upstream)
// sending headers of hundreds of kilobytes cannot make a journal hold, and its readers fetch,
// hundreds of megabytes.
const (
	MaxHeaderValue = 1 << 10
	MaxHeaders     = 8 << 10
)

// HeaderCut is the header a bounded copy adds to say how many header values it left out.
const HeaderCut = "X-Journal-Cut"

// BoundHeaders returns h within the bounds: h itself when it is within them (a journal never
// changes a message's headers, so none is copied), else a copy with each value cut at
// MaxHeaderValue (marked "…[cut]") and the values past MaxHeaders in all left out, in the
// order of their names, HeaderCut saying how many.
func BoundHeaders(h http.Header) http.Header {
	if withinBounds(h) {
		return h
	}
	out := make(http.Header, len(h))
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	room, left := MaxHeaders, 0
	for _, k := range keys {
		for _, v := range h[k] {
			if len(v) > MaxHeaderValue {
				v = v[:MaxHeaderValue] + "…[cut]"
			}
			if room < len(k)+len(v) {
				left++
				continue
			}
			room -= len(k) + len(v)
			out[k] = append(out[k], v)
		}
	}
	if left > 0 {
		out.Set(HeaderCut, strconv.Itoa(left)+" header values left out")
	}
	return out
}

func withinBounds(h http.Header) bool {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			if len(v) > MaxHeaderValue {
				return false
			}
			n += len(k) + len(v)
		}
	}
	return n <= MaxHeaders
}

// cutTailMax is how much of a word a body cut short loses at its cut: more than any password
// or token is long.
const cutTailMax = 256

// CutTail is b, a body cut short by a journal's bound, without the run of word characters
// (letters, digits and those of a token: "-._~+/=%\") it ends in, up to cutTailMax bytes: the
// cut may fall inside a credential, whose start would stay in clear where no name announces it
// and too short for the known values' scrub to be sure of (a password less its last character).
// It always ends on a whole character: text without spaces (Japanese, a long token) has no
// word start within cutTailMax, and a cut inside a character showed one the client never sent.
func CutTail(b []byte) []byte {
	end := len(b)
	for end > 0 && len(b)-end < cutTailMax && tokenByte(b[end-1]) {
		end--
	}
	for end > 0 && end < len(b) && !utf8.RuneStart(b[end]) {
		end--
	}
	return b[:end]
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(`-._~+/=%\`, c) >= 0 || c >= 0x80
}

// MaxTarget is how much of a request's path (and query) a journal entry or a log line keeps:
// past every path of the API, and a client sending a path of a megabyte writes a log line of
// a megabyte per request otherwise.
const MaxTarget = 2 << 10

// BoundTarget is target cut to MaxTarget bytes, less the word it was cut in (CutTail), with a
// marker; a target within MaxTarget as it is.
func BoundTarget(target string) string {
	if len(target) <= MaxTarget {
		return target
	}
	return string(CutTail([]byte(target[:MaxTarget]))) + "…[cut]"
}
