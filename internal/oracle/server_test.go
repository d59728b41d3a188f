//go:build unix

package oracle

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func request(t *testing.T, stream bool, msgs ...any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"model": "m", "stream": stream, "messages": msgs,
		"tools": []any{map[string]any{"name": "Bash"}, map[string]any{"name": "Task"}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func user(content any) map[string]any { return map[string]any{"role": "user", "content": content} }
func assistant(content any) map[string]any {
	return map[string]any{"role": "assistant", "content": content}
}

func TestServerFollowsPlan(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	prompt := Prompt("Go.", Call(Bash("echo a"), Subagent(Text("inner"))), Text("Oracle end."))

	// Streaming: reply 0 is the two calls; Agent becomes Task when only Task is offered.
	code, body := post(t, s.URL+"/v1/messages?beta=true", request(t, true, user(prompt)))
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	var names []string
	var partial []string
	sc := bufio.NewScanner(strings.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Type         string `json:"type"`
			ContentBlock struct {
				Name string `json:"name"`
			} `json:"content_block"`
			Delta struct {
				PartialJSON string `json:"partial_json"`
				StopReason  string `json:"stop_reason"`
			} `json:"delta"`
		}
		if err := json.Unmarshal([]byte(l), &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type == "content_block_start" {
			names = append(names, ev.ContentBlock.Name)
		}
		if ev.Delta.PartialJSON != "" {
			partial = append(partial, ev.Delta.PartialJSON)
		}
		if ev.Type == "message_delta" && ev.Delta.StopReason != "tool_use" {
			t.Errorf("stop_reason %q", ev.Delta.StopReason)
		}
	}
	if strings.Join(names, ",") != "Bash,Task" || !strings.Contains(partial[1], PlanMarker) {
		t.Errorf("blocks %v, inputs %v", names, partial)
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Kind != "main" || !reqs[0].Stream {
		t.Fatalf("log %+v", reqs)
	}
	var reply struct {
		Content []Block `json:"content"`
	}
	_ = json.Unmarshal(reqs[0].Reply, &reply)
	id1, id2 := reply.Content[0].ID, reply.Content[1].ID

	// Non-streaming: after one assistant message, reply 1 is the text.
	code, body = post(t, s.URL+"/v1/messages", request(t, false, user(prompt),
		assistant([]any{map[string]any{"type": "tool_use", "id": id1, "name": "Bash", "input": map[string]any{}},
			map[string]any{"type": "tool_use", "id": id2, "name": "Task", "input": map[string]any{}}}),
		user([]any{map[string]any{"type": "tool_result", "tool_use_id": id1, "content": "a"},
			map[string]any{"type": "tool_result", "tool_use_id": id2, "content": "b"}})))
	if code != 200 || !strings.Contains(body, "Oracle end.") {
		t.Errorf("status %d: %s", code, body)
	}
	// A subagent's request carries its own plan.
	code, body = post(t, s.URL+"/v1/messages", request(t, false, user(Prompt("Sub.", Text("inner reply")))))
	if code != 200 || !strings.Contains(body, "inner reply") {
		t.Errorf("subagent: %d %s", code, body)
	}
}

func TestServerValidates(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	use := assistant([]any{map[string]any{"type": "tool_use", "id": "toolu_a", "name": "Bash", "input": map[string]any{}}})
	for name, tc := range map[string]struct {
		body, want string
	}{
		"unanswered": {request(t, false, user("x"), use, user("y")), "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_a"},
		"unexpected": {request(t, false, user([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_b", "content": "r"}})), "unexpected `tool_use_id` found in `tool_result` blocks: toolu_b"},
		"surrogate":  {`{"model":"m","messages":[{"role":"user","content":"a\ud83d b"}],"tools":[{"name":"Bash"}]}`, "no low surrogate in string"},
	} {
		code, body := post(t, s.URL+"/v1/messages", tc.body)
		if code != 400 || !strings.Contains(body, tc.want) || !strings.Contains(body, "invalid_request_error") {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	// A well-formed pair passes; so does a surrogate pair.
	ok := request(t, false, user("x"), use, user([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_a", "content": "r"}}))
	if code, body := post(t, s.URL+"/v1/messages", ok); code != 200 {
		t.Errorf("pair: %d %s", code, body)
	}
	if code, body := post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"\ud83d\ude00 \\ud83d"}],"tools":[{"name":"Bash"}]}`); code != 200 {
		t.Errorf("surrogate pair / escaped backslash: %d %s", code, body)
	}
}

func TestServerOtherEndpoints(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if code, body := post(t, s.URL+"/v1/messages/count_tokens", `{"messages":[]}`); code != 200 || !strings.Contains(body, "input_tokens") {
		t.Errorf("count_tokens: %d %s", code, body)
	}
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `"data":[]`) {
		t.Errorf("models: %s", b)
	}
	// No tools and a request for a summary: a compaction.
	code, body := post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"Write a summary of the conversation."}]}`)
	if code != 200 || !strings.Contains(body, "<summary>") {
		t.Errorf("compaction: %d %s", code, body)
	}
	kinds := []string{}
	for _, r := range s.Requests() {
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, ",") != "count_tokens,get,compact" {
		t.Errorf("kinds %v", kinds)
	}
}

func TestServerFailsStep(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	prompt := Prompt("Go.", Step{Text: "After two errors.", Status: 529, Fail: 2}, Step{Text: "Cut", Stop: "max_tokens"})
	body := request(t, false, user(prompt))
	for i, want := range []int{529, 529, 200} {
		code, got := post(t, s.URL+"/v1/messages", body)
		if code != want {
			t.Fatalf("request %d: status %d, want %d: %s", i, code, want, got)
		}
		if code == 529 && !strings.Contains(got, `"overloaded_error"`) {
			t.Errorf("request %d: body %s", i, got)
		}
	}
	// The second step: answered at once, with the stop reason it names.
	code, got := post(t, s.URL+"/v1/messages", request(t, false, user(prompt), assistant("After two errors."), user("go on")))
	var msg struct {
		StopReason string `json:"stop_reason"`
	}
	if code != 200 || json.Unmarshal([]byte(got), &msg) != nil || msg.StopReason != "max_tokens" {
		t.Errorf("step 2: status %d, body %s", code, got)
	}
	// After StopFailing, a failing step is answered at once.
	s.StopFailing()
	again := Prompt("Again.", Step{Text: "No error.", Status: 500, Fail: 3})
	if code, got := post(t, s.URL+"/v1/messages", request(t, false, user(again))); code != 200 {
		t.Errorf("after StopFailing: status %d: %s", code, got)
	}
	// A side request (no tools) never fails.
	side, _ := json.Marshal(map[string]any{"model": "m", "messages": []any{user(prompt)}})
	if code, got := post(t, s.URL+"/v1/messages", string(side)); code != 200 {
		t.Errorf("side request: status %d: %s", code, got)
	}
}

// TestServerRepeatedTurn: a 1.0.x client's request that sends its first tool
// turn twice is read as if sent once; another client's is rejected.
func TestServerRepeatedTurn(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	prompt := Prompt("Go.", Call(Bash("echo a")), Text("Oracle end."))
	use := assistant([]any{map[string]any{"type": "tool_use", "id": "toolu_a", "name": "Bash", "input": map[string]any{}}})
	res := user([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_a", "content": "a"}})
	body := request(t, false, user(prompt), use, res, use, res)
	for _, tc := range []struct {
		agent string
		code  int
		want  string
	}{
		{"claude-cli/1.0.60 (external, sdk-cli)", 200, "Oracle end."},
		{"claude-cli/2.1.330 (external, sdk-cli)", 400, "`tool_use` ids must be unique"},
	} {
		req, err := http.NewRequest(http.MethodPost, s.URL+"/v1/messages", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("User-Agent", tc.agent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s", tc.agent, resp.StatusCode, b)
		}
	}
	if reqs := s.Requests(); len(reqs) != 2 || !reqs[0].Repeated || reqs[1].Repeated {
		t.Errorf("log %+v", reqs)
	}
}

// TestServerWarmup: the lone "Warmup" prompt (2.1.0 sends one, with its
// tools, before a session's first request) is logged as "warmup", not as
// the conversation's main request; a conversation that says "Warmup" later
// is still main.
func TestServerWarmup(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tools := `,"tools":[{"name":"Bash"}]}`
	for _, body := range []string{
		`{"model":"m","messages":[{"role":"user","content":"Warmup"}]` + tools,
		`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"Warmup"}]}]` + tools,
		`{"model":"m","messages":[{"role":"user","content":"Warmup"},{"role":"assistant","content":"ok"},{"role":"user","content":"Warmup"}]` + tools,
		`{"model":"m","messages":[{"role":"user","content":"Warm up the cache"}]` + tools,
	} {
		if code, resp := post(t, s.URL+"/v1/messages", body); code != 200 {
			t.Fatalf("%s: %d %s", body, code, resp)
		}
	}
	var kinds []string
	for _, q := range s.Requests() {
		kinds = append(kinds, q.Kind)
	}
	if got := strings.Join(kinds, " "); got != "warmup warmup main main" {
		t.Errorf("kinds %q, want \"warmup warmup main main\"", got)
	}
}
