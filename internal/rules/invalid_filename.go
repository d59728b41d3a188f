package rules

import (
	"path/filepath"
	"regexp"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/model"
)

var agentFileRe = regexp.MustCompile(`^agent-[A-Za-z0-9_-]+\.jsonl$`)

// InvalidFilename reports a transcript in a projects/ layout whose name is
// neither <uuid>.jsonl nor agent-<id>.jsonl.
var InvalidFilename = register(&Rule{
	ID:       "invalid-filename",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "a transcript in projects/ is not named <session-uuid>.jsonl or agent-<id>.jsonl",
	Why: "Claude Code finds sessions by file name: `claude --resume` lists only <uuid>.jsonl files, " +
		"so a renamed transcript is invisible to it.",
	Bad:  "projects/-home-me-app/my-session.jsonl",
	Good: "projects/-home-me-app/0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77.jsonl",
	Fix:  "Rename the file after the sessionId its entries carry.",
	File: func(r *Rule, f *model.File) {
		if !f.InLayout {
			return
		}
		name := filepath.Base(f.OSPath)
		switch f.Kind {
		case layout.Transcript:
			if !layout.IsUUID(name[:len(name)-len(".jsonl")]) {
				f.Emit(r, finding.Finding{Message: "transcript name " + quote(name) + " is not <session-uuid>.jsonl; claude --resume will not list it"})
			}
		case layout.Subagent:
			if !agentFileRe.MatchString(name) {
				f.Emit(r, finding.Finding{Message: "subagent transcript name " + quote(name) + " is not agent-<id>.jsonl"})
			}
		}
	},
})
