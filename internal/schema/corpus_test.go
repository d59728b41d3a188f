package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// corpusDir returns the shared corpus of real files, relative to this file.
func corpusDir(t testing.TB) string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Skip("cannot locate the test file")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus", "real")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("corpus not found: %v", err)
	}
	return dir
}

// manifestKinds maps a corpus path to its MANIFEST real_or_handmade column.
func manifestKinds(t testing.TB, dir string) map[string]string {
	data, err := os.ReadFile(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("MANIFEST.tsv: %v", err)
	}
	kinds := map[string]string{}
	lines := strings.Split(string(data), "\n")
	if len(lines) == 0 {
		return kinds
	}
	col := -1
	for i, h := range strings.Split(lines[0], "\t") {
		if h == "real_or_handmade" {
			col = i
		}
	}
	if col < 0 {
		t.Fatal("MANIFEST.tsv has no real_or_handmade column")
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "\t")
		if len(f) > col {
			kinds[f[0]] = f[col]
		}
	}
	return kinds
}

// handmadeFileExceptions lists the hand-made fixtures (MANIFEST:
// real_or_handmade=handmade) whose lines the schemas reject, with the reason.
// Real files have no exception: a problem on a real line fails the test.
var handmadeFileExceptions = map[string]string{
	// Deliberately broken lines (a typo "contenst", "timesstamp", message as
	// a string, a content block as a string) plus userType "human".
	"daaain__claude-code-log/test/test_data/edge_cases.jsonl":   "deliberate corruptions; userType \"human\"",
	"iansherr__claude-code-log/test/test_data/edge_cases.jsonl": "deliberate corruptions; userType \"human\"",
	// Claude Code writes userType "external" (or "internal" in Anthropic builds), never "human".
	"daaain__claude-code-log/test/test_data/representative_messages.jsonl":   "userType \"human\"",
	"iansherr__claude-code-log/test/test_data/representative_messages.jsonl": "userType \"human\"",
	"daaain__claude-code-log/test/test_data/session_b.jsonl":                 "userType \"human\"",
	"iansherr__claude-code-log/test/test_data/session_b.jsonl":               "userType \"human\"",
	"iansherr__claude-code-log/test/test_data/dag_fork.jsonl":                "userType \"human\"; assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/dag_resume.jsonl":              "userType \"human\"; assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/dag_simple.jsonl":              "userType \"human\"; assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/dag_within_fork.jsonl":         "userType \"human\"; assistant message without stop_sequence",
	// The API message of every real assistant line has stop_reason,
	// stop_sequence and usage; these fixtures trim them.
	"iansherr__claude-code-log/test/test_data/async_agents/eb000000-0000-4000-8000-000000000001.jsonl":                                                "assistant message without stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/async_agents/eb000000-0000-4000-8000-000000000001/subagents/agent-cccc333.jsonl":                        "assistant message without stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/cron_tools.jsonl":                                                                                       "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/monitor_tool.jsonl":                                                                                     "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/task_id_linking.jsonl":                                                                                  "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/task_id_linking_cross_session.jsonl":                                                                    "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/task_id_linking_poison.jsonl":                                                                           "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/task_id_linking_real_world_bash.jsonl":                                                                  "assistant message without stop_reason, stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/teammates/ef000000-0000-4000-8000-000000000001.jsonl":                                                   "assistant message without stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/teammates/ef000000-0000-4000-8000-000000000001/subagents/agent-aaaa111111111111.jsonl":                  "assistant message without stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/teammates/ef000000-0000-4000-8000-000000000001/subagents/agent-bbbb222222222222.jsonl":                  "assistant message without stop_sequence, usage",
	"iansherr__claude-code-log/test/test_data/workflow_basic/11110000-0000-4000-8000-000000000001.jsonl":                                              "assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/workflow_basic/11110000-0000-4000-8000-000000000001/subagents/workflows/wf_demo01/agent-ag000001.jsonl": "assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/workflow_basic/11110000-0000-4000-8000-000000000001/subagents/workflows/wf_demo01/agent-ag000002.jsonl": "assistant message without stop_sequence",
	"iansherr__claude-code-log/test/test_data/workflow_basic/11110000-0000-4000-8000-000000000001/subagents/workflows/wf_demo01/agent-ag000003.jsonl": "assistant message without stop_sequence",
	// Not Claude Code's format: no envelope (uuid, parentUuid, cwd, ...).
	"ryoppippi__ccusage/apps/ccusage/test/test-transcript.jsonl": "no envelope fields; message without role/content",
	"simonw__claude-code-transcripts/tests/sample_session.jsonl": "no envelope fields (isSidechain, parentUuid, userType, version); assistant message without id, model, usage",
}

func decodeLine(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if dec.More() {
		return nil, false
	}
	return v, true
}

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	kinds := manifestKinds(t, dir)
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	var nLines, nEntries, nHistory, nTodos, nUnknownType, unknownReal int
	unknownFields := map[string]int{}
	rejected := map[string]int{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		kind := kinds[rel]
		isReal := strings.HasPrefix(kind, "real")
		report := func(where string, probs []Problem) {
			for _, p := range probs {
				if p.UnknownField {
					unknownFields[p.Pointer]++
					if isReal {
						unknownReal++
					}
					t.Logf("unknown field (%s) %s: %s", kind, where, p.Message)
					continue
				}
				_, fileOK := handmadeFileExceptions[rel]
				switch {
				case isReal:
					t.Errorf("real %s: %s: %s", where, p.Pointer, p.Message)
				case fileOK:
					rejected[rel]++
					t.Logf("rejected as expected (%s) %s: %s: %s", kind, where, p.Pointer, p.Message)
				default:
					t.Errorf("%s %s: %s: %s (add it to the exceptions with a reason if intended)", kind, where, p.Pointer, p.Message)
				}
			}
		}
		switch {
		case strings.HasSuffix(path, ".jsonl"):
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
			line := 0
			for sc.Scan() {
				line++
				val, ok := decodeLine(sc.Bytes())
				if !ok {
					continue
				}
				nLines++
				where := rel + ":" + strconv.Itoa(line)
				if filepath.Base(path) == "history.jsonl" {
					nHistory++
					report(where, v.ValidateHistory(val))
					continue
				}
				obj, ok := val.(map[string]any)
				if !ok {
					continue
				}
				typ, _ := obj["type"].(string)
				if !v.KnownEntryType(typ) {
					nUnknownType++
					continue
				}
				nEntries++
				report(where, v.ValidateEntry(typ, val))
			}
			return sc.Err()
		case strings.HasSuffix(path, ".json") && strings.Contains(rel, "/todos/"):
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			val, ok := decodeLine(data)
			if !ok {
				return nil
			}
			nTodos++
			report(rel, v.ValidateTodos(val))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("validated %d transcript entries, %d history lines, %d todos files (%d parsed lines; %d lines of unknown or no type)",
		nEntries, nHistory, nTodos, nLines, nUnknownType)
	files := make([]string, 0, len(handmadeFileExceptions))
	for f := range handmadeFileExceptions {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if rejected[f] == 0 {
			t.Errorf("stale exception: %s has no rejected line any more", f)
			continue
		}
		t.Logf("expected: %d problems in hand-made %s (%s)", rejected[f], f, handmadeFileExceptions[f])
	}
	total := 0
	for _, n := range unknownFields {
		total += n
	}
	t.Logf("unknown-field problems: %d at %d distinct pointers (%d on real files)", total, len(unknownFields), unknownReal)
	if nEntries == 0 {
		t.Error("no corpus entry validated")
	}
}
