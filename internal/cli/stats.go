package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	flag "github.com/spf13/pflag"

	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// cmdStats prints, per Claude Code version, the entries by type and every
// unknown entry type and unknown field with its first place: format drift.
func cmdStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ccvet stats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.StringP("format", "f", "text", "output format: text or json")
	jobs := fs.IntP("jobs", "j", 0, "check `N` files at once (default: number of CPUs)")
	stdinName := fs.String("stdin-filename", "", "name to report for a transcript read from standard input (`-`)")
	since := fs.String("since", "", "show only Claude Code `VERSION` and later, and what they first wrote")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if *since != "" {
		if _, ok := parseSemver(*since); !ok {
			return usagef("stats --since: want a version such as 2.1.200, got %q", *since)
		}
	}
	if *format != "text" && *format != "json" {
		return usagef("stats --format: want text or json, got %q", *format)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		root, err := defaultRoot()
		if err != nil {
			return err
		}
		paths = []string{root}
	}
	found, err := layout.Discover(paths, *stdinName)
	if err != nil {
		return usageError{err}
	}
	// No rule runs: the engine only reads, decodes and hands each line over.
	off := map[string]bool{}
	for _, r := range rules.All() {
		off[r.ID] = false
	}
	st := &driftStats{versions: map[string]*versionStats{}, files: map[*rules.File]*fileDrift{}}
	eng, err := lint.New(lint.Options{Jobs: *jobs, Enabled: off, Stdin: stdin, OnLine: st.line})
	if err != nil {
		return err
	}
	res := eng.Run(found)
	out := st.report(res, *since)
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return out.text(stdout)
}

// place is where something first occurs.
type place struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func (p place) before(q place) bool {
	if p.Path != q.Path {
		return p.Path < q.Path
	}
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Column < q.Column
}

func (p place) String() string { return fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Column) }

type tally struct {
	count int
	first place
}

func (t *tally) add(p place) {
	if t.count == 0 || p.before(t.first) {
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

// driftStats gathers what lines of every version hold. Lines arrive from
// several goroutines; counts add up and the first place is the least, so
// the result does not depend on their order.
type driftStats struct {
	mu       sync.Mutex
	versions map[string]*versionStats
	files    map[*rules.File]*fileDrift
}

func (s *driftStats) line(l *rules.Line) {
	if !l.IsObject() || !l.File.Kind.IsTranscript() {
		return
	}
	at := func(ptr string, key bool) place {
		off, _ := jsonpos.Find(l.Raw, ptr, key)
		return place{Path: l.File.Path, Line: l.Num, Column: l.Column(off)}
	}
	c := &contribution{typ: l.Type, fields: fieldPaths(l)}
	for _, t := range rules.UnknownTypes(l) {
		c.unknown = append(c.unknown, unknownAt{typeKey{t.Kind, t.Name, shape(l.Value(), t.Pointer)}, at(t.Pointer, false)})
	}
	for _, p := range l.SchemaProblems() {
		if p.UnknownField {
			c.unknownFields = append(c.unknownFields, unknownFieldAt{shape(l.Value(), p.Pointer), at(p.Pointer, true)})
		}
	}
	version, _ := l.Root.Get("version").Str()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Metadata entries carry no version: they count for the version of the
	// file around them (the line before, else the first versioned line
	// after, else the file's last).
	fd := s.files[l.File]
	if fd == nil {
		fd = &fileDrift{}
		s.files[l.File] = fd
	}
	if version == "" {
		if fd.last == "" {
			fd.pending = append(fd.pending, c)
			return
		}
		version = fd.last
	} else {
		fd.last = version
		for _, p := range fd.pending {
			s.add(version, p)
		}
		fd.pending = nil
	}
	s.add(version, c)
}

// contribution is what one line adds to its version's statistics.
type contribution struct {
	typ           string
	fields        []string // field paths ("user.message.usage.speed") the line writes
	unknown       []unknownAt
	unknownFields []unknownFieldAt
}

type unknownAt struct {
	key typeKey
	at  place
}

type unknownFieldAt struct {
	ptr string
	at  place
}

// fileDrift holds, for one file, the version of the last versioned line
// and the metadata lines read before any.
type fileDrift struct {
	last    string
	pending []*contribution
}

func (s *driftStats) add(version string, c *contribution) {
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
func fieldPaths(l *rules.Line) []string {
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

// shape is ptr with every array index replaced by "*": the place of a field
// in the format rather than in one entry.
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

// The JSON shape of `ccvet stats --format json` (documented in the README).
type statsReport struct {
	Tool     jsonToolInfo      `json:"tool"`
	Since    string            `json:"since,omitempty"`
	Versions []statsVersion    `json:"versions"`
	Summary  statsSummaryBlock `json:"summary"`
	// FirstWritten groups, by the version that first wrote it in the data
	// read, every unknown field, and with --since every entry type and
	// field first written by that version or a later one.
	FirstWritten []statsFirst `json:"firstWritten"`
}

type statsFirst struct {
	Version       string   `json:"version"`
	UnknownFields []string `json:"unknownFields"`
	New           []string `json:"new,omitempty"`
}

type jsonToolInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type statsVersion struct {
	Version       string           `json:"version"` // "" for entries without a version
	Entries       int              `json:"entries"`
	Types         map[string]int   `json:"types"`
	UnknownTypes  []statsUnknown   `json:"unknownTypes"`
	UnknownFields []statsUnknownFd `json:"unknownFields"`
}

type statsUnknown struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Pointer string `json:"pointer"`
	Count   int    `json:"count"`
	First   place  `json:"first"`
}

type statsUnknownFd struct {
	Pointer string `json:"pointer"`
	Count   int    `json:"count"`
	First   place  `json:"first"`
}

type statsSummaryBlock struct {
	Files   int `json:"files"`
	Entries int `json:"entries"`
	Skipped int `json:"skipped"`
}

func (s *driftStats) report(res *lint.Result, since string) *statsReport {
	out := &statsReport{Tool: jsonToolInfo{Name: "ccvet", Version: Version()}, Since: since, Versions: []statsVersion{},
		Summary: statsSummaryBlock{Files: res.Files, Entries: res.Entries, Skipped: res.Skipped}, FirstWritten: []statsFirst{}}
	// Files whose lines all lack a version keep them pending: they count
	// for no version.
	files := make([]*rules.File, 0, len(s.files))
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
	sort.Slice(names, func(i, j int) bool { return versionLess(names[i], names[j]) })
	out.FirstWritten = s.firstWritten(names, since)
	for _, name := range names {
		if since != "" && (name == "" || versionLess(name, since)) {
			continue
		}
		v := s.versions[name]
		sv := statsVersion{Version: name, Entries: v.entries, Types: v.types,
			UnknownTypes: []statsUnknown{}, UnknownFields: []statsUnknownFd{}}
		for k, t := range v.unknown {
			sv.UnknownTypes = append(sv.UnknownTypes, statsUnknown{k.kind, k.name, k.shape, t.count, t.first})
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
			sv.UnknownFields = append(sv.UnknownFields, statsUnknownFd{ptr, t.count, t.first})
		}
		sort.Slice(sv.UnknownFields, func(i, j int) bool { return sv.UnknownFields[i].Pointer < sv.UnknownFields[j].Pointer })
		out.Versions = append(out.Versions, sv)
	}
	return out
}

// firstWritten groups unknown fields, and with since the entry types and
// fields first written at or after it, by the first version (in names'
// order) that wrote them.
func (s *driftStats) firstWritten(names []string, since string) []statsFirst {
	seenField, seenNew := map[string]bool{}, map[string]bool{}
	var out []statsFirst
	for _, name := range names {
		v := s.versions[name]
		g := statsFirst{Version: name, UnknownFields: []string{}}
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
			if since != "" && name != "" && !versionLess(name, since) {
				g.New = append(g.New, f)
			}
		}
		sort.Strings(g.UnknownFields)
		sort.Strings(g.New)
		if since != "" && (name == "" || versionLess(name, since)) {
			continue // only what the versions shown first wrote
		}
		if len(g.UnknownFields) > 0 || len(g.New) > 0 {
			out = append(out, g)
		}
	}
	if out == nil {
		out = []statsFirst{}
	}
	return out
}

func (r *statsReport) text(w io.Writer) error {
	var b strings.Builder
	for _, v := range r.Versions {
		name := "(no version)"
		if v.Version != "" {
			name = "Claude Code " + v.Version
		}
		fmt.Fprintf(&b, "%s: %s\n", name, countOf(v.Entries, "entry", "entries"))
		var types []string
		for t := range v.Types {
			types = append(types, t)
		}
		sort.Strings(types)
		for i, t := range types {
			types[i] = fmt.Sprintf("%s %d", t, v.Types[t])
		}
		if len(types) > 0 {
			fmt.Fprintf(&b, "  types: %s\n", strings.Join(types, ", "))
		}
		for _, u := range v.UnknownTypes {
			fmt.Fprintf(&b, "  unknown %s %q at %s: %d, first at %s\n", u.Kind, u.Name, u.Pointer, u.Count, u.First)
		}
		for _, f := range v.UnknownFields {
			fmt.Fprintf(&b, "  unknown field %s: %d, first at %s\n", f.Pointer, f.Count, f.First)
		}
	}
	for _, g := range r.FirstWritten {
		name := "(no version)"
		if g.Version != "" {
			name = "Claude Code " + g.Version
		}
		if len(g.UnknownFields) > 0 {
			fmt.Fprintf(&b, "unknown fields first written by %s: %s\n", name, strings.Join(g.UnknownFields, ", "))
		}
		if len(g.New) > 0 {
			fmt.Fprintf(&b, "first written by %s: %s\n", name, strings.Join(g.New, ", "))
		}
	}
	fmt.Fprintf(&b, "%s checked, %s (%s skipped)\n", countOf(r.Summary.Files, "file", "files"),
		countOf(r.Summary.Entries, "entry", "entries"), countOf(r.Summary.Skipped, "other file", "other files"))
	_, err := io.WriteString(w, sanitizeLines(b.String()))
	return err
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// sanitizeLines escapes control characters in every line (names come from
// transcripts) but keeps the newlines.
func sanitizeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = report.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

// versionLess orders Claude Code versions: semantic versions by precedence
// (2.1.9 before 2.1.17, a pre-release before its release), then other
// strings in byte order, then "" (no version) last.
func versionLess(a, b string) bool {
	if (a == "") != (b == "") {
		return b == ""
	}
	pa, oka := parseSemver(a)
	pb, okb := parseSemver(b)
	switch {
	case oka && okb:
		for i := 0; i < 3; i++ {
			if pa.num[i] != pb.num[i] {
				return pa.num[i] < pb.num[i]
			}
		}
		if (pa.pre == "") != (pb.pre == "") {
			return pa.pre != ""
		}
		if pa.pre != pb.pre {
			return preLess(pa.pre, pb.pre)
		}
		return a < b
	case oka != okb:
		return oka
	}
	return a < b
}

type semver struct {
	num [3]uint64
	pre string
}

func parseSemver(s string) (semver, bool) {
	var v semver
	s = strings.TrimPrefix(s, "v")
	s, _, _ = strings.Cut(s, "+")
	s, v.pre, _ = strings.Cut(s, "-")
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return v, false
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return v, false
		}
		v.num[i] = n
	}
	return v, true
}

// preLess compares pre-release strings as semver does: dot-separated
// identifiers, numeric ones numerically and before alphanumeric ones.
func preLess(a, b string) bool {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if as[i] == bs[i] {
			continue
		}
		na, ea := strconv.ParseUint(as[i], 10, 64)
		nb, eb := strconv.ParseUint(bs[i], 10, 64)
		switch {
		case ea == nil && eb == nil:
			return na < nb
		case ea == nil:
			return true
		case eb == nil:
			return false
		}
		return as[i] < bs[i]
	}
	return len(as) < len(bs)
}
