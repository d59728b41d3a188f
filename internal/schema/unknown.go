package schema

import (
	"strconv"
	"strings"
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
	probs := make([]Problem, 0, len(at))
	for _, u := range at {
		ptr, name, ok := memberPlace(t, int(u.key))
		if !ok {
			return nil, false
		}
		p := Problem{Pointer: ptr, UnknownField: true, Message: "unknown field `" + name + "`"}
		if u.uneval {
			p.Keyword = "unevaluatedProperties"
		}
		probs = append(probs, p)
	}
	// As validatePruned: the echoes of a problem below a declared field
	// dropped, then sorted and without repeats.
	return tidy(v.dropCascade(probs)), true
}

// memberPlace returns the JSON pointer of the member whose key is node k
// of t and the field name messages give it (fieldName's): found from the
// root down, one container a level. ok is false when some key on the way
// is empty.
func memberPlace(t *jsontree.Tree, k int) (ptr, name string, ok bool) {
	var p, n strings.Builder
	i := jsontree.Root
	for {
		nd := &t.Nodes[i]
		found := false
		switch nd.Kind {
		case jsontree.Object:
			for key, m := i+1, 0; m < int(nd.Len); m++ {
				val := key + 1
				next := t.Next(val)
				if k < key || k >= next {
					key = next
					continue
				}
				tok := string(t.AppendStr(nil, key))
				if tok == "" {
					// jsonschema/v5 drops an empty key from its pointers:
					// left to it, so that both paths say the same.
					return "", "", false
				}
				p.WriteByte('/')
				p.WriteString(escapeToken(tok))
				appendField(&n, tok, false)
				if k == key {
					return p.String(), n.String(), true
				}
				i, found = val, true
				break
			}
		case jsontree.Array:
			for e, m := i+1, 0; m < int(nd.Len); m++ {
				next := t.Next(e)
				if k < e || k >= next {
					e = next
					continue
				}
				p.WriteString("/" + strconv.Itoa(m))
				appendField(&n, strconv.Itoa(m), true)
				i, found = e, true
				break
			}
		}
		if !found {
			return "", "", false
		}
	}
}
