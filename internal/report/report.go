// Package report prints findings as text, JSON or SARIF; every format gets the same sorted findings.
package report

import "github.com/ccvet/ccvet/internal/finding"

// RuleInfo describes a rule for formats that carry rule metadata (SARIF).
type RuleInfo struct {
	ID       string
	Severity finding.Severity // default severity
	Enabled  bool
	Summary  string // one line
	Why      string // the full description
	Fix      string
	Bad      string
	Good     string
}

// Run is everything a printer needs.
type Run struct {
	Version  string
	Findings []finding.Finding
	Files    int
	Entries  int
	Skipped  int
	Rules    []RuleInfo // the whole catalogue, sorted by id, for formats that describe rules
	// Baseline, when a baseline was applied: findings it hid, and its
	// entries that matched nothing.
	Baseline *BaselineCounts
	// Unlisted counts the findings past --max-per-file, which Findings
	// holds one finding for per rule and file: the summary counts them all.
	Unlisted finding.Counts
}

// BaselineCounts is what a baseline did to a run.
type BaselineCounts struct {
	Matched, Unmatched int
}

// Summary counts the run.
type Summary struct {
	Files    int `json:"files"`
	Entries  int `json:"entries"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Notes    int `json:"notes"`
	Skipped  int `json:"skipped"`
	// Only when a baseline was applied (--baseline, --write-baseline).
	Baselined         *int `json:"baselined,omitempty"`
	BaselineUnmatched *int `json:"baselineUnmatched,omitempty"`
	// Only when findings past --max-per-file were left out of the list:
	// how many (errors, warnings and notes count them).
	Unlisted int `json:"unlisted,omitempty"`
}

// Summarize counts r.
func (r *Run) Summarize() Summary {
	c := finding.Count(r.Findings)
	c.Plus(r.Unlisted)
	s := Summary{Files: r.Files, Entries: r.Entries, Errors: c.Errors, Warnings: c.Warnings, Notes: c.Notes,
		Skipped: r.Skipped, Unlisted: r.Unlisted.Total()}
	if b := r.Baseline; b != nil {
		s.Baselined, s.BaselineUnmatched = &b.Matched, &b.Unmatched
	}
	return s
}
