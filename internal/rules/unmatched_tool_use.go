package rules

import (
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
	Why: "The API requires the message after a tool_use to answer it with a tool_result. Measured " +
		"on 2.1.110 and 2.1.330: when the conversation goes on past an unanswered call, the reader " +
		"drops the call on resume (no request fails), so the model forgets it made it. When nothing " +
		"follows the call on its branch the session stopped while the tool ran: 2.1.330 keeps the " +
		"call and adds an is_error result (a warning), 2.1.110 drops it (an error for a transcript in " +
		"a projects/ folder that a version before 2.1.330 may resume, a warning for a loose file; where between the two this changed is not known). Calls and results are paired by id, not by file order: " +
		"a result line written before its call's line answers it.",
	Bad:  `{"type":"assistant","uuid":"a…","message":{"content":[{"type":"tool_use","id":"toolu_01X…","name":"Bash",…}]}}  (no tool_result for toolu_01X… follows, but later turns do)`,
	Good: `… followed by {"type":"user","parentUuid":"a…","message":{"content":[{"type":"tool_result","tool_use_id":"toolu_01X…",…}]}}`,
	Fix: "Add a user entry with a tool_result for the id (is_error true, content \"interrupted\") " +
		"parented to the assistant entry, and parent the next entry to it; or remove the call.",
	File: func(r *Rule, f *model.File) {
		if !f.Kind.IsTranscript() {
			return
		}
		recs := f.Records
		answered := make(map[string]bool, toolCount(recs, true)) // tool_use_ids some line answers
		has := false
		for _, rec := range recs {
			for _, t := range rec.ToolResults {
				answered[t.ID] = true
			}
			if len(rec.ToolUses) > 0 {
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
		g := f.Graph() // its index of the last line of each uuid
		var below [2][]int
		for s := range below {
			below[s] = make([]int, len(recs))
			for i := range below[s] {
				below[s][i] = -1
			}
		}
		side := func(rec *entry.Record) int {
			if rec.IsSidechain {
				return 1
			}
			return 0
		}
		for i := len(recs) - 1; i >= 0; i-- {
			rec := recs[i]
			if !rec.HasParent {
				continue
			}
			p := g.LastWith(rec.ParentUUID)
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
		var readers []resume.Version
		var dropped map[string]bool // tool ids a judged reader drops mid-conversation
		for i, rec := range recs {
			for _, t := range rec.ToolUses {
				if t.Server || t.ID == "" {
					continue
				}
				if answered[t.ID] {
					continue
				}
				// What the resume model says the reader does with this call.
				if readers == nil {
					readers = readersOf(f, recs)
				}
				if dropped == nil {
					dropped = map[string]bool{}
					for _, v := range readers {
						for _, e := range resumeOf(f, v).LeftOut {
							if e.Kind == resume.KindCallDropped {
								dropped[e.Tool] = true
							}
						}
					}
				}
				// The model's claims are checked on main transcripts only.
				if next := below[side(rec)][i]; next >= 0 || (dropped[t.ID] && f.Kind == layout.Transcript) {
					cont := "the conversation goes on after it"
					var rel []finding.Location
					if next >= 0 {
						cont = "the conversation goes on below it (" + entryLabel(recs[next]) + ", " + lineRef(recs[next]) + ")"
						rel = []finding.Location{relatedAt(f, recs[next], "/parentUuid", "the conversation continues here")}
					}
					f.ReportRecord(r, rec, blockPtr(t.Block, "id"), finding.Finding{
						Severity: finding.Error,
						Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result, yet " + cont +
							"; on resume the reader drops the call (measured on 2.1.110 and 2.1.330; no request fails), " +
							"so the model forgets it made it",
						Related: rel,
					})
					continue
				}
				if readers == nil {
					readers = readersOf(f, recs)
				}
				var outs []outcome
				for _, v := range readers {
					if resume.ProfileOf(v).SyntheticResult {
						outs = append(outs, outcome{v, finding.Warning, "keeps the call and adds an is_error result"})
					} else {
						outs = append(outs, outcome{v, finding.Error, "drops the call, so the model forgets it made it"})
					}
				}
				sev, how := verdict(outs)
				if !f.InLayout || f.Kind != layout.Transcript {
					// A loose file (an export, an excerpt) is not what a resume
					// reads; subagent transcripts are not checked against it.
					sev = finding.Warning
				}
				f.ReportRecord(r, rec, blockPtr(t.Block, "id"), finding.Finding{
					Severity: sev,
					Message: entryLabel(rec) + ": " + toolLabel(t) + " has no tool_result and nothing follows it " +
						"on its branch: the session stopped while the tool ran; on resume " + how,
				})
			}
		}
	},
})
