//go:build unix

package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Inputs that made one check compare everything with everything: each is
// sized so that the old way takes tens of seconds and the new one well under
// one, and each test pins the findings, not the time (timings live in the
// benchmarks and in docs/performance.md).

// TestScalingBackupDirs: a transcript of thousands of session ids and
// launch directories whose snapshot names thousands of relative keys. Each
// key was resolved against every directory and each missing backup looked
// for in every session's folder; the folders are now read into one set, and
// the hashing stops after a budget (a key past it is left unchecked, never
// reported).
func TestScalingBackupDirs(t *testing.T) {
	isolate(t)
	const n = 3000
	root := t.TempDir()
	var lines []string
	prev := ""
	for i := range n {
		sid := hostileSession
		if i > 0 {
			sid = fmt.Sprintf("00000000-0000-4000-9000-%012d", i)
		}
		p := "null"
		if prev != "" {
			p = `"` + prev + `"`
		}
		lines = append(lines, `{"parentUuid":`+p+`,"isSidechain":false,"userType":"external","cwd":"/home/dev/app/d`+
			fmt.Sprint(i)+`","sessionId":"`+sid+`","version":"2.1.39","type":"user","message":{"role":"user","content":"hi"},`+
			`"uuid":"`+nthUUID(i+1)+`","timestamp":"2026-01-05T10:00:00.000Z"}`)
		prev = nthUUID(i + 1)
	}
	backups := map[string]any{}
	folder := filepath.Join(root, "file-history", hostileSession)
	for i := range n {
		key := fmt.Sprintf("src/f%d.ts", i)
		name := "0123456789abcdef@v1" // neither hashed right nor present
		if i%2 == 1 {
			sum := sha256.Sum256([]byte("/home/dev/app/d0/" + key))
			name = hex.EncodeToString(sum[:8]) + "@v1"
			writeFile(t, filepath.Join(folder, name), nil)
		}
		backups[key] = map[string]any{"backupFileName": name, "version": 1, "backupTime": "2026-01-05T10:00:00.000Z"}
	}
	snap, err := json.Marshal(map[string]any{"type": "file-history-snapshot", "messageId": prev, "isSnapshotUpdate": false,
		"snapshot": map[string]any{"messageId": prev, "trackedFileBackups": backups, "timestamp": "2026-01-05T10:00:00.000Z"}})
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, string(snap))
	writeFile(t, filepath.Join(root, "projects", "-home-dev-app-d0", hostileSession+".jsonl"), []byte(strings.Join(lines, "\n")+"\n"))
	for i := 1; i < 5; i++ { // other sessions' folders are looked in too
		if err := os.MkdirAll(filepath.Join(root, "file-history", fmt.Sprintf("00000000-0000-4000-9000-%012d", i)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out, _, _ := runJSON(t, root)
	got := rulesOf(out)
	// One missing-backup finding per name: the wrong names are all one.
	if got["missing-backup"] != 1 || got["backup-name-mismatch"] == 0 || got["backup-name-mismatch"] > n/2 {
		t.Errorf("findings by rule: %v; want 1 missing-backup and at most %d backup-name-mismatch", got, n/2)
	}
	for _, f := range out.Findings {
		if f.Rule == "backup-name-mismatch" && !strings.Contains(f.Message, "0123456789abcdef") {
			t.Errorf("a backup named as Claude Code names it was reported: %s", f.Message)
		}
	}
}
