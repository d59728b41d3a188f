package rules

import (
	"bytes"
	"encoding/json"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/model"
)

// blockReads decodes what the tool rules read again of a line's content
// blocks (a call's name and input, a result's is_error) once per line, for
// the last few lines asked about: a line of thousands of blocks, each a
// duplicate or a result to look at, is decoded once, not once a block.
// One rule run makes one; not safe for concurrent use.
type blockReads struct {
	f       *model.File
	calls   lineMemo[[]blockCallOf]
	errs    lineMemo[[]bool]
	decoded int // lines decoded, for the tests
}

// blockCallOf is a content block's name and input, as decoded.
type blockCallOf struct {
	Name  any `json:"name"`
	Input any `json:"input"`
}

func newBlockReads(f *model.File) *blockReads { return &blockReads{f: f} }

// call is the name and input of content block i of rec's message, read
// again from its line (ok false when the line does not decode or has no
// such block).
func (b *blockReads) call(rec *entry.Record, i int) (name, input any, ok bool) {
	blocks, ok := b.calls.get(rec.Offset, func() ([]blockCallOf, bool) {
		var e struct {
			Message struct {
				Content []blockCallOf `json:"content"`
			} `json:"message"`
		}
		b.decoded++
		line := b.f.LineBytes(rec)
		d := json.NewDecoder(bytes.NewReader(line))
		d.UseNumber()
		if line == nil || d.Decode(&e) != nil {
			return nil, false
		}
		return e.Message.Content, true
	})
	if !ok || i < 0 || i >= len(blocks) {
		return nil, nil, false
	}
	return blocks[i].Name, blocks[i].Input, true
}

// isError reports whether content block i of rec's message has is_error
// true.
func (b *blockReads) isError(rec *entry.Record, i int) bool {
	errs, ok := b.errs.get(rec.Offset, func() ([]bool, bool) {
		var e struct {
			Message struct {
				Content []struct {
					IsError bool `json:"is_error"`
				} `json:"content"`
			} `json:"message"`
		}
		b.decoded++
		line := b.f.LineBytes(rec)
		if line == nil || json.Unmarshal(line, &e) != nil {
			return nil, false
		}
		out := make([]bool, len(e.Message.Content))
		for k, c := range e.Message.Content {
			out[k] = c.IsError
		}
		return out, true
	})
	return ok && i >= 0 && i < len(errs) && errs[i]
}

// lineMemoSize is how many lines a lineMemo keeps: a duplicate's first
// line and its own, and a few more, at most a few long lines decoded.
const lineMemoSize = 4

// lineMemo keeps what was made of the lineMemoSize lines used last, by
// their offsets: a first line that each later duplicate is compared with
// stays.
type lineMemo[T any] struct {
	off  [lineMemoSize]int64
	val  [lineMemoSize]T
	ok   [lineMemoSize]bool
	used [lineMemoSize]uint64 // when each entry was used last (0: never)
	tick uint64
}

// get is what mk made of the line at off, made now if not kept (in place
// of the entry used longest ago).
func (m *lineMemo[T]) get(off int64, mk func() (T, bool)) (T, bool) {
	m.tick++
	oldest := 0
	for k := range lineMemoSize {
		if m.used[k] != 0 && m.off[k] == off {
			m.used[k] = m.tick
			return m.val[k], m.ok[k]
		}
		if m.used[k] < m.used[oldest] {
			oldest = k
		}
	}
	v, ok := mk()
	m.off[oldest], m.val[oldest], m.ok[oldest], m.used[oldest] = off, v, ok, m.tick
	return v, ok
}
