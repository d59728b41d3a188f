//go:build unix

package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsonpos"
)

// Server is the stand-in Messages API: it listens on 127.0.0.1 on a free
// port, answers from the plan carried in the prompt, checks tool pairing as
// the real API does, and logs every request.
type Server struct {
	URL string // http://127.0.0.1:PORT, for ANTHROPIC_BASE_URL

	ln  net.Listener
	srv *http.Server

	mu      sync.Mutex
	reqs    []Request
	ids     int
	log     *os.File
	onReq   func(Request)
	fails   map[string]int // errors answered per plan step (Step.Status)
	noFails bool           // StopFailing was called
}

// Request is one logged request and what the stand-in answered.
type Request struct {
	Seq    int       `json:"seq"`
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	// Kind: "main" (tools offered, answered from the plan), "compact",
	// "side" (no tools), "warmup" (the lone "Warmup" prompt 2.1.0 sends
	// before a session's first request), "count_tokens", "get", "other".
	Kind   string          `json:"kind"`
	Status int             `json:"status"`
	Error  string          `json:"error,omitempty"` // the 400 message, if any
	Stream bool            `json:"stream,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
	Reply  json.RawMessage `json:"reply,omitempty"` // the message answered (not the SSE framing)
	// Repeated: the request sent its first tool turn twice and it was
	// read once (1.0.x -p, see dropRepeatedTurn).
	Repeated bool `json:"repeated,omitempty"`
}

// Message is one entry of a request's messages.
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message's content, always as blocks (a string becomes one
// text block).
type Content []Block

// UnmarshalJSON accepts a string or an array of blocks.
func (c *Content) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(b, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Block is one content block; only the fields the oracle reads.
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

type apiRequest struct {
	Model    string            `json:"model"`
	Stream   bool              `json:"stream"`
	Messages []Message         `json:"messages"`
	Tools    []json.RawMessage `json:"tools"`
	System   json.RawMessage   `json:"system"`
}

// Messages decodes the messages of a logged request.
func (r Request) Messages() ([]Message, error) {
	var a apiRequest
	if err := json.Unmarshal(r.Body, &a); err != nil {
		return nil, err
	}
	return a.Messages, nil
}

// NewServer starts a stand-in on a free port of 127.0.0.1.
func NewServer() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{ln: ln, URL: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// LogTo appends every later request, as one JSON line each, to path.
func (s *Server) LogTo(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.log != nil {
		_ = s.log.Close()
	}
	s.log = f
	return nil
}

// OnRequest sets a function called after each request is answered.
func (s *Server) OnRequest(fn func(Request)) {
	s.mu.Lock()
	s.onReq = fn
	s.mu.Unlock()
}

// Requests returns a copy of the requests logged so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Reset forgets the requests logged so far (the tool id counter goes on).
func (s *Server) Reset() {
	s.mu.Lock()
	s.reqs = nil
	s.mu.Unlock()
}

// Close stops the server and closes the log.
func (s *Server) Close() error {
	err := s.srv.Close()
	s.mu.Lock()
	if s.log != nil {
		_ = s.log.Close()
		s.log = nil
	}
	s.mu.Unlock()
	return err
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	r.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, r)
	if s.log != nil {
		if b, err := json.Marshal(r); err == nil {
			_, _ = s.log.Write(append(b, '\n'))
		}
	}
	fn := s.onReq
	s.mu.Unlock()
	if fn != nil {
		fn(r)
	}
}

func (s *Server) nextID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids++
	return fmt.Sprintf("%s_01Orac%016d", prefix, s.ids)
}

// ServeHTTP answers the API surface Claude Code uses.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<30))
	rec := Request{Time: time.Now().UTC(), Method: r.Method, Path: r.URL.Path}
	if json.Valid(body) {
		rec.Body = json.RawMessage(body)
	}
	switch {
	case r.Method == http.MethodGet:
		rec.Kind, rec.Status = "get", 200
		writeJSON(w, 200, map[string]any{"data": []any{}, "has_more": false})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		rec.Kind, rec.Status = "count_tokens", 200
		writeJSON(w, 200, map[string]any{"input_tokens": tokens(body)})
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		s.messages(w, body, r.Header.Get("User-Agent"), &rec)
	default:
		rec.Kind, rec.Status = "other", 200
		writeJSON(w, 200, map[string]any{})
	}
	s.record(rec)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func apiError(w http.ResponseWriter, rec *Request, msg string) {
	rec.Status, rec.Error = 400, msg
	writeJSON(w, 400, map[string]any{"type": "error", "error": map[string]any{
		"type": "invalid_request_error", "message": msg}})
}

func (s *Server) messages(w http.ResponseWriter, body []byte, agent string, rec *Request) {
	rec.Kind = "main"
	if off := jsonpos.LoneSurrogate(body); off >= 0 {
		rec.Kind = "invalid"
		apiError(w, rec, fmt.Sprintf("The request body is not valid JSON: no low surrogate in string: line 1 column %d (char %d)", off+1, off))
		return
	}
	var req apiRequest
	if err := json.Unmarshal(body, &req); err != nil {
		rec.Kind = "invalid"
		apiError(w, rec, "The request body is not valid JSON: "+err.Error())
		return
	}
	rec.Stream = req.Stream
	if strings.HasPrefix(agent, "claude-cli/1.0.") {
		req.Messages, rec.Repeated = dropRepeatedTurn(req.Messages)
	}
	if len(req.Tools) == 0 {
		rec.Kind = "side"
		if isCompaction(req.Messages) {
			rec.Kind = "compact"
		}
	}
	if isWarmup(req.Messages) {
		rec.Kind = "warmup"
	}
	if msg := checkPairing(req.Messages); msg != "" {
		apiError(w, rec, msg)
		return
	}
	if status := s.failStep(&req); status != 0 {
		rec.Status, rec.Error = status, errorBodies[status][1]
		if status == 429 || status >= 500 {
			w.Header().Set("retry-after", "1")
		}
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{
			"type": errorBodies[status][0], "message": errorBodies[status][1]}})
		return
	}
	blocks, stop := s.reply(&req)
	model := req.Model
	if model == "" {
		model = "claude-oracle"
	}
	msg := map[string]any{
		"id": s.nextID("msg"), "type": "message", "role": "assistant", "model": model,
		"content": blocks, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": tokens(body), "output_tokens": 10,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}
	rec.Status = 200
	rec.Reply, _ = json.Marshal(msg)
	if !req.Stream {
		writeJSON(w, 200, msg)
		return
	}
	writeSSE(w, msg, blocks, stop)
}

// errorBodies are the API's error type and message for each Step.Status.
var errorBodies = map[int][2]string{
	400: {"invalid_request_error", "oracle: invalid request"},
	429: {"rate_limit_error", "oracle: rate limited"},
	500: {"api_error", "Internal server error"},
	529: {"overloaded_error", "Overloaded"},
}

// failStep returns the error status to answer a main request with, or 0:
// the plan step it asks for has a Status and has not failed Fail times yet.
func (s *Server) failStep(req *apiRequest) int {
	if len(req.Tools) == 0 {
		return 0
	}
	steps, n := findPlan(req.Messages)
	if n >= len(steps) || steps[n].Status == 0 {
		return 0
	}
	st := steps[n]
	if _, ok := errorBodies[st.Status]; !ok {
		return 0
	}
	plan, _ := json.Marshal(steps)
	key := fmt.Sprintf("%d %s", n, plan)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fails == nil {
		s.fails = map[string]int{}
	}
	if s.noFails || s.fails[key] >= max(st.Fail, 1) {
		return 0
	}
	s.fails[key]++
	return st.Status
}

// StopFailing makes the stand-in answer every later request for a step
// with a Status with the step itself (a resume after an API error sends
// the failed prompt again, merged with the new one on some versions).
func (s *Server) StopFailing() {
	s.mu.Lock()
	s.noFails = true
	s.mu.Unlock()
}

// reply picks the answer: a summary for a compaction request, a short text
// for other requests without tools, else the plan's next step.
func (s *Server) reply(req *apiRequest) ([]map[string]any, string) {
	if len(req.Tools) == 0 {
		if isCompaction(req.Messages) {
			return []map[string]any{textBlock("<analysis>Oracle analysis.</analysis>\n<summary>Oracle summary: the user ran scripted oracle steps.</summary>")}, "end_turn"
		}
		return []map[string]any{textBlock("Oracle side reply.")}, "end_turn"
	}
	steps, n := findPlan(req.Messages)
	if n >= len(steps) {
		return []map[string]any{textBlock("Oracle done.")}, "end_turn"
	}
	st := steps[n]
	var blocks []map[string]any
	text := st.Text
	if st.Pad > 0 {
		text += "\n" + strings.Repeat("oracle padding line 0123456789 abcdefghijklmnopqrstuvwxyz\n", st.Pad/58+1)[:st.Pad]
	}
	if text != "" {
		blocks = append(blocks, textBlock(text))
	}
	offered := toolNames(req.Tools)
	for _, t := range st.Tools {
		name := t.Name
		if name == "Agent" && !offered["Agent"] && offered["Task"] {
			name = "Task"
		}
		input := t.Input
		if input == nil {
			input = map[string]any{}
		}
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": s.nextID("toolu"), "name": name, "input": input})
	}
	if len(blocks) == 0 {
		blocks = append(blocks, textBlock("Oracle empty step."))
	}
	switch {
	case st.Stop != "":
		return blocks, st.Stop
	case len(st.Tools) > 0:
		return blocks, "tool_use"
	}
	return blocks, "end_turn"
}

// isWarmup reports a request whose only message is the user text
// "Warmup": 2.1.0 sends one, with its tools, before the first request of
// a session it starts or resumes (measured 2026-11-27); it is no part of
// the conversation.
func isWarmup(msgs []Message) bool {
	return len(msgs) == 1 && msgs[0].Role == "user" && strings.TrimSpace(userTexts(msgs[0])) == "Warmup"
}

// isCompaction tells a compaction request (no tools; the last user text
// asks for a summary).
func isCompaction(msgs []Message) bool {
	return strings.Contains(strings.ToLower(lastUserText(msgs)), "summary")
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolNames(tools []json.RawMessage) map[string]bool {
	m := map[string]bool{}
	for _, t := range tools {
		var v struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(t, &v) == nil {
			m[v.Name] = true
		}
	}
	return m
}

// userTexts returns the text of a user message, tool results left out.
func userTexts(m Message) string {
	var sb strings.Builder
	for _, b := range m.Content {
		if b.Type == "text" {
			sb.WriteString(b.Text)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

func lastUserText(msgs []Message) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" {
			if t := userTexts(msgs[i]); strings.TrimSpace(t) != "" {
				return t
			}
		}
	}
	return ""
}

// findPlan returns the plan of the last user message that carries one and
// the number of assistant messages after it (the step to answer).
func findPlan(msgs []Message) ([]Step, int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		steps, ok, err := parsePlan(userTexts(msgs[i]))
		if !ok || err != nil {
			continue
		}
		n := 0
		for _, m := range msgs[i+1:] {
			if m.Role == "assistant" {
				n++
			}
		}
		return steps, n
	}
	return nil, 0
}

// dropRepeatedTurn drops, once, an assistant message with tool calls and the
// user message after it that repeat the two messages before them (the same
// tool_use and tool_result ids). Claude Code 1.0.0 to 1.0.60 (seen; 1.0.70
// and later do not) in -p mode send their first tool turn twice: the query loop
// appends the turn to a message list the -p caller has already appended it
// to. The API of the time must have taken that (-p runs with tools were in
// wide use); the stand-in, like today's API, rejects repeated ids, so it
// reads such a request of a 1.0.x client as if the turn were sent once.
func dropRepeatedTurn(msgs []Message) ([]Message, bool) {
	ids := func(m Message, typ string) string {
		var b strings.Builder
		for _, c := range m.Content {
			if c.Type == typ {
				b.WriteString(c.ID + c.ToolUseID + " ")
			}
		}
		return b.String()
	}
	for i := 2; i+1 < len(msgs); i++ {
		a, u := msgs[i], msgs[i+1]
		if a.Role != "assistant" || u.Role != "user" || msgs[i-2].Role != "assistant" || msgs[i-1].Role != "user" {
			continue
		}
		use, res := ids(a, "tool_use"), ids(u, "tool_result")
		if use != "" && res != "" && use == ids(msgs[i-2], "tool_use") && res == ids(msgs[i-1], "tool_result") {
			return append(slices.Clip(msgs[:i]), msgs[i+2:]...), true
		}
	}
	return msgs, false
}

// checkPairing applies the real API's tool_use/tool_result rules and returns
// its error message, or "".
func checkPairing(msgs []Message) string {
	seen := map[string]bool{}
	for i, m := range msgs {
		if m.Role == "assistant" {
			var ids []string
			for j, b := range m.Content {
				if b.Type != "tool_use" {
					continue
				}
				if seen[b.ID] {
					return fmt.Sprintf("messages.%d.content.%d: `tool_use` ids must be unique", i, j)
				}
				seen[b.ID] = true
				ids = append(ids, b.ID)
			}
			if len(ids) == 0 {
				continue
			}
			got := map[string]bool{}
			if i+1 < len(msgs) && msgs[i+1].Role == "user" {
				for _, b := range msgs[i+1].Content {
					if b.Type == "tool_result" {
						got[b.ToolUseID] = true
					}
				}
			}
			var missing []string
			for _, id := range ids {
				if !got[id] {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				return fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
			}
		}
		if m.Role == "user" {
			prev := map[string]bool{}
			if i > 0 && msgs[i-1].Role == "assistant" {
				for _, b := range msgs[i-1].Content {
					if b.Type == "tool_use" {
						prev[b.ID] = true
					}
				}
			}
			for j, b := range m.Content {
				if b.Type == "tool_result" && !prev[b.ToolUseID] {
					return fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
				}
			}
		}
	}
	return ""
}

func writeSSE(w http.ResponseWriter, msg map[string]any, blocks []map[string]any, stop string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(200)
	fl, _ := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	start := map[string]any{}
	for k, v := range msg {
		start[k] = v
	}
	start["content"] = []any{}
	start["stop_reason"] = nil
	start["usage"] = map[string]any{"input_tokens": msg["usage"].(map[string]any)["input_tokens"], "output_tokens": 1,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	send("message_start", map[string]any{"type": "message_start", "message": start})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			text := b["text"].(string)
			for len(text) > 0 {
				n := min(len(text), 32<<10)
				for n < len(text) && !utf8.RuneStart(text[n]) {
					n--
				}
				send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "text_delta", "text": text[:n]}})
				text = text[n:]
			}
		case "tool_use":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			in, _ := json.Marshal(b["input"])
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(in)}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 10}})
	send("message_stop", map[string]any{"type": "message_stop"})
	if fl != nil {
		fl.Flush()
	}
}

// tokens is the input token count reported: small whatever the size, so no
// version decides to compact or refuse a large scripted session.
func tokens(body []byte) int { return 100 + min(len(body)/400, 2000) }
