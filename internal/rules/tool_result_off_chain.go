package rules

import (
	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/resume"
)

// ToolResultOffChain reports a tool call and its result that a resume
// cannot put together again.
var ToolResultOffChain = register(&Rule{
	ID:       "tool-result-off-chain",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a tool_result exists but the conversation a resume rebuilds does not reach it (or its call)",
	Why: "On resume Claude Code rebuilds the conversation from its newest entry by following " +
		"parentUuid, then puts back the parallel calls of each assistant message (lines sharing a " +
		"message.id) and the tool_results parented to any of them. Measured on the real program: " +
		"when a result hangs elsewhere while its call is on the conversation, 2.1.330 re-attaches " +
		"it by call id (nothing lost: a warning), but 2.1.110 drops the unanswered call, so call " +
		"and result are silently lost (an error). A result on the conversation whose call is not " +
		"is dropped by both, with its call: no request fails, the model just forgets the tool ran. " +
		"ccvet runs the same resume model as `ccvet resume`, so the normal shapes (each parallel " +
		"tool_use on its own line, the 2.1.284 batch order, a result line flushed before its call " +
		"line but parented to it) are not reported.",
	Bad: `a1 {"uuid":"a1","message":{"id":"msg_1","content":[{"type":"tool_use","id":"toolu_A",…}]}}  ` +
		`r1 {"uuid":"r1","parentUuid":"x9(an entry on an abandoned branch)","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_A",…}]}}`,
	Good: `r1 {"uuid":"r1","parentUuid":"a1","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_A",…}]}}`,
	Fix: "Set the tool_result entry's parentUuid to the assistant entry that holds the call (the " +
		"message names it); when that entry has no message.id, also re-parent the entry that " +
		"follows the call on the conversation to the tool_result entry.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		has := false
		for _, rec := range f.Records {
			if len(rec.ToolResults()) > 0 {
				has = true
				break
			}
		}
		if !has {
			return
		}
		type key struct {
			res  *entry.Record // the result's entry
			id   string
			call *entry.Record
			tool entry.Tool
			off  bool // the result is off the conversation (else its call is)
		}
		var order []key
		outs := map[key][]outcome{}
		readers := readersOf(f, f.Records)
		var ids *toolIDs // the same for every reader: the graph is the file's; made when first needed
		for _, v := range readers {
			// The walk alone says whether any pair is split by the
			// conversation; only then is the whole resume rebuilt.
			w := walkOf(f, v)
			if !splitPair(f, w, func() *toolIDs {
				if ids == nil {
					ids = toolIDsOf(f, w.Graph)
				}
				return ids
			}) {
				continue
			}
			m := resumeOf(f, v)
			if m.Conv == nil || m.Leaf == nil {
				continue
			}
			g, conv := m.Graph, m.Conv
			uses := map[string][]int{}
			results := map[string][]int{}
			for i, rec := range f.Records {
				if !g.Kept(i) {
					continue
				}
				for _, t := range rec.ToolUses() {
					uses[t.ID] = append(uses[t.ID], i)
				}
				for _, t := range rec.ToolResults() {
					results[t.ID] = append(results[t.ID], i)
				}
			}
			onConv := func(ix []int) bool {
				for _, i := range ix {
					if conv.On(i) {
						return true
					}
				}
				return false
			}
			reattached := map[string]bool{}
			for _, e := range m.Changed {
				if e.Kind == resume.KindReattached {
					reattached[e.Tool] = true
				}
			}
			add := func(k key, o outcome) {
				if _, ok := outs[k]; !ok {
					order = append(order, k)
				}
				outs[k] = append(outs[k], o)
			}
			for _, i := range conv.Order {
				call := f.Records[i]
				for _, t := range call.ToolUses() {
					if t.Server() || t.ID == "" || onConv(results[t.ID]) || len(results[t.ID]) == 0 {
						continue
					}
					k := key{res: f.Records[results[t.ID][0]], id: t.ID, call: call, tool: t, off: true}
					if reattached[t.ID] {
						add(k, outcome{v, finding.Warning, "re-attach it after its call by id (nothing is lost)"})
					} else {
						add(k, outcome{v, finding.Error, "drop the call, which has no answer on the conversation, so call and result are both lost"})
					}
				}
				for _, t := range call.ToolResults() {
					if t.ID == "" || len(uses[t.ID]) == 0 || onConv(uses[t.ID]) {
						continue
					}
					k := key{res: call, id: t.ID, call: f.Records[uses[t.ID][0]], tool: t}
					add(k, outcome{v, finding.Error, "drop this result, so the call and what it returned are both lost"})
				}
			}
		}
		for _, k := range order {
			// Readers that never met this pair (their walk took another way) say so.
			var all []outcome
			for _, v := range readers {
				o := outcome{v, finding.Note, "loses nothing here (its walk reaches both in order, or neither)"}
				for _, x := range outs[k] {
					if x.v == v {
						o = x
					}
				}
				all = append(all, o)
			}
			sev, how := verdict(all)
			sev, how = unreadFlatAgent(f, all, sev, how)
			if k.off {
				msg := entryLabel(k.res) + ": this tool_result for " + toolLabel(k.tool) + " is not on the conversation a resume " +
					"rebuilds, but its call (" + entryLabel(k.call) + ", " + lineRef(k.call) + ") is; " + how +
					". Re-parent this entry to " + k.call.UUID()
				f.ReportRecord(r, k.res, "/parentUuid", finding.Finding{Severity: sev, Message: msg,
					Related: []finding.Location{relatedAt(f, k.call, blockPtr(int(k.tool.Block), "id"), "the call, on the conversation")}})
				continue
			}
			msg := entryLabel(k.res) + ": this tool_result for " + k.id + " is on the conversation a resume rebuilds but its call (" +
				entryLabel(k.call) + ", " + lineRef(k.call) + ") is not; " + how + " (no request fails). Re-parent this entry to " + k.call.UUID()
			f.ReportRecord(r, k.res, blockPtr(int(k.tool.Block), "tool_use_id"), finding.Finding{Severity: sev, Message: msg,
				Related: []finding.Location{relatedAt(f, k.call, toolPtr(k.call, k.id), "the call, off the conversation")}})
		}
	},
})

// toolIDs are the record indexes of the kept records with each tool_use id
// and each tool_result id.
type toolIDs struct{ uses, results map[string][]int }

func toolIDsOf(f *model.File, g *chain.Graph) *toolIDs {
	ids := &toolIDs{uses: make(map[string][]int, toolCount(f.Records, false)), results: make(map[string][]int, toolCount(f.Records, true))}
	for i, rec := range f.Records {
		if !g.Kept(i) {
			continue
		}
		for _, t := range rec.ToolUses() {
			ids.uses[t.ID] = append(ids.uses[t.ID], i)
		}
		for _, t := range rec.ToolResults() {
			ids.results[t.ID] = append(ids.results[t.ID], i)
		}
	}
	return ids
}

// splitPair reports whether the conversation w's walk keeps has a call whose
// results are all off it, or a result whose calls are all off it: the only
// pairs the rule reports (the same tests as in the rule, without the resume's
// messages).
func splitPair(f *model.File, w *resume.Result, idsOf func() *toolIDs) bool {
	if w.Conv == nil || w.Leaf == nil || w.Graph == nil {
		return false
	}
	conv, g := w.Conv, w.Graph
	onConv := func(ix []int) bool {
		for _, i := range ix {
			if conv.On(i) {
				return true
			}
		}
		return false
	}
	// near reports whether a kept record on the conversation among the four
	// after i (results) or before it (calls) holds a block with id: then
	// the lists of toolIDs hold one on the conversation, and the pair is
	// not split. Where a healthy file's pairs are, without the lists.
	var held blockIDs
	near := func(i int, id string, results bool) bool {
		for d := 1; d <= 4; d++ {
			k := i - d
			if results {
				k = i + d
			}
			if k < 0 || k >= len(f.Records) {
				return false
			}
			if !conv.On(k) || !g.Kept(k) {
				continue
			}
			if held.has(f.Records[k], results, id) {
				return true
			}
		}
		return false
	}
	for _, i := range conv.Order {
		call := f.Records[i]
		for _, t := range call.ToolUses() {
			if t.Server() || t.ID == "" || near(i, t.ID, true) {
				continue
			}
			if rs := idsOf().results[t.ID]; len(rs) > 0 && !onConv(rs) {
				return true
			}
		}
		for _, t := range call.ToolResults() {
			if t.ID == "" || near(i, t.ID, false) {
				continue
			}
			if us := idsOf().uses[t.ID]; len(us) > 0 && !onConv(us) {
				return true
			}
		}
	}
	return false
}
