package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBackupRunSaidAlike: `fix --write` and `redact --write` say their
// backup run in one format, "wrote N file(s); backup run ID in RUNDIR",
// RUNDIR the run's own folder under --backup-dir (redact adds what the
// backups hold), then an undo command of their own name that undoes it.
func TestBackupRunSaidAlike(t *testing.T) {
	said := regexp.MustCompile(`(?m)^wrote 1 file\(s\); backup run (\S+) in (\S+)( \(the backups hold the secrets\))?\nundo: ccvet (fix|redact) --undo (\S+) --backup-dir (\S+)\n`)
	for _, cmd := range []string{"fix", "redact"} {
		t.Run(cmd, func(t *testing.T) {
			var root string
			if cmd == "fix" {
				root, _ = fixHome(t)
			} else {
				t.Setenv("HOME", t.TempDir())
				t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
				root = makeSecretStore(t).root
				// One file with a secret: history.jsonl alone.
				keep := filepath.Join(root, "history.jsonl")
				_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() && p != keep {
						_ = os.Remove(p)
					}
					return nil
				})
			}
			backups := t.TempDir()
			out, errOut, code := run(t, "", cmd, "--write", "--force", "--backup-dir", backups, root)
			if code != ExitOK {
				t.Fatalf("%s --write: exit %d\n%s%s", cmd, code, out, errOut)
			}
			m := said.FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("%s --write does not say its backup run as fix does:\n%s", cmd, out)
			}
			id, dir, note, undoCmd, undoID, undoDir := m[1], m[2], m[3], m[4], m[5], m[6]
			if dir != filepath.Join(backups, id) || undoCmd != cmd || undoID != id || undoDir != backups || (note != "") != (cmd == "redact") {
				t.Errorf("%s --write: run %s in %s, undo %s %s %s (backups in %s)", cmd, id, dir, undoCmd, undoID, undoDir, backups)
			}
			if st, err := os.Stat(filepath.Join(dir, "manifest.json")); err != nil || st.IsDir() {
				t.Errorf("%s: no manifest in the folder it names: %v", cmd, err)
			}
			undo := strings.Fields(strings.TrimPrefix(regexp.MustCompile(`undo: .*`).FindString(out), "undo: ccvet "))
			if out, errOut, code := run(t, "", undo...); code != ExitOK {
				t.Errorf("%v: exit %d\n%s%s", undo, code, out, errOut)
			}
		})
	}
}
