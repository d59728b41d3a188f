//go:build unix

package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ccvet/ccvet/internal/oracle"
	"github.com/ccvet/ccvet/internal/pathenc"
)

var sessionFileRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$`)

// TestResumeAgreesOnCorpus resumes every real main transcript of the shared
// corpus (corpusDir, when present; 1 KiB to 4 MiB) with the real reader
// and compares the messages it sent with what `ccvet resume
// --reader-version V` predicts (roles, tool ids, texts as "text", see
// signatureFor). Versions: CCVET_ORACLE_VERSIONS, else the newest.
func TestResumeAgreesOnCorpus(t *testing.T) {
	oracle.Require(t)
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("no corpus at " + corpusDir)
	}
	ctx := context.Background()
	versions := oracle.VersionsOr("2.1.332")
	var files []string
	_ = filepath.WalkDir(corpusDir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !sessionFileRE.MatchString(d.Name()) || !strings.Contains(filepath.ToSlash(p), "/projects/") {
			return nil
		}
		if st, err := d.Info(); err == nil && st.Size() >= 1<<10 && st.Size() <= 4<<20 {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	srv := oracle.TestServer(t)
	for v, bin := range oracle.InstallEach(ctx, t, versions) {
		compared, equal := 0, 0
		for k, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			env, err := oracle.NewEnv(v, bin, filepath.Join(t.TempDir(), strings.Repeat("c", k%3+1)), srv)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(env.Root, "projects", pathenc.Encode(env.Work))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, filepath.Base(f))
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			pred := predictResume(t, v, path, resumeSignature)
			id := strings.TrimSuffix(filepath.Base(f), ".jsonl")
			run, reqs, err := env.Resume(ctx, id, oracle.ResumePrompt, 90*time.Second)
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			real, _ := sentSignature(t, oracle.Resumed{Run: run, Requests: reqs}, func(msgs []oracle.Message) string { return signatureFor(msgs, oracle.ResumePrompt) })
			compared++
			if real == pred {
				equal++
				continue
			}
			rel, _ := filepath.Rel(corpusDir, f)
			r, c := divergence(real, pred)
			t.Errorf("%s %s: ccvet resume and the real reader disagree from message %d\n real:  %s\n ccvet: %s", v, rel, len(strings.Fields(real))-len(strings.Fields(r)), clip(r), clip(c))
		}
		t.Logf("corpus, reader %s: %d transcripts compared, %d equal", v, compared, equal)
	}
}

// divergence returns both signatures from their first differing message on.
func divergence(a, b string) (string, string) {
	x, y := strings.Fields(a), strings.Fields(b)
	k := 0
	for k < len(x) && k < len(y) && x[k] == y[k] {
		k++
	}
	return strings.Join(x[k:], " "), strings.Join(y[k:], " ")
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "…"
	}
	return s
}
