package mockserver

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/opsapi/mocktoolkit/reference"
)

// A snapshot is encoded into pieces growing from 64 KiB to 4 MiB: encoded whole into one
// buffer that doubles, it was held up to three times its size while the buffer grew (as a body
// read whole was, readPieces), where pieces hold it once.

// writeSnapshot answers st as json.Encoder writes it (HTML not escaped, a newline after),
// encoded record by record into pieces so that the answer is held once, and with its
// Content-Length. st's records are not used once it is encoded, so they may be collected
// while the answer is written.
func writeSnapshot(w http.ResponseWriter, st reference.State, src SavedSource) error {
	body, err := encodeSnapshot(&st, src)
	if err != nil {
		writeBody(w, http.StatusInternalServerError, []byte(`{"error":true,"message":"Internal server error.","data":[]}`+"\n"))
		return err
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = []string{strconv.FormatInt(body.size(), 10)}
	w.WriteHeader(http.StatusOK)
	_, _ = (*net.Buffers)(&body).WriteTo(w)
	return nil
}

// encodeSnapshot encodes st as json.Marshal would, field by field and record by record, and
// then the source its manifest came from (D65), as json.Marshal would a StateFile without a
// clock.
func encodeSnapshot(st *reference.State, src SavedSource) (pieces, error) {
	out := &pieceWriter{}
	var rec bytes.Buffer
	enc := json.NewEncoder(&rec)
	enc.SetEscapeHTML(false)
	v, t := reflect.ValueOf(st).Elem(), reflect.TypeOf(*st)
	out.WriteString("{")
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if i > 0 {
			out.WriteString(",")
		}
		out.WriteString(strconv.Quote(name) + ":")
		f := v.Field(i)
		if f.Kind() != reflect.Slice || f.IsNil() {
			if err := encodeOne(enc, &rec, out, f.Addr().Interface()); err != nil {
				return nil, err
			}
			continue
		}
		out.WriteString("[")
		for j := range f.Len() {
			if j > 0 {
				out.WriteString(",")
			}
			// By address, as an element of a slice is encoded (its pointer methods apply).
			if err := encodeOne(enc, &rec, out, f.Index(j).Addr().Interface()); err != nil {
				return nil, err
			}
		}
		out.WriteString("]")
	}
	out.WriteString(`,"source":`)
	if err := encodeOne(enc, &rec, out, src); err != nil {
		return nil, err
	}
	out.WriteString("}\n")
	return out.done(), nil
}

// encodeOne appends v's encoding to out, without the newline the encoder ends it with.
func encodeOne(enc *json.Encoder, rec *bytes.Buffer, out *pieceWriter, v any) error {
	rec.Reset()
	if err := enc.Encode(v); err != nil {
		return err
	}
	out.Write(bytes.TrimSuffix(rec.Bytes(), []byte("\n")))
	return nil
}

// pieceWriter gathers bytes into pieces.
type pieceWriter struct {
	full pieces
	cur  []byte
}

func (p *pieceWriter) Write(b []byte) {
	for len(b) > 0 {
		if len(p.cur) == cap(p.cur) {
			if len(p.cur) > 0 {
				p.full = append(p.full, p.cur)
			}
			p.cur = make([]byte, 0, min(max(2*cap(p.cur), firstPiece), largePiece))
		}
		n := min(len(b), cap(p.cur)-len(p.cur))
		p.cur = append(p.cur, b[:n]...)
		b = b[n:]
	}
}

func (p *pieceWriter) WriteString(s string) { p.Write([]byte(s)) }

// done is what was written, the last piece trimmed to its length.
func (p *pieceWriter) done() pieces {
	if len(p.cur) > 0 {
		p.full = append(p.full, bytes.Clone(p.cur))
	}
	return p.full
}
