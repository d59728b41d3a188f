// Package baseline records the findings of a run by path and content
// fingerprint, so that a later run reports only what is new. The path is the
// file's key (relative to the detected data root, else to the current
// folder), so a baseline written for a whole store matches a run over single
// files and the other way round. Fingerprints leave out line and column
// (finding.ContentFingerprint), so edits elsewhere in a file do not make an
// old finding look new; identical entries are counted, not collapsed.
package baseline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/ccvet/ccvet/internal/atomicfile"
	"github.com/ccvet/ccvet/internal/finding"
)

// Version is the version of the file format (2: entries keyed on the path
// relative to the data root and a fingerprint without the path).
const Version = 2

// Scheme names what the fingerprints hash; it must change whenever
// finding.ContentFingerprint changes in a way Apply cannot read back (a
// finding's Key, hashed in place of its message, is read back: Apply
// also tries finding.MessageFingerprint for a finding that has one).
const Scheme = "ccvetContentFingerprint/v1"

// MaxBytes bounds the size of a baseline file read.
const MaxBytes = 256 << 20

// File is a baseline as stored: sorted by path, rule and fingerprint.
type File struct {
	Version     int     `json:"version"`
	Fingerprint string  `json:"fingerprint"`
	Findings    []Entry `json:"findings"`
}

// Entry is one path and content fingerprint with the number of findings
// that carry them. Rule and message (of the first such finding) are there
// for the reader.
type Entry struct {
	Path        string `json:"path"`
	Fingerprint string `json:"fingerprint"`
	Count       int    `json:"count"`
	Rule        string `json:"rule"`
	Message     string `json:"message"`
}

// KeyFunc maps a finding's reported path to the path a baseline records
// (relative to the data root); nil keeps the reported path.
type KeyFunc func(path string) string

func (k KeyFunc) of(p string) string {
	if k == nil {
		return p
	}
	return k(p)
}

func entryKey(path, fp string) string { return path + "\x00" + fp }

// New records fs under the paths key gives.
func New(fs []finding.Finding, key KeyFunc) *File {
	byKey := map[string]*Entry{}
	var order []*Entry
	for i := range fs {
		f := &fs[i]
		p, fp := key.of(f.Path), finding.ContentFingerprint(f)
		if e, ok := byKey[entryKey(p, fp)]; ok {
			e.Count++
			continue
		}
		e := &Entry{Path: p, Fingerprint: fp, Count: 1, Rule: f.Rule, Message: f.Message}
		byKey[entryKey(p, fp)] = e
		order = append(order, e)
	}
	out := &File{Version: Version, Fingerprint: Scheme, Findings: []Entry{}}
	for _, e := range order {
		out.Findings = append(out.Findings, *e)
	}
	sort.Slice(out.Findings, func(i, j int) bool {
		a, b := &out.Findings[i], &out.Findings[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Fingerprint < b.Fingerprint
	})
	return out
}

// Marshal renders b as indented JSON ending in a newline.
func (b *File) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write stores b at path atomically.
func Write(path string, b *File) error {
	data, err := b.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, data, 0o644)
}

// Read loads a baseline; display names it in errors.
func Read(path, display string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", display, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > MaxBytes {
		return nil, fmt.Errorf("baseline %s: larger than %d MiB", display, MaxBytes>>20)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("baseline %s: %w", display, err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("baseline %s: larger than %d MiB", display, MaxBytes>>20)
	}
	var b File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s: not a ccvet baseline: %w", display, err)
	}
	if b.Version != Version || b.Fingerprint != Scheme {
		return nil, fmt.Errorf("baseline %s: version %d with fingerprints %q; this ccvet reads version %d with %q "+
			"(write it again with --write-baseline)", display, b.Version, b.Fingerprint, Version, Scheme)
	}
	for _, e := range b.Findings {
		if e.Fingerprint == "" || e.Path == "" || e.Count < 1 {
			return nil, errors.New("baseline " + display + ": an entry without path or fingerprint, or with a count below 1")
		}
	}
	return &b, nil
}

// Outcome counts what a baseline did to a run.
type Outcome struct {
	Matched   int // findings the baseline hid
	Unmatched int // baseline findings that no finding of the run matched
}

// Apply drops from fs the findings the baseline records (their paths
// mapped by key), each recorded finding hiding at most one (in fs's order),
// and counts the recorded findings left over on the paths inSight accepts
// (nil: all of them; a run over some files cannot tell whether a finding
// on another file is gone).
func (b *File) Apply(fs []finding.Finding, key KeyFunc, inSight func(path string) bool) ([]finding.Finding, Outcome) {
	left := map[string]int{}
	for _, e := range b.Findings {
		left[entryKey(e.Path, e.Fingerprint)] += e.Count
	}
	var o Outcome
	kept := fs[:0:0]
	for i := range fs {
		p := key.of(fs[i].Path)
		fp := entryKey(p, finding.ContentFingerprint(&fs[i]))
		if left[fp] == 0 && fs[i].Key != "" {
			// A baseline written before findings had a Key recorded
			// this one by its message (finding.MessageFingerprint).
			fp = entryKey(p, finding.MessageFingerprint(&fs[i]))
		}
		if left[fp] > 0 {
			left[fp]--
			o.Matched++
			continue
		}
		kept = append(kept, fs[i])
	}
	for _, e := range b.Findings {
		k := entryKey(e.Path, e.Fingerprint)
		if n := left[k]; n > 0 && (inSight == nil || inSight(e.Path)) {
			o.Unmatched += n
			left[k] = 0
		}
	}
	return kept, o
}
