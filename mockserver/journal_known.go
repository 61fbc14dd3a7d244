package mockserver

import (
	"bytes"
	"net/http"
)

// Credential values in a world's journal (D200). Redaction by name (D64) leaves a value
// quoted in free text — a comment or a title holding the caller's password or bearer token —
// in clear; so each journal keeps the credential values it has seen (a redact.Known) and
// replaces them in every text of an entry when the entry is listed.
//
// On the request path only what is cheap is noted: the bearer token, and the bodies that name
// one of the interface's credential fields (requestMarkers; the answer of a login, which
// issues a token). When the journal is listed, every entry not yet noted is read whole, oldest
// first, before any is scrubbed: a later entry's credential is replaced in an earlier text.

// requestMarkers are the ends of the interface's credential field names as they stand in a
// JSON request (password, token, session_token, code); a body holding none of them is not
// decoded on the request path.
var requestMarkers = [][]byte{[]byte(`password"`), []byte(`token"`), []byte(`code"`), []byte(`secret"`)}

// tokenAnswer marks an answer carrying an issued token (a login's).
var tokenAnswer = []byte(`"token"`)

// noteOnRecord notes the credentials of a request about to be journaled that are cheap to find.
func (j *journal) noteOnRecord(h http.Header, query string, req, answer []byte) {
	j.known.NoteHeaders(h)
	j.known.NoteQuery(query)
	for _, m := range requestMarkers {
		if bytes.Contains(req, m) {
			j.known.NoteBody(req)
			break
		}
	}
	if bytes.Contains(answer, tokenAnswer) {
		j.known.NoteBody(answer)
	}
}

// noteAll notes the credentials of every entry not yet noted, oldest first; b.mu is held.
func (j *journal) noteAll() {
	for i := 0; i < j.n; i++ {
		e := j.ring[j.slot(i)]
		if e.noted {
			continue
		}
		e.noted = true // before it is first viewed, so its raw bodies are still there
		j.known.NoteBody(e.Request.raw)
		j.known.NoteBody(e.Response.raw)
	}
}

// scrub replaces the known credential values in every text of a viewed entry, when more
// were seen since it was last scrubbed; b.mu is held. It writes fresh copies: an earlier
// list may still be reading the old ones.
func (j *journal) scrub(e *journalEntry) {
	v := j.known.Version()
	if e.scrubbed == v {
		return
	}
	e.scrubbed = v
	e.Path = j.known.Replace(e.Path)
	for _, b := range []*journalBody{&e.Request, &e.Response} {
		b.Headers = j.known.ScrubHeaders(b.Headers)
		b.Body = j.known.Scrub(b.Body)
	}
}
