package rules

import "github.com/ccvet/ccvet/internal/finding"

// Unreadable reports a file or folder ccvet could not read. The engine
// reports it (with Report*), since no line can be visited; the rule lives
// here for its documentation and id.
var Unreadable = register(&Rule{
	ID:       "unreadable",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a file or folder could not be read (permissions, I/O error)",
	Why:      "What ccvet cannot read, Claude Code probably cannot either; and nothing in it was checked.",
	Bad:      "projects/-home-me-app/ (mode 000)",
	Good:     "projects/-home-me-app/ (mode 755)",
	Fix:      "Fix the permissions or the disk; then run ccvet again.",
})
