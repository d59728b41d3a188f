package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/rules"
)

// cmdStats prints, per Claude Code version, the entries by type and every
// unknown entry type and unknown field with its first place: format drift.
func cmdStats(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := subFlags("stats", stdout)
	format := fs.StringP("format", "f", "text", "output format: text or json")
	jobs := fs.IntP("jobs", "j", 0, "read `N` files at once (default: number of CPUs)")
	stdinName := fs.String("stdin-filename", "", "report the transcript read from standard input (PATH -) as `NAME`")
	// Flags carried over from lint: stats reads no configuration and prints
	// no summary or progress, so they change nothing, but they are no error.
	quiet := fs.BoolP("quiet", "q", false, "no notes on standard error (stats prints no summary or progress)")
	fs.Bool("no-config", false, "accepted as in lint; stats reads no configuration")
	if err := parseSub(fs, args); err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usagef("stats --format: want text or json, got %q", *format)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		root, err := defaultRoot(stdin)
		if err != nil {
			return err
		}
		paths = []string{root}
	}
	found, err := layout.DiscoverFromHere(paths, *stdinName)
	if err != nil {
		return usageError{err}
	}
	for _, p := range layout.DropForeign(found) {
		if !*quiet {
			fmt.Fprintf(stderr, "ccvet: %s: skipped: no line is a Claude Code entry\n", report.Sanitize(p))
		}
	}
	// No rule runs: the engine only reads, decodes and hands each line over.
	off := map[string]bool{}
	for _, r := range rules.All() {
		off[r.ID] = false
	}
	st := &driftStats{versions: map[string]*versionStats{}}
	eng, err := lint.New(lint.Options{Jobs: *jobs, Enabled: off, Stdin: stdin, OnLine: st.line})
	if err != nil {
		return err
	}
	res := eng.Run(found)
	out := st.report(res)
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
}

// driftStats gathers what lines of every version hold. Lines arrive from
// several goroutines; counts add up and the first place is the least, so
// the result does not depend on their order.
type driftStats struct {
	mu       sync.Mutex
	versions map[string]*versionStats
}

func (s *driftStats) line(l *rules.Line) {
	if !l.IsObject() || !l.File.Kind.IsTranscript() {
		return
	}
	types := rules.UnknownTypes(l)
	var fields []string
	for _, p := range l.SchemaProblems() {
		if p.UnknownField {
			fields = append(fields, p.Pointer)
		}
	}
	at := func(ptr string, key bool) place {
		off, _ := jsonpos.Find(l.Raw, ptr, key)
		return place{Path: l.File.Path, Line: l.Num, Column: l.Column(off)}
	}
	version, _ := l.Root.Get("version").Str()
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.versions[version]
	if v == nil {
		v = &versionStats{types: map[string]int{}, unknown: map[typeKey]*tally{}, fields: map[string]*tally{}}
		s.versions[version] = v
	}
	v.entries++
	if l.Type != "" {
		v.types[l.Type]++
	}
	for _, t := range types {
		k := typeKey{t.Kind, t.Name, shape(l.Value(), t.Pointer)}
		if v.unknown[k] == nil {
			v.unknown[k] = &tally{}
		}
		v.unknown[k].add(at(t.Pointer, false))
	}
	for _, ptr := range fields {
		k := shape(l.Value(), ptr)
		if v.fields[k] == nil {
			v.fields[k] = &tally{}
		}
		v.fields[k].add(at(ptr, true))
	}
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
	Versions []statsVersion    `json:"versions"`
	Summary  statsSummaryBlock `json:"summary"`
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

func (s *driftStats) report(res *lint.Result) *statsReport {
	out := &statsReport{Tool: jsonToolInfo{Name: "ccvet", Version: Version()}, Versions: []statsVersion{},
		Summary: statsSummaryBlock{Files: res.Files, Entries: res.Entries, Skipped: res.Skipped}}
	names := make([]string, 0, len(s.versions))
	for v := range s.versions {
		names = append(names, v)
	}
	sort.Slice(names, func(i, j int) bool { return versionLess(names[i], names[j]) })
	for _, name := range names {
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
