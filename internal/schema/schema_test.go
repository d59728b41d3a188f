package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	testV    *Validator
	testVErr error
	testOnce sync.Once
)

func validator(t testing.TB) *Validator {
	t.Helper()
	testOnce.Do(func() { testV, testVErr = New() })
	if testVErr != nil {
		t.Fatal(testVErr)
	}
	return testV
}

func decode(t testing.TB, s string) any {
	t.Helper()
	v, ok := decodeLine([]byte(s))
	if !ok {
		t.Fatalf("bad test JSON: %s", s)
	}
	return v
}

// env is the envelope of a chain entry, to be completed with its own fields.
const env = `"parentUuid":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f","isSidechain":false,"userType":"external",` +
	`"cwd":"/home/u/p","sessionId":"0f7e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b","version":"2.1.39",` +
	`"gitBranch":"main","uuid":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d","timestamp":"2026-01-15T12:21:54.791Z"`

const usage = `"usage":{"input_tokens":3,"cache_creation_input_tokens":10,"cache_read_input_tokens":0,"output_tokens":5,"service_tier":"standard"}`

const sid = `"sessionId":"0f7e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"`

// valid holds one minimal healthy example of every entry type.
var valid = map[string][]string{
	"user": {
		`{` + env + `,"type":"user","message":{"role":"user","content":"hello"}}`,
		`{` + env + `,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"ok"},{"type":"tool_reference","tool_name":"Read"}],"is_error":false}]},"toolUseResult":{"stdout":"ok"},"sourceToolAssistantUUID":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f"}`,
		`{` + env + `,"type":"user","message":{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}]},"isMeta":true,"permissionMode":"plan","todos":[{"content":"a","status":"pending","activeForm":"Doing a"}]}`,
	},
	"assistant": {
		`{` + env + `,"type":"assistant","requestId":"req_1","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"hi"}],"stop_reason":null,"stop_sequence":null,` + usage + `}}`,
		`{` + env + `,"type":"assistant","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"thinking","thinking":"hm","signature":"sig"},{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"},"caller":{"type":"direct"}}],"stop_reason":"tool_use","stop_sequence":null,` + usage + `}}`,
		// a <synthetic> message written by the client: requestId null
		`{` + env + `,"type":"assistant","requestId":null,"isApiErrorMessage":true,"message":{"id":"x","type":"message","role":"assistant","model":"<synthetic>","content":[{"type":"text","text":"API Error"}],"stop_reason":"stop_sequence","stop_sequence":"",` + usage + `}}`,
	},
	"system": {
		`{` + env + `,"type":"system","subtype":"compact_boundary","parentUuid":null,"logicalParentUuid":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f","content":"Conversation compacted","level":"info","isMeta":false,"compactMetadata":{"trigger":"auto","preTokens":155000}}`,
		`{` + env + `,"type":"system","subtype":"turn_duration","durationMs":1200,"isMeta":false}`,
		`{` + env + `,"type":"system","subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":"x"}],"hookErrors":[],"preventedContinuation":false,"stopReason":"","hasOutput":false,"level":"suggestion","toolUseID":"t"}`,
		// 1.0.x: no subtype
		`{` + env + `,"type":"system","content":"Running hook","level":"info","isMeta":false,"toolUseID":"toolu_1"}`,
	},
	"attachment": {
		`{` + env + `,"type":"attachment","attachment":{"type":"hook_success","hookName":"SessionStart","content":"","toolUseID":"t"}}`,
	},
	"progress": {
		`{` + env + `,"type":"progress","data":{"type":"hook_progress","hookEvent":"PreToolUse"},"toolUseID":"t1","parentToolUseID":"t0"}`,
	},
	"summary":      {`{"type":"summary","summary":"Fix the build","leafUuid":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f"}`},
	"custom-title": {`{"type":"custom-title",` + sid + `,"customTitle":"My title"}`},
	"ai-title":     {`{"type":"ai-title",` + sid + `,"aiTitle":"A title"}`},
	"last-prompt":  {`{"type":"last-prompt",` + sid + `,"lastPrompt":"go on"}`, `{"type":"last-prompt",` + sid + `,"leafUuid":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f"}`},
	"task-summary": {`{"type":"task-summary",` + sid + `,"summary":"Working","timestamp":"2026-01-15T12:21:54.791Z"}`},
	"tag":          {`{"type":"tag",` + sid + `,"tag":"bug"}`},
	"agent-name":   {`{"type":"agent-name",` + sid + `,"agentName":"scout"}`},
	"agent-color":  {`{"type":"agent-color",` + sid + `,"agentColor":"blue"}`},
	"agent-setting": {
		`{"type":"agent-setting",` + sid + `,"agentSetting":"reviewer"}`,
	},
	"mode":            {`{"type":"mode",` + sid + `,"mode":"normal"}`},
	"permission-mode": {`{"type":"permission-mode",` + sid + `,"permissionMode":"acceptEdits"}`},
	"worktree-state": {
		`{"type":"worktree-state",` + sid + `,"worktreeSession":{"originalCwd":"/p","worktreePath":"/p/.wt/a","worktreeName":"a","sessionId":"s"}}`,
		`{"type":"worktree-state",` + sid + `,"worktreeSession":null}`,
	},
	"pr-link": {`{"type":"pr-link",` + sid + `,"prNumber":12,"prUrl":"https://github.com/o/r/pull/12","prRepository":"o/r","timestamp":"2026-01-15T12:21:54.791Z"}`},
	"file-history-snapshot": {
		`{"type":"file-history-snapshot","messageId":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f","snapshot":{"messageId":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f","trackedFileBackups":{"src/a b.go":{"backupFileName":"59e0b9c43163e850@v1","version":1,"backupTime":"2026-01-15T12:21:54.791Z"},"new.md":{"backupFileName":null,"version":1,"backupTime":"2026-01-15T12:21:54.791Z"}},"timestamp":"2026-01-15T12:21:54.791Z"},"isSnapshotUpdate":false}`,
	},
	"attribution-snapshot": {
		`{"type":"attribution-snapshot","messageId":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f","surface":"cli","fileStates":{"/p/a.go":{"contentHash":"ab","claudeContribution":10,"mtime":1700000000000}},"promptCount":3}`,
	},
	"speculation-accept": {`{"type":"speculation-accept","timestamp":"2026-01-15T12:21:54.791Z","timeSavedMs":1500}`},
	"content-replacement": {
		`{"type":"content-replacement",` + sid + `,"replacements":[{"kind":"tool-result","toolUseId":"toolu_1","replacement":"<persisted-output>…</persisted-output>"}]}`,
	},
	"queue-operation": {
		`{"type":"queue-operation","operation":"enqueue","timestamp":"2026-01-15T12:21:54.791Z",` + sid + `,"content":"next"}`,
		`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-01-15T12:21:54.791Z",` + sid + `}`,
	},
	"marble-origami-commit": {
		`{"type":"marble-origami-commit",` + sid + `,"collapseId":"0000000000000001","summaryUuid":"u","summaryContent":"<collapsed id=\"1\">x</collapsed>","summary":"x","firstArchivedUuid":"a","lastArchivedUuid":"b"}`,
	},
	"marble-origami-snapshot": {
		`{"type":"marble-origami-snapshot",` + sid + `,"staged":[{"startUuid":"a","endUuid":"b","summary":"x","risk":0.2,"stagedAt":1}],"armed":false,"lastSpawnTokens":1000}`,
	},
	"checkpoint":                {`{"type":"checkpoint"}`},
	"api-request":               {`{"type":"api-request",` + sid + `,"id":"69f300fe-ba90-41eb-908b-9644eb9ec0bd","timestamp":"2026-11-23T11:02:50.417Z","version":"2.1.330","querySource":"sdk","shapeHash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","params":{"model":"m","max_tokens":1},"base":"69f300fe-ba90-41eb-908b-9644eb9ec0bd","keep":2,"tail":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],"cacheControl":[{"path":["system",0],"value":{"type":"ephemeral"}}],"requestDigest":"x"}`},
	"api-request-blob":          {`{"type":"api-request-blob",` + sid + `,"hash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","message":{"role":"system","content":[{"type":"text","text":"x"}]}}`},
	"api-request-shape":         {`{"type":"api-request-shape",` + sid + `,"shapeHash":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","timestamp":"2026-11-23T11:02:50.417Z","version":"2.1.330","shape":{"system":[{"type":"text","text":"x"}],"tools":[]}}`},
	"atis-latch":                {`{"type":"atis-latch","atis":"",` + sid + `}`},
	"tools-used":                {`{"type":"tools-used","tools":["Write","Bash"],` + sid + `}`},
	"cost-state":                {`{"type":"cost-state",` + sid + `,"totalCostUSD":0.00126,"totalAPIDuration":279,"totalAPIDurationWithoutRetries":259,"totalToolDuration":78,"totalLinesAdded":3,"totalLinesRemoved":1,"totalDuration":1628,"startTime":1795431769738,"modelUsage":{"m":{"inputTokens":90}},"hasUnknownModelCost":false}`},
	"file-history-delta":        {`{"type":"file-history-delta","messageId":"m2","snapshotMessageId":"m1","trackingPath":"a.txt","backup":{"backupFileName":"59e0b9c43163e850@v2","backupTime":"2026-11-23T11:02:50.417Z","version":2},"timestamp":"2026-11-23T11:02:50.417Z"}`},
	"observer-ref":              {`{"type":"observer-ref",` + sid + `,"timestamp":"2026-11-23T11:02:50.417Z"}`},
	"continued-in":              {`{"type":"continued-in","timestamp":"2026-11-23T11:02:50.417Z",` + sid + `,"continuedInSessionId":"s2"}`},
	"resume-head-vouch":         {`{"type":"resume-head-vouch","sessionId":"s","sum":"x"}`},
	"relocated":                 {`{"type":"relocated",` + sid + `,"relocatedCwd":"/p/q"}`},
	"session-owner":             {`{"type":"session-owner",` + sid + `}`},
	"isolation-latch":           {`{"type":"isolation-latch","side":"a",` + sid + `}`},
	"dev-mods":                  {`{"type":"dev-mods","folder":"/p/.mods",` + sid + `}`},
	"bridge-session":            {`{"type":"bridge-session",` + sid + `,"bridgeSessionId":"","lastSequenceNum":0}`},
	"data-flow-records":         {`{"type":"data-flow-records","v":1,` + sid + `,"records":[]}`},
	"data-flow-incomplete":      {`{"type":"data-flow-incomplete","v":1,` + sid + `,"codes":[]}`},
	"derived-from":              {`{"type":"derived-from","v":1,` + sid + `,"sessions":[]}`},
	"history-suppression":       {`{"type":"history-suppression",` + sid + `,"cause":"x"}`},
	"ended-by-model":            {`{"type":"ended-by-model","timestamp":"2026-11-23T11:02:50.417Z",` + sid + `}`},
	"memory-mode":               {`{"type":"memory-mode","mode":"x","afterUuid":null,"timestamp":"2026-11-23T11:02:50.417Z",` + sid + `}`},
	"artifact-comment-monitor":  {`{"type":"artifact-comment-monitor","v":1,` + sid + `,"artifacts":[]}`},
	"artifact-autoreact-ledger": {`{"type":"artifact-autoreact-ledger","v":1,` + sid + `,"accountUuid":"a","artifacts":{}}`},
	"fork-context-ref":          {`{"type":"fork-context-ref",` + sid + `}`},
	"repl-mode":                 {`{"type":"repl-mode","replMode":true}`},
	"hybrid-organization":       {`{"type":"hybrid-organization","organizationUuid":"o",` + sid + `}`},
	"host-row":                  {`{"type":"host-row",` + sid + `,"timestamp":"2026-11-23T11:02:50.417Z","ranByToolUseId":"t"}`},
	"api-request-resumed":       {`{"type":"api-request-resumed",` + sid + `,"timestamp":"2026-11-23T11:02:50.417Z","version":"2.1.330","messageId":"m","pausedRequestId":"a","resumedRequestId":"b"}`},
	"frame-link":                {`{"type":"frame-link","artifactCount":0,` + sid + `,"timestamp":"2026-11-23T11:02:50.417Z"}`},
}

func TestValidExamples(t *testing.T) {
	v := validator(t)
	for _, typ := range v.EntryTypes() {
		examples, ok := valid[typ]
		if !ok {
			t.Errorf("no valid example for entry type %q", typ)
			continue
		}
		for i, ex := range examples {
			if probs := v.ValidateEntry(typ, decode(t, ex)); len(probs) > 0 {
				t.Errorf("%s example %d: unexpected problems %+v", typ, i, probs)
			}
		}
	}
	for typ := range valid {
		if !v.KnownEntryType(typ) {
			t.Errorf("example for %q, which has no schema", typ)
		}
	}
}

func TestHistoryAndTodos(t *testing.T) {
	v := validator(t)
	ok := `{"display":"fix it","pastedContents":{"1":{"id":1,"type":"text","content":"x"},"2":{"id":2,"type":"text","contentHash":"ab12"}},"timestamp":1767353535544,"project":"/home/u/p","sessionId":"0f7e2c1a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"}`
	if probs := v.ValidateHistory(decode(t, ok)); len(probs) > 0 {
		t.Errorf("history: %+v", probs)
	}
	old := `{"display":"fix it","pastedContents":{},"timestamp":1759076614927,"project":"/home/u/p"}`
	if probs := v.ValidateHistory(decode(t, old)); len(probs) > 0 {
		t.Errorf("history without sessionId: %+v", probs)
	}
	for _, todos := range []string{`[]`, `[{"content":"a","status":"in_progress","activeForm":"Doing a"}]`, `[{"content":"a","status":"completed","priority":"high","id":"1"}]`} {
		if probs := v.ValidateTodos(decode(t, todos)); len(probs) > 0 {
			t.Errorf("todos %s: %+v", todos, probs)
		}
	}
}

type want struct {
	ptr, msg string
	unknown  bool
}

func TestBroken(t *testing.T) {
	v := validator(t)
	asst := func(msg string) string {
		return `{` + env + `,"type":"assistant","requestId":"r","message":` + msg + `}`
	}
	cases := []struct {
		name string
		kind string // entry type, or "history" / "todos"
		in   string
		want []want
	}{
		{"bad timestamp", "user",
			strings.Replace(`{`+env+`,"type":"user","message":{"role":"user","content":"hi"}}`, `"2026-01-15T12:21:54.791Z"`, `"yesterday"`, 1),
			[]want{{"/timestamp", "`timestamp` must be an RFC 3339 date-time, got \"yesterday\"", false}}},
		{"wrong role", "user",
			`{` + env + `,"type":"user","message":{"role":"bot","content":"hi"}}`,
			[]want{{"/message/role", "`message.role` must be \"user\", got \"bot\"", false}}},
		{"parentUuid number", "user",
			strings.Replace(`{`+env+`,"type":"user","message":{"role":"user","content":"hi"}}`, `"parentUuid":"4b1d0a35-0a8e-4b39-9b4b-1a2b3c4d5e6f"`, `"parentUuid":12`, 1),
			[]want{{"/parentUuid", "`parentUuid` must be a string or null, got number 12", false}}},
		{"missing uuid", "user",
			strings.Replace(`{`+env+`,"type":"user","message":{"role":"user","content":"hi"}}`, `,"uuid":"9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"`, ``, 1),
			[]want{{"", "missing required field `uuid`", false}}},
		{"missing two", "summary", `{"type":"summary"}`,
			[]want{{"", "missing required fields `leafUuid`, `summary`", false}}},
		{"userType enum", "user",
			strings.Replace(`{`+env+`,"type":"user","message":{"role":"user","content":"hi"}}`, `"external"`, `"human"`, 1),
			[]want{{"/userType", "`userType` must be one of \"external\", \"internal\", got \"human\"", false}}},
		{"unknown top-level field", "user",
			`{` + env + `,"type":"user","message":{"role":"user","content":"hi"},"foo":1}`,
			[]want{{"/foo", "unknown field `foo`", true}}},
		{"unknown nested field", "assistant",
			asst(`{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":null,"stop_sequence":null,` + usage + `,"foo":true}`),
			[]want{{"/message/foo", "unknown field `message.foo`", true}}},
		{"unknown field in a block", "assistant",
			asst(`{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"a","bold":true}],"stop_reason":null,"stop_sequence":null,` + usage + `}`),
			[]want{{"/message/content/0/bold", "unknown field `message.content[0].bold`", true}}},
		{"block field type", "assistant",
			asst(`{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"a"},{"type":"tool_use","id":7,"name":"Bash","input":{}}],"stop_reason":null,"stop_sequence":null,` + usage + `}`),
			[]want{{"/message/content/1/id", "`message.content[1].id` must be a string, got number 7", false}}},
		{"block missing field", "user",
			`{` + env + `,"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"x"}]}}`,
			[]want{{"/message/content/0", "missing required field `message.content[0].tool_use_id`", false}}},
		{"stop_reason enum", "assistant",
			asst(`{"id":"m","type":"message","role":"assistant","model":"x","content":[],"stop_reason":"done","stop_sequence":null,` + usage + `}`),
			[]want{{"/message/stop_reason", "`message.stop_reason` must be one of null, \"end_turn\", \"max_tokens\", \"stop_sequence\", \"tool_use\", \"pause_turn\", \"refusal\", \"model_context_window_exceeded\", got \"done\"", false}}},
		{"content not string or array", "user",
			`{` + env + `,"type":"user","message":{"role":"user","content":5}}`,
			[]want{{"/message/content", "`message.content` must be a string or an array, got number 5", false}}},
		{"compact trigger enum", "system",
			`{` + env + `,"type":"system","subtype":"compact_boundary","content":"c","compactMetadata":{"trigger":"sometimes","preTokens":1}}`,
			[]want{{"/compactMetadata/trigger", "`compactMetadata.trigger` must be one of \"manual\", \"auto\", got \"sometimes\"", false}}},
		{"subtype field missing, no cascade", "system",
			`{` + env + `,"type":"system","subtype":"stop_hook_summary","hookInfos":[],"hookErrors":[],"hasOutput":false}`,
			[]want{{"", "missing required field `hookCount`", false}}},
		{"bad envelope, no cascade, real unknown kept", "user",
			strings.Replace(`{`+env+`,"type":"user","message":{"role":"user","content":"hi"},"foo":1}`, `"isSidechain":false`, `"isSidechain":"no"`, 1),
			[]want{
				{"/foo", "unknown field `foo`", true},
				{"/isSidechain", "`isSidechain` must be a boolean, got string \"no\"", false},
			}},
		{"backup version", "file-history-snapshot",
			`{"type":"file-history-snapshot","messageId":"m","snapshot":{"messageId":"m","trackedFileBackups":{"src/a b.go":{"backupFileName":"x@v0","version":0,"backupTime":"2026-01-15T12:21:54.791Z"}},"timestamp":"2026-01-15T12:21:54.791Z"},"isSnapshotUpdate":false}`,
			[]want{{"/snapshot/trackedFileBackups/src~1a b.go/version", "`snapshot.trackedFileBackups[\"src/a b.go\"].version` must be at least 1, got 0", false}}},
		{"queue operation", "queue-operation",
			`{"type":"queue-operation","operation":"push","timestamp":"2026-01-15T12:21:54.791Z",` + sid + `}`,
			[]want{{"/operation", "`operation` must be one of \"enqueue\", \"dequeue\", \"remove\", \"popAll\", got \"push\"", false}}},
		{"not an object", "user", `"hello"`,
			[]want{{"", "the value must be an object, got string \"hello\"", false}}},
		{"history timestamp string", "history",
			`{"display":"x","pastedContents":{},"timestamp":"2026-01-15T12:21:54.791Z","project":"/p"}`,
			[]want{{"/timestamp", "`timestamp` must be an integer, got string \"2026-01-15T12:21:54.791Z\"", false}}},
		{"history unknown", "history",
			`{"display":"x","pastedContents":{},"timestamp":1,"project":"/p","extra":1}`,
			[]want{{"/extra", "unknown field `extra`", true}}},
		{"todos status", "todos",
			`[{"content":"a","status":"done","activeForm":"A"}]`,
			[]want{{"/0/status", "`[0].status` must be one of \"pending\", \"in_progress\", \"completed\", got \"done\"", false}}},
		{"todos not an array", "todos", `{}`,
			[]want{{"", "the value must be an array, got an object", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			val := decode(t, c.in)
			var probs []Problem
			switch c.kind {
			case "history":
				probs = v.ValidateHistory(val)
			case "todos":
				probs = v.ValidateTodos(val)
			default:
				probs = v.ValidateEntry(c.kind, val)
			}
			got := make([]want, len(probs))
			for i, p := range probs {
				got[i] = want{p.Pointer, p.Message, p.UnknownField}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestLongValueIsCut(t *testing.T) {
	in := strings.Replace(valid["user"][0], `"userType":"external"`, `"userType":"`+strings.Repeat("y", 60)+`"`, 1)
	probs := validator(t).ValidateEntry("user", decode(t, in))
	if len(probs) != 1 || !strings.HasSuffix(probs[0].Message, `got "`+strings.Repeat("y", 40)+`…"`) {
		t.Errorf("long value not cut: %+v", probs)
	}
}

func TestUnknownTypesAreNotSchemaErrors(t *testing.T) {
	v := validator(t)
	blk := `{` + env + `,"type":"assistant","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"hologram","depth":3}],"stop_reason":null,"stop_sequence":null,` + usage + `}}`
	if probs := v.ValidateEntry("assistant", decode(t, blk)); len(probs) > 0 {
		t.Errorf("unknown block type: %+v", probs)
	}
	sys := `{` + env + `,"type":"system","subtype":"future_thing","content":"x","level":"info","newField":1}`
	if probs := v.ValidateEntry("system", decode(t, sys)); len(probs) > 0 {
		t.Errorf("unknown system subtype: %+v", probs)
	}
	if KnownBlockType("hologram") || !KnownBlockType("tool_use") || !KnownBlockType("redacted_thinking") || !KnownBlockType("server_tool_use") {
		t.Error("KnownBlockType")
	}
	if KnownSystemSubtype("future_thing") || !KnownSystemSubtype("compact_boundary") || !KnownSystemSubtype("api_error") {
		t.Error("KnownSystemSubtype")
	}
	if v.KnownEntryType("history") || v.KnownEntryType("todos") || v.KnownEntryType("started") || !v.KnownEntryType("user") {
		t.Error("KnownEntryType")
	}
	if probs := v.ValidateEntry("started", decode(t, `{"type":"started"}`)); probs != nil {
		t.Errorf("unknown entry type: %+v", probs)
	}
}

func TestNamesAndSource(t *testing.T) {
	names := Names()
	for _, n := range []string{"user", "assistant", "system", "history", "todos", "defs/usage", "defs/envelope", "defs/content-block"} {
		src, ok := Source(n)
		if !ok {
			t.Errorf("Source(%q) missing", n)
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal(src, &doc); err != nil {
			t.Errorf("Source(%q): %v", n, err)
		}
		if doc["$id"] != baseURL+n+".json" {
			t.Errorf("Source(%q): $id %v", n, doc["$id"])
		}
		found := false
		for _, m := range names {
			found = found || m == n
		}
		if !found {
			t.Errorf("Names() lacks %q", n)
		}
	}
	if _, ok := Source("nope"); ok {
		t.Error("Source(nope)")
	}
	for i := 1; i < len(names); i++ {
		if names[i-1] >= names[i] {
			t.Errorf("Names() not sorted: %q >= %q", names[i-1], names[i])
		}
	}
	types := validator(t).EntryTypes()
	for i := 1; i < len(types); i++ {
		if types[i-1] >= types[i] {
			t.Errorf("EntryTypes() not sorted")
		}
	}
}

func TestConcurrent(t *testing.T) {
	v := validator(t)
	in := decode(t, strings.Replace(valid["user"][0], `"external"`, `"human"`, 1))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				if p := v.ValidateEntry("user", in); len(p) != 1 {
					errs <- fmt.Sprint(p)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// BenchmarkValidateEntry validates the first lines of a few real corpus
// files (the hand-written examples when the corpus is absent).
func BenchmarkValidateEntry(b *testing.B) {
	v := validator(b)
	type line struct {
		typ string
		val any
	}
	var lines []line
	for _, f := range benchFiles {
		data, err := os.ReadFile(filepath.Join(benchCorpus(), f))
		if err != nil {
			continue
		}
		for _, raw := range bytes.Split(data, []byte("\n")) {
			val, ok := decodeLine(raw)
			if !ok {
				continue
			}
			typ, _ := val.(map[string]any)["type"].(string)
			if v.KnownEntryType(typ) && len(lines) < 200 {
				lines = append(lines, line{typ, val})
			}
		}
	}
	if len(lines) == 0 {
		for _, typ := range []string{"user", "assistant", "system", "file-history-snapshot"} {
			for _, ex := range valid[typ] {
				lines = append(lines, line{typ, decode(b, ex)})
			}
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		l := lines[i%len(lines)]
		v.ValidateEntry(l.typ, l.val)
	}
}

var benchFiles = []string{
	"HillviewCap__Personal_AI_Infrastructure/.claude/projects/-home-jenkins-Personal-AI-Infrastructure/155715ec-f4e9-47ea-859c-2e4cfcceab6f.jsonl",
	"entireio__cli/ac/0df591859d/0/full.jsonl",
}

func benchCorpus() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus", "real")
}
