package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/layout"
)

// FuzzLine feeds arbitrary bytes, as a transcript (one line, or several when
// the input holds newlines), through the whole engine: framing, decode,
// schema, line, file, project and store rules. It must never panic, and
// every finding must be well formed. A short CI smoke run:
//
//	go test ./internal/lint -run '^$' -fuzz FuzzLine -fuzztime 20s
func FuzzLine(f *testing.F) {
	seeds := []string{
		`{}`, `null`, `[]`, `"x"`, `{"type":"user"}`, "\xef\xbb\xbf{}", "{\"a\":\"\\ud83c\"}", "\x00\x00\x00",
		`{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"00000000-0000-4000-8000-000000000001","timestamp":"2026-01-01T00:00:00.000Z","sessionId":"00000000-0000-4000-8000-000000000002"}`,
		`{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{"/a":{"backupFileName":"../x@v1","version":1,"backupTime":"2026-01-01T00:00:00Z"}},"timestamp":"2026-01-01T00:00:00Z"},"isSnapshotUpdate":false}`,
		`{"type":"summary","summary":"s","leafUuid":"x"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// A few real lines of each kind.
	if data, err := os.ReadFile(filepath.Join(corpusDir, "marot__spotter", "test", "fixtures", "transcripts", "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl")); err == nil {
		seen := map[string]bool{}
		for _, l := range bytes.Split(data, []byte("\n")) {
			v, _, err := jsontree.Decode(l)
			m, _ := v.(map[string]any)
			if err != nil || m == nil || len(l) > 8<<10 {
				continue
			}
			t, _ := m["type"].(string)
			if !seen[t] {
				seen[t] = true
				f.Add(l)
			}
		}
	}
	e, err := New(Options{Jobs: 1, Strict: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e.opts.Stdin = bytes.NewReader(data)
		found := &layout.Result{Files: []*layout.File{{OSPath: "-", Path: "fuzz.jsonl", Stdin: true, Kind: layout.Transcript, Project: "."}}}
		res := e.Run(found)
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, fd := range res.Findings {
			if fd.Rule == "" || fd.Message == "" || fd.Severity < finding.Note || fd.Severity > finding.Error {
				t.Fatalf("malformed finding %+v", fd)
			}
			if fd.Line < 0 || fd.Line > lines || fd.Column < 0 || (fd.Line == 0 && fd.Column != 0) {
				t.Fatalf("finding out of range (%d lines): %+v", lines, fd)
			}
		}
	})
}
