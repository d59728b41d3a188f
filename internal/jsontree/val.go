package jsontree

import (
	"encoding/json"
	"iter"
	"strings"
)

// Val is one value of a parsed line, read the same way whether it lives in a
// Tree or in what encoding/json decoded (map[string]any, []any, json.Number...):
// the rules read lines through it, and the reference path hands them decoded
// values. The zero Val is a missing value.
type Val struct {
	t *Tree
	i int // node index in t; -1: missing
	v any
	// ok is true for a present value of the decoded backend.
	ok bool
}

// TreeVal returns the root of a parsed tree.
func TreeVal(t *Tree) Val { return Val{t: t, i: Root} }

// AnyVal wraps a value decoded by encoding/json with UseNumber.
func AnyVal(v any) Val { return Val{i: -1, v: v, ok: true} }

// Exists reports whether the value is present (a null is present).
func (v Val) Exists() bool {
	if v.t != nil {
		return v.i >= 0
	}
	return v.ok
}

// Kind returns the JSON kind, Invalid for a missing value.
func (v Val) Kind() Kind {
	if v.t != nil {
		return v.t.Kind(v.i)
	}
	if !v.ok {
		return Invalid
	}
	switch x := v.v.(type) {
	case nil:
		return Null
	case bool:
		if x {
			return True
		}
		return False
	case json.Number, float64:
		return Number
	case string:
		return String
	case []any:
		return Array
	case map[string]any:
		return Object
	}
	return Invalid
}

// Get returns member key of an object (the last one when repeated).
func (v Val) Get(key string) Val {
	if v.t != nil {
		if v.i < 0 {
			return v
		}
		return Val{t: v.t, i: v.t.Get(v.i, key)}
	}
	m, _ := v.v.(map[string]any)
	x, ok := m[key]
	return Val{i: -1, v: x, ok: ok}
}

// Str returns the string value, and false when v is not a string.
func (v Val) Str() (string, bool) {
	if v.t != nil {
		return v.t.Str(v.i)
	}
	s, ok := v.v.(string)
	return s, ok
}

// String returns the string value, or "" when v is not a string.
func (v Val) String() string {
	s, _ := v.Str()
	return s
}

// StrIs reports whether v is the string s, without allocating.
func (v Val) StrIs(s string) bool {
	if v.t != nil {
		return v.t.StrIs(v.i, s)
	}
	x, ok := v.v.(string)
	return ok && x == s
}

// Bool returns the value of true or false.
func (v Val) Bool() (b, ok bool) {
	if v.t != nil {
		return v.t.Bool(v.i)
	}
	b, ok = v.v.(bool)
	return b, ok
}

// Number returns the literal of a number.
func (v Val) Number() (string, bool) {
	if v.t != nil {
		if v.t.Kind(v.i) != Number {
			return "", false
		}
		return string(v.t.RawBytes(v.i)), true
	}
	n, ok := v.v.(json.Number)
	return string(n), ok
}

// HasNUL reports whether v is a string holding a NUL character.
func (v Val) HasNUL() bool {
	if v.t != nil {
		return v.i >= 0 && v.t.HasNUL(v.i)
	}
	s, ok := v.v.(string)
	return ok && strings.IndexByte(s, 0) >= 0
}

// Len returns the number of items of an array (0 for anything else).
func (v Val) Len() int {
	if v.t != nil {
		if v.t.Kind(v.i) != Array {
			return 0
		}
		return v.t.Len(v.i)
	}
	a, _ := v.v.([]any)
	return len(a)
}

// Items iterates over the items of an array.
func (v Val) Items() iter.Seq2[int, Val] {
	return func(yield func(int, Val) bool) {
		if v.t != nil {
			if v.t.Kind(v.i) != Array {
				return
			}
			for c, j := v.i+1, 0; j < v.t.Len(v.i); j++ {
				if !yield(j, Val{t: v.t, i: c}) {
					return
				}
				c = v.t.Next(c)
			}
			return
		}
		a, _ := v.v.([]any)
		for j, x := range a {
			if !yield(j, Val{i: -1, v: x, ok: true}) {
				return
			}
		}
	}
}

// Members iterates over the members of an object: in document order, with
// repeated keys repeated, for a tree; in map order for a decoded value.
func (v Val) Members() iter.Seq2[string, Val] {
	return func(yield func(string, Val) bool) {
		if v.t != nil {
			if v.t.Kind(v.i) != Object {
				return
			}
			for k, j := v.i+1, 0; j < v.t.Len(v.i); j++ {
				key, _ := v.t.Str(k)
				if !yield(key, Val{t: v.t, i: k + 1}) {
					return
				}
				k = v.t.Next(k + 1)
			}
			return
		}
		m, _ := v.v.(map[string]any)
		for key, x := range m {
			if !yield(key, Val{i: -1, v: x, ok: true}) {
				return
			}
		}
	}
}

// KeyMembers iterates over the members of an object like Members, but with
// each key as bytes that are only valid until the next iteration: no
// allocation for a tree. Use it with switch string(key).
func (v Val) KeyMembers() iter.Seq2[[]byte, Val] {
	return func(yield func([]byte, Val) bool) {
		if v.t == nil {
			for key, x := range v.Members() {
				if !yield([]byte(key), x) {
					return
				}
			}
			return
		}
		t := v.t
		if t.Kind(v.i) != Object {
			return
		}
		for k, j := v.i+1, 0; j < t.Len(v.i); j++ {
			key := t.RawBytes(k)
			if t.Nodes[k].Esc {
				t.keybuf = t.AppendStr(t.keybuf[:0], k)
				key = t.keybuf
			}
			if !yield(key, Val{t: t, i: k + 1}) {
				return
			}
			k = t.Next(k + 1)
		}
	}
}

// Remember tells object v that its member key is m (m missing: it has none),
// so that the next Get of key need not search: for a caller that walked its
// members (KeyMembers) anyway. m must be what Get would give: the value of
// the last member named key.
func (v Val) Remember(key string, m Val) {
	if v.t == nil || v.i < 0 {
		return
	}
	res := -1
	if m.t == v.t && m.i >= 0 {
		res = m.i
	}
	v.t.remember(v.i, key, res)
}

// StrBytes returns the unescaped bytes of a string value without copying
// when it holds no escape (else appended to buf), and false when v is not
// a string. The bytes are only valid until the tree is parsed again.
func (v Val) StrBytes(buf []byte) ([]byte, bool) {
	if v.t != nil {
		if v.t.Kind(v.i) != String {
			return nil, false
		}
		if nd := &v.t.Nodes[v.i]; !nd.Esc {
			return v.t.Raw[nd.Start:nd.End], true
		}
		return v.t.AppendStr(buf[:0], v.i), true
	}
	s, ok := v.v.(string)
	if !ok {
		return nil, false
	}
	return append(buf[:0], s...), true
}
