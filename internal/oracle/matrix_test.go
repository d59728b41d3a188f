//go:build unix

package oracle

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

const (
	tableJSON = "../../docs/reader-behaviour.json"
	tableMD   = "../../docs/reader-behaviour.md"
)

// readerVersions: $CCVET_ORACLE_READER_VERSIONS, else 2.1.110, 2.1.330 and
// the newest published.
func readerVersions(ctx context.Context, t *testing.T) []string {
	if v := os.Getenv("CCVET_ORACLE_READER_VERSIONS"); v != "" {
		return strings.Split(v, ",")
	}
	out := []string{"2.1.110", "2.1.330"}
	newest, err := Newest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if newest != "2.1.330" {
		out = append(out, newest)
	}
	return out
}

// TestReaderBehaviour runs the corruption matrix with the real readers and
// checks docs/reader-behaviour.json against it (CCVET_ORACLE_UPDATE=1
// rewrites the doc and its JSON instead).
func TestReaderBehaviour(t *testing.T) {
	Require(t)
	ctx := context.Background()
	versions := readerVersions(ctx, t)
	dir := t.TempDir()
	if k := os.Getenv("CCVET_ORACLE_KEEP"); k != "" {
		dir = filepath.Join(k, "matrix")
	}
	m := NewMatrix(dir)
	table := &Table{Versions: versions}
	var mu sync.Mutex
	t.Run("run", func(t *testing.T) {
		for _, v := range versions {
			t.Run(v, func(t *testing.T) {
				t.Parallel()
				for _, c := range Corruptions() {
					if !Selected(c.ID) {
						continue
					}
					o, err := m.Run(ctx, v, c.ID)
					if err != nil {
						t.Errorf("%s %s: %v", v, c.ID, err)
						continue
					}
					t.Logf("%s %-32s %s", v, c.ID, o.Summary)
					mu.Lock()
					table.Outcomes = append(table.Outcomes, o)
					mu.Unlock()
				}
			})
		}
	})
	if os.Getenv("CCVET_ORACLE_CORRUPTIONS") != "" && os.Getenv("CCVET_ORACLE_UPDATE") != "" {
		// Some rows only: the others are kept from the table.
		var old Table
		if b, err := os.ReadFile(tableJSON); err == nil {
			if err := json.Unmarshal(b, &old); err != nil {
				t.Fatal(err)
			}
		}
		for _, o := range old.Outcomes {
			if !Selected(o.Corruption) || !slices.Contains(versions, o.Version) {
				table.Outcomes = append(table.Outcomes, o)
			}
		}
		for _, v := range old.Versions {
			if !slices.Contains(table.Versions, v) {
				table.Versions = append(table.Versions, v)
			}
		}
	}
	table.Sort()
	if os.Getenv("CCVET_ORACLE_UPDATE") != "" {
		if err := os.WriteFile(tableJSON, table.JSON(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(tableMD, []byte(table.Markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var want Table
	b, err := os.ReadFile(tableJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	for _, o := range table.Outcomes {
		w, ok := want.Cell(o.Corruption, o.Version)
		switch {
		case !ok:
			t.Errorf("%s %s: not in %s (a new version or damage): %s; regenerate with CCVET_ORACLE_UPDATE=1", o.Version, o.Corruption, tableJSON, o.Summary)
		case w.Summary != o.Summary || w.Verdict != o.Verdict:
			t.Errorf("%s %s: the reader now does %q, the table says %q", o.Version, o.Corruption, o.Summary, w.Summary)
		}
	}
}

// TestTableDocInSync: docs/reader-behaviour.md is the rendering of the JSON
// (runs without the oracle; CCVET_ORACLE_RENDER=1 re-renders it).
func TestTableDocInSync(t *testing.T) {
	b, err := os.ReadFile(tableJSON)
	if os.IsNotExist(err) {
		t.Skip("no docs/reader-behaviour.json yet")
	}
	if err != nil {
		t.Fatal(err)
	}
	var tb Table
	if err := json.Unmarshal(b, &tb); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CCVET_ORACLE_RENDER") != "" {
		if err := os.WriteFile(tableMD, []byte(tb.Markdown()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md, err := os.ReadFile(tableMD)
	if err != nil {
		t.Fatal(err)
	}
	if string(md) != tb.Markdown() {
		t.Errorf("%s is not the rendering of %s: run CCVET_ORACLE=1 CCVET_ORACLE_UPDATE=1 go test ./internal/oracle -run TestReaderBehaviour", tableMD, tableJSON)
	}
}
