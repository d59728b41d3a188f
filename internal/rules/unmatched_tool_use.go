package rules

import (
	"slices"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// UnmatchedToolUse reports a tool_use that no later tool_result answers.
var UnmatchedToolUse = register(&Rule{
	ID:       "unmatched-tool-use",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a tool_use that no tool_result in the transcript answers",
	Why: "The API requires the message after a tool_use to answer it with a tool_result, and the " +
		"reader makes sure it does. Measured on 2.1.110, 2.1.330 and 2.1.332: when nothing follows the call on " +
		"its branch (the session stopped while the tool ran: a closed terminal, a crash), 2.1.330 keeps " +
		"the call and adds an is_error result, as Claude Code records an interrupted tool itself: nothing " +
		"is lost and nothing needs doing (a note; 2.1.110 drops the call, an error under --reader-version " +
		"for a version before 2.1.330; where between the two this changed is not known; 1.0.30 drops it too, " +
		"while 1.0.0, 1.0.10 and 1.0.25 send the call without a result and the API refuses the request). When the " +
		"conversation goes on below the call through entries that are all there (a new prompt while the " +
		"call was pending, or a resume after the session stopped there), every reader drops the call and " +
		"keeps what follows (no request fails): a warning, nothing needs doing. When it goes on only past " +
		"an entry missing from the file, or below the results of other calls of its batch, its result's " +
		"line is gone and the call is lost with it: an error. Measured on real transcripts (2.1.330, " +
		"2.1.332): when only results of other calls of the same message follow (the session stopped " +
		"while a parallel batch ran), the reader adds an is_error result for the missing one, as when " +
		"the file ends on the call (a note); 2.1.110 does so too, its result put before the others', " +
		"when the calls share one entry, and drops the call when they are entries of their own; a new prompt parented to another line of the call's " +
		"message (its text) is a call left pending (a warning); and a call whose response was replaced " +
		"by a later one (the next entry answers only a later message's calls, as model gateways leave " +
		"on a retry) was never run: the reader drops it and loses nothing else (a warning). A call on " +
		"no conversation a resume rebuilds (another branch) is a note. " +
		"Calls and results are paired by id, not by file order: a result line written before its call's " +
		"line answers it.",
	Bad:  `{"type":"assistant","uuid":"a…","message":{"content":[{"type":"tool_use","id":"toolu_01X…","name":"Bash",…}]}}  (no tool_result for toolu_01X… follows, but later turns do)`,
	Good: `… followed by {"type":"user","parentUuid":"a…","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_01X…",…}]}}`,
	Fix: "Add a user entry with a tool_result for the id (is_error true, content \"interrupted\") " +
		"parented to the assistant entry, and parent the next entry to it; or remove the call.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		recs := f.Records
		br := newBlockReads(f)
		answered := make(map[string]bool, toolCount(recs, true)) // tool_use_ids some line answers
		has := false
		for _, rec := range recs {
			for _, t := range rec.ToolResults() {
				answered[t.ID] = true
			}
			if len(rec.ToolUses()) > 0 {
				has = true
			}
		}
		if !has {
			return
		}
		// below[s][i]: index of the earliest user entry with isSidechain == s
		// among the descendants of record i, or -1. Children follow their
		// parent in a file written by Claude Code, so one backward pass
		// finds them. A main-conversation call followed only by the
		// subagent's own entries (old inline sidechains) has not been
		// continued past.
		side := func(rec *entry.Record) int {
			if rec.IsSidechain {
				return 1
			}
			return 0
		}
		// Made on the first call without a result: most files have none.
		var below [2][]int
		findBelow := func() {
			g := f.Graph() // its index of the last line of each uuid
			for s := range below {
				below[s] = make([]int, len(recs))
				for i := range below[s] {
					below[s][i] = -1
				}
			}
			for i := len(recs) - 1; i >= 0; i-- {
				rec := recs[i]
				if !rec.HasParent {
					continue
				}
				p := g.LastWithID(rec.ParentID())
				if p < 0 || p >= i {
					continue
				}
				for s := range below {
					b := below[s][i]
					if rec.Type == "user" && side(rec) == s {
						b = i
					}
					if b >= 0 && (below[s][p] < 0 || b < below[s][p]) {
						below[s][p] = b
					}
				}
			}
		}
		var readers []resume.Version
		var dropped map[string]bool // tool ids the judged reader drops mid-conversation
		callMsg := &messageIndex{}
		batches := &batchMemo{}
		for i, rec := range recs {
			for _, t := range rec.ToolUses() {
				if t.Server() || t.ID == "" {
					continue
				}
				if answered[t.ID] {
					continue
				}
				if readers == nil {
					readers = readersOf(f, recs)
				}
				// What the resume model says the judged reader (the last) does with this call.
				if dropped == nil {
					dropped = map[string]bool{}
					for _, e := range resumeOf(f, readers[len(readers)-1]).LeftOut {
						if e.Kind == resume.KindCallDropped {
							dropped[e.Tool] = true
						}
					}
				}
				loose := !f.InLayout || f.Kind != layout.Transcript
				judged := readers[len(readers)-1]
				if w := walkOf(f, judged); w.Failed == "" && w.Conv != nil && !w.Conv.On(i) && !loose {
					// Not on the conversation today's reader rebuilds: nothing of it is sent.
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Note,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result; it is not on the conversation " +
							"a resume of Claude Code " + judged.String() + " rebuilds, so its missing result changes nothing there",
					})
					continue
				}
				stopped, batch := false, false // nothing follows the call's message (but results of its batch)
				if w := walkOf(f, judged); w.Failed == "" && w.Conv != nil {
					stopped, batch = batches.batchEnds(recs, w.Conv.Order, i, callMsg)
				}
				if below[0] == nil {
					findBelow()
				}
				next := below[side(rec)][i]
				if next < 0 && !stopped && !rec.MessageID().IsZero() {
					// The conversation may go on below another line of the
					// same assistant message (a new prompt parented to its
					// text line while this call was pending).
					for _, j := range callMsg.lines(recs, rec.MessageID()) {
						if b := below[side(rec)][j]; b >= 0 && (next < 0 || b < next) {
							next = b
						}
					}
				}
				if stopped {
					next = -1
				} else if next >= 0 && len(recs[next].ToolResults()) > 0 && !callMsg.answersMessage(recs, recs[next], rec.MessageID()) {
					// The entry below answers the calls of a later assistant
					// message only: this call was never run (a response
					// replaced by the next one, as model gateways leave).
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Warning,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, and the conversation goes on below it with " +
							"the results of a later assistant message's calls (" + entryLabel(recs[next]) + ", " + lineRef(recs[next]) +
							"): the call was never run (its response was replaced by a later one); on resume the reader drops the " +
							"call (measured on 2.1.330 and 2.1.332; no request fails) and keeps everything after it; nothing needs doing",
						Related: []finding.Location{relatedAt(f, recs[next], "/parentUuid", "the conversation continues here")},
					})
					continue
				}
				if next >= 0 && len(recs[next].ToolResults()) > 0 && allResultsFailed(br, recs[next]) {
					// Results of other calls of the batch follow, every one an
					// error (the user interrupted the batch): this call was
					// still running and never got a result line.
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Warning,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, and the conversation goes on below it " +
							"with error results of other calls of its batch (" + entryLabel(recs[next]) + ", " + lineRef(recs[next]) +
							"): the batch was interrupted while this call ran; on resume the reader drops the call (measured on " +
							"2.1.110, 2.1.330 and 2.1.332; no request fails) and keeps everything after it; nothing needs doing",
						Related: []finding.Location{relatedAt(f, recs[next], "/parentUuid", "the conversation continues here")},
					})
					continue
				}
				if next >= 0 && len(recs[next].ToolResults()) > 0 {
					// Results of other calls follow it, not this one's: a
					// result line of a parallel batch is missing.
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Error,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, yet the conversation goes on below it (" +
							entryLabel(recs[next]) + ", " + lineRef(recs[next]) + ", answers other calls); on resume the reader drops " +
							"the call (measured on 2.1.110, 2.1.330 and 2.1.332; no request fails), so the model forgets it made it",
						Related: []finding.Location{relatedAt(f, recs[next], "/parentUuid", "the conversation continues here")},
					})
					continue
				} else if next >= 0 {
					// The conversation goes on below the call through entries
					// that are all there: a new prompt written while the call
					// was pending, or a session resumed after it stopped there.
					// Every reader measured drops the call and goes on; nothing
					// of the conversation that follows is lost.
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Warning,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, yet the conversation goes on below it (" +
							entryLabel(recs[next]) + ", " + lineRef(recs[next]) + "): the call was left pending (a new prompt while " +
							"the tool ran, or a resume after the session stopped there); on resume the reader drops the call " +
							"(measured on 2.1.110, 2.1.330 and 2.1.332; no request fails) and keeps everything after it; nothing needs doing",
						Related: []finding.Location{relatedAt(f, recs[next], "/parentUuid", "the conversation continues here")},
					})
					continue
				}
				if dropped[t.ID] && f.Kind == layout.Transcript && !stopped {
					// The conversation goes on only past a missing entry (the
					// model's claims are checked on main transcripts only):
					// the result's line is gone, and the call goes with it.
					f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
						Severity: finding.Error,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, yet the conversation goes on after it " +
							"past an entry missing from the file (its result's line?); on resume the reader drops the call " +
							"(measured on 2.1.110, 2.1.330 and 2.1.332; no request fails), so the model forgets it made it",
					})
					continue
				}
				// A batch's calls written in one entry (as older versions
				// wrote them), another of them answered: 2.1.110 keeps this
				// one with an is_error result (resume's MissingResultFirst).
				entryAnswered := batch && slices.ContainsFunc(rec.ToolUses(), func(u entry.Tool) bool { return answered[u.ID] })
				var outs []outcome
				tail := ""
				for _, v := range readers {
					tail = ""
					p := resume.ProfileOf(v)
					if w := walkOf(f, v); w.Failed == "" && w.Conv != nil && !w.Conv.On(i) {
						outs = append(outs, outcome{v, finding.Note, "does not send it (it is on a branch a resume does not pick)"})
					} else if p.SendsTrailingCall && !batch {
						outs = append(outs, outcome{v, finding.Error, "sends the call without a result, which the API refuses (400), so the resume fails"})
					} else if p.SyntheticResult {
						outs = append(outs, outcome{v, finding.Note, "keeps the call and adds an is_error result, as for an interrupted tool (nothing lost)"})
						tail = "; nothing needs doing" // said of the judged reader, the last
					} else if p.MissingResultFirst && entryAnswered {
						outs = append(outs, outcome{v, finding.Note, "keeps the call and puts an is_error result before the other calls' results, as its entry holds an answered call (nothing lost)"})
						tail = "; nothing needs doing"
					} else {
						outs = append(outs, outcome{v, finding.Error, "drops the call, so the model forgets it made it"})
					}
				}
				sev, how := verdict(outs)
				if loose && sev > finding.Warning {
					// A loose file (an export, an excerpt) is not what a resume
					// reads; subagent transcripts are not checked against it.
					sev = finding.Warning
				}
				what := " has no tool_result and nothing follows it on its branch: the session stopped while the tool ran"
				if batch {
					what = " has no tool_result and only results of other calls of its message follow it: the session " +
						"stopped while the tools ran"
				}
				f.ReportRecord(r, rec, blockPtr(int(t.Block), "id"), finding.Finding{
					Severity: sev,
					Message:  entryLabel(rec) + ": " + toolLabel(t) + what + " (a closed terminal, a crash); on resume " + how + tail,
				})
			}
		}
	},
})

// allResultsFailed reports whether every tool_result block of rec has
// is_error true.
func allResultsFailed(br *blockReads, rec *entry.Record) bool {
	for _, t := range rec.ToolResults() {
		if !br.isError(rec, int(t.Block)) {
			return false
		}
	}
	return len(rec.ToolResults()) > 0
}

// messageIndex finds, once asked, the lines of each assistant message.id
// and the message.id of each tool_use id of a transcript.
type messageIndex struct {
	byMsg   map[entry.ID][]int
	byTool  map[string]entry.ID
	answers map[answerKey]bool // answersMessage, asked by every call of a batch
}

type answerKey struct {
	u  *entry.Record
	id entry.ID
}

func (x *messageIndex) build(recs []*entry.Record) {
	if x.byMsg != nil {
		return
	}
	x.byMsg, x.byTool = map[entry.ID][]int{}, map[string]entry.ID{}
	for i, rec := range recs {
		id := rec.MessageID()
		if rec.Type != "assistant" || id.IsZero() {
			continue
		}
		x.byMsg[id] = append(x.byMsg[id], i)
		for _, t := range rec.ToolUses() {
			if _, ok := x.byTool[t.ID]; !ok {
				x.byTool[t.ID] = id
			}
		}
	}
}

// lines lists the indexes of the assistant lines of message id.
func (x *messageIndex) lines(recs []*entry.Record, id entry.ID) []int {
	x.build(recs)
	return x.byMsg[id]
}

// answersMessage reports whether user entry u answers a call of message id
// (one of its batch), or a call of no known message.
func (x *messageIndex) answersMessage(recs []*entry.Record, u *entry.Record, id entry.ID) bool {
	x.build(recs)
	k := answerKey{u, id}
	if a, ok := x.answers[k]; ok {
		return a
	}
	a := false
	for _, t := range u.ToolResults() {
		if m, ok := x.byTool[t.ID]; !ok || id.IsZero() || m == id {
			a = true
			break
		}
	}
	if x.answers == nil {
		x.answers = map[answerKey]bool{}
	}
	x.answers[k] = a
	return a
}

// batchEnds reports whether the conversation order (record indexes, oldest
// first) holds record i and, after it, only lines of i's assistant message
// and user entries that hold nothing but results of that message's calls:
// the session stopped while the batch's tools ran. Measured on real
// transcripts of a gateway (GLM, Vertex) resumed by 2.1.330: the reader adds
// an is_error result for each unanswered call of the batch, as when the
// file ends on the calls.
// results reports whether results of other calls come after it.
func (m *batchMemo) batchEnds(recs []*entry.Record, order []int, i int, x *messageIndex) (ends, results bool) {
	if m.pos == nil || len(m.order) != len(order) || len(order) > 0 && &m.order[0] != &order[0] {
		*m = batchMemo{order: order, pos: make(map[int]int, len(order)), tails: map[entry.ID]batchTail{}}
		for k, j := range order {
			m.pos[j] = k // the last position of j
		}
	}
	id := recs[i].MessageID()
	pos, ok := m.pos[i]
	if !ok || id.IsZero() {
		return false, false
	}
	t, ok := m.tails[id]
	if !ok {
		// From the end back, as long as each entry is one of the message's
		// or results answering it.
		t = batchTail{from: len(order), lastResult: -1}
	tail:
		for k := len(order) - 1; k >= 0; k-- {
			r := recs[order[k]]
			switch {
			case r.Type == "assistant" && r.MessageID() == id:
			case r.Type == "user" && len(r.ToolResults()) > 0 && int(r.Blocks) == len(r.ToolResults()) && x.answersMessage(recs, r, id):
				if t.lastResult < 0 {
					t.lastResult = k
				}
			default:
				break tail
			}
			t.from = k
		}
		m.tails[id] = t
	}
	if pos+1 < t.from {
		return false, false
	}
	return true, t.lastResult > pos
}

// batchMemo answers batchEnds for the calls of one walk's order: the
// position of each record in it, and for each message id the tail of the
// order that holds only the message's lines and results answering it. A
// message of thousands of unanswered calls is so looked at once, not once
// a call.
type batchMemo struct {
	order []int
	pos   map[int]int
	tails map[entry.ID]batchTail
}

// batchTail is where the tail of an order holding only one message's lines
// and its results starts (len(order) when the last entry is another's), and
// the last position of a result in it (-1: none).
type batchTail struct{ from, lastResult int }
