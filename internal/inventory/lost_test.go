package inventory

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A prompt without a timestamp dates nothing: the session is lost, but
// not for cleanup (its time is unknown, not 1970).
func TestLostWithoutTime(t *testing.T) {
	root := t.TempDir()
	id := "00000001-0000-4000-8000-000000000001"
	line := `{"display":"no time","pastedContents":{},"project":"/p","sessionId":"` + id + `"}` + "\n"
	if err := os.WriteFile(filepath.Join(root, "history.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Build(root, Options{Now: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Lost) != 1 || r.Lost[0].Cause != CauseUnknown || r.Lost[0].LastSeen != "" || r.Lost[0].Prompts != 1 || r.Lost[0].Project != "-p" {
		t.Errorf("lost: %+v", r.Lost)
	}
	l, err := Find(root, id, Options{})
	if err != nil || l == nil || l.Prompts != 1 {
		t.Errorf("Find: %+v %v", l, err)
	}
}
