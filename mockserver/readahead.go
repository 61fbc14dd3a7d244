package mockserver

import (
	"bytes"
	"io"
	"net"
	"net/http"
)

// readBodyAhead reads up to limit bytes of r's body and tells whether that was all of it, and the
// read's error; either way r.Body still yields the whole body (what was read, then the rest,
// or the read's error).
func readBodyAhead(r *http.Request, limit int64) (bool, error) {
	pieces, err := readPieces(r.Body, limit+1, r.ContentLength)
	if err == nil && pieces.size() <= limit { // all of it: read as it is, not copied again
		head := pieces.join()
		r.Body = &readAhead{Reader: bytes.NewReader(head), data: head, Closer: r.Body}
		return true, nil
	}
	rest := io.Reader(r.Body)
	if err != nil {
		rest = failingReader{err}
	}
	read := net.Buffers(pieces)
	r.Body = readCloser{io.MultiReader(&read, rest), r.Body}
	return false, err
}

// pieces are a body read ahead, in the order it arrived.
type pieces [][]byte

// Pieces of a body of unknown length grow from 64 KiB to 4 MiB: a body read into one buffer
// that doubles holds up to three times its size while the buffer grows (a 256 MiB chunked
// snapshot cost over a gigabyte), where pieces hold it once, and once more only while a body
// that is all there is joined.
const (
	firstPiece = 64 << 10
	largePiece = 4 << 20
)

// readPieces reads at most n bytes of src: into one piece sized by length when the body
// announces one under n, else piece by piece.
func readPieces(src io.Reader, n, length int64) (pieces, error) {
	src = io.LimitReader(src, n)
	if length >= 0 && length < n {
		buf := bytes.NewBuffer(make([]byte, 0, length+bytes.MinRead))
		_, err := buf.ReadFrom(src)
		return pieces{buf.Bytes()}, err
	}
	var read pieces
	for size := firstPiece; ; size = min(2*size, largePiece) {
		piece := make([]byte, size)
		k, err := io.ReadFull(src, piece)
		if k > 0 {
			read = append(read, piece[:k])
		}
		switch err {
		case nil:
		case io.EOF, io.ErrUnexpectedEOF:
			return read, nil
		default:
			return read, err
		}
	}
}

// size is the number of bytes read.
func (p pieces) size() int64 {
	var n int64
	for _, piece := range p {
		n += int64(len(piece))
	}
	return n
}

// join is the body read as one slice; a body read in one piece is not copied.
func (p pieces) join() []byte {
	if len(p) == 1 {
		return p[0]
	}
	return bytes.Join(p, nil)
}
