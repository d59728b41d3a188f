package schema

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// unknownAt is a member the fast check found reported as an unknown field:
// its key's node, and whether unevaluatedProperties reported it (else
// additionalProperties: false did).
type unknownAt struct {
	key    int32
	uneval bool
}

// FastUnknownEntry returns the problems of the transcript line held in t
// when the fast check finds only unknown fields in it (UnknownOnly): the
// same list, pointers and messages as ValidateEntry's, without decoding
// the line or running the reference validator. ok is false for any other
// verdict (ask ValidateEntry). A store written by a newer Claude Code has
// an unknown field on most lines: --strict and stats read them all.
func (v *Validator) FastUnknownEntry(typ string, t *jsontree.Tree) (probs []Problem, ok bool) {
	if v.fast == nil {
		return nil, false
	}
	r := v.fast.entry(typ)
	if r == nil {
		return nil, false
	}
	return v.fastUnknown(v.fast.root(r), t)
}

// FastUnknownHistory is FastUnknownEntry for a history.jsonl line.
func (v *Validator) FastUnknownHistory(t *jsontree.Tree) (probs []Problem, ok bool) {
	if v.fast == nil {
		return nil, false
	}
	return v.fastUnknown(v.fast.root(v.fast.history), t)
}

func (v *Validator) fastUnknown(s *fnode, t *jsontree.Tree) ([]Problem, bool) {
	// Keys of invalid UTF-8 decode to U+FFFD: two keys of different bytes
	// may then be one key, of which encoding/json keeps the last value,
	// while the fast check validates both. Left to the reference.
	if !utf8.Valid(t.Raw) {
		return nil, false
	}
	verdict, at := v.fastCollect(s, t, true)
	if verdict != UnknownOnly || len(at) == 0 {
		return nil, false
	}
	keys := make([]int, len(at))
	for k, u := range at {
		keys[k] = int(u.key)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	places, ok := memberPlaces(t, keys)
	if !ok {
		return nil, false
	}
	probs := make([]Problem, 0, len(at))
	for _, u := range at {
		k, _ := slices.BinarySearch(keys, int(u.key))
		pl := places[k]
		p := Problem{Pointer: pl.ptr, UnknownField: true, Message: "unknown field `" + pl.name + "`", Shape: pl.shape}
		if u.uneval {
			p.Keyword = "unevaluatedProperties"
		}
		probs = append(probs, p)
	}
	// As validatePruned: the echoes of a problem below a declared field
	// dropped, then sorted and without repeats.
	return tidy(v.dropCascade(probs)), true
}

// memberPlace is where a member is: its JSON pointer, the field name
// messages give it (fieldName's), and its shape (the pointer with every
// array index as "*").
type memberPlace struct{ ptr, name, shape string }

// memberPlaces returns the place of the member whose key is each node of
// keys (ascending, without repeats), in one walk of t down to them: a
// member or item holding none of them is passed by whole, so that a line
// of a million unknown members costs no more than reading it. ok is false
// when some key on the way is empty (jsonschema/v5 drops an empty key from
// its pointers: such a line is left to it, so that both say the same).
func memberPlaces(t *jsontree.Tree, keys []int) ([]memberPlace, bool) {
	out := make([]memberPlace, len(keys))
	next := 0 // the first key not placed yet
	var ptr, name, shape []byte
	var walk func(i int) bool
	// enter steps into the member (key: its key node) or item (key -1)
	// tok whose value v ends before node end: it places the member when
	// its key is the next wanted, and walks v when a wanted key lies below.
	enter := func(tok string, item bool, key, v, end int) bool {
		np, nn, ns := len(ptr), len(name), len(shape)
		esc := escapeToken(tok)
		ptr = append(append(ptr, '/'), esc...)
		name = appendField(name, tok, item)
		if item {
			shape = append(shape, "/*"...)
		} else {
			shape = append(append(shape, '/'), esc...)
		}
		if key >= 0 && next < len(keys) && keys[next] == key {
			out[next] = memberPlace{string(ptr), string(name), string(shape)}
			next++
		}
		ok := true
		if next < len(keys) && keys[next] < end {
			ok = walk(v)
		}
		ptr, name, shape = ptr[:np], name[:nn], shape[:ns]
		return ok
	}
	walk = func(i int) bool {
		nd := &t.Nodes[i]
		switch nd.Kind {
		case jsontree.Object:
			for key, m := i+1, 0; m < int(nd.Len) && next < len(keys); m++ {
				val := key + 1
				end := t.Next(val)
				if keys[next] < end {
					tok := string(t.AppendStr(nil, key))
					if tok == "" || !enter(tok, false, key, val, end) {
						return false
					}
				}
				key = end
			}
		case jsontree.Array:
			for e, m := i+1, 0; m < int(nd.Len) && next < len(keys); m++ {
				end := t.Next(e)
				if keys[next] < end && !enter(strconv.Itoa(m), true, -1, e, end) {
					return false
				}
				e = end
			}
		}
		return true
	}
	if !walk(jsontree.Root) || next < len(keys) {
		return nil, false
	}
	return out, true
}
