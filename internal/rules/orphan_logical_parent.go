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
		"logicalParentUuid the last message before the compaction. Claude Code itself often names an " +
		"entry it never wrote there (9 of 21 boundaries of intact real main transcripts): when the " +
		"lines before the boundary are in the file, the reader loses nothing (measured on 2.1.110 and " +
		"2.1.330, and with a fresh uuid on a real 2.1.33x compacted session), so this is a note for " +
		"tools that follow the logical link and find nothing. When no conversation entry precedes the " +
		"boundary in the file, the pre-compaction lines are really gone (deleted by hand, or the file " +
		"was cut): a warning. The reader then resumes from the boundary and sends what is left " +
		"(measured); an older version crashed resuming such a session (issue 40027). Retention " +
		"(cleanupPeriodDays) deletes old transcripts, so a dangling link in old data is expected.",
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
			before := [2]bool{} // a user or assistant entry seen so far, by isSidechain
			for _, rec := range f.Records {
				side := 0
				if rec.IsSidechain {
					side = 1
				}
				if rec.LogicalParentUUID == "" || inProject(p, f, rec.LogicalParentUUID) {
					if isTurn(rec) {
						before[side] = true
					}
					continue
				}
				msg := entryLabel(rec) + ": logicalParentUuid " + rec.LogicalParentUUID + " names no entry in any transcript of the project"
				fd := finding.Finding{}
				if before[side] {
					// What Claude Code often writes: the lines before the
					// boundary are here, and the reader needs nothing more.
					fd.Severity = finding.Note
					msg += ", but the lines before the boundary are in this file: Claude Code often names an entry it " +
						"never wrote here, and the reader loses nothing (measured on 2.1.110 and 2.1.330); only tools " +
						"that follow the logical link find nothing"
				} else {
					msg += ", and no conversation entry precedes the boundary in this file: the pre-compaction lines " +
						"are gone (deleted, or the file was cut); a resume starts at the boundary and sends what is left " +
						"(measured on 2.1.110 and 2.1.330)"
				}
				fd.Message = msg
				f.ReportRecord(r, rec, "/logicalParentUuid", fd)
			}
		}
	},
})
