package rules

import (
	"os"
	"path/filepath"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

// OrphanSubagent reports a subagent transcript whose parent session
// transcript is absent.
var OrphanSubagent = register(&Rule{
	ID:       "orphan-subagent",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a subagent transcript's parent session transcript does not exist",
	Why: "Subagent (Task tool) transcripts are only reached through their parent session: " +
		"<sessionId>/subagents/agent-<id>.jsonl (from 2.1.2) belongs to <sessionId>.jsonl beside that " +
		"folder, and a flat agent-<id>.jsonl (2.0.28-2.1.1) to the session whose sessionId its entries " +
		"carry. Without the parent, nothing lists or resumes the subagent's work: the file only takes " +
		"space, and tools that pair subagents with their parent (usage reports, viewers) miscount it. " +
		"It is left behind when a main transcript is deleted or moved by hand, or when cleanup removes " +
		"the parent first.",
	Bad:  "projects/-home-me-app/1111…/subagents/agent-a1b2c3d.jsonl without projects/-home-me-app/1111….jsonl",
	Good: "projects/-home-me-app/1111…/subagents/agent-a1b2c3d.jsonl beside projects/-home-me-app/1111….jsonl",
	Fix:  "Restore the parent transcript from a copy, or delete the orphaned subagent files.",
	// Nothing kept: it reads a file's first record with a session id, a store record.
	Keeps: func(*Rule, *model.Project, *model.File) bool { return false },
	Project: func(r *Rule, p *model.Project) {
		if !p.InLayout {
			return
		}
		have := map[string]bool{}
		for _, f := range p.Files {
			if f.Kind == layout.Transcript && !f.Stdin {
				have[filepath.Clean(f.OSPath)] = true
			}
		}
		exists := map[string]bool{}
		for _, f := range p.Files {
			if f.Kind != layout.Subagent || !f.InLayout || f.Stdin || f.Project == "" {
				continue
			}
			sid, nested := f.SessionID, true
			var rec *entry.Record
			if sid == "" { // flat agent-<id>.jsonl: the parent is the session its entries name
				nested = false
				if rec = firstSessionRecord(f); rec != nil {
					sid = rec.SessionID
				}
			}
			if !layout.IsUUID(sid) {
				continue // no parent to look for; names that are not UUIDs are never joined to a path
			}
			parent := filepath.Join(f.Project, sid+".jsonl")
			ok, known := exists[parent]
			if !known {
				ok = have[parent]
				if !ok {
					st, err := os.Stat(parent) // a parent outside the scanned paths
					ok = err == nil && st.Mode().IsRegular()
				}
				exists[parent] = ok
			}
			if ok {
				continue
			}
			msg := "parent session transcript " + sid + ".jsonl is missing from this project folder: " +
				"nothing lists or resumes this subagent's work"
			if nested {
				p.Emit(r, finding.Finding{Path: f.Path, Message: msg})
			} else {
				f.ReportRecord(r, rec, "/sessionId", finding.Finding{Message: msg})
			}
		}
	},
})
