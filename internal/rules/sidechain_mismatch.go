package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// SidechainMismatch reports entries that sit in the wrong kind of transcript.
var SidechainMismatch = register(&Rule{
	ID:       "sidechain-mismatch",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a subagent transcript holds a main-conversation entry or another agent's entry, or a main transcript holds a subagent's entry",
	Why: "Claude Code routes each entry by its isSidechain and agentId: a subagent's entries " +
		"(isSidechain true, agentId) go to agent-<agentId>.jsonl, the main conversation's to " +
		"<sessionId>.jsonl. Loading a subagent transcript it keeps only the entries with " +
		"isSidechain true and that file's agentId, and a main transcript's resume ignores " +
		"sidechain entries, so an entry in the wrong file is invisible to the reader (up to 2.0.27 " +
		"subagent entries sat in the main file with isSidechain true and no agentId: that is normal).",
	Bad:  `agent-a4e1900.jsonl: {"isSidechain":false,"agentId":"a4e1900",…}  or  {"isSidechain":true,"agentId":"b77c2d1",…}`,
	Good: `agent-a4e1900.jsonl: {"isSidechain":true,"agentId":"a4e1900",…}`,
	Fix:  "Move the entry to the transcript it belongs to, or correct isSidechain / agentId.",
	File: func(r *Rule, f *model.File) {
		switch f.Kind {
		case layout.Subagent:
			for _, rec := range f.Records {
				if !isChainType(rec) {
					continue
				}
				if !rec.IsSidechain {
					f.ReportRecord(r, rec, "/isSidechain", finding.Finding{Message: entryLabel(rec) +
						": isSidechain is not true in a subagent transcript; the reader skips it when loading the agent"})
				}
				switch {
				case f.AgentID == "":
				case rec.AgentID == "":
					f.ReportRecord(r, rec, "", finding.Finding{Message: entryLabel(rec) +
						": no agentId in the transcript of agent " + f.AgentID + "; the reader skips it when loading the agent"})
				case rec.AgentID != f.AgentID:
					f.ReportRecord(r, rec, "/agentId", finding.Finding{Message: entryLabel(rec) + ": agentId " +
						quote(rec.AgentID) + " in the transcript of agent " + f.AgentID +
						" (from the file name); the reader skips it when loading the agent"})
				}
			}
		case layout.Transcript:
			if !f.InLayout && agentFileLooksLoose(f) {
				return // a subagent transcript saved under another name: nothing is misplaced inside it
			}
			for _, rec := range f.Records {
				if !isChainType(rec) || rec.AgentID == "" {
					continue
				}
				f.ReportRecord(r, rec, "/agentId", finding.Finding{Message: entryLabel(rec) + ": agentId " +
					quote(rec.AgentID) + " in a main transcript; Claude Code writes a subagent's entries to " +
					"agent-" + rec.AgentID + ".jsonl"})
			}
		}
	},
})
