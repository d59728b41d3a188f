// Package finding defines what a check reports, its severity, and the stable order of findings.
package finding

import (
	"fmt"

	"github.com/ccvet/ccvet/internal/edit"
	"sort"
	"strings"
)

// Severity ranks a finding. Higher is worse.
type Severity int

// Severities in increasing order.
const (
	Off Severity = iota
	Note
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "off"
}

// ParseSeverity reads "error", "warning", "note" or "off".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "note", "info":
		return Note, nil
	case "off", "none":
		return Off, nil
	}
	return Off, fmt.Errorf("unknown severity %q (want error, warning, note or off)", s)
}

// Location is a place in a checked file. Line 0 means the whole file.
type Location struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Pointer string `json:"pointer,omitempty"`
	Message string `json:"message,omitempty"`
}

// Finding is one problem found in one place.
type Finding struct {
	Rule     string
	Severity Severity
	Path     string // slash-separated; starts with the argument that found it (ccvet lint)
	Line     int    // 1-based; 0 = whole file
	Column   int    // 1-based, in Unicode code points; 0 when Line is 0
	Message  string
	Pointer  string // JSON pointer of the offending value, if any
	UUID     string // uuid of the entry concerned, if any (used by fingerprints)
	// Key, when set, is what fingerprints hash in place of Message: the
	// part of what the finding says that another run says the same way
	// (a secret's rule and fingerprint, not its counts of copies, which
	// change with the paths given and as the session goes on).
	Key     string
	Related []Location
	Fix     *Fix // what ccvet fix would do, when planned
	// More counts the findings past --max-per-file that this one stands
	// for, besides itself: not listed, counted in a run's summary as long
	// as this one is reported (a baseline or an ignore that hides it
	// hides them too).
	More Counts
}

// Fix is the repair ccvet fix proposes for a finding: its class (safe,
// unsafe, manual, none), what it changes or what to do by hand, and the
// byte edits against the file as it was read.
type Fix struct {
	Safety  string      `json:"safety"`
	Message string      `json:"message"`
	Edits   []edit.Edit `json:"edits"`
}

// Less orders findings by path, line, column, rule, then message.
func Less(a, b *Finding) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	if a.Message != b.Message {
		return a.Message < b.Message
	}
	return a.Pointer < b.Pointer
}

// Sort puts findings in their stable report order.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool { return Less(&fs[i], &fs[j]) })
}

// Counts tallies findings by severity.
type Counts struct {
	Errors, Warnings, Notes int
}

// Add counts n more findings of severity s.
func (c *Counts) Add(s Severity, n int) {
	switch s {
	case Error:
		c.Errors += n
	case Warning:
		c.Warnings += n
	case Note:
		c.Notes += n
	}
}

// Plus adds the counts of o.
func (c *Counts) Plus(o Counts) {
	c.Errors, c.Warnings, c.Notes = c.Errors+o.Errors, c.Warnings+o.Warnings, c.Notes+o.Notes
}

// Of is the count of severity s.
func (c Counts) Of(s Severity) int {
	switch s {
	case Error:
		return c.Errors
	case Warning:
		return c.Warnings
	case Note:
		return c.Notes
	}
	return 0
}

// Total is the count of every severity.
func (c Counts) Total() int { return c.Errors + c.Warnings + c.Notes }

// Count tallies fs.
func Count(fs []Finding) Counts {
	var c Counts
	for i := range fs {
		c.Add(fs[i].Severity, 1)
	}
	return c
}
