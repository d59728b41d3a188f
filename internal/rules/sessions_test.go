package rules

import (
	"strings"
	"testing"
)

func TestSafeName(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{"4dbe012dfdd613c3@v2", true},
		{"5fb80456-5181-41df-b081-ef3cec45fc29", true},
		{"", false},
		{".", false},
		{"..", false},
		{"../x", false},
		{"a/b", false},
		{`a\b`, false},
		{"/etc/passwd", false},
		{`C:\x`, false},
		{"a\x00b", false},
		{"x..y", false}, // conservative: never a name Claude Code writes
	} {
		if got := safeName(tt.name); got != tt.want {
			t.Errorf("safeName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestBackupNameProblem(t *testing.T) {
	// Real pairs from Smartagent-so/Personal_AI_Infrastructure (.claude/file-history).
	cwd := []string{"/Users/pretor/Documents/PAI - TPOS"}
	ok := []struct{ key, name string }{
		{".claude/SESSION_STATUS.md", "4dbe012dfdd613c3@v2"},
		{"/Users/pretor/.claude/SESSION_STATUS.md", "99923a5b73e4705f@v1"},
		{"/Users/pretor/.claude/commands/jarvisOn.md", "37ff6ad7fe894ae5@v1"},
		{"./.claude/SESSION_STATUS.md", "4dbe012dfdd613c3@v2"}, // joined and cleaned like path.join
	}
	for _, tt := range ok {
		if msg, _ := backupNameProblem(tt.key, tt.name, 0, cwd, ptr(hashBudget)); msg != "" {
			t.Errorf("%s %s: %s", tt.key, tt.name, msg)
		}
	}
	bad := []struct {
		key, name string
		version   int
		want      string
	}{
		{".claude/SESSION_STATUS.md", "4dbe012dfdd613c4@v2", 2, "does not start with"},
		{".claude/SESSION_STATUS.md", "4dbe012dfdd613c3@v2", 3, "says version 2"},
		{".claude/SESSION_STATUS.md", "SESSION_STATUS.md.bak", 2, "not of the form"},
	}
	for _, tt := range bad {
		if msg, _ := backupNameProblem(tt.key, tt.name, tt.version, cwd, ptr(hashBudget)); !strings.Contains(msg, tt.want) {
			t.Errorf("%s %s: got %q, want %q", tt.key, tt.name, msg, tt.want)
		}
	}
	// A relative key and no cwd: nothing to compare with.
	if msg, _ := backupNameProblem("a.ts", "0000000000000000@v1", 1, nil, ptr(hashBudget)); msg != "" {
		t.Errorf("no cwd: %s", msg)
	}
	// Windows: the key is joined with a backslash.
	win := `C:\Users\x\app\src\a.ts`
	name := backupHash(win) + "@v1"
	if msg, _ := backupNameProblem("src/a.ts", name, 1, []string{`C:\Users\x\app`}, ptr(hashBudget)); msg != "" {
		t.Errorf("windows: %s", msg)
	}
	if msg, _ := backupNameProblem(win, name, 1, nil, ptr(hashBudget)); msg != "" {
		t.Errorf("windows absolute: %s", msg)
	}
}

func ptr[T any](v T) *T { return &v }

// TestBackupNameBudget: a key is checked against the directories while the
// transcript's budget of hashes lasts, then left unchecked, never reported.
func TestBackupNameBudget(t *testing.T) {
	cwds := []string{"/a", "/b", "/c"}
	name := backupHash("/c/x.ts") + "@v1"
	if _, v := backupNameProblem("x.ts", name, 1, cwds, ptr(3)); v != nameHashMatches {
		t.Errorf("verdict %d with budget 3, want a match", v)
	}
	if _, v := backupNameProblem("x.ts", name, 1, cwds, ptr(2)); v != nameUnchecked {
		t.Errorf("verdict %d with budget 2, want unchecked", v)
	}
	budget := 5
	if _, v := backupNameProblem("y.ts", name, 1, cwds, &budget); v != nameHashDiffers || budget != 2 {
		t.Errorf("verdict %d, budget left %d; want the hash to differ after 3 hashes", v, budget)
	}
}
