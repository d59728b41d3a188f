package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// ToolSourceMismatch reports a sourceToolAssistantUUID that does not name the
// assistant entry holding the matching tool_use.
var ToolSourceMismatch = register(&Rule{
	ID:       "tool-source-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a tool-result entry's `sourceToolAssistantUUID` names an entry that does not hold the matching tool_use",
	Why: "From about 2.0.77 Claude Code writes, on each tool-result user entry, the uuid of the exact " +
		"assistant line holding the call, and parents the entry to it; the resume's recovery of " +
		"parallel tool calls relies on that parent. A source that names another entry, or one not in " +
		"the file, means the entry was moved or re-parented by something else, and the result may " +
		"be attached to the wrong call or lost on resume (issue 31330). The name is resolved project-wide: a " +
		"forked session (VS Code, `/fork`) names the call in the transcript it was forked from.",
	Bad:  `{"type":"user","sourceToolAssistantUUID":"b…(an assistant line with text only)","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_A",…}]}}`,
	Good: `{"type":"user","sourceToolAssistantUUID":"a…(the line with tool_use toolu_A)","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_A",…}]}}`,
	Fix:  "Set sourceToolAssistantUUID (and parentUuid) to the uuid of the assistant entry whose tool_use the result answers.",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		if !f.Kind.IsTranscript() {
			return false
		}
		var held blockIDs
		for _, rec := range f.Records {
			if rec.SourceID().IsZero() || len(rec.ToolResults()) == 0 {
				continue
			}
			i := f.Digest.LastSource(rec)
			if i >= 0 && !holds(&held, f.Records[i], rec) {
				return true
			}
			if i < 0 && !f.Ask(model.Ask{Kind: model.AskSource, Name: rec.SourceToolAssistantUUID(), IDs: resultIDs(rec)}) {
				return true
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		for _, f := range p.Files {
			if !f.Kind.IsTranscript() || f.Thin {
				continue // Thin: every source holds the call, in the file or in another one (Keeps, Asks)
			}
			var last map[entry.ID]*entry.Record
			var held blockIDs
			// The entry holding each call, for a finding's message: made
			// at the first finding only.
			var calls map[string]*entry.Record
			callAt := func(id string) *entry.Record {
				if calls == nil {
					calls = map[string]*entry.Record{}
					for _, o := range f.Records {
						for _, t := range o.ToolUses() {
							if _, ok := calls[t.ID]; !ok {
								calls[t.ID] = o
							}
						}
					}
				}
				return calls[id]
			}
			for _, rec := range f.Records {
				if rec.SourceID().IsZero() || len(rec.ToolResults()) == 0 {
					continue
				}
				if last == nil {
					last = make(map[entry.ID]*entry.Record, len(f.Records))
					for _, o := range f.Records {
						if !o.ID().IsZero() {
							last[o.ID()] = o
						}
					}
				}
				src := last[rec.SourceID()]
				if src == nil {
					// A forked session (VS Code, /fork) names the call in the
					// transcript it was forked from: look project-wide.
					if holdsInProject(p, rec) {
						continue
					}
					msg := entryLabel(rec) + ": sourceToolAssistantUUID " + rec.SourceToolAssistantUUID()
					switch src := rec.SourceToolAssistantUUID(); {
					case f.Digest.HasUUID(src): // not in the canonical form last is keyed by
						msg += " names an entry that holds no tool_use " + rec.ToolResults()[0].ID
					case inProject(p, f, src):
						msg += " names an entry of another transcript that holds no tool_use " + rec.ToolResults()[0].ID
					default:
						msg += " names no entry in any transcript of the project"
					}
					if c := callAt(rec.ToolResults()[0].ID); c != nil {
						msg += "; the call is in " + entryLabel(c) + " (" + lineRef(c) + ")"
					}
					f.ReportRecord(r, rec, "/sourceToolAssistantUUID", finding.Finding{Message: msg})
					continue
				}
				if holds(&held, src, rec) {
					continue
				}
				t := rec.ToolResults()[0]
				msg := entryLabel(rec) + ": sourceToolAssistantUUID names " + entryLabel(src) + " (" + lineRef(src) +
					"), which holds no tool_use " + t.ID
				fd := finding.Finding{Related: []finding.Location{relatedAt(f, src, "/uuid", "the entry it names")}}
				if c := callAt(t.ID); c != nil {
					msg += "; the call is in " + entryLabel(c) + " (" + lineRef(c) + ")"
					fd.Related = append(fd.Related, relatedAt(f, c, toolPtr(c, t.ID), "the call"))
				}
				fd.Message = msg
				f.ReportRecord(r, rec, "/sourceToolAssistantUUID", fd)
			}
		}
	},
})

// holds reports whether src holds the tool_use of one of rec's results
// (through held: a source of thousands of calls is put in a set once).
func holds(held *blockIDs, src, rec *entry.Record) bool {
	for _, t := range rec.ToolResults() {
		if held.has(src, false, t.ID) {
			return true
		}
	}
	return false
}

// holdsInProject looks in the digests of p's transcripts for the entries
// with rec's source uuid: whether one holds the call of one of rec's
// results.
func holdsInProject(p *model.Project, rec *entry.Record) bool {
	return holdsIn(p, rec.SourceToolAssistantUUID(), resultIDs(rec))
}

// resultIDs lists the tool_use ids rec's tool results answer.
func resultIDs(rec *entry.Record) []string {
	ids := make([]string, len(rec.ToolResults()))
	for i, t := range rec.ToolResults() {
		ids[i] = t.ID
	}
	return ids
}

// holdsIn is holdsInProject for source uuid src and result ids.
func holdsIn(p *model.Project, src string, ids []string) bool {
	look := func(o *model.File) bool {
		return o.Kind.IsTranscript() && o.Digest.Holds(src, ids)
	}
	if ow := projectOwners(p); ow != nil {
		for _, i := range ow.Of(src) {
			if look(p.Files[i]) {
				return true
			}
		}
		return false
	}
	for _, o := range p.Files {
		if look(o) {
			return true
		}
	}
	return false
}
