package rules

import (
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// DanglingLeaf notes a summary whose leafUuid is in no transcript of the project.
var DanglingLeaf = register(&Rule{
	ID:       "dangling-leaf",
	Severity: finding.Note,
	Enabled:  true,
	Summary:  "a `summary` entry's `leafUuid` names an entry found in no transcript of the project",
	Why: "Claude Code (up to 2.1.28) wrote summary entries that title a conversation by its last " +
		"entry, leafUuid. The session list shows the summary only for a leaf it can find, so a " +
		"dangling one just loses the title. Summaries are often copied into later sessions and " +
		"retention deletes old transcripts, so this is common in healthy data: a note only.",
	Bad:  `{"type":"summary","summary":"Fix login bug","leafUuid":"5d1c…(in no file)"}`,
	Good: `{"type":"summary","summary":"Fix login bug","leafUuid":"9e4a…(the last entry of a transcript)"}`,
	Fix:  "Nothing is needed; delete the summary line if the stale title bothers you.",
	Keeps: func(r *Rule, p *model.Project, f *model.File) bool {
		for _, rec := range f.Records {
			if rec.Type == "summary" && rec.LeafUUID != "" && !f.Digest.HasUUID(rec.LeafUUID) &&
				!f.Ask(model.Ask{Kind: model.AskUUID, Name: rec.LeafUUID}) {
				return true
			}
		}
		return false
	},
	Project: func(r *Rule, p *model.Project) {
		for _, f := range p.Files {
			if f.Thin {
				continue // every leaf is in the file or in another one (Keeps, Asks)
			}
			for _, rec := range f.Records {
				if rec.Type != "summary" || rec.LeafUUID == "" {
					continue
				}
				if inProject(p, f, rec.LeafUUID) {
					continue
				}
				f.ReportRecord(r, rec, "/leafUuid", finding.Finding{Message: "summary: leafUuid " + rec.LeafUUID +
					" names no entry in any transcript of the project; its title is not shown"})
			}
		}
	},
})
