package cli

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneMainPackage: pre-commit's golang hooks build with `go install
// ./...`, which installs every main package of the repository; ccvet must
// stay the only one.
func TestOneMainPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	mains := map[string]bool{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == ".ci" || d.Name() == ".git" || d.Name() == "node_modules") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "package ") {
				if l == "package main" {
					rel, _ := filepath.Rel(root, filepath.Dir(p))
					mains[filepath.ToSlash(rel)] = true
				}
				break
			}
		}
		return nil
	})
	if len(mains) != 1 || !mains["cmd/ccvet"] {
		t.Errorf("main packages %v; want only cmd/ccvet (pre-commit runs go install ./...)", mains)
	}
}

// TestPreCommitFilesPattern: the ccvet hook's `files` pattern takes what
// ccvet checks file by file and nothing else.
func TestPreCommitFilesPattern(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*files:\s*(.+)$`).FindAllStringSubmatch(string(data), -1)
	if len(m) != 2 || !strings.Contains(string(data), "id: ccvet\n") || !strings.Contains(string(data), "id: ccvet-store\n") {
		t.Fatalf("want the ccvet and ccvet-store hooks, each with a files pattern:\n%s", data)
	}
	re := regexp.MustCompile(strings.TrimSpace(m[0][1]))
	for p, want := range map[string]bool{
		"claude/projects/-home-me/0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77.jsonl": true,
		"claude/projects/-home-me/0f6c1d52/subagents/agent-a1b2.jsonl":        true,
		"history.jsonl":                        true,
		"claude/todos/abc-agent-abc.json":      true,
		"todos/abc-agent-abc.json":             true,
		"claude/settings.json":                 false,
		"claude/file-history/abc/0123@v1":      false,
		"notes/todos.json":                     false,
		"export.jsonl.bak":                     false,
		"claude/projects/-home-me/x.meta.json": false,
	} {
		if re.MatchString(p) != want {
			t.Errorf("files pattern %q on %s: match %v, want %v", re, p, !want, want)
		}
	}
}

// TestPreCommitStoreEntry: the store hook names its folder in `entry`, so
// that `args` a user sets (flags, or other folders) never leave ccvet
// without a PATH (issue 13, item 1).
func TestPreCommitStoreEntry(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	store := string(data[strings.Index(string(data), "id: ccvet-store"):])
	if !strings.Contains(store, "entry: ccvet --default-path .\n") || strings.Contains(store, "\n  args:") {
		t.Errorf("ccvet-store must name its folder in entry and set no args:\n%s", store)
	}
}
