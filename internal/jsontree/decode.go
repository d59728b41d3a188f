package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// ErrNull is why a line holding the JSON literal null is not an entry.
var ErrNull = errors.New("the line is the JSON literal null, not an entry")

// Decode parses one JSON value that must fill the whole of raw (apart from
// white space) with encoding/json: the reference decoder, and the source of
// the exact message when Parse rejects a line. Numbers stay json.Number. On
// failure it returns the byte offset the error points at.
func Decode(raw []byte) (any, int, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.As(err, &se):
			off := int(se.Offset) - 1
			if off < 0 {
				off = 0
			}
			if strings.HasSuffix(se.Error(), ErrTooDeep.Error()) { // "invalid character '[' exceeded max depth"
				return nil, off, ErrTooDeep
			}
			return nil, off, errors.New(se.Error())
		case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			return nil, len(raw), errors.New("unexpected end of JSON input")
		default:
			return nil, 0, err
		}
	}
	end := int(dec.InputOffset())
	for end < len(raw) && isSpace(raw[end]) {
		end++
	}
	if end < len(raw) {
		return nil, end, errors.New("unexpected data after the JSON value (two records fused on one line?)")
	}
	if v == nil {
		return nil, 0, ErrNull
	}
	return v, 0, nil
}
