package rules

import "github.com/ccvet/ccvet/internal/entry"

// blockIDs answers whether a record holds a tool_use, or a tool_result,
// with a given id: by a look at its blocks, or, for a record of many blocks
// (a batch of thousands of calls on one line), through a set of their ids
// made once and kept for the last few records asked about. The checks that
// look at the records around each block ask about the same few records
// again and again.
type blockIDs struct {
	held [8]heldIDs
	next int
}

type heldIDs struct {
	rec     *entry.Record
	results bool
	ids     map[string]struct{}
}

// manyBlocks is the number of blocks from which a record's ids are put in
// a set.
const manyBlocks = 16

// has reports whether rec holds a tool_result (results) or a tool_use with
// id.
func (b *blockIDs) has(rec *entry.Record, results bool, id string) bool {
	blocks := rec.ToolUses()
	if results {
		blocks = rec.ToolResults()
	}
	if len(blocks) < manyBlocks {
		for _, t := range blocks {
			if t.ID == id {
				return true
			}
		}
		return false
	}
	for _, h := range b.held {
		if h.rec == rec && h.results == results {
			_, ok := h.ids[id]
			return ok
		}
	}
	ids := make(map[string]struct{}, len(blocks))
	for _, t := range blocks {
		ids[t.ID] = struct{}{}
	}
	b.held[b.next] = heldIDs{rec, results, ids}
	b.next = (b.next + 1) % len(b.held)
	_, ok := ids[id]
	return ok
}
