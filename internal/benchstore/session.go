package benchstore

import (
	"path/filepath"
	"strconv"
)

// conv is one transcript being written: a main session or a subagent.
type conv struct {
	g       *gen
	p       *project
	out     *sink
	sid     string
	agentID string // "" for the main transcript
	version string
	slug    string
	model   string
	last    string // uuid of the last chain entry, "" before the first
	budget  int64  // bytes this transcript should reach
	spare   int64  // bytes left in the whole store, for rare huge outputs

	// main transcripts only
	prompt    string // uuid of the current turn's prompt
	promptTS  string
	tracked   []backup
	lastInput string
	todos     []todo
}

type backup struct {
	path    string
	version int
	time    string
	turn    string // prompt uuid of the turn that last backed it up
}

type todo struct{ content, status, active string }

type call struct {
	id, name string
	input    []byte
	line     string // uuid of the assistant line holding the tool_use
	path     string
	prompt   string
}

func (g *gen) session(p *project, target, spare int64) {
	sid := g.uuid()
	out, err := g.create(filepath.Join(g.dir, "projects", p.enc, sid+".jsonl"))
	if err != nil {
		g.err = err
		return
	}
	g.st.Sessions++
	c := &conv{g: g, p: p, out: out, sid: sid, version: versions[g.r.IntN(len(versions))],
		model: models[g.r.IntN(2)], budget: target, spare: spare}
	if g.r.IntN(2) == 0 {
		c.slug = g.ident() + "-" + g.ident() + "-" + g.ident()
	}
	b := append(g.line[:0], `{"type":"permission-mode","permissionMode":`...)
	b = str(b, []string{"default", "acceptEdits", "plan"}[g.r.IntN(3)])
	b = kv(b, "sessionId", sid)
	g.line = append(b, '}')
	g.emit(out, g.line)
	// SessionStart hooks run before the first prompt.
	hook := g.uuid()
	for i, n := 0, g.r.IntN(3); i < n; i++ {
		c.progress(hook, "SessionStart", "SessionStart:startup")
	}
	turns := 0
	for out.n < c.budget && g.err == nil {
		if turns > 3 && g.r.IntN(30) == 0 {
			c.compact()
		}
		c.turn()
		turns++
	}
	// Metadata Claude Code appends.
	b = append(g.line[:0], `{"type":"last-prompt","lastPrompt":`...)
	b = str(b, c.lastInput)
	b = kv(b, "sessionId", sid)
	g.line = append(b, '}')
	g.emit(out, g.line)
	if g.r.IntN(5) == 0 {
		b = append(g.line[:0], `{"type":"custom-title","customTitle":`...)
		b = str(b, g.ident()+" "+g.ident())
		b = kv(b, "sessionId", sid)
		g.line = append(b, '}')
		g.emit(out, g.line)
	}
	if g.r.IntN(3) == 0 {
		b = append(g.line[:0], `{"type":"summary","summary":`...)
		b = g.sentence(append(b, '"'), 3+g.r.IntN(6))
		b = append(b, '"')
		b = kv(b, "leafUuid", c.last)
		g.line = append(b, '}')
		g.emit(out, g.line)
	}
	g.closeSink(out)
	c.writeTodos()
}

// head opens a chain entry: {"parentUuid":…,"isSidechain":…,… as the writer orders it.
func (c *conv) head(b []byte, parent string) []byte {
	b = append(b, `{"parentUuid":`...)
	if parent == "" {
		b = append(b, "null"...)
	} else {
		b = str(b, parent)
	}
	if c.agentID != "" {
		b = append(b, `,"isSidechain":true`...)
	} else {
		b = append(b, `,"isSidechain":false`...)
	}
	b = kv(b, "userType", "external")
	b = kv(b, "cwd", c.p.cwd)
	b = kv(b, "sessionId", c.sid)
	b = kv(b, "version", c.version)
	b = kv(b, "gitBranch", c.p.branch)
	if c.agentID != "" {
		b = kv(b, "agentId", c.agentID)
	}
	if c.slug != "" {
		b = kv(b, "slug", c.slug)
	}
	return b
}

// tail closes a chain entry with its uuid and timestamp and writes it.
func (c *conv) tail(b []byte, uuid, ts string) {
	b = kv(b, "uuid", uuid)
	b = kv(b, "timestamp", ts)
	c.g.line = append(b, '}')
	c.g.emit(c.out, c.g.line)
	c.last = uuid
}

func (c *conv) progress(toolUseID, event, name string) {
	g := c.g
	u := g.uuid()
	b := c.head(g.line[:0], c.last)
	b = append(b, `,"type":"progress","data":{"type":"hook_progress","hookEvent":`...)
	b = str(b, event)
	b = kv(b, "hookName", name)
	b = kv(b, "command", "${CLAUDE_PLUGIN_ROOT}/hooks/"+g.ident()+".sh")
	b = append(b, '}')
	b = kv(b, "parentToolUseID", toolUseID)
	b = kv(b, "toolUseID", toolUseID)
	b = kv(b, "timestamp", g.tick(1, 40))
	b = kv(b, "uuid", u)
	g.line = append(b, '}')
	g.emit(c.out, g.line)
	c.last = u
}

// compact writes a compaction boundary and the summary that follows it.
func (c *conv) compact() {
	g := c.g
	u := g.uuid()
	b := append(g.line[:0], `{"parentUuid":null,"logicalParentUuid":`...)
	b = str(b, c.last)
	b = append(b, `,"isSidechain":false`...)
	b = kv(b, "userType", "external")
	b = kv(b, "cwd", c.p.cwd)
	b = kv(b, "sessionId", c.sid)
	b = kv(b, "version", c.version)
	b = kv(b, "gitBranch", c.p.branch)
	if c.slug != "" {
		b = kv(b, "slug", c.slug)
	}
	b = append(b, `,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false`...)
	b = kv(b, "timestamp", g.tick(20000, 90000))
	b = kv(b, "uuid", u)
	b = append(b, `,"level":"info","compactMetadata":{"trigger":`...)
	b = str(b, []string{"auto", "manual"}[g.r.IntN(2)])
	b = ki(b, "preTokens", int64(120000+g.r.IntN(60000)))
	g.line = append(b, '}', '}')
	g.emit(c.out, g.line)
	c.last = u

	s := g.uuid()
	b = c.head(g.line[:0], u)
	b = append(b, `,"type":"user","message":{"role":"user","content":"`...)
	b = append(b, "This session is being continued from a previous conversation that ran out of context. "...)
	g.tmp = g.prose(g.tmp[:0], 2000+g.r.IntN(8000))
	b = esc(b, g.tmp)
	b = append(b, `"},"isVisibleInTranscriptOnly":true,"isCompactSummary":true`...)
	c.tail(b, s, g.now())
}

// turn is one prompt and everything the assistant does until it answers.
func (c *conv) turn() {
	g := c.g
	c.prompt = g.uuid()
	c.promptTS = g.tick(5000, 240000)
	c.snapshot(false)
	if g.r.IntN(20) == 0 {
		c.queue()
	}
	g.tmp = g.sentence(g.tmp[:0], 3+int(g.r.ExpFloat64()*18))
	if g.r.IntN(6) == 0 {
		g.tmp = append(g.tmp, "\n\n"...)
		g.tmp = g.code(g.tmp, 3+g.r.IntN(20), false)
	}
	c.lastInput = string(g.tmp)
	b := c.head(g.line[:0], c.last)
	b = append(b, `,"type":"user","message":{"role":"user","content":`...)
	b = strb(b, g.tmp)
	b = append(b, '}')
	c.tail(b, c.prompt, c.promptTS)
	c.history()

	start := g.clock
	rounds := 1 + int(g.r.ExpFloat64()*4)
	for r := 0; r < rounds && g.err == nil; r++ {
		c.round(r == rounds-1 || c.out.n > c.budget)
		if c.out.n > c.budget {
			break
		}
	}
	if g.r.IntN(2) == 0 {
		u := g.uuid()
		b := c.head(g.line[:0], c.last)
		b = append(b, `,"type":"system","subtype":"turn_duration"`...)
		b = ki(b, "durationMs", g.clock.Sub(start).Milliseconds()+int64(g.r.IntN(900)))
		b = kv(b, "timestamp", g.tick(1, 30))
		b = kv(b, "uuid", u)
		g.line = append(b, `,"isMeta":false}`...)
		g.emit(c.out, g.line)
		c.last = u
	}
}

func (c *conv) queue() {
	g := c.g
	b := append(g.line[:0], `{"type":"queue-operation","operation":"enqueue"`...)
	b = kv(b, "timestamp", g.tick(1, 2000))
	b = kv(b, "sessionId", c.sid)
	g.tmp = g.sentence(g.tmp[:0], 3+g.r.IntN(15))
	b = append(b, `,"content":`...)
	b = strb(b, g.tmp)
	g.line = append(b, '}')
	g.emit(c.out, g.line)
	b = append(g.line[:0], `{"type":"queue-operation","operation":`...)
	b = str(b, []string{"dequeue", "remove"}[g.r.IntN(2)])
	b = kv(b, "timestamp", g.tick(1, 2000))
	b = kv(b, "sessionId", c.sid)
	g.line = append(b, '}')
	g.emit(c.out, g.line)
}

func (c *conv) history() {
	if c.agentID != "" {
		return
	}
	g := c.g
	b := append(g.line[:0], `{"display":`...)
	b = str(b, c.lastInput)
	b = append(b, `,"pastedContents":{}`...)
	b = ki(b, "timestamp", g.clock.UnixMilli())
	b = kv(b, "project", c.p.cwd)
	b = kv(b, "sessionId", c.sid)
	g.line = append(b, '}')
	g.emit(g.hist, g.line)
}

// snapshot writes a file-history-snapshot of the tracked files.
func (c *conv) snapshot(update bool) {
	if c.agentID != "" {
		return
	}
	g := c.g
	b := append(g.line[:0], `{"type":"file-history-snapshot","messageId":`...)
	b = str(b, c.prompt)
	b = append(b, `,"snapshot":{"messageId":`...)
	b = str(b, c.prompt)
	b = append(b, `,"trackedFileBackups":{`...)
	for i, t := range c.tracked {
		if i > 0 {
			b = append(b, ',')
		}
		b = str(b, t.path)
		b = append(b, `:{"backupFileName":`...)
		b = str(b, backupName(t.path, t.version))
		b = ki(b, "version", int64(t.version))
		b = kv(b, "backupTime", t.time)
		b = append(b, '}')
	}
	b = append(b, '}')
	b = kv(b, "timestamp", c.promptTS)
	b = append(b, `},"isSnapshotUpdate":`...)
	b = strconv.AppendBool(b, update)
	g.line = append(b, '}')
	g.emit(c.out, g.line)
}

// backup records an edit of path: the first edit of a file in a turn takes
// a new backup version.
func (c *conv) backup(path string) bool {
	g := c.g
	i := 0
	for i < len(c.tracked) && c.tracked[i].path != path {
		i++
	}
	if i == len(c.tracked) {
		c.tracked = append(c.tracked, backup{path: path})
	}
	t := &c.tracked[i]
	if t.turn == c.prompt {
		return false
	}
	t.turn = c.prompt
	t.version++
	t.time = g.now()
	g.tmp2 = g.code(g.tmp2[:0], 10+int(g.r.ExpFloat64()*120), false)
	g.writeFile(filepath.Join(g.dir, "file-history", c.sid, backupName(path, t.version)), g.tmp2)
	g.st.Backups++
	return true
}

func (c *conv) writeTodos() {
	g := c.g
	b := append(g.tmp[:0], '[')
	for i, t := range c.todos {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n  {\n    \"content\": "...)
		b = str(b, t.content)
		b = append(b, ",\n    \"status\": "...)
		b = str(b, t.status)
		b = append(b, ",\n    \"activeForm\": "...)
		b = str(b, t.active)
		b = append(b, "\n  }"...)
	}
	if len(c.todos) > 0 {
		b = append(b, '\n')
	}
	g.tmp = append(b, ']')
	g.writeFile(filepath.Join(g.dir, "todos", c.sid+"-agent-"+c.sid+".json"), g.tmp)
}

// round is one assistant message: thinking, text and tool calls, one line
// per content block, then the tool results.
func (c *conv) round(final bool) {
	g := c.g
	msg := g.token("msg_01", 22)
	req := g.token("req_011C", 20)
	var calls []*call
	if !final {
		n := 1
		if g.r.IntN(5) == 0 {
			n = 2 + g.r.IntN(3) // parallel tool calls
		}
		for i := 0; i < n; i++ {
			calls = append(calls, c.plan())
		}
	}
	stop := `"end_turn"`
	if len(calls) > 0 {
		stop = `"tool_use"`
	}
	usage := c.usage()
	block := func(content []byte) string {
		u := g.uuid()
		b := c.head(g.line[:0], c.last)
		b = append(b, `,"message":{"model":`...)
		b = str(b, c.model)
		b = kv(b, "id", msg)
		b = append(b, `,"type":"message","role":"assistant","content":[`...)
		b = append(b, content...)
		b = append(b, `],"stop_reason":`...)
		b = append(b, stop...)
		b = append(b, `,"stop_sequence":null,"usage":`...)
		b = append(b, usage...)
		b = append(b, '}')
		b = kv(b, "requestId", req)
		b = append(b, `,"type":"assistant"`...)
		c.tail(b, u, g.tick(300, 9000))
		return u
	}
	if g.r.IntN(2) == 0 {
		g.tmp = g.prose(g.tmp[:0], 100+int(g.r.ExpFloat64()*1200))
		b := append(g.tmp2[:0], `{"type":"thinking","thinking":`...)
		b = strb(b, g.tmp)
		b = kv(b, "signature", g.token("Eq", 200+g.r.IntN(1200)))
		g.tmp2 = append(b, '}')
		block(g.tmp2)
	}
	if final || g.r.IntN(2) == 0 {
		n := 40 + int(g.r.ExpFloat64()*250)
		if final {
			n = 200 + int(g.r.ExpFloat64()*1500)
		}
		g.tmp = g.prose(g.tmp[:0], n)
		b := append(g.tmp2[:0], `{"type":"text","text":`...)
		g.tmp2 = append(strb(b, g.tmp), '}')
		block(g.tmp2)
	}
	for _, cl := range calls {
		b := append(g.tmp2[:0], `{"type":"tool_use","id":`...)
		b = str(b, cl.id)
		b = kv(b, "name", cl.name)
		b = append(b, `,"input":`...)
		b = append(b, cl.input...)
		g.tmp2 = append(b, '}')
		cl.line = block(g.tmp2)
		for i, n := 0, g.r.IntN(3); i < n; i++ {
			c.progress(cl.id, "PreToolUse", "PreToolUse:"+cl.name)
		}
	}
	var edited []string
	for _, cl := range calls {
		if cl.name == "Task" {
			c.subagent(cl)
		}
		c.result(cl)
		if cl.name == "Edit" || cl.name == "Write" {
			edited = append(edited, cl.path)
		}
		if g.r.IntN(4) == 0 {
			c.progress(cl.id, "PostToolUse", "PostToolUse:"+cl.name)
		}
	}
	changed := false
	for _, p := range edited {
		if c.agentID == "" && c.backup(p) {
			changed = true
		}
	}
	if changed {
		c.snapshot(true)
	}
}

func (c *conv) usage() []byte {
	g := c.g
	b := append([]byte(nil), `{"input_tokens":`...)
	b = strconv.AppendInt(b, int64(1+g.r.IntN(9)), 10)
	cc := int64(g.r.IntN(30000))
	b = ki(b, "cache_creation_input_tokens", cc)
	b = ki(b, "cache_read_input_tokens", int64(g.r.IntN(150000)))
	b = append(b, `,"cache_creation":{"ephemeral_5m_input_tokens":0`...)
	b = ki(b, "ephemeral_1h_input_tokens", cc)
	b = append(b, '}')
	b = ki(b, "output_tokens", int64(1+g.r.IntN(4000)))
	b = append(b, `,"service_tier":"standard"}`...)
	return b
}

// plan picks a tool call and its input.
func (c *conv) plan() *call {
	g := c.g
	cl := &call{id: g.token("toolu_01", 22)}
	k := g.r.IntN(100)
	switch {
	case k < 30:
		cl.name = "Bash"
	case k < 55:
		cl.name = "Read"
	case k < 68:
		cl.name = "Edit"
	case k < 73:
		cl.name = "Write"
	case k < 83:
		cl.name = "Grep"
	case k < 90:
		cl.name = "Glob"
	case k < 95 && c.agentID == "":
		cl.name = "TodoWrite"
	case k < 98 && c.agentID == "":
		cl.name = "Task"
	default:
		cl.name = "Bash"
	}
	cl.path = c.p.files[g.r.IntN(len(c.p.files))]
	b := []byte{'{'}
	switch cl.name {
	case "Bash":
		b = append(b, `"command":`...)
		b = str(b, []string{"go test ./...", "git status", "ls -la " + cl.path, "make " + g.ident(), "rg " + g.ident()}[g.r.IntN(5)])
		b = kv(b, "description", string(g.sentence(nil, 3+g.r.IntN(5))))
	case "Read":
		b = append(b, `"file_path":`...)
		b = str(b, cl.path)
	case "Edit":
		b = append(b, `"file_path":`...)
		b = str(b, cl.path)
		b = kv(b, "old_string", string(g.code(nil, 1+g.r.IntN(8), false)))
		b = kv(b, "new_string", string(g.code(nil, 1+g.r.IntN(12), false)))
	case "Write":
		b = append(b, `"file_path":`...)
		b = str(b, cl.path)
		b = kv(b, "content", string(g.code(nil, 5+int(g.r.ExpFloat64()*80), false)))
	case "Grep", "Glob":
		b = append(b, `"pattern":`...)
		b = str(b, g.ident())
		b = kv(b, "path", c.p.cwd)
	case "TodoWrite":
		c.todos = c.todos[:0]
		for i, n := 0, 2+g.r.IntN(6); i < n; i++ {
			c.todos = append(c.todos, todo{string(g.sentence(nil, 3+g.r.IntN(6))),
				[]string{"completed", "in_progress", "pending"}[g.r.IntN(3)], string(g.sentence(nil, 3))})
		}
		b = append(b, `"todos":`...)
		b = c.todoJSON(b)
	case "Task":
		cl.prompt = string(g.prose(nil, 200+g.r.IntN(1500)))
		b = append(b, `"description":`...)
		b = str(b, string(g.sentence(nil, 3)))
		b = kv(b, "prompt", cl.prompt)
		b = kv(b, "subagent_type", []string{"Explore", "general-purpose", "Plan"}[g.r.IntN(3)])
	}
	cl.input = append(b, '}')
	return cl
}

func (c *conv) todoJSON(b []byte) []byte {
	b = append(b, '[')
	for i, t := range c.todos {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"content":`...)
		b = str(b, t.content)
		b = kv(b, "status", t.status)
		b = kv(b, "activeForm", t.active)
		b = append(b, '}')
	}
	return append(b, ']')
}

// outputLines picks how much a tool prints: mostly little, sometimes a lot,
// rarely megabytes on one line.
func (c *conv) outputLines() int {
	g := c.g
	k := g.r.IntN(1000)
	switch {
	case k < 2 && c.spare > 64<<20:
		return 20000 + g.r.IntN(60000) // 1-5 MB
	case k < 40:
		return 300 + g.r.IntN(1500)
	case k < 300:
		return 30 + g.r.IntN(300)
	default:
		return 1 + g.r.IntN(40)
	}
}

// result writes the tool_result entry answering cl.
func (c *conv) result(cl *call) {
	g := c.g
	u := g.uuid()
	isErr := g.r.IntN(25) == 0
	var tur []byte // toolUseResult
	g.tmp = g.tmp[:0]
	switch {
	case isErr:
		g.tmp = append(g.tmp, "Exit code 1\n"...)
		g.tmp = g.shell(g.tmp, 1+g.r.IntN(6))
		tur = strb([]byte(nil), append([]byte("Error: "), g.tmp...))
	case cl.name == "Bash":
		g.tmp = g.shell(g.tmp, c.outputLines())
		tur = append([]byte(nil), `{"stdout":`...)
		tur = strb(tur, g.tmp)
		tur = append(tur, `,"stderr":"","interrupted":false,"isImage":false}`...)
	case cl.name == "Read":
		g.tmp2 = g.code(g.tmp2[:0], c.outputLines(), false)
		g.tmp = number(g.tmp, g.tmp2)
		tur = append([]byte(nil), `{"type":"text","file":{"filePath":`...)
		tur = str(tur, cl.path)
		tur = append(tur, `,"content":`...)
		tur = strb(tur, g.tmp2)
		n := int64(countLines(g.tmp2))
		tur = ki(tur, "numLines", n)
		tur = append(tur, `,"startLine":1`...)
		tur = ki(tur, "totalLines", n)
		tur = append(tur, '}', '}')
	case cl.name == "Edit":
		g.tmp = append(g.tmp, "The file "...)
		g.tmp = append(g.tmp, cl.path...)
		g.tmp = append(g.tmp, " has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n"...)
		g.tmp2 = g.code(g.tmp2[:0], 5+g.r.IntN(20), false)
		g.tmp = number(g.tmp, g.tmp2)
		tur = append([]byte(nil), `{"filePath":`...)
		tur = str(tur, cl.path)
		tur = append(tur, `,"originalFile":`...)
		g.tmp2 = g.code(g.tmp2[:0], c.outputLines(), false)
		tur = strb(tur, g.tmp2)
		tur = append(tur, `,"structuredPatch":[],"userModified":false,"replaceAll":false}`...)
	case cl.name == "Write":
		g.tmp = append(g.tmp, "File created successfully at: "...)
		g.tmp = append(g.tmp, cl.path...)
		tur = append([]byte(nil), `{"type":"create","filePath":`...)
		tur = str(tur, cl.path)
		tur = append(tur, `,"structuredPatch":[]}`...)
	case cl.name == "Grep" || cl.name == "Glob":
		n := 1 + g.r.IntN(30)
		g.tmp = append(g.tmp, "Found "...)
		g.tmp = strconv.AppendInt(g.tmp, int64(n), 10)
		g.tmp = append(g.tmp, " files\n"...)
		tur = append([]byte(nil), `{"mode":"files_with_matches","filenames":[`...)
		for i := 0; i < n; i++ {
			f := c.p.files[g.r.IntN(len(c.p.files))]
			g.tmp = append(g.tmp, f...)
			g.tmp = append(g.tmp, '\n')
			if i > 0 {
				tur = append(tur, ',')
			}
			tur = str(tur, f)
		}
		tur = append(tur, ']')
		tur = ki(tur, "numFiles", int64(n))
		tur = append(tur, '}')
	case cl.name == "TodoWrite":
		g.tmp = append(g.tmp, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress."...)
		tur = append([]byte(nil), `{"oldTodos":[],"newTodos":`...)
		tur = c.todoJSON(tur)
		tur = append(tur, '}')
	case cl.name == "Task":
		g.tmp = g.prose(g.tmp, 300+g.r.IntN(3000))
		tur = append([]byte(nil), `{"status":"completed","prompt":`...)
		tur = str(tur, cl.prompt)
		tur = kv(tur, "agentId", cl.path)
		tur = append(tur, `,"content":[{"type":"text","text":`...)
		tur = strb(tur, g.tmp)
		tur = append(tur, `}]`...)
		tur = ki(tur, "totalDurationMs", int64(5000+g.r.IntN(200000)))
		tur = ki(tur, "totalTokens", int64(1000+g.r.IntN(90000)))
		tur = ki(tur, "totalToolUseCount", int64(1+g.r.IntN(40)))
		tur = append(tur, '}')
	}
	b := c.head(g.line[:0], cl.line)
	b = append(b, `,"type":"user","message":{"role":"user","content":[{"tool_use_id":`...)
	b = str(b, cl.id)
	b = append(b, `,"type":"tool_result","content":`...)
	if cl.name == "Task" && !isErr {
		b = append(b, `[{"type":"text","text":`...)
		b = strb(b, g.tmp)
		b = append(b, `}]`...)
	} else {
		b = strb(b, g.tmp)
	}
	if isErr {
		b = append(b, `,"is_error":true`...)
	}
	b = append(b, `}]}`...)
	b = kv(b, "uuid", u)
	b = kv(b, "timestamp", g.tick(20, 30000))
	b = append(b, `,"toolUseResult":`...)
	b = append(b, tur...)
	b = kv(b, "sourceToolAssistantUUID", cl.line)
	g.line = append(b, '}')
	g.emit(c.out, g.line)
	c.last = u
}

// subagent writes the transcript of the agent a Task call starts; the
// agent id goes to cl.path for the Task result.
func (c *conv) subagent(cl *call) {
	g := c.g
	id := "a" + g.hexID(16)
	cl.path = id
	out, err := g.create(filepath.Join(g.dir, "projects", c.p.enc, c.sid, "subagents", "agent-"+id+".jsonl"))
	if err != nil {
		g.err = err
		return
	}
	g.st.Subagents++
	budget := min(max(c.budget/(4+int64(g.r.IntN(12))), 6<<10), 8<<20)
	a := &conv{g: g, p: c.p, out: out, sid: c.sid, agentID: id, version: c.version, slug: c.slug,
		model: models[g.r.IntN(len(models))], budget: budget, spare: c.spare - c.budget}
	b := a.head(g.line[:0], "")
	b = append(b, `,"type":"user","message":{"role":"user","content":`...)
	b = str(b, cl.prompt)
	b = append(b, '}')
	a.tail(b, g.uuid(), g.tick(10, 500))
	for out.n < budget && g.err == nil {
		a.round(false)
	}
	a.round(true)
	g.closeSink(out)
}

func number(dst, src []byte) []byte {
	n := 1
	start := 0
	for i := 0; i <= len(src); i++ {
		if i < len(src) && src[i] != '\n' {
			continue
		}
		if i == len(src) && start == i {
			break
		}
		s := strconv.Itoa(n)
		for j := len(s); j < 6; j++ {
			dst = append(dst, ' ')
		}
		dst = append(dst, s...)
		dst = append(dst, '\t')
		dst = append(dst, src[start:i]...)
		dst = append(dst, '\n')
		start = i + 1
		n++
	}
	return dst
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}
