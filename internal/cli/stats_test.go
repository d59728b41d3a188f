package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
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
