package schema

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// blockSchema is the location of the content-block schema, as the $ref of
// message-user.json and message-assistant.json resolves it.
const blockSchema = baseURL + "defs/content-block.json#"

// blocksPointer is where the content blocks of a user or assistant entry sit.
const blocksPointer = "/message/content"

// prunable lists the entry types whose content blocks the reference may skip:
// in their schemas message.content is reached by one keyword only,
// {"items": {"$ref": "content-block.json"}}, so each block's errors are its
// own and a block with no error changes nothing else (TestPrunableSchemas
// checks that shape; no schema uses unevaluatedItems, contains, minItems,
// maxItems, uniqueItems or prefixItems).
var prunable = map[string]bool{"user": true, "assistant": true}

// pruned is a line's value without the content blocks the fast check proved
// valid, for the reference validator.
type pruned struct {
	value any
	keep  []int // index in the line of each block left in value
}

// pruneBlocks returns value without the message.content blocks that the fast
// check proves valid on their own (the reference validator reports nothing
// for them), and the original index of each block kept. ok is false when
// nothing is removed, or when t does not match value member for member.
func (v *Validator) pruneBlocks(value any, t *jsontree.Tree) (pruned, bool) {
	root, _ := value.(map[string]any)
	if root == nil || t == nil || t.Kind(jsontree.Root) != jsontree.Object || len(root) != t.Len(jsontree.Root) {
		return pruned{}, false
	}
	msg, _ := root["message"].(map[string]any)
	mi := t.Get(jsontree.Root, "message")
	if msg == nil || t.Kind(mi) != jsontree.Object || len(msg) != t.Len(mi) {
		return pruned{}, false
	}
	blocks, _ := msg["content"].([]any)
	ci := t.Get(mi, "content")
	if blocks == nil || t.Kind(ci) != jsontree.Array || len(blocks) != t.Len(ci) {
		return pruned{}, false
	}
	s := v.fast.root(v.fast.block)
	if s == nil {
		return pruned{}, false
	}
	var keep []int
	for k, i := 0, t.Child(ci); k < len(blocks); k, i = k+1, t.Next(i) {
		if v.fastCheckAt(s, t, i) != Valid {
			keep = append(keep, k)
		}
	}
	if len(keep) == len(blocks) {
		return pruned{}, false
	}
	kept := make([]any, len(keep))
	for j, k := range keep {
		kept[j] = blocks[k]
	}
	m2 := make(map[string]any, len(msg))
	for k, x := range msg {
		m2[k] = x
	}
	m2["content"] = kept
	r2 := make(map[string]any, len(root))
	for k, x := range root {
		r2[k] = x
	}
	r2["message"] = m2
	return pruned{value: r2, keep: keep}, true
}

// unprune rewrites an instance location of the pruned value (URL-escaped
// tokens, as jsonschema/v5 gives it) into the same place in the line.
func (p pruned) unprune(loc string) string {
	rest, ok := strings.CutPrefix(loc, blocksPointer+"/")
	if !ok {
		return loc
	}
	idx, _, _ := strings.Cut(rest, "/")
	j, err := strconv.Atoi(idx)
	if err != nil || j < 0 || j >= len(p.keep) {
		return loc
	}
	return blocksPointer + "/" + strconv.Itoa(p.keep[j]) + rest[len(idx):]
}

// fastCheckAt is fastCheck of node i of t, as a value on its own.
func (v *Validator) fastCheckAt(s *fnode, t *jsontree.Tree, i int) Verdict {
	c := checkers.Get().(*checker)
	c.t = t
	c.words = c.words[:0]
	n := (len(t.Nodes) + 63) / 64
	c.dupDone = slices.Grow(c.dupDone[:0], n)[:n]
	clear(c.dupDone)
	r := c.child(s, i)
	c.t = nil
	if cap(c.dupDone) > 1<<14 {
		c.dupDone = nil
	}
	checkers.Put(c)
	if r&(rBad|rUnsure) == 0 {
		return Valid
	}
	return Unsure
}
