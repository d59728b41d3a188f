package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// UnmatchedToolResult reports a tool_result that answers no earlier tool_use.
var UnmatchedToolResult = register(&Rule{
	ID:       "unmatched-tool-result",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a tool_result whose `tool_use_id` matches no tool_use of the transcript",
	Why: "The API accepts a tool_result only right after the assistant message that made the call. " +
		"When the call is missing (a writer dropped the assistant line during parallel tool calls, " +
		"or a hand edit removed it), the reader drops the result on resume (measured on 2.1.110 and " +
		"2.1.330: no request fails; at the head of the conversation 2.1.330 sends \"[Orphaned tool " +
		"result removed due to conversation resume]\" instead), so what the tool returned is lost. " +
		"Calls and results are paired by id, not by file order: a result line flushed before its " +
		"call's line is healthy (its place on the conversation is judged by tool-result-off-chain). " +
		"A call in another transcript of the same project folder counts (old resumes and forks " +
		"continue a conversation across files). A result on no conversation a resume rebuilds (the " +
		"plan-mode hand-off that Claude Code 2.1.2x writes at the top of the new session, parented " +
		"into the planning session) is a note.",
	Bad:  `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_01Q…(no such call)",…}]}}`,
	Good: `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_01P…(the call on the line before)",…}]}}`,
	Fix: "Restore the assistant entry that made the call, or delete the tool_result block (and the " +
		"user entry if nothing else is left in it, re-parenting its children to its parent).",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		var held blockIDs
		for i, rec := range f.Records {
			for _, t := range rec.ToolResults() {
				if t.ID != "" && !useNearby(&held, f.Records, i, t.ID) && !f.Digest.HasTool(t.ID) &&
					!f.Ask(model.Ask{Kind: model.AskTool, Name: t.ID}) {
					return true
				}
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		for _, f := range p.Files {
			if f.Thin {
				continue // every call is in the file or in another one (Keeps, Asks)
			}
			type miss struct {
				rec  *entry.Record
				i    int // index in f.Records
				tool entry.Tool
			}
			var misses []miss
			for i, rec := range f.Records {
				for _, t := range rec.ToolResults() {
					if t.ID != "" && !f.Digest.HasTool(t.ID) {
						misses = append(misses, miss{rec, i, t})
					}
				}
			}
			if len(misses) == 0 {
				continue
			}
			for _, m := range misses {
				rec, t := m.rec, m.tool
				fd := finding.Finding{}
				if toolInProject(p, t.ID) {
					continue // the call is in another transcript of the project
				}
				if f.InLayout && f.Kind == layout.Transcript {
					vs := readersOf(f, f.Records)
					judged := vs[len(vs)-1]
					if w := walkOf(f, judged); w.Failed == "" && w.Conv != nil && !w.Conv.On(m.i) {
						// Not on the conversation today's reader rebuilds (the
						// hand-off of a plan-mode session that a new session
						// starts with, an abandoned branch): nothing of it is sent.
						fd.Severity = finding.Note
						fd.Message = entryLabel(rec) + ": tool_result for " + t.ID + " answers no tool_use in this " +
							"transcript or the project; it is not on the conversation a resume of Claude Code " +
							judged.String() + " rebuilds (another branch, such as the plan-mode hand-off a new " +
							"session starts with), so its missing call changes nothing there"
						f.ReportRecord(r, rec, blockPtr(int(t.Block), "tool_use_id"), fd)
						continue
					}
				}
				fd.Message = entryLabel(rec) + ": tool_result for " + t.ID + " answers no tool_use " +
					"in this transcript or the project; on resume the reader drops it (no request fails), " +
					"so what the tool returned is lost"
				if !f.InLayout && rec.HasParent && rec == firstChainRecord(f) {
					fd.Severity = finding.Warning
					fd.Message += " (the file starts mid-conversation with this result: an excerpt or a partial copy?)"
				}
				f.ReportRecord(r, rec, blockPtr(int(t.Block), "tool_use_id"), fd)
			}
		}
	},
})

// toolPtr is the pointer of the tool_use block with id in rec.
func toolPtr(rec *entry.Record, id string) string {
	for _, t := range rec.ToolUses() {
		if t.ID == id {
			return blockPtr(int(t.Block), "id")
		}
	}
	return "/message/content"
}

// toolInProject reports whether a transcript of p holds a tool_use with id.
func toolInProject(p *model.Project, id string) bool {
	if u := projectIndex(p); u != nil {
		return u.HasTool(id)
	}
	for _, o := range p.Files {
		if o.Digest.HasTool(id) {
			return true
		}
	}
	return false
}

// useNearby reports whether record i or one of the four before it holds a
// tool_use with id: where a result's call usually is, found without a
// lookup in the digest (which holds every tool_use of the file, so a call
// found here is one it holds).
func useNearby(held *blockIDs, recs []*entry.Record, i int, id string) bool {
	for k := i; k >= 0 && k >= i-4; k-- {
		if held.has(recs[k], false, id) {
			return true
		}
	}
	return false
}
