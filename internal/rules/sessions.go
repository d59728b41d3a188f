package rules

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/model"
)

// Helpers shared by the store-wide session rules (path encoding, file
// history, subagents, history.jsonl).

// launchRecord returns the first record of f that carries a cwd: the
// directory the session was launched in (the cwd of later entries changes
// when the user moves into a subfolder). It returns nil if none has one.
func launchRecord(f *model.File) *entry.Record {
	for _, rec := range f.Records {
		if rec.Cwd != "" {
			return rec
		}
	}
	return nil
}

// firstSessionRecord returns the first record of f that carries a sessionId.
func firstSessionRecord(f *model.File) *entry.Record {
	for _, rec := range f.Records {
		if rec.SessionID != "" {
			return rec
		}
	}
	return nil
}

// safeName reports whether s can be used as one path element below a
// known folder without leaving it: not empty, no separator, no NUL, not
// "." or "..", not absolute. Names from the data are untrusted; only safe
// ones are ever joined to a path.
func safeName(s string) bool {
	return s != "" && s != "." && !strings.ContainsAny(s, "/\\\x00") && !strings.Contains(s, "..") &&
		!filepath.IsAbs(s) && filepath.IsLocal(s)
}

// dirState says what is known of a folder.
type dirState int

const (
	dirUnknown dirState = iota // could not be read (permissions, not a folder): check nothing
	dirAbsent
	dirPresent
)

// dirList is a listing of one folder.
type dirList struct {
	state dirState
	names map[string]bool
}

// listDir reads the folder at path p.
func listDir(p string) *dirList {
	d := &dirList{}
	ents, err := os.ReadDir(p)
	switch {
	case err == nil:
		d.state = dirPresent
		d.names = make(map[string]bool, len(ents))
		for _, e := range ents {
			d.names[e.Name()] = true
		}
	case errors.Is(err, fs.ErrNotExist):
		d.state = dirAbsent
	}
	return d
}

// recordFinding builds a finding at the value ptr names on rec's line of f,
// for checks that report from a project or store context.
func recordFinding(f *model.File, rec *entry.Record, ptr, msg string) finding.Finding {
	return finding.Finding{Path: f.Path, Line: int(rec.Line), Column: f.Column(rec, ptr), Pointer: ptr,
		UUID: rec.UUID(), Message: msg}
}

// sessionRelated names rec's line of f as a related location of a
// store-wide finding.
func sessionRelated(f *model.File, rec *entry.Record, ptr, msg string) finding.Location {
	return finding.Location{Path: f.Path, Line: int(rec.Line), Column: f.Column(rec, ptr), Pointer: ptr, Message: msg}
}
