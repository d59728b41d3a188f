// Package chain rebuilds, from one transcript's records, the conversation Claude Code resumes: leaf, parent walk, parallel tool results.
package chain

import (
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/ccvet/ccvet/internal/entry"
)

// The reader (Claude Code 2.1.x, loadTranscriptFile and buildConversationChain)
// works like this, and so does this package:
//
//  0. In a file over BigFile (5 MiB) the lines before the last compaction
//     boundary without preservedSegment are not read.
//  1. Every user, assistant, system and attachment line with a uuid goes into
//     a map by uuid; a later line with the same uuid replaces the earlier one
//     but keeps its place in iteration order.
//  2. Legacy progress lines are not kept: each is remembered as a bridge to its
//     own (bridged) parent, and a later message whose parent is a progress
//     line is re-parented to that parent.
//     A compaction boundary's preservedSegment relinks the kept messages
//     (head to tail) below its anchor, the summary that follows the boundary.
//  3. The leaf of the main conversation is a non-sidechain message that no
//     other message names as parent (ResumeLeaf, measured on 2.1.330 and
//     2.1.332): the one the last last-prompt line's leafUuid names, else the
//     last in map order, whatever the timestamps. 2.1.110 ignores
//     last-prompt (ChildlessLeaf). With no such message, the latest
//     non-sidechain message (MainLeaf). A subagent's leaf is the latest of
//     its messages that no other of its messages names as parent.
//  4. From the leaf it follows parentUuid until a null parent. When the parent
//     is unknown, or already on the walk (a cycle), readers from 2.1.94 on
//     bridge to the latest earlier message with the same isSidechain written
//     at most 5,000 ms before (Options.Bridge); without one the walk ends.
//  5. Then it rebuilds parallel tool calls: for every assistant message.id on
//     the chain, the assistant lines sharing that id (the walk may have
//     skipped some) and the tool_result users parented to any line of the
//     group are put together where the group's last line on the chain was:
//     the assistant lines first, then the results, each sorted by timestamp
//     (2.1.110) or in file order (2.1.330; Options.FileOrder).
//     This also gathers the batch order written since 2.1.284 (USE1, RES1,
//     USE2 parented to RES1, RES2) into one call message and one answer.

// IsMessage reports whether the reader keeps r in its message map.
func IsMessage(r *entry.Record) bool {
	if r.ID().IsZero() {
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
	// From is the index of the first record the reader loads: in a file
	// over BigFile, its last compaction boundary without preservedSegment
	// (the records before it are in no map); else 0.
	From int
	// ids holds, per uuid, the first and last record with it (of any
	// type, anywhere in the file) and the last message line with it from
	// From on (msg, -1: none): one index for the reader's (byUUID) and
	// the file rules' (FirstWith, LastWith).
	ids *uuidIndex
	// repeats counts the records whose uuid an earlier record has; mark
	// says, per record, whether it is the last one with its uuid
	// (LastWith's, markLast) and whether an earlier one has it
	// (markRepeat).
	repeats int
	mark    []uint8
	// order holds, per uuid in first-seen order (JavaScript Map order),
	// the index of the line kept for it (byUUID's).
	order []int32
	// moved holds the parent of each message line whose parent after the
	// progress bridge and the preserved-segment relinking is not its own
	// parentUuid (see Parent): most files have none.
	moved map[int32]moved
	// up is, per record, the index byUUID gives its parent (after the
	// bridge and the preserved-segment relinking), or -1.
	up   []int32
	kept []bool // per record: the line the reader keeps for its uuid

	// What is derived on demand: the file rules of one large file run at
	// once (several goroutines), so each piece is made once, safely, and
	// never changed after. mu guards convs, agents and memo.
	mu    sync.Mutex
	convs map[convKey]*Conversation
	// childless, main and resume are ChildlessLeaf()+2, MainLeaf()+2 and
	// ResumeLeaf()+2 once known (0: not yet; two callers at once may both
	// work one out, the same); agents holds AgentLeaf by agent id.
	childless, main, resume atomic.Int32
	agents                  map[string]int
	// lastPrompt is LastPromptLeaf, found once (each resume walk asks).
	lastPrompt     string
	lastPromptOnce sync.Once
	// memo holds what Memo computed from the graph for its users: a few
	// values a file (a reader's walk, its resume), found by comparing keys,
	// which costs less than hashing a key of many fields.
	memo []*memoCell
}

// memoCell is one value of Graph.Memo: computed once, by the first caller;
// the others wait for it.
type memoCell struct {
	key  any
	once sync.Once
	done atomic.Bool
	v    any
}

// Memo returns what compute gives for key, computing it on the first call
// only: what the graph's users derive from it (a reader's resume) lives as
// long as the graph and no longer. Safe for concurrent use: a caller asking
// for a key being computed waits for it (compute may ask for other keys).
func (g *Graph) Memo(key any, compute func() any) any {
	g.mu.Lock()
	c := g.cell(key)
	if c == nil {
		c = &memoCell{key: key}
		g.memo = append(g.memo, c)
	}
	g.mu.Unlock()
	c.once.Do(func() {
		c.v = compute()
		c.done.Store(true)
	})
	return c.v
}

// Offer keeps v for key when Memo has nothing for it yet (not even being
// computed): a value a caller knows is what compute would give for key.
// It never waits.
func (g *Graph) Offer(key, v any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cell(key) != nil {
		return
	}
	c := &memoCell{key: key, v: v}
	c.once.Do(func() {})
	c.done.Store(true)
	g.memo = append(g.memo, c)
}

// cell is Memo's cell for key, or nil (g.mu held).
func (g *Graph) cell(key any) *memoCell {
	for _, c := range g.memo {
		if c.key == key {
			return c
		}
	}
	return nil
}

// Memoizes reports whether Memo kept anything.
func (g *Graph) Memoizes() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.memo) > 0
}

// Memoized returns what Memo kept for key, if anything (not what is still
// being computed).
func (g *Graph) Memoized(key any) (any, bool) {
	g.mu.Lock()
	c := g.cell(key)
	g.mu.Unlock()
	if c == nil || !c.done.Load() {
		return nil, false
	}
	return c.v, true
}

// uuidAt is where a uuid is (see Graph.ids).
type uuidAt struct{ first, last, msg int32 }

// span is the first and the last record index of a uuid.
type span struct{ first, last int32 }

func (g *Graph) span(id entry.ID) (span, bool) {
	a, ok := g.ids.get(id)
	if !ok {
		return span{}, false
	}
	return span{a.first, a.last}, true
}

// idOf is the ID of uuid.
func idOf(uuid string) entry.ID {
	id, _ := entry.ParseID(uuid)
	return id
}

// byUUID is the index of the last message line with uuid (from From on).
func (g *Graph) byUUID(uuid string) (int, bool) { return g.byID(idOf(uuid)) }

// byID is byUUID by the uuid's ID.
func (g *Graph) byID(id entry.ID) (int, bool) {
	if a, ok := g.ids.get(id); ok && a.msg >= 0 {
		return int(a.msg), true
	}
	return 0, false
}

// FirstWith returns the index of the first record (of any type) with uuid,
// or -1. The file rules share its index instead of each making a map.
func (g *Graph) FirstWith(uuid string) int { return g.FirstWithID(idOf(uuid)) }

// FirstWithID is FirstWith by the uuid's ID.
func (g *Graph) FirstWithID(id entry.ID) int {
	if s, ok := g.span(id); ok {
		return int(s.first)
	}
	return -1
}

// Repeats is the number of records whose uuid an earlier record of the
// file has (of any type): those where FirstWith is not their own index.
func (g *Graph) Repeats() int { return g.repeats }

// IsLast reports whether record i has a uuid and is the last record with
// it: whether LastWith(Records[i].UUID) is i, without a lookup.
func (g *Graph) IsLast(i int) bool { return g.mark[i]&markLast != 0 }

// IsRepeat reports whether record i has a uuid that an earlier record
// has: whether FirstWith(Records[i].UUID) is not i, without a lookup.
func (g *Graph) IsRepeat(i int) bool { return g.mark[i]&markRepeat != 0 }

// The bits of Graph.mark.
const (
	markLast uint8 = 1 << iota
	markRepeat
)

// LastParent returns LastWith(Records[i].ParentUUID), or -1 when record i
// has no parent: the line just before, the usual case, without a lookup.
func (g *Graph) LastParent(i int) int {
	r := g.Records[i]
	if !r.HasParent {
		return -1
	}
	if i > 0 && g.IsLast(i-1) && g.Records[i-1].ID() == r.ParentID() {
		return i - 1
	}
	return g.LastWithID(r.ParentID())
}

// LastWith returns the index of the last record (of any type) with uuid,
// or -1.
func (g *Graph) LastWith(uuid string) int { return g.LastWithID(idOf(uuid)) }

// LastWithID is LastWith by the uuid's ID.
func (g *Graph) LastWithID(id entry.ID) int {
	if s, ok := g.span(id); ok {
		return int(s.last)
	}
	return -1
}

// noTime is what time gives for a timestamp that is missing or does not
// parse (no date of years 0 to 9999 is it).
const noTime = math.MinInt64

type convKey struct {
	leaf int
	opt  Options
}

// Build loads recs (one file, in file order) when the file's size is not
// known: BuildSize(recs, 0).
func Build(recs []*entry.Record) *Graph { return BuildSize(recs, 0) }

// BuildSize loads recs, one file's records in file order, of a file of
// size bytes: the reader goes by the file's size to decide whether it
// reads it whole (BigFile). size <= 0: not known, and the last record's
// offset stands for it (a lower bound: a last line that alone takes the
// file over BigFile is not counted).
func BuildSize(recs []*entry.Record, size int64) *Graph {
	g := &Graph{Records: recs, ids: newUUIDIndex(recs, len(recs)),
		kept: make([]bool, len(recs)), up: make([]int32, len(recs)), mark: make([]uint8, len(recs))}
	g.From = loadFrom(recs, size)
	var first []*uuidAt // per uuid in first-seen order of its message lines from From on
	for i, r := range recs {
		if r.ID().IsZero() {
			continue
		}
		a, seen := g.ids.add(i)
		if seen {
			g.repeats++
			g.mark[a.last] &^= markLast
			g.mark[i] = markRepeat
		}
		a.last = int32(i)
		g.mark[i] |= markLast
		if i >= g.From && IsMessage(r) {
			if a.msg < 0 {
				first = append(first, a)
			}
			a.msg = int32(i)
		}
	}
	// bridge holds, per progress uuid, the record whose parentUuid the
	// progress line passes on to a line parented to it.
	var bridge map[entry.ID]int32
	for i, r := range recs {
		if i < g.From {
			continue
		}
		src := int32(i)
		if p := r.ParentID(); !p.IsZero() && bridge != nil {
			if b, ok := bridge[p]; ok {
				src = b
			}
		}
		if r.Type == "progress" && !r.ID().IsZero() {
			if bridge == nil {
				bridge = map[entry.ID]int32{}
			}
			bridge[r.ID()] = src
			continue
		}
		if p := recs[src]; p.ParentID() != r.ParentID() && IsMessage(r) {
			g.setParent(i, moved{p.ParentID(), p.ParentUUID()})
		}
	}
	g.order = make([]int32, len(first))
	for k, a := range first {
		g.order[k] = a.msg
		g.kept[a.msg] = true
	}
	relink(g)
	for i := range recs {
		g.up[i] = -1
		p := g.ParentID(i)
		switch {
		case p.IsZero():
		case i > 0 && g.kept[i-1] && recs[i-1].ID() == p:
			g.up[i] = int32(i - 1) // the usual case, without a lookup
		default:
			if k, ok := g.byID(p); ok {
				g.up[i] = int32(k)
			}
		}
	}
	return g
}

// BigFile is the size above which the reader skips, on load, every line
// before the file's last compaction boundary that has no preservedSegment
// (measured on 2.1.110, 2.1.330 and 2.1.332, the oracle's hand case
// compaction-big-file: at 5,247,071 and 5,248,850 bytes a parallel call's
// lines before the boundary that share the message.id of one after it are
// not gathered; at 5,125,998 bytes they are). It goes by the file's size:
// over 5 MiB by its last line alone (hand case compaction-big-last-line),
// the file is read from the boundary too.
const BigFile = 5 << 20

// loadFrom is the index of the first record the reader loads: that of the
// last compaction boundary without preservedSegment when the file (size
// bytes, see BuildSize) is over BigFile, else 0.
func loadFrom(recs []*entry.Record, size int64) int {
	if len(recs) == 0 {
		return 0
	}
	if size <= 0 {
		size = recs[len(recs)-1].Offset
	}
	if size <= BigFile {
		return 0
	}
	for i := len(recs) - 1; i > 0; i-- {
		r := recs[i]
		if compactBoundary(r) && r.Rarer != nil && r.PreservedHead == "" {
			return i
		}
	}
	return 0
}

// relink is relinkPreserved, a variable so that TestRelinkPreserved can
// build graphs with its reference.
var relink = (*Graph).relinkPreserved

// relinkPreserved applies each compaction boundary's preservedSegment: the
// kept messages (head to tail) are hung below the anchor (the summary), and
// what the anchor's other children continue from is the tail.
func (g *Graph) relinkPreserved() {
	// The kept lines by parent, made at the first segment: a line moved
	// goes on its new parent's list too, and a list read is filtered by
	// the lines' parents now (a file of thousands of boundaries is not
	// walked once a boundary).
	var children map[entry.ID][]int
	for _, r := range g.Records {
		if r.Rare == nil || r.Rarer == nil || r.PreservedHead == "" || r.PreservedAnchor == "" || r.PreservedTail == "" {
			continue
		}
		head, okH := g.byUUID(r.PreservedHead)
		_, okA := g.byUUID(r.PreservedAnchor)
		_, okT := g.byUUID(r.PreservedTail)
		if !okH || !okA || !okT {
			continue
		}
		if children == nil {
			children = map[entry.ID][]int{}
			for i := range g.Records {
				if g.Kept(i) {
					p := g.ParentID(i)
					children[p] = append(children[p], i)
				}
			}
		}
		anchor := moved{idOf(r.PreservedAnchor), r.PreservedAnchor}
		tail := moved{idOf(r.PreservedTail), r.PreservedTail}
		var stay []int // the anchor's children after this segment
		for _, i := range children[anchor.id] {
			if i == head || !g.Kept(i) || g.ParentID(i) != anchor.id {
				continue // moved since
			}
			g.setParent(i, tail)
			if tail.id == anchor.id {
				stay = append(stay, i)
			} else {
				children[tail.id] = append(children[tail.id], i)
			}
		}
		g.setParent(head, anchor)
		children[anchor.id] = append(stay, head)
	}
}

// moved is the parent a message line has after the progress bridge or a
// preserved segment's relinking, when it is not its parentUuid.
type moved struct {
	id entry.ID
	s  string
}

// setParent gives message line i the parent p (see Parent).
func (g *Graph) setParent(i int, p moved) {
	if p.id == g.Records[i].ParentID() {
		delete(g.moved, int32(i))
		return
	}
	if g.moved == nil {
		g.moved = map[int32]moved{}
	}
	g.moved[int32(i)] = p
}

// Index returns the index of the message line the reader keeps for uuid, or -1.
func (g *Graph) Index(uuid string) int {
	if i, ok := g.byUUID(uuid); ok {
		return i
	}
	return -1
}

// Parent returns the parent uuid of record i after the progress bridge
// and the preserved-segment relinking: "" for a line that is not a
// message the reader loads (before From, or not a message).
func (g *Graph) Parent(i int) string {
	r := g.Records[i]
	if i < g.From || !IsMessage(r) {
		return ""
	}
	if p, ok := g.moved[int32(i)]; ok {
		return p.s
	}
	return r.ParentUUID()
}

// ParentID is the ID of Parent(i).
func (g *Graph) ParentID(i int) entry.ID {
	r := g.Records[i]
	if i < g.From || !IsMessage(r) {
		return entry.ID{}
	}
	if p, ok := g.moved[int32(i)]; ok {
		return p.id
	}
	return r.ParentID()
}

// Kept reports whether record i is the line the reader keeps for its uuid.
func (g *Graph) Kept(i int) bool { return g.kept[i] }

// ParentIndex returns the index of the message line the reader keeps for
// Parent(i), or -1: Index(Parent(i)).
func (g *Graph) ParentIndex(i int) int { return int(g.up[i]) }

// time returns record i's timestamp in ms (read as RFC 3339, see
// entry.Record.TimestampMillis), or noTime; only kept messages are ever
// asked for.
func (g *Graph) time(i int) int64 {
	if g.kept[i] {
		if ms, ok := g.Records[i].TimestampMillis(); ok {
			return ms
		}
	}
	return noTime
}

// latest returns the kept message with the latest timestamp among those pred
// accepts, the first in map order on a tie; -1 if none has a timestamp.
func (g *Graph) latest(pred func(i int) bool) int {
	best, bestT := -1, int64(0)
	for _, i32 := range g.order {
		i := int(i32)
		if !pred(i) {
			continue
		}
		t := g.time(i)
		if t == noTime {
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
	if g.main.Load() == 0 {
		g.main.Store(int32(g.latest(func(i int) bool { return !g.Records[i].IsSidechain }) + 2))
	}
	return int(g.main.Load()) - 2
}

// ChildlessLeaf is the leaf 2.1.110 resumes from: of the kept messages no
// other names as parent, each stands for its nearest user or assistant
// ancestor (itself when it is one), and the one of the last such message in
// map order wins, whatever the timestamps (measured on 2.1.110: an end
// written later in the file but dated earlier wins). -1 if there is none
// (the reader says "No conversation found").
func (g *Graph) ChildlessLeaf() int {
	if g.childless.Load() == 0 {
		g.childless.Store(int32(g.childlessLeaf() + 2))
	}
	return int(g.childless.Load()) - 2
}

func (g *Graph) childlessLeaf() int {
	hasChild := g.hasChildren(false)
	// seen[j] == walk marks the records the current walk met; reach[j] is
	// where a walk from j ends, once one has passed j (0: not yet, 1: at no
	// message, k+2: at message k), so that leaves hanging below one long
	// run of other entries do not each walk it again.
	seen := make([]int32, len(g.Records))
	reach := make([]int32, len(g.Records))
	var path []int
	for w := len(g.order) - 1; w >= 0; w-- {
		i := int(g.order[w])
		if hasChild[i] || g.Records[i].IsSidechain || g.time(i) == noTime {
			continue
		}
		walk := int32(w + 1)
		end := int32(1)
		path = path[:0]
		for j := i; j >= 0; j = int(g.up[j]) {
			if reach[j] != 0 {
				end = reach[j]
				break
			}
			if seen[j] == walk {
				break // a loop: no message
			}
			seen[j] = walk
			path = append(path, j)
			if t := g.Records[j].Type; t == "user" || t == "assistant" {
				if !g.Records[j].IsSidechain && g.time(j) != noTime {
					end = int32(j) + 2
				}
				break
			}
		}
		if end >= 2 {
			return int(end) - 2
		}
		for _, j := range path {
			reach[j] = end
		}
	}
	return -1
}

// hasChildren marks, by record index, the kept messages another kept
// message names as parent; with dated, only those a child dated no earlier
// names (a child with no timestamp, or a parent with none, counts).
func (g *Graph) hasChildren(dated bool) []bool {
	// Indexes stand for uuids: a parent that byUUID does not know names no
	// kept message, so it cannot make one of them a parent.
	hasChild := make([]bool, len(g.Records))
	for _, i := range g.order {
		if p := g.up[i]; p >= 0 && (!dated || g.continues(int(i), int(p))) {
			hasChild[p] = true
		}
	}
	return hasChild
}

// continues reports whether child, naming parent, is dated no earlier than
// it (or one of them has no timestamp).
func (g *Graph) continues(child, parent int) bool {
	tc, tp := g.time(child), g.time(parent)
	return tc == noTime || tp == noTime || tc >= tp
}

// compactBoundary reports whether r is a compaction boundary.
func compactBoundary(r *entry.Record) bool {
	return r.Type == "system" && r.Rare != nil && r.Subtype == "compact_boundary"
}

// ResumeLeaf is the leaf 2.1.330 and later resume from: of the kept
// non-sidechain messages, not compaction boundaries, that no other names
// as parent (a child dated before its parent does not count), the one the
// last last-prompt line's leafUuid names, else the last by line whatever
// the timestamps (measured on 2.1.330 and 2.1.332: an end written later but
// dated earlier wins; so does the later of two with one timestamp). -1 if
// there is none (MainLeaf is then the reader's).
func (g *Graph) ResumeLeaf() int {
	if g.resume.Load() == 0 {
		g.resume.Store(int32(g.resumeLeaf() + 2))
	}
	return int(g.resume.Load()) - 2
}

func (g *Graph) resumeLeaf() int {
	// A child dated before its parent does not continue it (a later line
	// that reuses an earlier entry's uuid, named as parent by an entry
	// written before it: measured on 2.1.330 and 2.1.332, hand cases
	// duplicate-uuid-*; dated after that entry, it is continued).
	hasChild := g.hasChildren(true)
	// A compaction boundary is never where the resume starts: a file
	// that ends on one resumes from the message before it (hand cases
	// boundary-end-*).
	end := func(i int) bool { return !hasChild[i] && !g.Records[i].IsSidechain && !compactBoundary(g.Records[i]) }
	if k := g.Index(g.LastPromptLeaf()); k >= 0 && end(k) && g.time(k) != noTime {
		return k
	}
	// The last such message by line: a line that reuses an earlier uuid
	// counts where it is written, not where its uuid was first seen.
	for i := len(g.Records) - 1; i >= 0; i-- {
		if g.kept[i] && end(i) && g.time(i) != noTime {
			return i
		}
	}
	return -1
}

// LastPromptLeaf is the leafUuid of the file's last last-prompt line that
// has one ("" when none).
func (g *Graph) LastPromptLeaf() string {
	g.lastPromptOnce.Do(func() {
		for i := len(g.Records) - 1; i >= 0; i-- {
			if r := g.Records[i]; r.Type == "last-prompt" && r.Rare != nil && r.Rarer != nil && r.LeafUUID != "" {
				g.lastPrompt = r.LeafUUID
				return
			}
		}
	})
	return g.lastPrompt
}

// AgentLeaf is the leaf of subagent agentID's transcript: the latest of its
// sidechain messages that none of them names as parent. -1 if there is none.
func (g *Graph) AgentLeaf(agentID string) int {
	g.mu.Lock()
	leaf, ok := g.agents[agentID]
	g.mu.Unlock()
	if ok {
		return leaf
	}
	mine := func(i int) bool {
		r := g.Records[i]
		return r.IsSidechain && r.AgentID == agentID
	}
	// By index, as in childlessLeaf: each kept message is byUUID's line
	// for its uuid.
	parent := make([]bool, len(g.Records))
	for _, i := range g.order {
		if mine(int(i)) && g.up[i] >= 0 {
			parent[g.up[i]] = true
		}
	}
	leaf = g.latest(func(i int) bool { return mine(i) && !parent[i] })
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.agents == nil {
		g.agents = map[string]int{}
	}
	g.agents[agentID] = leaf
	return leaf
}

// BridgeWindow is how far back in time (ms) a 2.1.94+ reader looks for the
// entry to continue from when a parent is missing or loops.
const BridgeWindow = 5000

// Options are the reader behaviours that differ between versions.
type Options struct {
	// Bridge: a missing or repeated parent continues at the latest earlier
	// message with the same isSidechain written within BridgeWindow (2.1.94+).
	Bridge bool
	// FileOrder: a parallel group's lines are put back in file order (2.1.330)
	// rather than by timestamp (2.1.110).
	FileOrder bool
}

// Bridge is one place where the walk left parentUuid behind.
type Bridge struct {
	From  int    // record index whose parent was missing or repeated
	To    int    // record index the walk continued at; -1 when none qualified (the walk ended)
	Cycle bool   // the parent was already on the walk
	Gap   int64  // ms between From and To (To >= 0), or between From and the latest earlier candidate (-1 if none)
	Near  int    // when To < 0: the latest earlier candidate, or -1
	Want  string // the parentUuid that was missing or repeated
}

// Conversation is what a resume rebuilds from one leaf.
type Conversation struct {
	Leaf  int   // record index of the leaf, -1 if there was none
	Order []int // record indexes, oldest first, recovered lines spliced in
	Cycle bool  // the walk met an entry twice (bridged or stopped there)
	// Cut is the record index of the oldest entry on the walk when its
	// parentUuid names no message in the file and no bridge was taken; -1 otherwise.
	Cut int
	// CycleCut is the record index of the oldest entry on the walk when its
	// parent was already on the walk and no bridge was taken; -1 otherwise.
	CycleCut  int
	Bridges   []Bridge
	ordered   bool   // a parallel group's lines differ in file and in time order
	on        []bool // by record index
	recovered []bool
}

// On reports whether record i is part of the rebuilt conversation.
func (c *Conversation) On(i int) bool { return i >= 0 && i < len(c.on) && c.on[i] }

// Recovered reports whether record i is on it only thanks to the parallel
// tool call recovery (the bare parent walk skips it).
func (c *Conversation) Recovered(i int) bool {
	return i >= 0 && i < len(c.recovered) && c.recovered[i]
}

// Rebuild walks from leaf (a record index; -1 gives an empty conversation)
// the way readers before 2.1.94 do: no bridge.
func (g *Graph) Rebuild(leaf int) *Conversation { return g.RebuildWith(leaf, Options{}) }

// RebuildWith walks from leaf with the behaviours opt selects. The
// conversation is kept and given again for the same leaf and options, or
// for options that would not change it (no bridge was looked for, no
// parallel group is in a different order by time and by file): it must not
// be changed. Two callers at once may both rebuild it: they get the same
// conversation, the first one kept.
func (g *Graph) RebuildWith(leaf int, opt Options) *Conversation {
	g.mu.Lock()
	c, ok := g.convs[convKey{leaf, opt}]
	g.mu.Unlock()
	if ok {
		return c
	}
	c = g.rebuild(leaf, opt)
	g.mu.Lock()
	defer g.mu.Unlock()
	if k, ok := g.convs[convKey{leaf, opt}]; ok {
		return k
	}
	if g.convs == nil {
		g.convs = map[convKey]*Conversation{}
	}
	for _, b := range []bool{false, true} {
		for _, f := range []bool{false, true} {
			o := Options{Bridge: b, FileOrder: f}
			k := convKey{leaf, o}
			if _, ok := g.convs[k]; !ok && (o == opt || ((b == opt.Bridge || len(c.Bridges) == 0) && (f == opt.FileOrder || !c.ordered))) {
				g.convs[k] = c
			}
		}
	}
	return c
}

func (g *Graph) rebuild(leaf int, opt Options) *Conversation {
	c := &Conversation{Leaf: leaf, Cut: -1, CycleCut: -1}
	if leaf < 0 {
		return c
	}
	c.on = make([]bool, len(g.Records))
	c.recovered = make([]bool, len(g.Records))
	sc := takeScratch()
	defer sc.give()
	// seen holds the uuids the walk met, by the index byUUID gives them:
	// only uuids of byUUID are ever looked up.
	seen := sc.bools(len(g.Records))
	var bf bridgeFinder                    // built at the first bridge
	walk := make([]int, 0, len(g.order)+1) // each kept message once, and the leaf
	for cur := leaf; cur >= 0; {
		if g.kept[cur] {
			seen[cur] = true
		} else if k, ok := g.byID(g.Records[cur].ID()); ok {
			seen[k] = true
		}
		walk = append(walk, cur)
		if g.ParentID(cur).IsZero() {
			break
		}
		next, ok := int(g.up[cur]), g.up[cur] >= 0
		if ok && !seen[next] {
			cur = next
			continue
		}
		cycle := ok
		if cycle {
			c.Cycle = true
		}
		b := Bridge{From: cur, To: -1, Near: -1, Cycle: cycle, Gap: -1, Want: g.Parent(cur)}
		near, gap := g.bridgeTarget(cur, seen, &bf)
		b.Near, b.Gap = near, gap
		if opt.Bridge && near >= 0 && gap <= BridgeWindow {
			b.To = near
		}
		c.Bridges = append(c.Bridges, b)
		if b.To < 0 {
			if cycle {
				c.CycleCut = cur
			} else {
				c.Cut = cur
			}
			break
		}
		cur = b.To
	}
	for i, j := 0, len(walk)-1; i < j; i, j = i+1, j-1 {
		walk[i], walk[j] = walk[j], walk[i]
	}
	for _, i := range walk {
		c.on[i] = true
	}
	c.Order = g.recoverParallel(walk, c, opt.FileOrder, sc)
	return c
}

// rebuildScratch is what a rebuild uses and gives back (a pool keeps it for the
// next one): per-record arrays, zeroed when taken, and the map and list
// of message ids. Lint rebuilds a conversation per file, and more than one
// when readers differ: without it each one allocated about 20 bytes per
// record of the file again.
type rebuildScratch struct {
	b    []bool
	i32  []int32
	gid  map[entry.ID]int
	ids  []entry.ID
	flat []int
	tmp  []int
}

var scratchPool sync.Pool

func takeScratch() *rebuildScratch {
	if s, ok := scratchPool.Get().(*rebuildScratch); ok {
		return s
	}
	return &rebuildScratch{}
}

// maxPooledIDs bounds the map of message ids kept for the next rebuild:
// clearing a map costs its capacity, so one grown on a large file is
// dropped rather than cleared for each small one after it.
const maxPooledIDs = 1 << 12

// maxPooledRecords bounds the per-record arrays kept for the next rebuild:
// a long transcript's (4.4 MB for 370,000 entries) would stay live through
// two collections, at the peak of the run's memory, to save one
// allocation of the file's next rebuild.
const maxPooledRecords = 1 << 16

func (s *rebuildScratch) give() {
	if len(s.gid) > maxPooledIDs {
		s.gid = nil
	} else {
		clear(s.gid)
	}
	if cap(s.b) > maxPooledRecords {
		s.b = nil
	}
	if cap(s.i32) > 5*maxPooledRecords {
		s.i32 = nil
	}
	if cap(s.flat) > maxPooledRecords {
		s.flat = nil
	}
	if cap(s.tmp) > maxPooledRecords {
		s.tmp = nil
	}
	clear(s.ids) // no strings of the file kept alive
	s.ids = s.ids[:0]
	scratchPool.Put(s)
}

// bools is n zeroed bools.
func (s *rebuildScratch) bools(n int) []bool {
	if cap(s.b) < n {
		s.b = make([]bool, n)
	} else {
		s.b = s.b[:n]
		clear(s.b)
	}
	return s.b
}

// int32s is k zeroed slices of n int32 each.
func (s *rebuildScratch) int32s(k, n int) [][]int32 {
	if cap(s.i32) < k*n {
		s.i32 = make([]int32, k*n)
	} else {
		s.i32 = s.i32[:k*n]
		clear(s.i32)
	}
	out := make([][]int32, k)
	for j := range out {
		out[j] = s.i32[j*n : (j+1)*n : (j+1)*n]
	}
	return out
}

// bridgeTarget is the latest message before record i (by timestamp; on a
// tie, earlier in the file) with i's isSidechain that the walk has not seen,
// and how many ms before i it was written; -1, -1 when there is none or i's
// timestamp does not parse.
func (g *Graph) bridgeTarget(i int, seen []bool, bf *bridgeFinder) (int, int64) {
	t, ok := g.Records[i].TimestampMillis()
	if !ok {
		return -1, -1
	}
	if bf.sides[0].idx == nil && bf.sides[1].idx == nil {
		bf.build(g)
	}
	side := &bf.sides[0]
	if g.Records[i].IsSidechain {
		side = &bf.sides[1]
	}
	// The last candidate before (t, i): earlier in time, or as early and
	// earlier in the file.
	p := sort.Search(len(side.idx), func(k int) bool {
		return side.t[k] > t || side.t[k] == t && int(side.idx[k]) >= i
	}) - 1
	p = side.unseen(p, seen)
	if p < 0 {
		return -1, -1
	}
	return int(side.idx[p]), t - side.t[p]
}

// bridgeFinder answers bridgeTarget for one walk without reading every
// kept message for each bridge (a file whose every parent is missing has a
// bridge a line): the kept messages with a time, on each side (main chain,
// sidechain), sorted by time then line, and for each a link to the one
// before it that the walk may not have seen (seen only grows during a
// walk, so a link once moved past seen messages stays valid).
type bridgeFinder struct {
	sides [2]bridgeSide
}

type bridgeSide struct {
	t    []int64
	idx  []int32
	skip []int32 // skip[k] < k: no message between it and k is unseen; -1: none
}

func (bf *bridgeFinder) build(g *Graph) {
	for _, j32 := range g.order {
		j := int(j32)
		tj := g.time(j)
		if tj == noTime {
			continue
		}
		side := &bf.sides[0]
		if g.Records[j].IsSidechain {
			side = &bf.sides[1]
		}
		side.t, side.idx = append(side.t, tj), append(side.idx, j32)
	}
	for k := range bf.sides {
		side := &bf.sides[k]
		if side.idx == nil {
			side.idx = []int32{} // built, empty
		}
		order := make([]int, len(side.idx))
		for n := range order {
			order[n] = n
		}
		sort.Slice(order, func(a, b int) bool {
			x, y := order[a], order[b]
			return side.t[x] < side.t[y] || side.t[x] == side.t[y] && side.idx[x] < side.idx[y]
		})
		t, idx := make([]int64, len(order)), make([]int32, len(order))
		for n, o := range order {
			t[n], idx[n] = side.t[o], side.idx[o]
		}
		side.t, side.idx = t, idx
		side.skip = make([]int32, len(idx))
		for n := range side.skip {
			side.skip[n] = int32(n - 1)
		}
	}
}

// unseen is the last position at or before p whose message the walk has
// not seen (-1: none), its links shortened on the way.
func (side *bridgeSide) unseen(p int, seen []bool) int {
	root := p
	for root >= 0 && seen[side.idx[root]] {
		root = int(side.skip[root])
	}
	for p > root {
		next := int(side.skip[p])
		side.skip[p] = int32(root)
		p = next
	}
	return root
}

// recoverParallel is recoverOrphanedParallelToolResults: each message.id
// group on the walk is gathered where its last line on the walk was.
func (g *Graph) recoverParallel(walk []int, c *Conversation, fileOrder bool, sc *rebuildScratch) []int {
	// Groups are numbered by message.id in chain order; member[i] is record
	// i's group + 1 (0: none).
	ids := sc.ids[:0]
	if sc.gid == nil {
		sc.gid = map[entry.ID]int{}
	}
	gid := sc.gid
	var prev entry.ID
	for _, i := range walk {
		r := g.Records[i]
		if id := r.MessageID(); r.Type == "assistant" && !id.IsZero() && id != prev {
			// The lines of a message follow each other: prev spares a lookup.
			prev = id
			if _, ok := gid[id]; !ok {
				gid[id] = len(ids)
				ids = append(ids, id)
			}
		}
	}
	sc.ids = ids
	if len(ids) == 0 {
		return walk
	}
	// Three arrays of one int32 a record (a long transcript's walk took
	// five, 9 MB for 460,000 entries): an assistant line and a user line
	// are never the same record, so one array links both kinds of list.
	arr := sc.int32s(3, len(g.Records))
	// Per group, its assistant lines in order: sibs[k]-1 is the first,
	// then link[i]-1 after assistant line i (0: none).
	sibs := make([]int32, len(ids))
	link := arr[0]
	// The tool_result users parented to each assistant record k, in map
	// order: results[k]-1 is the first, then link[i]-1 after user i (0 or
	// -1: none). results[k] is 0 for a record that is not a line of a
	// group, -1 for one that is and has no result yet.
	results := arr[1]
	for o := len(g.order) - 1; o >= 0; o-- { // backwards: each is put first
		i := int(g.order[o])
		r := g.Records[i]
		if id := r.MessageID(); r.Type == "assistant" && !id.IsZero() {
			if k, ok := gid[id]; ok {
				link[i] = sibs[k]
				sibs[k] = int32(i + 1)
				results[i] = -1
			}
		}
	}
	for o := len(g.order) - 1; o >= 0; o-- {
		i := int(g.order[o])
		r := g.Records[i]
		if r.Type == "user" && len(r.ToolResults()) > 0 {
			// Only assistants of a group are ever asked for (by their
			// uuid, which byUUID maps to them).
			if k := g.up[i]; k >= 0 && results[k] != 0 {
				link[i] = results[k]
				results[k] = int32(i + 1)
			}
		}
	}
	member := arr[2]
	// The groups one after the other: group k is flat[start[k]:start[k+1]],
	// its assistants, then its tool results.
	flat := sc.flat[:0]
	defer func() { sc.flat = flat[:0] }()
	start := make([]int, len(ids)+1)
	scratch := sc.tmp
	defer func() { sc.tmp = scratch }()
	for k := range ids {
		start[k] = len(flat)
		for s := int(sibs[k]) - 1; s >= 0; s = int(link[s]) - 1 {
			if member[s] != 0 {
				continue
			}
			flat = append(flat, s)
			member[s] = int32(k + 1)
		}
		mid := len(flat)
		for a := start[k]; a < mid; a++ {
			at, _ := g.byID(g.Records[flat[a]].ID())
			for tr := int(results[at]) - 1; tr >= 0; tr = int(link[tr]) - 1 {
				if member[tr] != 0 {
					continue
				}
				flat = append(flat, tr)
				member[tr] = int32(k + 1)
			}
		}
		scratch = g.orderGroup(flat[start[k]:mid], fileOrder, c, scratch)
		scratch = g.orderGroup(flat[mid:], fileOrder, c, scratch)
	}
	start[len(ids)] = len(flat)
	last := make([]int, len(ids)) // per group: position in walk of its last member on the walk
	for k, i := range walk {
		if m := member[i]; m != 0 {
			last[m-1] = k
		}
	}
	out := make([]int, 0, len(walk))
	for k, i := range walk {
		m := member[i]
		if m == 0 {
			out = append(out, i)
			continue
		}
		if last[m-1] != k {
			continue
		}
		for _, j := range flat[start[m-1]:start[m]] {
			if !c.on[j] {
				c.on[j] = true
				c.recovered[j] = true
			}
			out = append(out, j)
		}
	}
	return out
}

// orderGroup puts the lines of a parallel group in file order (fileOrder)
// or by timestamp. Until c.ordered is set it also sorts them the other way
// (in scratch, given back for reuse) and sets it when the two orders
// differ: only then does the conversation depend on Options.FileOrder.
func (g *Graph) orderGroup(s []int, fileOrder bool, c *Conversation, scratch []int) []int {
	if len(s) < 2 {
		return scratch
	}
	var alt []int
	if !c.ordered {
		alt = append(scratch[:0], s...)
	}
	g.sortGroup(s, fileOrder)
	if alt != nil {
		g.sortGroup(alt, !fileOrder)
		c.ordered = !slices.Equal(s, alt)
		return alt
	}
	return scratch
}

func (g *Graph) sortGroup(s []int, fileOrder bool) {
	if fileOrder {
		sort.Ints(s)
		return
	}
	slices.SortStableFunc(s, func(a, b int) int { return entry.CompareTimestamps(g.Records[a], g.Records[b]) })
}
