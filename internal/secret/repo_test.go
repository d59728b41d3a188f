package secret_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/secret"
	"github.com/ccvet/ccvet/internal/secret/secrettest"
)

// repoPlaceholders are the findings the repository may hold, each in its
// file, with why it is no key. Every other finding fails
// TestRepositoryHoldsNoSecret, and so does an entry that no longer
// matches. (The documented placeholders the scanner lets through itself,
// AKIAIOSFODNN7EXAMPLE, sk-ant-…XXXX, ${API_KEY} and the like, need no
// entry: they are never reported.)
var repoPlaceholders = []struct{ path, rule, fingerprint, why string }{
	{"internal/secret/gitleaks.json", "aws-amazon-bedrock-api-key-short-lived", "522e93476129",
		"the rule's own expression, a plain literal that matches itself: the prefix every short-lived Bedrock key starts with (base64 of bedrock.amazonaws.com), no key"},
}

// TestRepositoryHoldsNoSecret scans every file of the repository (git's
// tracked files and the untracked ones it does not ignore; without git,
// every file under the root but .git) with gitleaks' rules, as a whole
// text and, for each line that is JSON, string by string decoded: a key
// that looks live must never be committed (a public push would be
// blocked, and a real one would leak). The rules run without the
// allowlist entries that list keys by value (StrictRules): a sample key
// an allowlist lets through, such as gitleaks' own, is a key to GitHub's
// scanner. Test keys
// are generated at test time (internal/secret/secrettest; a fixture holds
// a {{secrettest.Kind(seed)}} slot). A finding names the file, line, rule
// and fingerprint, never the value.
func TestRepositoryHoldsNoSecret(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root %s has no go.mod: %v", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	files := repoFiles(t, root)
	if len(files) < 100 {
		t.Fatalf("only %d files under %s: not the repository?", len(files), root)
	}
	strict, err := secret.StrictRules()
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	used := make([]bool, len(repoPlaceholders))
	for _, rel := range files {
		data, ok := readInside(root, realRoot, rel)
		if !ok {
			continue
		}
	findings:
		for _, f := range scanFile(strict, data) {
			for i, p := range repoPlaceholders {
				if p.path == rel && p.rule == f.rule && p.fingerprint == f.fingerprint {
					used[i] = true
					continue findings
				}
			}
			bad = append(bad, fmt.Sprintf("%s:%d: %s %s", rel, f.line, f.rule, f.fingerprint))
		}
	}
	for i, p := range repoPlaceholders {
		if !used[i] {
			t.Errorf("repoPlaceholders: %s %s %s is no longer found: remove the entry", p.path, p.rule, p.fingerprint)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d secret(s) that look live are committed (generate test keys with internal/secret/secrettest at test time; a documented placeholder goes in repoPlaceholders):\n%s",
			len(bad), strings.Join(bad, "\n"))
	}
}

// repoFinding is one secret in a file, without its value.
type repoFinding struct {
	line              int
	rule, fingerprint string
}

// scanFile finds the secrets in a file's bytes: in the whole text (a
// private key spans lines) and, for each line that parses as JSON, in its
// strings decoded (a key behind escapes). One finding per rule and
// fingerprint per line.
func scanFile(sc *secret.Scanner, data []byte) []repoFinding {
	seen := map[repoFinding]bool{}
	var out []repoFinding
	add := func(f repoFinding) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sc.Scan(data, func(m secret.Match) {
		add(repoFinding{1 + bytes.Count(data[:m.Start], []byte("\n")), m.Rule.ID, m.Fingerprint()})
	})
	var buf []byte
	var tree jsontree.Tree
	for n, line := range bytes.Split(data, []byte("\n")) {
		l := bytes.TrimSpace(line)
		if len(l) == 0 || (l[0] != '{' && l[0] != '[' && l[0] != '"') || tree.Parse(l) != nil {
			continue
		}
		buf = sc.ScanTree(&tree, buf, nil, func(f secret.Found) {
			add(repoFinding{n + 1, f.Rule.ID, f.Fingerprint()})
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

// repoFiles lists the repository's files, relative to root, slash-separated:
// git's tracked files and the untracked ones not ignored, or (no git, or
// not a checkout) every regular file under root but .git.
func repoFiles(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if out, err := cmd.Output(); err == nil && len(out) > 0 {
		var files []string
		for _, f := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
		return files
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// readInside reads root/rel when it is a regular file inside root: a link
// (git tracks links as such), a file under a linked folder or anything
// else that would lead out is skipped, so the test never reads outside
// the repository. realRoot is root with its links resolved.
func readInside(root, realRoot, rel string) ([]byte, bool) {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, false
	}
	p := filepath.Join(root, filepath.FromSlash(rel))
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() {
		return nil, false // a link, or deleted in the work tree
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return nil, false
	}
	if r, err := filepath.Rel(realRoot, dir); err != nil || !filepath.IsLocal(r) && r != "." {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	return data, true
}

// TestScanFile: the guard finds a key on its line, a private key across
// lines and a key only decoding a JSON line shows (the keys are drawn at
// test time); its rules list no key by value (gcp-api-key's hashes are
// gone).
func TestScanFile(t *testing.T) {
	g := secrettest.New(2026)
	aws, pem, gh := g.AWS(), g.PEM(), g.GitHub()
	esc := `\u0067` + gh[1:] // the first letter escaped: only the decoded string shows the token
	text := "first line\nexport AWS_ACCESS_KEY_ID=" + aws + "\n\n" + pem + "\n" +
		`{"type":"user","message":{"content":"` + esc + `"}}` + "\n"
	strict, err := secret.StrictRules()
	if err != nil {
		t.Fatal(err)
	}
	if !secret.AllowHashes(secret.Default().Lookup("gcp-api-key")) {
		t.Error("gcp-api-key lists no key by hash")
	}
	for _, r := range strict.Rules() {
		if secret.AllowHashes(r) {
			t.Errorf("%s: the guard's rule lists keys by hash", r.ID)
		}
	}
	got := scanFile(strict, []byte(text))
	want := []repoFinding{
		{2, "aws-access-token", secret.Fingerprint(aws)},
		{4, "private-key", ""},
		{10, "github-pat", secret.Fingerprint(gh)},
	}
	if len(got) != len(want) {
		t.Fatalf("found %d, want %d: %v", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].line != w.line || got[i].rule != w.rule || (w.fingerprint != "" && got[i].fingerprint != w.fingerprint) {
			t.Errorf("finding %d: %v, want %v", i, got[i], w)
		}
	}
}
