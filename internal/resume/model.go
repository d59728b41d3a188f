// Package resume models what `claude --resume` of a given version rebuilds from a transcript and sends to the API.
package resume

import (
	"math"
	"slices"
	"strconv"

	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
)

// The texts the reader itself writes into the conversation (measured).
const (
	TextNoResponse  = "No response requested."
	TextContinue    = "Continue from where you left off."
	TextOrphaned    = "[Orphaned tool result removed due to conversation resume]"
	TextInterrupted = "[Tool use interrupted]"
	TextNoContent   = "(no content)"
	TextToolError   = "[Tool call interrupted: the session ended before the tool returned a result]"
	// TextResultMissing is 2.1.110's result for a call of an entry whose
	// other calls' results end the file (Profile.MissingResultFirst).
	TextResultMissing = "[Tool result missing due to internal error]"
)

// Source is one transcript as the reader loaded it.
type Source struct {
	Records []*entry.Record // the lines that parsed to an object, in file order
	// Content returns record i's message.content as decoded JSON; nil when
	// only the records are known (lint): blocks are then rebuilt from the
	// record's tool ids, other blocks standing as "text".
	Content func(i int) any
	Skipped []Skip // lines the loader dropped
	Agent   string // agent id when the file is a subagent transcript
	// Model returns the message.model of assistant record i; nil or "" when
	// not known.
	Model func(i int) string
	// AnyLeaf: with no main-conversation entry, start from the latest
	// message whatever it is (a subagent transcript without agent ids).
	AnyLeaf bool
	// Graph is chain.BuildSize(Records, Size) when the caller has it
	// already (it does not depend on the reader); nil: Run builds it.
	Graph *chain.Graph
	// Size is the file's size in bytes (0: not known; see chain.BuildSize).
	Size int64
}

// Skip is a line the loader dropped.
type Skip struct {
	Line   int
	Reason string
}

// Block is one content block as sent.
type Block map[string]any

// Type is the block's type.
func (b Block) Type() string { s, _ := b["type"].(string); return s }

func (b Block) str(k string) string { s, _ := b[k].(string); return s }

// Message is one message of the rebuilt request.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
	Lines   []int   `json:"lines,omitempty"` // the file's lines it comes from; none when the reader made it
	// StringContent: the reader sends the content as a plain string (the
	// "(no content)" answer of a duplicated call).
	StringContent bool `json:"-"`
	recs          []int
}

// Event is one thing the reader leaves out or changes.
type Event struct {
	Kind  string `json:"kind"`
	Line  int    `json:"line,omitempty"`
	UUID  string `json:"uuid,omitempty"`
	Tool  string `json:"tool_use_id,omitempty"`
	Count int    `json:"count,omitempty"`
	// Parent is the missing parentUuid of a history-cut or a gap-bridged.
	Parent string `json:"parent_uuid,omitempty"`
	Reason string `json:"reason"`
	rec    int
}

// Event kinds.
const (
	KindSkippedLine = "skipped-line"
	KindHistoryCut  = "history-cut"
	KindBridged     = "gap-bridged"
	KindOtherBranch = "other-branch"
	// KindBeforeCompaction: a file over 5 MiB is read from its last
	// compaction boundary on (Count: the user/assistant entries before it).
	KindBeforeCompaction = "before-compaction"
	KindReplacedUUID     = "replaced-uuid"
	KindCallDropped      = "call-dropped"
	// KindTrailingDropped: the call the file ends on, dropped (2.1.110).
	KindTrailingDropped = "trailing-call-dropped"
	KindResultDropped   = "result-dropped"
	KindReattached      = "result-reattached"
	KindSynthetic       = "synthetic-result"
	KindDuplicateID     = "duplicate-tool-id"
	KindNoResponse      = "no-response-added"
	KindContinue        = "continue-added"
	KindOrphanedMarker  = "orphaned-marker"
	KindContentLost     = "content-lost"
	KindNotSent         = "not-sent"
	// KindThinkingDropped: a signed thinking block of another model, or an
	// assistant message holding only thinking, left out.
	KindThinkingDropped = "thinking-dropped"
	// KindWrapped: a task notification sent inside a system reminder.
	KindWrapped = "wrapped-in-reminder"
	// KindBlankText: text blocks of only whitespace dropped, or sent as
	// "(no content)".
	KindBlankText = "blank-text"
)

// Leaf says where the walk started and why.
type Leaf struct {
	Line   int    `json:"line"`
	UUID   string `json:"uuid"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// Result is the resume of one transcript by one reader version.
type Result struct {
	Reader   Version
	Failed   string // non-empty: --resume fails with this message and sends nothing
	Leaf     *Leaf
	Messages []Message
	LeftOut  []Event
	Changed  []Event
	Graph    *chain.Graph
	Conv     *chain.Conversation
	// OnConv reports whether record i's content reached a sent message.
	sent map[int]bool
	// endsOnAPIError: the conversation's last message entry is an API
	// error entry, which the reader leaves out (see finish).
	endsOnAPIError bool
	// blanked: the user entries (record indexes) whose every block was a
	// text of only whitespace, dropped (see finish).
	blanked map[int]bool
}

// Sent reports whether record i reached the request.
func (r *Result) Sent(i int) bool { return r.sent[i] }

// For is r as reader v gives it: r itself when it is v's, else a copy
// sharing everything but Reader (see Profile.Behaviour).
func (r *Result) For(v Version) *Result {
	if r.Reader == v {
		return r
	}
	c := *r
	c.Reader = v
	return &c
}

// Run rebuilds the conversation src gives for the reader profile p.
func Run(src Source, p Profile) *Result {
	res, ok := walk(src, p)
	if !ok {
		return res
	}
	return finish(res, src, p)
}

// Finish is the rest of Run after Walk: Finish(Walk(src, p), src, p) is
// Run(src, p). w is not changed (the result is a new one sharing its graph
// and conversation).
func Finish(w *Result, src Source, p Profile) *Result {
	res := *w
	if res.Failed != "" || res.Leaf == nil || res.Conv == nil {
		return &res
	}
	res.LeftOut = slices.Clip(res.LeftOut)
	res.Changed = slices.Clip(res.Changed)
	res.sent = map[int]bool{}
	res.blanked = nil
	return finish(&res, src, p)
}

func finish(res *Result, src Source, p Profile) *Result {
	g, conv := res.Graph, res.Conv
	walkEvents(res, g, conv, p)
	msgs := res.dropThinkingOnly(res.messages(src, g, conv, p), p)
	msgs = res.pairTools(msgs, src, g, conv, p)
	res.Messages = res.finish(msgs, p)
	for _, m := range res.Messages {
		for _, i := range m.recs {
			res.sent[i] = true
		}
	}
	return res
}

// Walk is the first part of Run: the leaf, the graph and the conversation
// the walk keeps (Failed, Leaf, Graph, Conv and the events found on the way
// are as Run gives them), without rebuilding the messages.
func Walk(src Source, p Profile) *Result {
	res, _ := walk(src, p)
	return res
}

// walk finds the leaf and walks the conversation; ok is false when Run
// stops there.
func walk(src Source, p Profile) (*Result, bool) {
	res := &Result{Reader: p.Version, sent: map[int]bool{}}
	for _, s := range src.Skipped {
		res.LeftOut = append(res.LeftOut, Event{Kind: KindSkippedLine, Line: s.Line, Reason: s.Reason, rec: -1})
	}
	g := src.Graph
	if g == nil {
		g = chain.BuildSize(src.Records, src.Size)
	}
	res.Graph = g
	recs := src.Records
	leaf, why := -1, ""
	if src.Agent != "" {
		leaf = g.AgentLeaf(src.Agent)
		why = "the latest entry of agent " + src.Agent + " that no other of its entries continues"
	}
	if leaf < 0 && p.LastPromptLeaf {
		leaf = g.ResumeLeaf()
		why = "the last main-conversation entry (non-sidechain) in the file that no other entry continues"
		if lp := g.LastPromptLeaf(); leaf >= 0 && lp != "" {
			switch k := g.Index(lp); {
			case k == leaf:
				why = "the entry the last last-prompt line names (leafUuid), which no other entry continues"
			case k < 0:
				why += "; the last last-prompt line's leafUuid names no entry, so the reader ignores it"
			case !recs[k].IsSidechain:
				why += "; the last last-prompt line's leafUuid names the " + recs[k].Type + " entry on line " +
					strconv.Itoa(int(recs[k].Line)) + ", which other entries continue, so the reader ignores it"
			}
		}
	}
	if leaf < 0 && p.ChildlessLeaf {
		leaf = g.ChildlessLeaf()
		why = "the last main-conversation entry (non-sidechain) in the file that no other entry continues"
		if leaf < 0 && g.MainLeaf() >= 0 && !src.AnyLeaf {
			res.Failed = "No conversation found with session ID " + sessionOf(recs) +
				" (no main-conversation entry is left that nothing continues: the newest is marked isSidechain: true, or the parentUuid links loop)"
			return res, false
		}
	}
	if leaf < 0 {
		leaf = g.MainLeaf()
		why = "the latest main-conversation entry (non-sidechain) by timestamp"
	}
	if leaf < 0 && src.AnyLeaf {
		for i := len(recs) - 1; i >= 0 && leaf < 0; i-- {
			if g.Kept(i) {
				leaf, why = i, "the last entry of the file (a subagent transcript)"
			}
		}
	}
	if g.From > 0 {
		n := 0
		for _, r := range recs[:g.From] {
			if (r.Type == "user" || r.Type == "assistant") && !r.ID().IsZero() {
				n++
			}
		}
		b := recs[g.From]
		res.LeftOut = append(res.LeftOut, Event{Kind: KindBeforeCompaction, Line: int(b.Line), UUID: b.UUID(), Count: n, rec: g.From,
			Reason: "the file is over 5 MiB, so the reader does not read the " + strconv.Itoa(n) +
				" user/assistant entries before its last compaction boundary (this line)"})
	}
	// A displaced line (its uuid reused by a later line) is gone before anything else.
	for i, r := range recs {
		if i >= g.From && chain.IsMessage(r) && !g.Kept(i) {
			k := g.Index(r.UUID())
			res.LeftOut = append(res.LeftOut, Event{Kind: KindReplacedUUID, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "line " + strconv.Itoa(int(recs[k].Line)) + " reuses this uuid; the reader keeps only the later line"})
		}
	}
	if p.SidechainLeafFails && src.Agent == "" {
		lp := ""
		for _, r := range recs {
			if r.Type == "last-prompt" && r.Rare != nil && r.Rarer != nil && r.LeafUUID != "" {
				lp = r.LeafUUID
			}
		}
		if k := g.Index(lp); k >= 0 && recs[k].IsSidechain {
			res.Failed = "No conversation found with session ID " + sessionOf(recs) +
				" (last-prompt.leafUuid names " + recs[k].Type + " entry " + lp + " on line " +
				strconv.Itoa(int(recs[k].Line)) + ", which has isSidechain: true)"
			res.Leaf = &Leaf{Line: int(recs[k].Line), UUID: lp, Type: recs[k].Type, Reason: "last-prompt.leafUuid"}
			return res, false
		}
	}
	if leaf < 0 {
		res.Failed = "No conversation found with session ID " + sessionOf(recs) + " (no user or assistant entry to resume from)"
		return res, false
	}
	lr := recs[leaf]
	res.Leaf = &Leaf{Line: int(lr.Line), UUID: lr.UUID(), Type: lr.Type, Reason: why}
	if later := latestSidechainAfter(g, leaf); later >= 0 && src.Agent == "" {
		o := recs[later]
		res.LeftOut = append(res.LeftOut, Event{Kind: KindOtherBranch, Line: int(o.Line), UUID: o.UUID(), rec: later,
			Reason: "written after the leaf but marked isSidechain: true, so the reader does not resume from it"})
	}
	conv := g.RebuildWith(leaf, chain.Options{Bridge: p.Bridge, FileOrder: p.FileOrder})
	res.Conv = conv
	if p.CrashOnBadContent {
		for _, i := range conv.Order {
			if r := recs[i]; (r.Type == "user" || r.Type == "assistant") && (r.Content == entry.ContentOther || r.Content == entry.ContentMissing) {
				res.Failed = "the resume crashes: " + r.Type + " entry on line " + strconv.Itoa(int(r.Line)) +
					" has no message.content, or one that is neither text nor a list of blocks"
				return res, false
			} else if r.Type == "assistant" && r.Content == entry.ContentString {
				res.Failed = "the resume crashes: assistant entry on line " + strconv.Itoa(int(r.Line)) +
					" has a message.content that is a string, not a list of blocks"
				return res, false
			}
		}
	}
	return res, true
}

func sessionOf(recs []*entry.Record) string {
	for _, r := range recs {
		if r.SessionID != "" {
			return r.SessionID
		}
	}
	return "(none)"
}

// latestSidechainAfter is a sidechain user/assistant entry, not a subagent's
// own (it has a main-conversation parent), written after the leaf: the sign of
// an entry flagged isSidechain by mistake.
func latestSidechainAfter(g *chain.Graph, leaf int) int {
	lr := g.Records[leaf]
	best := -1
	for i, r := range g.Records {
		if !g.Kept(i) || !r.IsSidechain || r.AgentID != "" || (r.Type != "user" && r.Type != "assistant") {
			continue
		}
		if entry.CompareTimestamps(r, lr) <= 0 {
			continue
		}
		if k := g.ParentIndex(i); k >= 0 && !g.Records[k].IsSidechain {
			best = i
		}
	}
	return best
}

// walkEvents reports the parent walk: bridges, cuts, branches left behind.
func walkEvents(res *Result, g *chain.Graph, conv *chain.Conversation, p Profile) {
	recs := g.Records
	for _, b := range conv.Bridges {
		from := recs[b.From]
		what := "names no entry in the file"
		if b.Cycle {
			what = "loops back onto the conversation"
		}
		if b.To >= 0 {
			to := recs[b.To]
			res.Changed = append(res.Changed, Event{Kind: KindBridged, Line: int(from.Line), UUID: from.UUID(), rec: b.From, Parent: b.Want,
				Reason: "parentUuid " + b.Want + " " + what + "; " + to.Type + " entry on line " + strconv.Itoa(int(to.Line)) +
					" was written " + Millis(b.Gap) + " earlier, within the 5 s the reader bridges, so the walk goes on there"})
			continue
		}
		lost := 0
		for i, r := range recs {
			if g.Kept(i) && (r.Type == "user" || r.Type == "assistant") && r.IsSidechain == from.IsSidechain && !conv.On(i) && r.Line < from.Line {
				lost++
			}
		}
		reason := "parentUuid " + b.Want + " " + what + "; "
		switch {
		case !p.Bridge:
			reason += "this reader has no 5 s bridge (2.1.94 and later have one), so the history before it is cut"
		case b.Near < 0:
			reason += "no earlier entry to bridge to, so the history before it is cut"
		default:
			reason += "the entry before it (line " + strconv.Itoa(int(recs[b.Near].Line)) + ") was written " + Millis(b.Gap) +
				" earlier, more than the 5 s the reader bridges, so the history before it is cut"
		}
		res.LeftOut = append(res.LeftOut, Event{Kind: KindHistoryCut, Line: int(from.Line), UUID: from.UUID(), Count: lost, rec: b.From, Parent: b.Want,
			Reason: reason + " (" + strconv.Itoa(lost) + " earlier user/assistant entries)"})
	}
	// Other branches: user/assistant entries neither on the conversation nor cut off behind it.
	cutBefore := math.MaxInt
	for _, b := range conv.Bridges {
		if b.To < 0 {
			cutBefore = int(recs[b.From].Line)
		}
	}
	n, first := 0, -1
	for i, r := range recs {
		if !g.Kept(i) || conv.On(i) || (r.Type != "user" && r.Type != "assistant") || r.IsSidechain {
			continue
		}
		if int(r.Line) < cutBefore {
			// Counted in the cut when on the walk's side of the gap.
			if cutBefore != math.MaxInt {
				continue
			}
		}
		if first < 0 {
			first = i
		}
		n++
	}
	if n > 0 {
		res.LeftOut = append(res.LeftOut, Event{Kind: KindOtherBranch, Line: int(recs[first].Line), Count: n, rec: first,
			Reason: strconv.Itoa(n) + " user/assistant entries on other branches (a rewind, an edit, a retry, or a leaf that lost to a later one), the first on line " +
				strconv.Itoa(int(recs[first].Line))})
	}
}

// Millis formats a gap: "800 ms", "3 s", "2 min".
func Millis(ms int64) string {
	switch {
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + " ms"
	case ms < 120000:
		s := strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64)
		if len(s) > 2 && s[len(s)-2:] == ".0" {
			s = s[:len(s)-2]
		}
		return s + " s"
	case ms < 2*3600*1000:
		return strconv.FormatInt(ms/60000, 10) + " min"
	}
	return strconv.FormatInt(ms/3600000, 10) + " h"
}
