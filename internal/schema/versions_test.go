package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/ccversion"
)

var updateVersions = flag.Bool("update-versions", false,
	"widen schemas/versions.json to what the real corpus, testdata/oracle and $CCVET_ORACLE_OUT hold")

// seenFields tallies, per entry type and field path, the versions seen.
type seenFields map[string]map[string][2]string

func (s seenFields) note(typ, field, v string) {
	if s[typ] == nil {
		s[typ] = map[string][2]string{}
	}
	r, ok := s[typ][field]
	if !ok {
		s[typ][field] = [2]string{v, v}
		return
	}
	if ccversion.Less(v, r[0]) {
		r[0] = v
	}
	if ccversion.Less(r[1], v) {
		r[1] = v
	}
	s[typ][field] = r
}

// scanTranscript notes the fields of every line of one transcript. A line
// without a version counts for the version of the line before it, else of
// the file's first versioned line.
func scanTranscript(t *testing.T, path string, s seenFields) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	first := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) != nil || m == nil {
			continue
		}
		lines = append(lines, m)
		if v, ok := m["version"].(string); ok && first == "" && validVersion(v) {
			first = v
		}
	}
	cur := first
	for _, m := range lines {
		if v, ok := m["version"].(string); ok && validVersion(v) {
			cur = v
		}
		typ, _ := m["type"].(string)
		if cur == "" || typ == "" {
			continue
		}
		s.note(typ, "", cur)
		for k := range m {
			s.note(typ, k, cur)
		}
		if msg, ok := m["message"].(map[string]any); ok && (typ == "user" || typ == "assistant") {
			for k, v := range msg {
				s.note(typ, "message."+k, cur)
				if u, ok := v.(map[string]any); ok && k == "usage" {
					for uk := range u {
						s.note(typ, "message.usage."+uk, cur)
					}
				}
			}
		}
		if cm, ok := m["compactMetadata"].(map[string]any); ok && typ == "system" {
			for k := range cm {
				s.note(typ, "compactMetadata."+k, cur)
			}
		}
	}
}

func validVersion(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) != 3 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// TestVersionsTable checks that schemas/versions.json covers every entry
// type and field, at every version, that the real corpus, the scrubbed
// 2.1.330 sessions in testdata/oracle and the oracle's output named by
// $CCVET_ORACLE_OUT (when set) hold; -update-versions widens it.
func TestVersionsTable(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	s := seenFields{}
	walk := func(root string, keep func(string) bool) {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") || d.Name() == "history.jsonl" || !d.Type().IsRegular() {
				return nil
			}
			if keep == nil || keep(p) {
				scanTranscript(t, p, s)
			}
			return nil
		})
	}
	walk(filepath.Join(repo, "testdata", "oracle"), nil)
	if dir := os.Getenv("CCVET_ORACLE_OUT"); dir != "" {
		walk(dir, nil)
	}
	if dir := filepath.Join(repo, "..", "shared", "corpus", "real"); exists(dir) {
		kinds := manifestKinds(t, dir)
		walk(dir, func(p string) bool {
			rel, _ := filepath.Rel(dir, p)
			return strings.HasPrefix(kinds[filepath.ToSlash(rel)], "real")
		})
	}
	table := versions()
	if raw, err := os.ReadFile(filepath.Join(repo, "schemas", versionsFile)); err != nil || !bytes.Equal(raw, table.render()) {
		t.Errorf("schemas/versions.json is not in the layout render writes (or unreadable: %v)", err)
	}
	var missing []string
	for typ, fields := range s {
		for field, r := range fields {
			var have [2]string
			e, ok := table.Types[typ]
			switch {
			case !ok:
			case field == "":
				have, ok = e.Seen, true
			default:
				have, ok = e.Fields[field]
			}
			if ok && !ccversion.Less(r[0], have[0]) && !ccversion.Less(have[1], r[1]) {
				continue
			}
			missing = append(missing, fmt.Sprintf("%s %s: seen %s–%s, table %v", typ, field, r[0], r[1], have))
			merged := r
			if ok {
				if ccversion.Less(have[0], merged[0]) {
					merged[0] = have[0]
				}
				if ccversion.Less(merged[1], have[1]) {
					merged[1] = have[1]
				}
			}
			if !ok && field != "" {
				if _, tok := table.Types[typ]; !tok {
					table.Types[typ] = versionEntry{Fields: map[string][2]string{}}
				}
			}
			e = table.Types[typ]
			if field == "" {
				e.Seen = merged
			} else {
				if e.Fields == nil {
					e.Fields = map[string][2]string{}
				}
				e.Fields[field] = merged
			}
			table.Types[typ] = e
		}
	}
	sort.Strings(missing)
	if len(missing) == 0 {
		return
	}
	if !*updateVersions {
		t.Errorf("schemas/versions.json does not cover what was seen (go test ./internal/schema -run TestVersionsTable -update-versions):\n%s",
			strings.Join(missing, "\n"))
		return
	}
	if err := os.WriteFile(filepath.Join(repo, "schemas", versionsFile), table.render(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("widened %d ranges", len(missing))
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
