package entry

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// dirs are the transcripts TestExtractDecoded reads: the real corpus
// (when present) and the fixtures.
var dirs = []string{"../../../shared/corpus/real", "../../testdata"}

// sameRecord reports how a and b differ ("" when they do not).
func sameRecord(a, b *Record) string {
	if !reflect.DeepEqual(*a.Common, *b.Common) {
		return "common"
	}
	if !reflect.DeepEqual(*a.Rare, *b.Rare) {
		return "rare"
	}
	if !reflect.DeepEqual(a.allTools(), b.allTools()) {
		return "tools"
	}
	x, y := *a, *b
	x.Common, y.Common, x.Rare, y.Rare, x.tools, y.tools = nil, nil, nil, nil, nil, nil
	if !reflect.DeepEqual(x, y) {
		return "record"
	}
	return ""
}

// extractBoth extracts line from its parse tree and from what encoding/json
// decodes (the reference path, read through a tree of the decoded value).
func extractBoth(t *testing.T, line []byte) (fromTree, fromDecoded *Record, ok bool) {
	t.Helper()
	var tr jsontree.Tree
	if tr.Parse(line) != nil || tr.Kind(jsontree.Root) != jsontree.Object {
		return nil, nil, false
	}
	v, _, err := jsontree.Decode(line)
	if err != nil {
		t.Fatalf("the tree parses what encoding/json does not: %v", err)
	}
	return Extract(jsontree.TreeVal(&tr), 7, 99), Extract(jsontree.AnyVal(v), 7, 99), true
}

// TestExtractDecoded: a record read off the parse tree equals the one read
// from the value encoding/json decodes, on every valid UTF-8 line of the
// corpus and fixtures (encoding/json replaces invalid bytes, the tree keeps
// them).
func TestExtractDecoded(t *testing.T) {
	n := 0
	for _, dir := range dirs {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jsonl") {
				return nil
			}
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			for num := 1; sc.Scan(); num++ {
				if !utf8.Valid(sc.Bytes()) {
					continue
				}
				a, b, ok := extractBoth(t, sc.Bytes())
				if !ok {
					continue
				}
				n++
				if d := sameRecord(a, b); d != "" {
					t.Errorf("%s:%d: the %s differs:\ntree    %+v %+v %+v\ndecoded %+v %+v %+v", p, num, d,
						*a, *a.Common, *a.Rare, *b, *b.Common, *b.Rare)
				}
			}
			if err := sc.Err(); err != nil {
				t.Errorf("%s: %v", p, err)
			}
			return nil
		})
	}
	if n == 0 {
		t.Skip("no transcripts")
	}
	t.Logf("%d lines", n)
}

// TestExtractMade: lines made to reach what the corpus may not hold
// (escaped keys and values, repeated keys, values of other types, a
// snapshot's repeated and odd backups), read both ways, and what they give.
func TestExtractMade(t *testing.T) {
	for _, c := range []struct {
		line string
		want func(r *Record) bool
	}{
		{`{"\u0074ype":"user","uuid":"u\u0031","parentUuid":"p","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t\u0031"},{"typ\u0065":"thinking"}]}}`,
			func(r *Record) bool {
				return r.Type == "user" && r.UUID() == "u1" && r.HasParent && r.ParentUUID() == "p" &&
					r.Timestamp() == "2025-01-01T00:00:00.000Z" && r.Content == ContentArray && r.Blocks == 2 &&
					len(r.ToolResults()) == 1 && r.ToolResults()[0].ID == "t1" && r.ToolResults()[0].Block == 0 && !r.ThinkingOnly
			}},
		{`{"type":"assistant","type":"system","uuid":"a","uuid":"b","subtype":"x","message":{"id":"m1","id":"m2","content":[{"type":"thinking"},{"type":"redacted_thinking"}]}}`,
			func(r *Record) bool {
				return r.Type == "system" && r.UUID() == "b" && r.Subtype == "x" && r.MessageID() == mustID("m2") && r.ThinkingOnly
			}},
		{`{"type":"assistant","uuid":7,"timestamp":null,"parentUuid":null,"message":{"content":[1,{"type":"tool_use","id":"x","name":"Bash"},{"type":"server_tool_use","id":"y"}]}}`,
			func(r *Record) bool {
				return r.UUID() == "" && r.Timestamp() == "" && !r.HasParent && len(r.ToolUses()) == 2 &&
					r.ToolUses()[0].Name() == "Bash" && r.ToolUses()[0].Block == 1 && r.ToolUses()[1].Server()
			}},
		{`{"type":"user","message":{"content":"hi"},"isMeta":true,"isSidechain":true,"turnCompanion":true,"queueSkipAttachments":true,"origin":{"kind":"task-notification"}}`,
			func(r *Record) bool {
				return r.Content == ContentString && r.IsMeta && r.IsSidechain && r.TaskNotification
			}},
		{`{"type":"user","message":{"content":"go on"},"isMeta":true,"turnCompanion":true,"ownNote":true}`,
			func(r *Record) bool { return r.OwnNote && !r.HookText }},
		{`{"type":"user","message":{"content":"hook said"},"isMeta":true,"hookText":true,"rowSource":"hook"}`,
			func(r *Record) bool { return !r.OwnNote && r.HookText }},
		{`{"type":"user","message":{"content":null}}`, func(r *Record) bool { return r.Content == ContentOther }},
		{`{"type":"user","message":{}}`, func(r *Record) bool { return r.Content == ContentMissing }},
		{`{"type":"file-history-snapshot","messageId":"m","snapshot":{"trackedFileBackups":{"b":{"backupFileName":"h@v2","version":2,"backupTime":"t"},"a":{"backupFileName":null,"version":1},"b":{"backupFileName":"h@v3","version":3},"c":5,"C:\\x":{"version":1}}}}`,
			func(r *Record) bool {
				b := r.Backups
				return len(b) == 3 && b[0].Key == "C:\\x" && b[1].Key == "a" && b[1].Null &&
					b[2].Key == "b" && b[2].FileName == "h@v3" && b[2].Version == 3
			}},
		{`{"type":"file-history-delta","snapshotMessageId":"m","messageId":"n","trackingPath":"f","backup":{"backupFileName":"h@v1","version":1,"backupTime":"t"}}`,
			func(r *Record) bool {
				return len(r.Backups) == 1 && r.Backups[0].Key == "f" && r.Backups[0].BackupTime == "t"
			}},
		{`{"type":"system","subtype":"compact_boundary","logicalParentUuid":"l","compactMetadata":{"preservedSegment":{"headUuid":"h","anchorUuid":"a","tailUuid":"t"}}}`,
			func(r *Record) bool {
				return r.LogicalParentUUID == "l" && r.PreservedHead == "h" && r.PreservedAnchor == "a" && r.PreservedTail == "t"
			}},
		{`{"type":"progress","toolUseID":"t","parentToolUseID":"p","sourceToolAssistantUUID":"s","agentId":"g","cwd":"/w","sessionId":"x","version":"2.1.1","leafUuid":"f"}`,
			func(r *Record) bool {
				return r.SourceToolAssistantUUID() == "s" && r.AgentID == "g" &&
					r.Cwd == "/w" && r.SessionID == "x" && r.Version == "2.1.1" && r.LeafUUID == "f"
			}},
		{`{"type":"user","uuid":"u","sourceToolAssistantUUID":"s","message":{"id":"m","role":"user","content":"x"}}`,
			func(r *Record) bool {
				return r.MessageID() == mustID("m") && r.SourceToolAssistantUUID() == "s" && r.SourceAlso == "s"
			}},
		// A source in the written form takes the message id's place: no Rare.
		{`{"type":"user","uuid":"3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7","sourceToolAssistantUUID":"5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}`,
			func(r *Record) bool {
				return r.MessageID().IsZero() && r.SourceToolAssistantUUID() == "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b" &&
					r.SourceID() == mustID("5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b") && r.Rare == noRare && len(r.ToolResults()) == 1 &&
					len(r.ToolUses()) == 0
			}},
		// One in another form is kept as a string, in the Rare.
		{`{"type":"user","uuid":"3f2a9c1e-7b4d-4e8f-a0b1-c2d3e4f5a6b7","sourceToolAssistantUUID":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}}`,
			func(r *Record) bool {
				return r.MessageID().IsZero() && r.SourceToolAssistantUUID() == "s" && r.SourceID() == mustID("s") && r.SourceAlso == "s" &&
					len(r.ToolResults()) == 1 && len(r.ToolUses()) == 0
			}},
		// Beside a message id, one in the written form too.
		{`{"type":"user","uuid":"u","sourceToolAssistantUUID":"5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b","message":{"id":"m","role":"user","content":"x"}}`,
			func(r *Record) bool {
				return r.MessageID() == mustID("m") && r.SourceToolAssistantUUID() == "5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b" &&
					r.SourceID() == mustID("5e6f7a8b-1c2d-4e3f-8a9b-0c1d2e3f4a5b")
			}},
		{`{"type":"user","uuid":"` + strings.Repeat("u", 50) + `","timestamp":"` + strings.Repeat("t", 50) + `"}`,
			func(r *Record) bool { return len(r.UUID()) == 50 && len(r.Timestamp()) == 50 }},
	} {
		a, b, ok := extractBoth(t, []byte(c.line))
		if !ok {
			t.Fatalf("%s: does not parse", c.line)
		}
		if d := sameRecord(a, b); d != "" {
			t.Errorf("%s: the %s differs:\ntree    %+v %+v %+v\ndecoded %+v %+v %+v", c.line, d, *a, *a.Common, *a.Rare, *b, *b.Common, *b.Rare)
		}
		if !c.want(a) {
			t.Errorf("%s: got %+v %+v %+v", c.line, *a, *a.Common, *a.Rare)
		}
	}
}
