package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// OrphanLogicalParent reports a compaction boundary whose logicalParentUuid
// is in no transcript of the project.
var OrphanLogicalParent = register(&Rule{
	ID:       "orphan-logical-parent",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a compaction boundary's `logicalParentUuid` names an entry found in no transcript of the project",
	Why: "A compact_boundary entry starts the conversation afresh (parentUuid null) and records in " +
		"logicalParentUuid the last message before the compaction. When that entry is gone, tools " +
		"that follow the logical link find nothing, and Claude Code itself crashed resuming such a " +
		"session (issue 40027). It is a warning: retention (cleanupPeriodDays) deletes old " +
		"transcripts, so a dangling link in old data is expected.",
	Bad:  `{"parentUuid":null,"logicalParentUuid":"0c6f…(in no file)","type":"system","subtype":"compact_boundary",…}`,
	Good: `{"parentUuid":null,"logicalParentUuid":"9a1e…(the last entry before /compact)","type":"system","subtype":"compact_boundary",…}`,
	Fix: "Restore the transcript that held the entry, or point logicalParentUuid at the last entry " +
		"before the boundary in this file.",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		for _, rec := range f.Records {
			if rec.LogicalParentUUID != "" && !f.Digest.HasUUID(rec.LogicalParentUUID) &&
				!f.Ask(model.Ask{Kind: model.AskUUID, Name: rec.LogicalParentUUID}) {
				return true
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		for _, f := range p.Files {
			if f.Thin {
				continue // every logical parent is in the file or in another one (Keeps, Asks)
			}
			for _, rec := range f.Records {
				if rec.LogicalParentUUID == "" {
					continue
				}
				if inProject(p, f, rec.LogicalParentUUID) {
					continue
				}
				f.ReportRecord(r, rec, "/logicalParentUuid", finding.Finding{Message: entryLabel(rec) +
					": logicalParentUuid " + rec.LogicalParentUUID + " names no entry in any transcript of the " +
					"project (the pre-compaction history is gone; resuming crashed on this in issue 40027)"})
			}
		}
	},
})
