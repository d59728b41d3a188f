package rules

import (
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// SidechainLeaf reports a main conversation whose newest entry is marked
// isSidechain: true.
var SidechainLeaf = register(&Rule{
	ID:       "sidechain-leaf",
	Severity: finding.Error,
	Enabled:  true,
	Since:    "0.2.0",
	Summary:  "the newest entry of the main conversation is marked `isSidechain: true`",
	Why: "`claude --resume` starts from the newest main-conversation entry, and sidechain entries " +
		"(a subagent's) are not part of it. Measured on the real program: when the last entry of a " +
		"session carries isSidechain: true, 2.1.110 fails with \"No conversation found with session " +
		"ID\" and sends nothing; so does 2.1.330 when last-prompt.leafUuid names that entry (it writes " +
		"one after every turn), and otherwise it resumes from the entry before and leaves this one " +
		"out. A subagent's own entries (they have an agentId, or a null parent in old inline " +
		"sidechains) are not reported.",
	Bad:  `{"parentUuid":"c1…(a main-conversation entry)","isSidechain":true,"type":"assistant","uuid":"d4…",…}  (the last entry)`,
	Good: `{"parentUuid":"c1…","isSidechain":false,"type":"assistant","uuid":"d4…",…}`,
	Fix:  "Set isSidechain to false on the entry (it belongs to the main conversation).",
	File: func(r *Rule, f *model.File) {
		if f.Kind != layout.Transcript {
			return
		}
		g := f.Graph()
		last := -1
		for i, rec := range f.Records {
			if !g.Kept(i) || (rec.Type != "user" && rec.Type != "assistant") || !rec.HasTimestamp() {
				continue
			}
			if last < 0 || entry.CompareTimestamps(rec, f.Records[last]) > 0 {
				last = i
			}
		}
		if last < 0 {
			return
		}
		rec := f.Records[last]
		if !rec.IsSidechain || rec.AgentID != "" {
			return
		}
		p := g.ParentIndex(last)
		if p < 0 || f.Records[p].IsSidechain {
			return // a subagent's own entry (old inline sidechains start with a null parent)
		}
		var outs []outcome
		for _, v := range readersOf(f, f.Records) {
			if walkOf(f, v).Failed != "" { // the walk's Failed is the resume's
				outs = append(outs, outcome{v, finding.Error, "fails with \"No conversation found with session ID\" and sends nothing"})
				continue
			}
			outs = append(outs, outcome{v, finding.Error, "resumes from an older entry and leaves this one out"})
		}
		_, how := verdict(outs)
		f.ReportRecord(r, rec, "/isSidechain", finding.Finding{Message: entryLabel(rec) +
			": the newest entry of the main conversation (its parent, " + lineRef(f.Records[p]) +
			", is a main-conversation entry) is marked isSidechain: true; on resume " + how})
	},
})
