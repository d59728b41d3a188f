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
		for _, f := range p.Files {
			sid, nested, rec, missing := subagentParentMissing(p, f)
			if !missing {
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

// parentsKey keeps, in a project's memo, which session transcripts exist.
type parentsKey struct{}

// subagentParentMissing reports whether f is a subagent transcript of a
// projects/ folder whose parent session transcript is absent: its session
// id, whether it is nested (<sessionId>/subagents/…), the record naming the
// session of a flat one, and missing. orphan-subagent reports it once;
// orphan-parent says nothing of such a file's links (its first entries point
// into the missing transcript by design, and nothing resumes it).
func subagentParentMissing(p *model.Project, f *model.File) (sid string, nested bool, rec *entry.Record, missing bool) {
	if !p.InLayout || f.Kind != layout.Subagent || !f.InLayout || f.Stdin || f.Project == "" {
		return "", false, nil, false
	}
	sid, nested = f.SessionID, true
	if sid == "" { // flat agent-<id>.jsonl: the parent is the session its entries name
		nested = false
		if rec = firstSessionRecord(f); rec != nil {
			sid = rec.SessionID
		}
	}
	if !layout.IsUUID(sid) {
		return sid, nested, rec, false // no parent to look for; names that are not UUIDs are never joined to a path
	}
	parents := p.Memo(parentsKey{}, func() any { return &parentSet{have: map[string]bool{}, known: map[string]bool{}, p: p} }).(*parentSet)
	return sid, nested, rec, !parents.has(filepath.Join(f.Project, sid+".jsonl"))
}

// parentSet answers whether a session transcript exists: among the files
// checked, or on disk outside the scanned paths (one stat per path).
type parentSet struct {
	p     *model.Project
	have  map[string]bool // transcripts checked, built on first use
	known map[string]bool // answers so far
	built bool
}

func (s *parentSet) has(path string) bool {
	if !s.built {
		for _, f := range s.p.Files {
			if f.Kind == layout.Transcript && !f.Stdin {
				s.have[filepath.Clean(f.OSPath)] = true
			}
		}
		s.built = true
	}
	ok, known := s.known[path]
	if !known {
		ok = s.have[path]
		if !ok {
			st, err := os.Stat(path) // a parent outside the scanned paths
			ok = err == nil && st.Mode().IsRegular()
		}
		s.known[path] = ok
	}
	return ok
}
