package rules

import "github.com/ccvet/ccvet/internal/finding"

// UnusedIgnore reports an ignore of .ccvet.yaml that matched nothing. The
// configuration (internal/config) reports it after the run; it has no check
// of its own here.
var UnusedIgnore = register(&Rule{
	ID:       "unused-ignore",
	Severity: finding.Warning,
	Enabled:  true,
	Summary:  "an `ignore` of .ccvet.yaml matched no finding in the run",
	Why: "An ignore outlives the problem it hid: once the transcript is repaired or deleted, the " +
		"ignore stays and would silence the same rule if the problem came back. Reporting it keeps " +
		"stale ignores from piling up. It is reported only when every rule the ignore names ran.",
	Bad: "ignore:\n  - path: projects/-home-me-old/**\n    rules: [orphan-parent]\n" +
		"    reason: parents lost by Claude Code 1.0   # but no orphan-parent finding is left there",
	Good: "ignore:\n  - path: projects/-home-me-old/**\n    rules: [orphan-parent]\n" +
		"    reason: parents lost by Claude Code 1.0   # and it still hides a finding",
	Fix: "Delete the ignore (or narrow its path or rules). If ccvet runs over only some files, as a " +
		"pre-commit hook does, run with --disable unused-ignore.",
})
