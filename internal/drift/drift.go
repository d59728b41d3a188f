// Package drift tallies format drift per Claude Code version: entries by type, and unknown types and fields with their first place (ccvet stats).
package drift

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/model"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/schema"
)

// Place is where something first occurs.
type Place struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func (p Place) before(q Place) bool {
	if p.Path != q.Path {
		return p.Path < q.Path
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

func (p Place) String() string { return fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Column) }

type tally struct {
	count int
	first Place
}

// add counts one more, at p; a zero p (not placed: not the first of its
// file, see Stats.Line) only counts.
func (t *tally) add(p Place) {
	if p.Line > 0 && (t.first.Line == 0 || p.before(t.first)) {
		t.first = p
	}
	t.count++
}

type typeKey struct{ kind, name, shape string }

type versionStats struct {
	entries int
	types   map[string]int
	unknown map[typeKey]*tally
	fields  map[string]*tally
	written map[string]bool // fieldPaths seen
}

// Stats gathers what lines of every version hold. Lines arrive from
// several goroutines; counts add up and the first place is the least, so
// the result does not depend on their order.
type Stats struct {
	mu       sync.Mutex
	versions map[string]*versionStats
	files    map[*model.File]*fileDrift
}

// New returns empty statistics.
func New() *Stats {
	return &Stats{versions: map[string]*versionStats{}, files: map[*model.File]*fileDrift{}}
}

// Line tallies one line; call it for every line read (it is safe to call
// from several goroutines at once; the lines of one file come in order).
func (s *Stats) Line(l *model.Line) {
	if !l.IsObject() || !l.File.Kind.IsTranscript() {
		return
	}
	c := &contribution{typ: l.Type, fields: fieldPaths(l)}
	types := rules.UnknownTypes(l)
	// The reference validator only where the fast check found something:
	// on a line it proves valid there is no unknown field to list.
	probs := problems(l)
	version, _ := l.Root.Get("version").Str()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Metadata entries carry no version: they count for the version of the
	// file around them (the line before, else the first versioned line
	// after; a file with no versioned line counts for none).
	fd := s.files[l.File]
	if fd == nil {
		fd = &fileDrift{}
		s.files[l.File] = fd
	}
	pending := version == "" && fd.last == ""
	if version == "" {
		version = fd.last
	}
	// A place is found (a scan of the line up to it) only for the first
	// line of the file with that type or field for that version: the
	// file's later ones cannot be the first place (its lines come in
	// order), and a store written by a newer Claude Code has an unknown
	// field on most lines.
	at := func(kind byte, shape, ptr string, key bool) Place {
		if !pending {
			k := placeKey{version, kind, shape}
			if n, ok := fd.placed[k]; ok && n < l.Num {
				return Place{} // (on this line, another of the shape may stand before it)
			}
			if fd.placed == nil {
				fd.placed = map[placeKey]int{}
			}
			fd.placed[k] = l.Num
		}
		return Place{Path: l.File.Path, Line: l.Num, Column: l.Column(l.Find(ptr, key))}
	}
	for _, t := range types {
		sh := shape(l.Value(), t.Pointer)
		c.unknown = append(c.unknown, unknownAt{typeKey{t.Kind, t.Name, sh}, at('t', t.Kind+"\x00"+t.Name+"\x00"+sh, t.Pointer, false)})
	}
	for _, p := range probs {
		if p.UnknownField {
			// The fast check gives the shape; the reference leaves it to
			// the decoded line.
			sh := p.Shape
			if sh == "" {
				sh = shape(l.Value(), p.Pointer)
			}
			c.unknownFields = append(c.unknownFields, unknownFieldAt{sh, at('f', sh, p.Pointer, true)})
		}
	}
	if pending {
		fd.pending = append(fd.pending, c)
		return
	}
	if fd.last != version {
		fd.last = version
		for _, p := range fd.pending {
			s.add(version, p)
		}
		fd.pending = nil
	}
	s.add(version, c)
}

// problems is l's schema problems, none for a line the fast check proves
// valid (the reference validator decodes the whole line: 10 times the
// lint's time on a store where every line is valid).
func problems(l *model.Line) []schema.Problem {
	if l.SchemaVerdict() == schema.Valid {
		return nil
	}
	return l.SchemaProblems()
}

// contribution is what one line adds to its version's tallies.
type contribution struct {
	typ           string
	fields        []string // field paths ("user.message.usage.speed") the line writes
	unknown       []unknownAt
	unknownFields []unknownFieldAt
}

type unknownAt struct {
	key typeKey
	at  Place
}

type unknownFieldAt struct {
	ptr string
	at  Place
}

// fileDrift holds, for one file, the version of its last versioned line
// and the metadata lines read before any.
type fileDrift struct {
	last    string
	pending []*contribution
	// placed holds what a line of the file was placed for already: the
	// line's number.
	placed map[placeKey]int
}

// placeKey is an unknown type ('t') or field ('f') of one version, by its
// shape.
type placeKey struct {
	version string
	kind    byte
	shape   string
}

func (s *Stats) add(version string, c *contribution) {
	v := s.versions[version]
	if v == nil {
		v = &versionStats{types: map[string]int{}, unknown: map[typeKey]*tally{}, fields: map[string]*tally{},
			written: map[string]bool{}}
		s.versions[version] = v
	}
	v.entries++
	if c.typ != "" {
		v.types[c.typ]++
	}
	for _, f := range c.fields {
		v.written[f] = true
	}
	for _, u := range c.unknown {
		if v.unknown[u.key] == nil {
			v.unknown[u.key] = &tally{}
		}
		v.unknown[u.key].add(u.at)
	}
	for _, u := range c.unknownFields {
		if v.fields[u.ptr] == nil {
			v.fields[u.ptr] = &tally{}
		}
		v.fields[u.ptr].add(u.at)
	}
}

// fieldPaths lists the fields a transcript line writes, as "TYPE.field",
// with the members of message and message.usage one level down: what
// --since compares across versions.
func fieldPaths(l *model.Line) []string {
	t := l.Type
	if t == "" {
		return nil
	}
	out := []string{t}
	for k, v := range l.Root.Members() {
		out = append(out, t+"."+k)
		if k == "message" && v.Kind() == jsontree.Object {
			for mk, mv := range v.Members() {
				out = append(out, t+".message."+mk)
				if mk == "usage" && mv.Kind() == jsontree.Object {
					for uk := range mv.Members() {
						out = append(out, t+".message.usage."+uk)
					}
				}
			}
		}
	}
	return out
}

// shape is ptr with every array index replaced by "*": the Place of a field
// in the format rather than in one entry. doc is the line decoded (each
// step one look: a line may hold a million unknown items).
func shape(doc any, ptr string) string {
	toks, err := jsonpos.Split(ptr)
	if err != nil {
		return ptr
	}
	var b strings.Builder
	cur := doc
	for _, tok := range toks {
		b.WriteByte('/')
		switch c := cur.(type) {
		case []any:
			b.WriteByte('*')
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(c) {
				cur = c[i]
			} else {
				cur = nil
			}
		case map[string]any:
			b.WriteString(jsonpos.Escape(tok))
			cur = c[tok]
		default:
			b.WriteString(jsonpos.Escape(tok))
			cur = nil
		}
	}
	return b.String()
}

// Report is what ccvet stats prints; its JSON is the shape of
// `ccvet stats --format json` (documented in the README).
type Report struct {
	Tool     Tool      `json:"tool"`
	Since    string    `json:"since,omitempty"`
	Versions []Version `json:"versions"`
	Summary  Summary   `json:"summary"`
	// FirstWritten groups, by the version that first wrote it in the data
	// read, every unknown field, and with Since every entry type and field
	// first written by that version or a later one.
	FirstWritten []First `json:"firstWritten"`
}

// First is what one version was the first to write.
type First struct {
	Version       string   `json:"version"`
	UnknownFields []string `json:"unknownFields"`
	New           []string `json:"new,omitempty"`
}

// Tool names the program that made the report.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Version is what the entries of one Claude Code version hold.
type Version struct {
	Version       string         `json:"version"` // "" for entries without a version
	Entries       int            `json:"entries"`
	Types         map[string]int `json:"types"`
	UnknownTypes  []UnknownType  `json:"unknownTypes"`
	UnknownFields []UnknownField `json:"unknownFields"`
}

// UnknownType is a type name the schemas do not know, at one place in the format.
type UnknownType struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Pointer string `json:"pointer"`
	Count   int    `json:"count"`
	First   Place  `json:"first"`
}

// UnknownField is a field the schemas do not know, at one place in the format.
type UnknownField struct {
	Pointer string `json:"pointer"`
	Count   int    `json:"count"`
	First   Place  `json:"first"`
}

// Summary counts what was read.
type Summary struct {
	Files   int `json:"files"`
	Entries int `json:"entries"`
	Skipped int `json:"skipped"`
}

// Report is the tallies in report order: versions oldest first, then
// unknown types and fields by name.
//
// With since (a version), only that version and later ones are shown, with
// what they were the first to write.
func (s *Stats) Report(tool Tool, sum Summary, since string) *Report {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &Report{Tool: tool, Since: since, Versions: []Version{}, Summary: sum}
	// A file whose lines all lack a version keeps them pending: they count
	// for no version.
	files := make([]*model.File, 0, len(s.files))
	for f := range s.files {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for _, f := range files {
		for _, p := range s.files[f].pending {
			s.add("", p)
		}
		s.files[f].pending = nil
	}
	names := make([]string, 0, len(s.versions))
	for v := range s.versions {
		names = append(names, v)
	}
	sort.Slice(names, func(i, j int) bool { return ccversion.Less(names[i], names[j]) })
	out.FirstWritten = s.firstWritten(names, since)
	for _, name := range names {
		if since != "" && (name == "" || ccversion.Less(name, since)) {
			continue
		}
		v := s.versions[name]
		sv := Version{Version: name, Entries: v.entries, Types: v.types,
			UnknownTypes: []UnknownType{}, UnknownFields: []UnknownField{}}
		for k, t := range v.unknown {
			sv.UnknownTypes = append(sv.UnknownTypes, UnknownType{k.kind, k.name, k.shape, t.count, t.first})
		}
		sort.Slice(sv.UnknownTypes, func(i, j int) bool {
			a, b := sv.UnknownTypes[i], sv.UnknownTypes[j]
			if a.Kind != b.Kind {
				return a.Kind < b.Kind
			}
			if a.Name != b.Name {
				return a.Name < b.Name
			}
			return a.Pointer < b.Pointer
		})
		for ptr, t := range v.fields {
			sv.UnknownFields = append(sv.UnknownFields, UnknownField{ptr, t.count, t.first})
		}
		sort.Slice(sv.UnknownFields, func(i, j int) bool { return sv.UnknownFields[i].Pointer < sv.UnknownFields[j].Pointer })
		out.Versions = append(out.Versions, sv)
	}
	return out
}

// firstWritten groups unknown fields, and with since the entry types and
// fields first written at or after it, by the first version (in names'
// order) that wrote them.
func (s *Stats) firstWritten(names []string, since string) []First {
	seenField, seenNew := map[string]bool{}, map[string]bool{}
	out := []First{}
	for _, name := range names {
		v := s.versions[name]
		g := First{Version: name, UnknownFields: []string{}}
		for ptr := range v.fields {
			if !seenField[ptr] {
				seenField[ptr] = true
				g.UnknownFields = append(g.UnknownFields, ptr)
			}
		}
		for f := range v.written {
			if seenNew[f] {
				continue
			}
			seenNew[f] = true
			if since != "" && name != "" && !ccversion.Less(name, since) {
				g.New = append(g.New, f)
			}
		}
		if since != "" && (name == "" || ccversion.Less(name, since)) {
			continue // only what the versions shown first wrote
		}
		sort.Strings(g.UnknownFields)
		sort.Strings(g.New)
		if len(g.UnknownFields) > 0 || len(g.New) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// ValidVersion reports whether v is a version --since accepts (x.y.z).
func ValidVersion(v string) bool {
	_, ok := ccversion.Parse(v)
	return ok
}
