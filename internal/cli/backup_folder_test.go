package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestBackupFolderOncePerStore: the file-history checks run as each
// project closes, yet a session whose file-history folder is missing is
// still noted once per store, on its first transcript in path order, even
// when its transcripts lie in two project folders and the second closes
// first (the first is padded so that it is read last with -j 2).
func TestBackupFolderOncePerStore(t *testing.T) {
	src := "../../testdata/rules/missing-backup-folder/bad/projects/-Users-pretor-Documents-PAI---TPOS/" +
		"5fb80456-5181-41df-b081-ef3cec45fc29.jsonl"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	first, second := filepath.Join(root, "projects", "-a"), filepath.Join(root, "projects", "-b")
	name := filepath.Base(src)
	pad := strings.Repeat(strings.SplitAfter(string(data), "\n")[0], 3000)
	for dir, body := range map[string]string{first: pad + string(data), second: string(data)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, j := range []string{"1", "2"} {
		out, _, _ := runJSON(t, "--exit-zero", "-j", j, root)
		var notes []string
		for _, f := range out.Findings {
			if f.Rule == "missing-backup-folder" {
				notes = append(notes, f.Path+":"+strconv.Itoa(f.Line))
			}
		}
		if len(notes) != 1 {
			t.Fatalf("-j %s: notes %v, want one", j, notes)
		}
		if !strings.Contains(notes[0], "/-a/") || !strings.HasSuffix(notes[0], ":3002") {
			t.Errorf("-j %s: noted on %s, want the first transcript, line 3002", j, notes[0])
		}
	}
}
