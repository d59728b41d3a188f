package rules

import (
	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
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
		"message.id) and the tool_results parented to any of them. A tool_result hanging anywhere " +
		"else is left behind: the call on the rebuilt conversation has no answer, so the request " +
		"fails or the call is silently dropped and the model forgets what the tool returned (issue " +
		"31330: only the last of several parallel results survived a resume). The reverse, a " +
		"result on the conversation whose call is not, fails every request with \"unexpected " +
		"tool_use_id found in tool_result blocks\" (issue 31328). ccvet rebuilds the conversation " +
		"the way the reader does, so the normal 2.1.x shape (each parallel tool_use on its own " +
		"line, each result parented to its own line) is not reported.",
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
			if len(rec.ToolResults) > 0 {
				has = true
				break
			}
		}
		if !has {
			return
		}
		g := chain.Build(f.Records)
		leaf := fileLeaf(f, g)
		conv := g.Rebuild(leaf)
		if leaf < 0 || len(conv.Order) == 0 {
			return
		}
		// Kept lines holding each call and each result.
		uses := map[string][]int{}
		results := map[string][]int{}
		for i, rec := range f.Records {
			if !g.Kept(i) {
				continue
			}
			for _, t := range rec.ToolUses {
				uses[t.ID] = append(uses[t.ID], i)
			}
			for _, t := range rec.ToolResults {
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
		leafRec := f.Records[leaf]
		from := " rebuilt from the leaf (" + entryLabel(leafRec) + ", " + lineRef(leafRec) + ")"
		// next[i]: the entry after i on the conversation.
		next := map[int]int{}
		for k := 0; k+1 < len(conv.Order); k++ {
			next[conv.Order[k]] = conv.Order[k+1]
		}
		for _, i := range conv.Order {
			call := f.Records[i]
			for _, t := range call.ToolUses {
				if t.Server || t.ID == "" || onConv(results[t.ID]) || len(results[t.ID]) == 0 {
					continue
				}
				res := f.Records[results[t.ID][0]]
				msg := entryLabel(res) + ": this tool_result for " + toolLabel(t) + " is not on the conversation" +
					from + "; its call (" + entryLabel(call) + ", " + lineRef(call) + ") is, so a resume loses the result. "
				if call.MessageID != "" {
					msg += "Re-parent this entry to " + call.UUID + " (the assistant entry holding the call)"
				} else if n, ok := next[i]; ok {
					msg += "Re-parent this entry to " + call.UUID + " and " + entryLabel(f.Records[n]) + " (" +
						lineRef(f.Records[n]) + ") to this entry"
				} else {
					msg += "Re-parent this entry to " + call.UUID
				}
				f.ReportRecord(r, res, "/parentUuid", finding.Finding{Message: msg,
					Related: []finding.Location{relatedAt(f, call, blockPtr(t.Block, "id"), "the call, on the conversation")}})
			}
			for _, t := range call.ToolResults {
				if t.ID == "" || len(uses[t.ID]) == 0 || onConv(uses[t.ID]) {
					continue
				}
				u := f.Records[uses[t.ID][0]]
				f.ReportRecord(r, call, blockPtr(t.Block, "tool_use_id"), finding.Finding{
					Message: entryLabel(call) + ": this tool_result for " + t.ID + " is on the conversation" + from +
						" but its call (" + entryLabel(u) + ", " + lineRef(u) + ") is not; every request after resume " +
						"fails with \"unexpected tool_use_id found in tool_result blocks\". Re-parent this entry to " + u.UUID,
					Related: []finding.Location{relatedAt(f, u, toolPtr(u, t.ID), "the call, off the conversation")},
				})
			}
		}
	},
})
