package proxy

import (
	"bytes"
	"io"
	"net/http"
)

// recordedSecrets is how many credential values a recording keeps to replace in what it
// writes (D196): more than a journal's, since a recording writes every text it saw at the end.
const recordedSecrets = 1 << 16

// noteRequestSecrets notes the credentials a request carries (D196): its credential headers'
// values, the strings of its JSON body's credential fields and of its query's credential
// parameters (the body read up to maxBody and given back unchanged). It returns the body read,
// nil when it could not be read whole, for the recorder to tell which record a delete names.
func (r *ScenarioRecorder) noteRequestSecrets(req *http.Request) []byte {
	r.secrets.NoteHeaders(req.Header)
	r.secrets.NoteQuery(req.URL.RawQuery)
	if req.Body == nil || req.Body == http.NoBody {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, r.maxBody))
	req.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), req.Body), req.Body}
	if err != nil {
		return nil
	}
	r.secrets.NoteBody(b)
	return b
}
