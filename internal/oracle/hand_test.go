//go:build unix

package oracle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandDump resumes every hand-written case with the real readers and
// logs what each sent (CCVET_ORACLE_HAND selects cases by id).
func TestHandDump(t *testing.T) {
	Require(t)
	ctx := context.Background()
	if os.Getenv("CCVET_ORACLE_READER_VERSIONS") == "" {
		t.Skip("a dump of the hand-written cases for the versions CCVET_ORACLE_READER_VERSIONS names (none named)")
	}
	versions := strings.Split(os.Getenv("CCVET_ORACLE_READER_VERSIONS"), ",")
	only := os.Getenv("CCVET_ORACLE_HAND")
	srv, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for _, v := range versions {
		bin, err := Install(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range HandCases() {
			if only != "" && !strings.Contains(","+only+",", ","+c.ID+",") {
				continue
			}
			e, err := NewEnv(v, bin, filepath.Join(t.TempDir(), c.ID), srv)
			if err != nil {
				t.Fatal(err)
			}
			r, err := e.ResumeHand(ctx, c, ResumePrompt)
			if err != nil {
				t.Errorf("%s %s: %v", v, c.ID, err)
				continue
			}
			q, ok := r.Main()
			if !ok {
				t.Logf("%s %-26s NO REQUEST exit %d %q %q", v, c.ID, r.Run.Exit, r.Run.Result, r.Run.Stderr)
				continue
			}
			msgs, _ := q.Messages()
			t.Logf("%s %-26s %s", v, c.ID, HandSignature(msgs))
		}
	}
}
