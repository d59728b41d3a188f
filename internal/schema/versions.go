package schema

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/schemas"
)

// versionsFile is the embedded table of the Claude Code versions seen
// writing each entry type and field; it is not a schema.
const versionsFile = "versions.json"

// Range is the first and last Claude Code version seen writing something.
type Range struct {
	First, Last string
}

// String renders the range as "2.0.76–2.1.330", or one version.
func (r Range) String() string {
	if r.First == r.Last {
		return r.First
	}
	return r.First + "–" + r.Last
}

type versionTable struct {
	Comment string                  `json:"$comment"`
	Types   map[string]versionEntry `json:"types"`
}

type versionEntry struct {
	Seen   [2]string            `json:"seen"`
	Fields map[string][2]string `json:"fields"`
}

// render writes the table in its file's layout: one line per field.
func (t *versionTable) render() []byte {
	var b strings.Builder
	q := func(s string) string {
		data, _ := json.Marshal(s)
		return string(data)
	}
	pair := func(r [2]string) string { return "[" + q(r[0]) + ", " + q(r[1]) + "]" }
	b.WriteString("{\n \"$comment\": " + q(t.Comment) + ",\n \"types\": {\n")
	types := make([]string, 0, len(t.Types))
	for k := range t.Types {
		types = append(types, k)
	}
	sort.Strings(types)
	for i, typ := range types {
		e := t.Types[typ]
		b.WriteString("  " + q(typ) + ": {\"seen\": " + pair(e.Seen) + ", \"fields\": {\n")
		fields := make([]string, 0, len(e.Fields))
		for k := range e.Fields {
			fields = append(fields, k)
		}
		sort.Strings(fields)
		for j, f := range fields {
			b.WriteString("   " + q(f) + ": " + pair(e.Fields[f]))
			if j < len(fields)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("  }}")
		if i < len(types)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString(" }\n}\n")
	return []byte(b.String())
}

var (
	verOnce sync.Once
	verVal  versionTable
)

func versions() *versionTable {
	verOnce.Do(func() {
		data, err := schemas.FS.ReadFile(versionsFile)
		if err == nil {
			_ = json.Unmarshal(data, &verVal)
		}
	})
	return &verVal
}

// TypeVersions returns the versions seen writing entry type t.
func TypeVersions(t string) (Range, bool) {
	e, ok := versions().Types[t]
	if !ok {
		return Range{}, false
	}
	return Range{e.Seen[0], e.Seen[1]}, true
}

// FieldVersions returns the versions seen writing field (a dotted path such
// as "message.usage.speed") on entries of type t.
func FieldVersions(t, field string) (Range, bool) {
	e, ok := versions().Types[t]
	if !ok {
		return Range{}, false
	}
	r, ok := e.Fields[field]
	if !ok {
		return Range{}, false
	}
	return Range{r[0], r[1]}, true
}

// VersionFields lists the fields of entry type t in the table, sorted, with
// their ranges.
func VersionFields(t string) ([]string, map[string]Range) {
	e, ok := versions().Types[t]
	if !ok {
		return nil, nil
	}
	out := map[string]Range{}
	names := make([]string, 0, len(e.Fields))
	for k, r := range e.Fields {
		out[k] = Range{r[0], r[1]}
		names = append(names, k)
	}
	sortStrings(names)
	return names, out
}

// ValidVersion reports whether v is a version number x.y.z.
func ValidVersion(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if _, err := strconv.Atoi(p); err != nil || strings.HasPrefix(p, "-") || strings.HasPrefix(p, "+") {
			return false
		}
	}
	return true
}

// NewestVersion is the newest Claude Code version the versions table
// records (worked out once: every unknown-type and unknown-field message
// names it).
var NewestVersion = sync.OnceValue(func() string {
	newest := ""
	for _, e := range versions().Types {
		if newest == "" || ccversion.Less(newest, e.Seen[1]) {
			newest = e.Seen[1]
		}
	}
	return newest
})
