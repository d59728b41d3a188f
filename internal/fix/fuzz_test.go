package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/lint"
)

// FuzzFix runs the whole plan (lint, plan, passes, verification) over
// arbitrary transcript bytes: it never panics, and a file it would write
// has new bytes whose inverse edits give the original back.
func FuzzFix(f *testing.F) {
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"a\",\"parentUuid\":null,\"timestamp\":\"2026-01-01T00:00:00Z\"}\n" +
		"\x00\x00{\"type\":\"user\",\"uuid\":\"b\",\"parentUuid\":\"x\",\"timestamp\":\"2026-01-01T00:00:01Z\"}\n\n{\"ty"))
	f.Add([]byte("{\"type\":\"user\",\"uuid\":\"a\"}{\"type\":\"user\",\"uuid\":\"b\",\"parentUuid\":\"a\"}\n{\"type\":\"user\",\"uuid\":\"a\"}\n"))
	dir := f.TempDir()
	eng, err := lint.New(lint.Options{Jobs: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "projects", "-x", "0b6ba5a4-9c4a-4a8e-8c35-4a2a27fbc5e1.jsonl")
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		found, err := layout.Discover([]string{p}, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, unsafe := range []bool{false, true} {
			res, err := PlanWith(eng, found, Options{Unsafe: unsafe})
			if err != nil {
				t.Fatal(err)
			}
			for _, ff := range res.Files {
				if !ff.Changed() {
					continue
				}
				back, err := edit.Bytes(ff.New, edit.Invert(ff.Orig, ff.Edits))
				if err != nil || !bytes.Equal(back, ff.Orig) {
					t.Fatalf("inverse does not restore: %v", err)
				}
			}
		}
		if now, _ := os.ReadFile(p); !bytes.Equal(now, data) {
			t.Fatal("planning wrote to the file")
		}
	})
}
