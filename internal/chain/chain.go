// Package chain rebuilds, from one transcript's records, the conversation Claude Code resumes: leaf, parent walk, parallel tool results.
package chain

import (
	"sort"
	"time"

	"github.com/ccvet/ccvet/internal/entry"
)

// The reader (Claude Code 2.1.x, loadTranscriptFile and buildConversationChain)
// works like this, and so does this package:
//
//  1. Every user, assistant, system and attachment line with a uuid goes into
//     a map by uuid; a later line with the same uuid replaces the earlier one
//     but keeps its place in iteration order.
//  2. Legacy progress lines are not kept: each is remembered as a bridge to its
//     own (bridged) parent, and a later message whose parent is a progress
//     line is re-parented to that parent.
//  3. The leaf of the main conversation is the non-sidechain message with the
//     latest timestamp (the first one wins a tie); a subagent's leaf is the
//     latest of its messages that no other of its messages names as parent.
//  4. From the leaf it follows parentUuid until a null or unknown parent, or
//     until an entry repeats (a cycle).
//  5. Then it recovers parallel tool calls: for every assistant message.id on
//     the chain, the assistant lines sharing that id that the walk skipped, and
//     the tool_result users parented to any line of the group, are put back
//     right after the group's last line on the chain, sorted by timestamp.

// IsMessage reports whether the reader keeps r in its message map.
func IsMessage(r *entry.Record) bool {
	if r.UUID == "" {
		return false
	}
	switch r.Type {
	case "user", "assistant", "system", "attachment":
		return true
	}
	return false
}

// Graph is one file's messages as the reader loads them.
type Graph struct {
	Records []*entry.Record
	byUUID  map[string]int // uuid -> index of the last message line with it
	order   []string       // uuids in first-seen order (JavaScript Map order)
	parent  []string       // per record: parent after the progress bridge ("" = none)
}

// Build loads recs (one file, in file order).
func Build(recs []*entry.Record) *Graph {
	g := &Graph{Records: recs, byUUID: map[string]int{}, parent: make([]string, len(recs))}
	bridge := map[string]string{}
	for i, r := range recs {
		p := r.ParentUUID
		if p != "" {
			if b, ok := bridge[p]; ok {
				p = b
			}
		}
		if r.Type == "progress" && r.UUID != "" {
			bridge[r.UUID] = p
			continue
		}
		if !IsMessage(r) {
			continue
		}
		g.parent[i] = p
		if _, ok := g.byUUID[r.UUID]; !ok {
			g.order = append(g.order, r.UUID)
		}
		g.byUUID[r.UUID] = i
	}
	return g
}

// Index returns the index of the message line the reader keeps for uuid, or -1.
func (g *Graph) Index(uuid string) int {
	if i, ok := g.byUUID[uuid]; ok {
		return i
	}
	return -1
}

// Parent returns the parent uuid of record i after the progress bridge.
func (g *Graph) Parent(i int) string { return g.parent[i] }

// Kept reports whether record i is the line the reader keeps for its uuid.
func (g *Graph) Kept(i int) bool {
	r := g.Records[i]
	return IsMessage(r) && g.byUUID[r.UUID] == i
}

// millis parses an ISO 8601 timestamp as Date.parse does, to the millisecond.
func millis(ts string) (int64, bool) {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), true
}

// latest returns the kept message with the latest timestamp among those pred
// accepts, the first in map order on a tie; -1 if none has a timestamp.
func (g *Graph) latest(pred func(i int) bool) int {
	best, bestT := -1, int64(0)
	for _, u := range g.order {
		i := g.byUUID[u]
		if !pred(i) {
			continue
		}
		t, ok := millis(g.Records[i].Timestamp)
		if !ok {
			continue
		}
		if best < 0 || t > bestT {
			best, bestT = i, t
		}
	}
	return best
}

// MainLeaf is the leaf a resume of the main conversation starts from: the
// latest non-sidechain message. -1 if there is none.
func (g *Graph) MainLeaf() int {
	return g.latest(func(i int) bool { return !g.Records[i].IsSidechain })
}

// AgentLeaf is the leaf of subagent agentID's transcript: the latest of its
// sidechain messages that none of them names as parent. -1 if there is none.
func (g *Graph) AgentLeaf(agentID string) int {
	mine := func(i int) bool {
		r := g.Records[i]
		return r.IsSidechain && r.AgentID == agentID
	}
	parents := map[string]bool{}
	for _, u := range g.order {
		if i := g.byUUID[u]; mine(i) && g.parent[i] != "" {
			parents[g.parent[i]] = true
		}
	}
	return g.latest(func(i int) bool { return mine(i) && !parents[g.Records[i].UUID] })
}

// Conversation is what a resume rebuilds from one leaf.
type Conversation struct {
	Leaf  int   // record index of the leaf, -1 if there was none
	Order []int // record indexes, oldest first, recovered lines spliced in
	Cycle bool  // the walk met an entry twice and stopped
	// Cut is the record index of the oldest entry on the walk when its
	// parentUuid names no message in the file; -1 otherwise.
	Cut       int
	on        map[int]bool
	recovered map[int]bool
}

// On reports whether record i is part of the rebuilt conversation.
func (c *Conversation) On(i int) bool { return c.on[i] }

// Recovered reports whether record i is on it only thanks to the parallel
// tool call recovery (the bare parent walk skips it).
func (c *Conversation) Recovered(i int) bool { return c.recovered[i] }

// Rebuild walks from leaf (a record index; -1 gives an empty conversation).
func (g *Graph) Rebuild(leaf int) *Conversation {
	c := &Conversation{Leaf: leaf, Cut: -1, on: map[int]bool{}, recovered: map[int]bool{}}
	if leaf < 0 {
		return c
	}
	seen := map[string]bool{}
	var walk []int
	for cur := leaf; cur >= 0; {
		u := g.Records[cur].UUID
		if seen[u] {
			c.Cycle = true
			break
		}
		seen[u] = true
		walk = append(walk, cur)
		p := g.parent[cur]
		if p == "" {
			break
		}
		next, ok := g.byUUID[p]
		if !ok {
			c.Cut = cur
			break
		}
		cur = next
	}
	for i, j := 0, len(walk)-1; i < j; i, j = i+1, j-1 {
		walk[i], walk[j] = walk[j], walk[i]
	}
	for _, i := range walk {
		c.on[i] = true
	}
	c.Order = g.recoverParallel(walk, seen, c)
	return c
}

// recoverParallel is recoverOrphanedParallelToolResults.
func (g *Graph) recoverParallel(walk []int, seen map[string]bool, c *Conversation) []int {
	anchor := map[string]int{} // message.id -> last chain line of the group
	var ids []string           // message.ids in chain order
	for _, i := range walk {
		r := g.Records[i]
		if r.Type != "assistant" || r.MessageID == "" {
			continue
		}
		if _, ok := anchor[r.MessageID]; !ok {
			ids = append(ids, r.MessageID)
		}
		anchor[r.MessageID] = i
	}
	if len(ids) == 0 {
		return walk
	}
	siblings := map[string][]int{} // message.id -> its assistant lines
	results := map[string][]int{}  // assistant uuid -> tool_result users parented to it
	for _, u := range g.order {
		i := g.byUUID[u]
		r := g.Records[i]
		switch {
		case r.Type == "assistant" && r.MessageID != "":
			if _, ok := anchor[r.MessageID]; ok {
				siblings[r.MessageID] = append(siblings[r.MessageID], i)
			}
		case r.Type == "user" && g.parent[i] != "" && len(r.ToolResults) > 0:
			results[g.parent[i]] = append(results[g.parent[i]], i)
		}
	}
	inserts := map[int][]int{}
	for _, id := range ids {
		var lost, lostTR []int
		for _, s := range siblings[id] {
			if !seen[g.Records[s].UUID] {
				lost = append(lost, s)
			}
			for _, tr := range results[g.Records[s].UUID] {
				if !seen[g.Records[tr].UUID] {
					lostTR = append(lostTR, tr)
				}
			}
		}
		if len(lost) == 0 && len(lostTR) == 0 {
			continue
		}
		byTime := func(s []int) {
			sort.SliceStable(s, func(a, b int) bool { return g.Records[s[a]].Timestamp < g.Records[s[b]].Timestamp })
		}
		byTime(lost)
		byTime(lostTR)
		rec := append(lost, lostTR...)
		for _, i := range rec {
			seen[g.Records[i].UUID] = true
			c.on[i] = true
			c.recovered[i] = true
		}
		inserts[anchor[id]] = append(inserts[anchor[id]], rec...)
	}
	if len(inserts) == 0 {
		return walk
	}
	out := make([]int, 0, len(walk))
	for _, i := range walk {
		out = append(out, i)
		out = append(out, inserts[i]...)
	}
	return out
}
