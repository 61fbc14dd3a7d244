package proxy

import (
	"bytes"
	"io"
	"net/http"
)

// recordedSecrets is how many credential values a recording keeps to replace in what it
// writes (D196): more than a journal's, since a recording writes every text it saw at the end.
const recordedSecrets = 1 << 16

// noteRequestSecrets notes the credentials a request carries (D196): its bearer token and the
// strings of its JSON body's credential fields (read up to maxBody and given back unchanged).
func (r *ScenarioRecorder) noteRequestSecrets(req *http.Request) {
	r.secrets.NoteBearer(req.Header)
	if req.Body == nil || req.Body == http.NoBody {
		return
	}
	b, err := io.ReadAll(io.LimitReader(req.Body, r.maxBody))
	req.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), req.Body), req.Body}
	if err == nil {
		r.secrets.NoteJSON(b)
	}
}
