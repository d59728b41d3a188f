package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/config"
	"github.com/ccvet/ccvet/internal/drift"
)

// TestStats compares ccvet stats, text and JSON, over the unknown-field and
// unknown-type fixtures with testdata/stats.golden.{txt,json}.
func TestStats(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	paths := []string{filepath.Join(fixtures, "unknown-field", "bad"), filepath.Join(fixtures, "unknown-type", "bad")}
	for _, format := range []string{"txt", "json"} {
		args := []string{"stats"}
		if format == "json" {
			args = append(args, "--format", "json")
		}
		args = append(args, paths...)
		// One job and several give the same report.
		for _, jobs := range []string{"1", "4"} {
			stdout, stderr, code := run(t, "", append(args, "-j", jobs)...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			got := []byte(stdout)
			if format == "json" {
				got = normalize(got)
			}
			golden := filepath.Join("testdata", "stats.golden."+format)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./internal/cli -run TestStats -update)", err)
			}
			if string(want) != string(got) {
				t.Errorf("-j %s: output differs from %s:\n%s", jobs, golden, got)
			}
		}
	}
	if _, _, code := run(t, "", "stats", "--format", "sarif", paths[0]); code != ExitUsage {
		t.Errorf("stats --format sarif: exit %d", code)
	}
}

func TestInit(t *testing.T) {
	good := abs(t, filepath.Join(fixtures, "blank-line", "good"))
	dir := cfgIsolate(t)
	stdout, stderr, code := run(t, "", "init")
	if code != 0 || stdout != "wrote .ccvet.yaml\n" {
		t.Fatalf("init: exit %d, %q %q", code, stdout, stderr)
	}
	p := filepath.Join(dir, config.FileName)
	c, err := config.Load(p, config.FileName)
	if err != nil {
		t.Fatalf("the written file does not load: %v", err)
	}
	if c.Strict == nil || *c.Strict || c.FailOn == nil || len(c.Rules)+len(c.Exclude)+len(c.Ignores) != 0 {
		t.Errorf("not the defaults: %+v", c)
	}
	// It refuses to overwrite, unless --force.
	cfgWrite(t, p, "strict: true\n")
	if _, stderr, code := run(t, "", "init"); code != ExitUsage || !strings.Contains(stderr, "--force") {
		t.Errorf("init over a file: exit %d, %q", code, stderr)
	}
	if data, _ := os.ReadFile(p); string(data) != "strict: true\n" {
		t.Errorf("init without --force changed the file: %q", data)
	}
	if _, _, code := run(t, "", "init", "--force"); code != 0 {
		t.Errorf("init --force: exit %d", code)
	}
	if data, _ := os.ReadFile(p); string(data) != defaultConfig {
		t.Error("init --force did not write the default")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 { // .git and .ccvet.yaml: no temporary file left
		t.Errorf("folder holds %d entries", len(ents))
	}
	// A lint run reads it and is clean on a good fixture.
	if _, stderr, code := run(t, "", good); code != 0 {
		t.Errorf("lint with the default configuration: exit %d: %s", code, stderr)
	}
	if _, _, code := run(t, "", "init", "extra"); code != ExitUsage {
		t.Errorf("init PATH: exit %d", code)
	}
}

// TestStatsOneFile: the siblings ccvet reads as context for a file passed
// alone must not be counted in its statistics.
func TestStatsOneFile(t *testing.T) {
	path := filepath.Join("..", "..", "testdata", "store", "projects", "-home-jenkins-Personal-AI-Infrastructure",
		"e8c742ee-724b-47ba-9cca-c2db071e9da4.jsonl")
	out, _, code := run(t, "", "stats", path)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "Claude Code 1.0.51: 3 entries") || strings.Contains(out, "2.0.71") {
		t.Fatalf("stats counted other files of the folder:\n%s", out)
	}
}

// TestStatsAttribution: metadata entries (no version) count for the version
// of the file around them; --since shows later versions and what they
// first wrote.
func TestStatsAttribution(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	dir := filepath.Join(oracleTestdata, "plain")
	stdout, stderr, code := run(t, "", "stats", "--format", "json", dir, filepath.Join(fixtures, "unknown-field", "bad"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep drift.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	var v330 *drift.Version
	for i, v := range rep.Versions {
		if v.Version == "" {
			t.Errorf("entries counted for no version: %+v", v)
		}
		if v.Version == "2.1.330" {
			v330 = &rep.Versions[i]
		}
	}
	if v330 == nil || v330.Types["last-prompt"] == 0 || v330.Types["atis-latch"] == 0 {
		t.Fatalf("metadata of the 2.1.330 file not counted for 2.1.330: %+v", v330)
	}
	if len(rep.FirstWritten) == 0 || rep.FirstWritten[0].Version != "2.1.17" || len(rep.FirstWritten[0].UnknownFields) != 2 {
		t.Errorf("unknown fields by first version: %+v", rep.FirstWritten)
	}
	stdout, _, code = run(t, "", "stats", "--since", "2.1.200", dir, filepath.Join(fixtures, "unknown-field", "bad"))
	if code != 0 || strings.Contains(stdout, "Claude Code 2.1.17") ||
		!strings.Contains(stdout, "first written by Claude Code 2.1.330: ") || !strings.Contains(stdout, "api-request.tail") {
		t.Errorf("--since 2.1.200:\n%s", stdout)
	}
	if _, _, code := run(t, "", "stats", "--since", "soon", dir); code != ExitUsage {
		t.Errorf("--since soon: exit %d", code)
	}
}

// TestStatsFirstPlace: the first place of an unknown field is its first on
// the first line that has it, whatever order its pointers sort in (item 10
// sorts before item 2), and a later line does not move it.
func TestStatsFirstPlace(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	var blocks []string
	for k := range 11 {
		b := `{"type":"text","text":"t` + strconv.Itoa(k) + `"}`
		if k == 2 || k == 10 {
			b = `{"type":"text","text":"t","zzNew":1}`
		}
		blocks = append(blocks, b)
	}
	line := func(uuid, parent string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"parentUuid":` + p + `,"isSidechain":false,"userType":"external","cwd":"/src/app","sessionId":"0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77","version":"2.1.39","gitBranch":"main","type":"assistant","message":{"model":"claude-opus-4-5-20251101","id":"msg_01","type":"message","role":"assistant","content":[` +
			strings.Join(blocks, ",") + `],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"uuid":"` + uuid + `","timestamp":"2026-01-05T10:00:00.000Z"}`
	}
	first := line("00000000-0000-4000-8000-000000000001", "")
	p := filepath.Join(t.TempDir(), "0f6c1d52-9a43-4b7e-8d0e-3f1c2b5a6e77.jsonl")
	if err := os.WriteFile(p, []byte(first+"\n"+line("00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000001")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, "", "stats", "--format", "json", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Versions []struct {
			UnknownFields []struct {
				Pointer string
				Count   int
				First   struct{ Line, Column int }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Versions) != 1 || len(rep.Versions[0].UnknownFields) != 1 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	u := rep.Versions[0].UnknownFields[0]
	want := strings.Index(first, `"zzNew"`) + 1 // the first one: item 2's (ASCII: bytes are columns)
	if u.Pointer != "/message/content/*/zzNew" || u.Count != 4 || u.First.Line != 1 || u.First.Column != want {
		t.Fatalf("got %+v, want 4 at line 1 column %d", u, want)
	}
}
