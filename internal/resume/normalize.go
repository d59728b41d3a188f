package resume

import (
	"slices"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/chain"
	"github.com/ccvet/ccvet/internal/entry"
)

// blk is a block and the record it came from (-1: made by the reader).
type blk struct {
	b   Block
	rec int
}

// msg is a message while it is being normalised.
type msg struct {
	role   string
	id     entry.ID // assistant message.id
	blocks []blk
	str    bool // sent as a plain string
	// bare: an assistant message one of whose entries has message.content
	// [] (the reader sends it as "(no content)" when nothing else fills it).
	bare bool
	// filled: a user message beside which the conversation holds
	// attachment entries (the environment, the date… of a prompt), which
	// the reader sends in it as reminders: it is never sent empty.
	filled bool
	recs   []int
	// What addRec knows of recs[:seen] (recs may have been appended to
	// directly since): top is at least their largest, has holds them all
	// once recs is long.
	seen, top int
	has       map[int]struct{}
}

// recsScanned is how long recs is looked through for a duplicate; past it,
// through a set (a message of thousands of user entries, not in file order).
const recsScanned = 32

// absorb appends o, a message of the same role the reader merges into m
// (two user messages in a row), to m: its blocks, records and attachments.
func (m *msg) absorb(o *msg) {
	m.blocks = append(m.blocks, o.blocks...)
	m.filled = m.filled || o.filled
	for _, i := range o.recs {
		m.addRec(i)
	}
}

// addRec adds record i to m's records unless they hold it. Records mostly
// come in file order, each after every record held: those need no search.
func (m *msg) addRec(i int) {
	for _, r := range m.recs[m.seen:] {
		m.top = max(m.top, r)
		if m.has != nil {
			m.has[r] = struct{}{}
		}
	}
	m.seen = len(m.recs)
	switch {
	case len(m.recs) == 0 || i > m.top:
	case m.has != nil:
		if _, ok := m.has[i]; ok {
			return
		}
	case len(m.recs) < recsScanned:
		if slices.Contains(m.recs, i) {
			return
		}
	default:
		m.has = make(map[int]struct{}, len(m.recs))
		for _, r := range m.recs {
			m.has[r] = struct{}{}
		}
		if _, ok := m.has[i]; ok {
			return
		}
	}
	m.recs = append(m.recs, i)
	m.top = max(m.top, i)
	if m.has != nil {
		m.has[i] = struct{}{}
	}
	m.seen++
}

// blocksOf is the content of record i as blocks.
func blocksOf(src Source, i int) ([]Block, bool) {
	r := src.Records[i]
	if src.Content != nil {
		switch c := src.Content(i).(type) {
		case string:
			return []Block{{"type": "text", "text": c}}, true
		case nil:
			if r.Type == "system" {
				return nil, false
			}
		case []any:
			out := make([]Block, 0, len(c))
			for _, x := range c {
				if m, ok := x.(map[string]any); ok {
					out = append(out, Block(m))
				}
			}
			return out, true
		}
		return nil, false
	}
	switch r.Type {
	case "system":
		// A local command's entry: its content string, as user text.
		return []Block{{"type": "text"}}, true
	case "attachment":
		// A queued prompt with an image: its text and at least one image.
		return []Block{{"type": "text"}, {"type": "image"}}, true
	}
	switch r.Content {
	case entry.ContentString:
		return []Block{{"type": "text"}}, true
	case entry.ContentArray:
		out := make([]Block, r.Blocks)
		typ := "text"
		if r.ThinkingOnly {
			typ = "thinking"
		}
		for k := range out {
			out[k] = Block{"type": typ}
		}
		for _, t := range r.ToolUses() {
			if int(t.Block) < len(out) {
				typ := "tool_use"
				if t.Server() {
					typ = "server_tool_use"
				}
				out[t.Block] = Block{"type": typ, "id": t.ID, "name": t.Name()}
			}
		}
		for _, t := range r.ToolResults() {
			if int(t.Block) < len(out) {
				out[t.Block] = Block{"type": "tool_result", "tool_use_id": t.ID}
			}
		}
		return out, true
	}
	return nil, false
}

// IsLocalCommand reports whether r is the system entry of a local command
// (/model, /cost…: its name and its output), which the reader sends as user
// text.
func IsLocalCommand(r *entry.Record) bool {
	return r.Type == "system" && r.Rare != nil && r.Subtype == "local_command"
}

// messages turns the conversation's entries into API messages: user and
// assistant entries (and local commands, as user text), assistant lines of
// one message.id and adjacent user entries merged.
func (res *Result) messages(src Source, g *chain.Graph, conv *chain.Conversation, p Profile) []*msg {
	var out []*msg
	// A thinking block's signature holds for the model of the last
	// assistant message (measured on 2.1.332: the resume's own model does
	// not matter).
	current := ""
	if p.ForeignThinking && src.Model != nil {
		for k := len(conv.Order) - 1; k >= 0 && current == ""; k-- {
			if i := conv.Order[k]; g.Records[i].Type == "assistant" {
				if m := src.Model(i); m != "<synthetic>" {
					current = m
				}
			}
		}
	}
	res.endsOnAPIError = false
	// fill: an attachment entry since the last assistant message, which
	// the reader may send as a reminder in the next user message.
	fill := false
	for _, i := range conv.Order {
		r := g.Records[i]
		role := r.Type
		switch {
		case r.Type == "user" || r.Type == "assistant":
		case IsLocalCommand(r), r.Type == "attachment" && r.QueuedImage:
			role = "user"
		case r.Type == "attachment":
			if n := len(out); n > 0 && out[n-1].role == "user" {
				out[n-1].filled = true
			} else {
				fill = true
			}
			continue
		default:
			continue
		}
		res.endsOnAPIError = r.Type == "assistant" && r.APIError
		if res.endsOnAPIError {
			res.LeftOut = append(res.LeftOut, Event{Kind: KindNotSent, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "an API error entry (isApiErrorMessage: an error the program gave up on); the reader does not send it (measured on 2.1.110, 2.1.330 and 2.1.332)"})
			continue
		}
		bs, ok := blocksOf(src, i)
		bare := ok && len(bs) == 0 && r.Content == entry.ContentArray
		if ok && r.TaskNotification && p.WrapTaskNotification {
			bs = wrapReminder(bs)
			res.Changed = append(res.Changed, Event{Kind: KindWrapped, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "a task notification (origin.kind \"task-notification\"); the reader sends its text inside a system reminder, with words of its own before it"})
		}
		if ok && r.Type == "attachment" {
			bs = queuedBlocks(bs)
			res.Changed = append(res.Changed, Event{Kind: KindWrapped, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "a prompt sent while a call ran (queued_command) that holds an image; the reader sends it with the call's result, its text inside a system reminder with words of its own, then its images (measured on 2.1.110, 2.1.330 and 2.1.332)"})
		}
		if ok && r.Type == "user" && p.WrapNotes && (r.OwnNote || r.HookText) {
			bs = wrapReminder(bs)
			why := "a note the program added to the turn (ownNote); this reader sends it inside a system reminder"
			if r.HookText {
				why = "a hook's output (hookText); this reader sends it inside a system reminder, with words of its own before it"
			}
			res.Changed = append(res.Changed, Event{Kind: KindWrapped, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: why + " (measured on 2.1.332; 2.1.330 sends it as it is)"})
		}
		if ok && r.Type == "assistant" && p.ForeignThinking && src.Model != nil {
			bs = res.foreignThinking(bs, src.Model(i), current, r, i)
		}
		if ok && r.Type == "user" && r.Content == entry.ContentArray && p.BlankText {
			bs = res.blankUserText(bs, r, i)
		}
		if ok && r.Type == "assistant" && allBlank(bs) {
			res.Changed = append(res.Changed, Event{Kind: KindBlankText, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "an assistant entry of only text blocks of only whitespace; the reader leaves it out (the user messages around it become one; measured on 2.1.110, 2.1.330 and 2.1.332)"})
			continue
		}
		if !ok {
			what := "has no message.content"
			if r.Content == entry.ContentOther {
				what = "has a message.content that is neither text nor a list of blocks"
			}
			res.LeftOut = append(res.LeftOut, Event{Kind: KindContentLost, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: r.Type + " entry " + what + "; the reader sends nothing for it (its text is lost)"})
			continue
		}
		var last *msg
		if len(out) > 0 {
			last = out[len(out)-1]
		}
		var m *msg
		switch {
		case last != nil && role == "user" && last.role == "user":
			m = last
		case last != nil && role == "assistant" && last.role == "assistant" && !r.MessageID().IsZero() && last.id == r.MessageID():
			m = last
		default:
			m = &msg{role: role, id: r.MessageID()}
			if role == "user" {
				m.filled, fill = fill, false
			} else {
				fill = false
			}
			out = append(out, m)
		}
		for _, b := range bs {
			m.blocks = append(m.blocks, blk{b, i})
		}
		m.bare = m.bare || bare && role == "assistant"
		m.addRec(i)
	}
	return out
}

// blank reports whether b is a text block whose text is known and only
// whitespace ("" too).
func blank(b Block) bool {
	t, ok := b["text"].(string)
	return ok && b.Type() == "text" && strings.TrimSpace(t) == ""
}

// blankUserText drops the text blocks of only whitespace from the blocks
// of user entry r (record i), a list (measured on 2.1.330 and 2.1.332:
// [" "], [""] and [" ", text]; 2.1.110 sends them). A message left with
// nothing is sent as "(no content)" unless attachments fill it (finish).
// A string content is sent as it is.
func (res *Result) blankUserText(bs []Block, r *entry.Record, i int) []Block {
	kept := bs[:0:0]
	for _, b := range bs {
		if !blank(b) {
			kept = append(kept, b)
		}
	}
	if len(kept) == len(bs) {
		return bs
	}
	if len(kept) == 0 {
		if res.blanked == nil {
			res.blanked = map[int]bool{}
		}
		res.blanked[i] = true
	}
	res.Changed = append(res.Changed, Event{Kind: KindBlankText, Line: int(r.Line), UUID: r.UUID(), rec: i,
		Reason: r.Type + " entry: the reader drops its text blocks of only whitespace (measured on 2.1.330 and 2.1.332; 2.1.110 sends them)"})
	return kept
}

// queuedBlocks is what the reader sends for a queued prompt's blocks: its
// texts, joined, inside a system reminder (its own words before them are
// not reproduced), then its other blocks (the images).
func queuedBlocks(bs []Block) []Block {
	var texts []string
	var rest []Block
	for _, b := range bs {
		if b.Type() == "text" {
			if t, ok := b["text"].(string); ok {
				texts = append(texts, t)
			}
			continue
		}
		rest = append(rest, b)
	}
	return append([]Block{reminder(strings.Join(texts, "\n"))}, rest...)
}

// reminder is a text block holding t inside a system reminder.
func reminder(t string) Block {
	return Block{"type": "text", "text": "<system-reminder>\n" + t + "\n</system-reminder>"}
}

// wrapReminder puts each text of a task notification inside a system
// reminder, as the reader does (its own words before the text are not
// reproduced).
func wrapReminder(bs []Block) []Block {
	out := make([]Block, len(bs))
	for k, b := range bs {
		if t, ok := b["text"].(string); ok && b.Type() == "text" {
			b = reminder(t)
		}
		out[k] = b
	}
	return out
}

// foreignThinking drops the signed thinking blocks of an assistant entry
// written by another model than the conversation's last assistant message.
func (res *Result) foreignThinking(bs []Block, model, current string, r *entry.Record, i int) []Block {
	if model == "" || current == "" || SameModel(model, current) {
		return bs
	}
	var out []Block
	for _, b := range bs {
		if b.Type() == "thinking" && b.str("signature") != "" {
			res.LeftOut = append(res.LeftOut, Event{Kind: KindThinkingDropped, Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "a signed thinking block of model " + strconv.Quote(model) + ", not the model of the last assistant message (" +
					strconv.Quote(current) + "); the reader leaves it out"})
			continue
		}
		out = append(out, b)
	}
	return out
}

// SameModel reports whether two message.model names are one model for the
// reader: "claude-sonnet-4-5-20250929", "claude-sonnet-4-5",
// "anthropic/claude-sonnet-4.5" and
// "us.anthropic.claude-sonnet-4-5-20250929-v1:0" are; "<synthetic>" (the
// program's own message) is every model (measured on 2.1.332).
func SameModel(a, b string) bool {
	if a == "<synthetic>" || b == "<synthetic>" {
		return true
	}
	return modelKey(a) == modelKey(b)
}

func modelKey(m string) string {
	m = strings.ToLower(strings.TrimSpace(m))
	if i := strings.LastIndexByte(m, '/'); i >= 0 {
		m = m[i+1:]
	}
	if i := strings.IndexByte(m, '@'); i >= 0 { // Vertex: claude-sonnet-4-5@20250929
		m = m[:i]
	}
	if i := strings.Index(m, "claude-"); i > 0 { // Bedrock: us.anthropic.claude-…
		m = m[i:]
	}
	if i := strings.LastIndex(m, "-v"); i >= 0 && i+2 < len(m) && m[i+2] >= '0' && m[i+2] <= '9' {
		m = m[:i]
	}
	m = strings.ReplaceAll(m, ".", "-")
	if i := strings.LastIndexByte(m, '-'); i >= 0 && len(m)-i-1 == 8 && allDigits(m[i+1:]) {
		m = m[:i]
	}
	return m
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// dropThinkingOnly leaves out the assistant messages that hold only
// thinking (a reply cut off while it thought, or one whose thinking was
// another model's) or nothing; the user messages around one merge. One
// left with nothing because its content is [] is sent as "(no content)";
// its empty text blocks are dropped first (blankAssistantText).
func (res *Result) dropThinkingOnly(msgs []*msg, p Profile) []*msg {
	var out []*msg
	for _, m := range msgs {
		if m.role == "assistant" {
			m.blocks = res.blankAssistantText(m, p.BlankText)
		}
		if m.role == "assistant" && len(m.blocks) == 0 && m.bare {
			// An entry of it had message.content [] and nothing fills it.
			i := m.recs[0]
			m.blocks = []blk{{Block{"type": "text", "text": TextNoContent}, -1}}
			res.Changed = append(res.Changed, Event{Kind: KindBlankText, Line: res.lineOf(i), UUID: res.uuidOf(i), rec: i,
				Reason: "an assistant message whose message.content is []; the reader sends the text \"" + TextNoContent + "\" (measured on 2.1.110, 2.1.330 and 2.1.332)"})
		}
		if m.role == "assistant" && onlyThinking(m.blocks) {
			for _, b := range m.blocks {
				res.LeftOut = append(res.LeftOut, Event{Kind: KindThinkingDropped, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), rec: b.rec,
					Reason: "an assistant message that holds only thinking (no text or call of its message.id follows it: a reply cut off while it thought); the reader leaves it out"})
			}
			if len(m.blocks) == 0 && len(m.recs) > 0 {
				i := m.recs[0]
				res.LeftOut = append(res.LeftOut, Event{Kind: KindThinkingDropped, Line: res.lineOf(i), UUID: res.uuidOf(i), rec: i,
					Reason: "an assistant message left with nothing to send; the reader leaves it out and the user messages around it become one"})
			}
			continue
		}
		if n := len(out); n > 0 && m.role == "user" && out[n-1].role == "user" {
			out[n-1].absorb(m)
			continue
		}
		out = append(out, m)
	}
	return out
}

// allBlank reports whether bs, an entry's blocks, are at least one and
// all texts of only whitespace.
func allBlank(bs []Block) bool {
	for _, b := range bs {
		if !blank(b) {
			return false
		}
	}
	return len(bs) > 0
}

// emptyText reports whether b is a text block whose text is known and "".
func emptyText(b Block) bool {
	t, ok := b["text"].(string)
	return ok && b.Type() == "text" && t == ""
}

// blankAssistantText is the blocks of assistant message m as the reader
// sends them: when dropEmpty, without its empty texts (a text of spaces
// beside a call is sent; measured on 2.1.330 and 2.1.332; 2.1.110 sends
// the empty ones). An entry of only blank texts never reaches it (see
// messages).
func (res *Result) blankAssistantText(m *msg, dropEmpty bool) []blk {
	if !dropEmpty || !slices.ContainsFunc(m.blocks, func(b blk) bool { return emptyText(b.b) }) {
		return m.blocks
	}
	kept := m.blocks[:0:0]
	for _, b := range m.blocks {
		if emptyText(b.b) {
			res.Changed = append(res.Changed, Event{Kind: KindBlankText, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), rec: b.rec,
				Reason: "an empty text block of an assistant message; the reader drops it (measured on 2.1.330 and 2.1.332; 2.1.110 sends it)"})
			continue
		}
		kept = append(kept, b)
	}
	return kept
}

func onlyThinking(bs []blk) bool {
	for _, b := range bs {
		if t := b.b.Type(); t != "thinking" && t != "redacted_thinking" {
			return false
		}
	}
	return true
}

func hasResult(m *msg, id string) int {
	if m == nil || m.role != "user" {
		return -1
	}
	for k, b := range m.blocks {
		if b.b.Type() == "tool_result" && b.b.str("tool_use_id") == id {
			return k
		}
	}
	return -1
}

// resultsIn is a test of whether m holds a tool_result for an id, asked
// about up to calls ids: hasResult, or a set of m's results when both are
// many (a batch of thousands of calls).
func resultsIn(m *msg, calls int) func(id string) bool {
	if m == nil || m.role != "user" || calls*len(m.blocks) <= 64 {
		return func(id string) bool { return hasResult(m, id) >= 0 }
	}
	ids := make(map[string]struct{}, len(m.blocks))
	for _, b := range m.blocks {
		if b.b.Type() == "tool_result" {
			ids[b.b.str("tool_use_id")] = struct{}{}
		}
	}
	return func(id string) bool {
		_, ok := ids[id]
		return ok
	}
}

// lastResult is the index of the last tool_result for id in m, or -1.
func lastResult(m *msg, id string) int {
	if m == nil || m.role != "user" {
		return -1
	}
	for k := len(m.blocks) - 1; k >= 0; k-- {
		if b := m.blocks[k]; b.b.Type() == "tool_result" && b.b.str("tool_use_id") == id {
			return k
		}
	}
	return -1
}

func (res *Result) lineOf(i int) int {
	if i < 0 {
		return 0
	}
	return int(res.Graph.Records[i].Line)
}

func (res *Result) uuidOf(i int) string {
	if i < 0 {
		return ""
	}
	return res.Graph.Records[i].UUID()
}

// pairTools does what the reader does to tool calls and results before
// sending: duplicates, re-attachment, unanswered calls, orphan results.
func (res *Result) pairTools(msgs []*msg, src Source, g *chain.Graph, conv *chain.Conversation, p Profile) []*msg {
	at := func(k int) *msg {
		if k >= 0 && k < len(msgs) {
			return msgs[k]
		}
		return nil
	}
	// Duplicate tool ids: the later call becomes text, its answer "(no content)".
	seen := map[string]bool{}
	for k, m := range msgs {
		if m.role != "assistant" {
			continue
		}
		here := map[string]bool{}
		var keep []blk
		for _, b := range m.blocks {
			if b.b.Type() == "tool_use" && here[b.b.str("id")] {
				id := b.b.str("id")
				if n := at(k + 1); n != nil {
					if ri := lastResult(n, id); ri >= 0 && ri != hasResult(n, id) {
						n.blocks = append(n.blocks[:ri:ri], n.blocks[ri+1:]...)
					}
				}
				res.LeftOut = append(res.LeftOut, Event{Kind: KindDuplicateID, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec,
					Reason: "tool_use " + id + " repeats a call of the same message; the reader drops it and its result"})
				continue
			}
			if b.b.Type() == "tool_use" {
				here[b.b.str("id")] = true
			}
			keep = append(keep, b)
		}
		m.blocks = keep
		for bi, b := range m.blocks {
			if b.b.Type() != "tool_use" {
				continue
			}
			id := b.b.str("id")
			if !seen[id] {
				seen[id] = true
				continue
			}
			m.blocks[bi] = blk{Block{"type": "text", "text": TextInterrupted}, b.rec}
			reason := "tool_use " + id + " repeats an earlier call's id; the reader sends this call as the text \"" + TextInterrupted + "\""
			if n := at(k + 1); n != nil {
				if ri := hasResult(n, id); ri >= 0 {
					n.blocks = append(n.blocks[:ri:ri], n.blocks[ri+1:]...)
					if len(n.blocks) == 0 {
						n.str = true
					}
					reason += " and its result as \"" + TextNoContent + "\": what the tool returned is lost"
				}
			}
			res.Changed = append(res.Changed, Event{Kind: KindDuplicateID, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec, Reason: reason})
		}
	}
	// Results whose call is on the conversation but which are not: 2.1.330 re-attaches them.
	if p.Reattach {
		onConv := map[int]bool{}
		for _, m := range msgs {
			for _, i := range m.recs {
				onConv[i] = true
			}
		}
		offResult := map[string]int{} // tool_use_id -> kept user record off the conversation holding it
		for i, r := range g.Records {
			if r.Type != "user" || !g.Kept(i) || onConv[i] || conv.On(i) {
				continue
			}
			for _, t := range r.ToolResults() {
				if _, ok := offResult[t.ID]; !ok {
					offResult[t.ID] = i
				}
			}
		}
		// A batch of thousands of calls whose results are off the
		// conversation is put back in one pass: each result line's blocks
		// indexed once, each message's result ids and records kept as
		// sets, and the results put before each message's blocks at the
		// end (the last put back first, as one at a time would).
		resultsIn := map[int]map[string]Block{} // record -> its last tool_result block for each id
		resultOf := func(ri int, id string) Block {
			x, ok := resultsIn[ri]
			if !ok {
				x = map[string]Block{}
				if bs, ok := blocksOf(src, ri); ok {
					for _, b := range bs {
						if b.Type() == "tool_result" {
							x[b.str("tool_use_id")] = b
						}
					}
				}
				resultsIn[ri] = x
			}
			return x[id]
		}
		type putBack struct {
			ids    map[string]bool // tool_use_ids of the message's results
			recs   map[int]bool
			blocks []blk // put back, in order
		}
		backs := map[*msg]*putBack{}
		backOf := func(n *msg) *putBack {
			pb := backs[n]
			if pb == nil {
				pb = &putBack{ids: map[string]bool{}, recs: map[int]bool{}}
				for _, b := range n.blocks {
					if b.b.Type() == "tool_result" {
						pb.ids[b.b.str("tool_use_id")] = true
					}
				}
				for _, r := range n.recs {
					pb.recs[r] = true
				}
				backs[n] = pb
			}
			return pb
		}
		for k := 0; k < len(msgs); k++ {
			m := msgs[k]
			if m.role != "assistant" || len(offResult) == 0 {
				continue
			}
			for _, b := range m.blocks {
				if b.b.Type() != "tool_use" {
					continue
				}
				id := b.b.str("id")
				ri, ok := offResult[id]
				if !ok {
					continue
				}
				if n := at(k + 1); n != nil && n.role == "user" && backOf(n).ids[id] {
					continue // hasResult
				}
				rb := resultOf(ri, id)
				if rb == nil {
					continue
				}
				n := at(k + 1)
				if n == nil || n.role != "user" {
					n = &msg{role: "user"}
					msgs = append(msgs[:k+1], append([]*msg{n}, msgs[k+1:]...)...)
				}
				pb := backOf(n)
				pb.blocks = append(pb.blocks, blk{rb, ri})
				pb.ids[id] = true
				if !pb.recs[ri] {
					pb.recs[ri] = true
					n.recs = append(n.recs, ri) // addRec
				}
				delete(offResult, id)
				res.Changed = append(res.Changed, Event{Kind: KindReattached, Line: res.lineOf(ri), UUID: res.uuidOf(ri), Tool: id, rec: ri,
					Reason: "this tool_result is not on the conversation but its call (line " + strconv.Itoa(res.lineOf(b.rec)) +
						") is; the reader puts it back after the call by its id"})
			}
		}
		for n, pb := range backs {
			if len(pb.blocks) == 0 {
				continue
			}
			blocks := make([]blk, 0, len(pb.blocks)+len(n.blocks))
			for k := len(pb.blocks) - 1; k >= 0; k-- {
				blocks = append(blocks, pb.blocks[k])
			}
			n.blocks = append(blocks, n.blocks...)
		}
	}
	// Orphan results: a result whose call is not in the message just before.
	var kept []*msg
	for k, m := range msgs {
		if m.role == "user" {
			prev := map[string]bool{}
			if k > 0 && msgs[k-1].role == "assistant" {
				for _, b := range msgs[k-1].blocks {
					if b.b.Type() == "tool_use" {
						prev[b.b.str("id")] = true
					}
				}
			}
			had := len(m.blocks)
			var nb []blk
			for _, b := range m.blocks {
				if b.b.Type() == "tool_result" && !prev[b.b.str("tool_use_id")] {
					id := b.b.str("tool_use_id")
					res.LeftOut = append(res.LeftOut, Event{Kind: KindResultDropped, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec,
						Reason: "tool_result for " + id + " does not follow its call on the conversation; the reader drops it"})
					continue
				}
				nb = append(nb, b)
			}
			m.blocks = nb
			if had > 0 && len(nb) == 0 && !m.str {
				if len(kept) == 0 && p.OrphanMarker {
					m.blocks = []blk{{Block{"type": "text", "text": TextOrphaned}, -1}}
					res.Changed = append(res.Changed, Event{Kind: KindOrphanedMarker, Line: res.lineOf(m.recs[0]), rec: -1,
						Reason: "the first message held only dropped results; the reader sends the text \"" + TextOrphaned + "\" instead"})
				} else {
					continue
				}
			}
		}
		kept = append(kept, m)
	}
	msgs = kept
	// Unanswered calls: dropped, except a trailing one on 2.1.330 (synthetic error result).
	kept = nil
	for k, m := range msgs {
		if m.role != "assistant" {
			kept = append(kept, m)
			continue
		}
		next := at(k + 1)
		answered := resultsIn(next, len(m.blocks))
		// The conversation ends on results of this message's calls: the
		// calls without one were still running (measured on 2.1.110,
		// 2.1.330 and 2.1.332; the hand cases parallel-*-missing-end).
		endsOnBatch := next != nil && k+2 == len(msgs) && next.role == "user" && endsOnResult(next)
		// The entries (records) with an answered call: 2.1.110 keeps
		// their other calls there (MissingResultFirst).
		var answeredIn map[int]bool
		if endsOnBatch && p.MissingResultFirst {
			for _, b := range m.blocks {
				if b.b.Type() == "tool_use" && answered(b.b.str("id")) {
					if answeredIn == nil {
						answeredIn = map[int]bool{}
					}
					answeredIn[b.rec] = true
				}
			}
		}
		var nb []blk
		var synth, first []blk
		for _, b := range m.blocks {
			if b.b.Type() != "tool_use" || answered(b.b.str("id")) {
				nb = append(nb, b)
				continue
			}
			id := b.b.str("id")
			if answeredIn[b.rec] {
				nb = append(nb, b)
				first = append(first, blk{Block{"type": "tool_result", "tool_use_id": id, "content": TextResultMissing, "is_error": true}, -1})
				res.Changed = append(res.Changed, Event{Kind: KindSynthetic, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec,
					Reason: "the file ends on results of other calls of this entry, not this one's (a crash while it ran); this reader keeps it and puts an is_error result \"" + TextResultMissing + "\" before them (measured on 2.1.110)"})
				continue
			}
			if (next == nil || endsOnBatch) && p.SyntheticResult {
				nb = append(nb, b)
				synth = append(synth, blk{Block{"type": "tool_result", "tool_use_id": id, "is_error": true, "content": TextToolError}, -1})
				why := "the file ends on this call with no result (a crash while the tool ran); the reader keeps it and adds an is_error result"
				if next != nil {
					why = "the file ends on results of other calls of this message, not this one's (a crash while it ran); the reader keeps it and adds an is_error result after them"
				}
				res.Changed = append(res.Changed, Event{Kind: KindSynthetic, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec, Reason: why})
				continue
			}
			why, kind := "tool_use "+id+" has no result in the next message; the reader drops the call", KindCallDropped
			if next == nil {
				why = "the file ends on this call with no result (a crash while the tool ran); this reader drops the call (2.1.330 keeps it with a synthetic error result)"
				kind = KindTrailingDropped
			}
			res.LeftOut = append(res.LeftOut, Event{Kind: kind, Line: res.lineOf(b.rec), UUID: res.uuidOf(b.rec), Tool: id, rec: b.rec, Reason: why})
		}
		m.blocks = nb
		if len(nb) > 0 {
			kept = append(kept, m)
		}
		if len(first) > 0 {
			next.blocks = append(first, next.blocks...)
		}
		if len(synth) > 0 && next != nil {
			next.blocks = append(next.blocks, synth...)
		} else if len(synth) > 0 {
			kept = append(kept, &msg{role: "user", blocks: synth})
		}
	}
	// Removing messages can leave two user messages side by side: merged.
	var out []*msg
	for _, m := range kept {
		if n := len(out); n > 0 && m.role == "user" && out[n-1].role == "user" && !m.str && !out[n-1].str {
			out[n-1].absorb(m)
			continue
		}
		out = append(out, m)
	}
	return out
}

// endsOnResult reports whether the last entry of m starts with a
// tool_result block: then 2.1.110 adds its continue text (a user text after
// the result, as an interrupted call leaves, gets none: measured).
func endsOnResult(m *msg) bool {
	if len(m.blocks) == 0 {
		return false
	}
	last := m.blocks[len(m.blocks)-1].rec
	if last < 0 {
		return false
	}
	for _, b := range m.blocks {
		if b.rec == last {
			return b.b.Type() == "tool_result"
		}
	}
	return false
}

// localCommandEnd reports whether the last user message ends with what a
// local command (/compact…) or a compaction wrote, after which the reader
// adds no reply: a compaction summary in it (measured on 2.1.330), a meta
// entry holding a local command's caveat or a system local_command entry
// last (2.1.330, 2.1.332). A
// command's text in plain user entries (the shape before 2.1) gets the
// reply (measured on 2.1.332 with real 2.0.71 transcripts).
func (res *Result) localCommandEnd(m *msg) bool {
	if len(m.blocks) == 0 {
		return false
	}
	if b := m.blocks[len(m.blocks)-1]; b.rec >= 0 {
		if r := res.Graph.Records[b.rec]; r.IsMeta && caveat(b.b) || IsLocalCommand(r) {
			return true
		}
	}
	for _, b := range m.blocks {
		if b.rec >= 0 && res.Graph.Records[b.rec].IsCompactSummary {
			return true
		}
	}
	return false
}

// caveat reports whether b, the last block of a meta entry, is a local
// command's caveat, after which the reader adds no reply; another meta
// note at the end gets one (measured on 2.1.330 and 2.1.332: a plain
// note, one in a system reminder, "Continue from where you left off.",
// one marked turnCompanion). A block whose text is not known (the model
// run on records alone) counts as a caveat.
func caveat(b Block) bool {
	t, ok := b["text"].(string)
	return !ok || strings.HasPrefix(t, "<local-command-caveat>")
}

// finish adds what the reader adds after an interrupted turn, and converts.
// A conversation whose last entry is an API error entry is not a turn cut
// short: the reader adds no reply once it has left the entry out, but for
// the tool results 2.1.110 still ends with a text (measured on 2.1.110,
// 2.1.330 and 2.1.332).
func (res *Result) finish(msgs []*msg, p Profile) []Message {
	n := len(msgs)
	cont := n > 0 && p.ContinuePrompt && endsOnResult(msgs[n-1])
	if n > 0 && msgs[n-1].role == "user" && (!p.QuietAfterCommand || !res.localCommandEnd(msgs[n-1])) &&
		(!res.endsOnAPIError || cont) {
		last := msgs[n-1]
		if cont {
			last.blocks = append(last.blocks, blk{Block{"type": "text", "text": TextContinue}, -1})
			res.Changed = append(res.Changed, Event{Kind: KindContinue, rec: -1,
				Reason: "the conversation ends on tool results; this reader adds the text \"" + TextContinue + "\""})
		}
		msgs = append(msgs, &msg{role: "assistant", blocks: []blk{{Block{"type": "text", "text": TextNoResponse}, -1}}})
		res.Changed = append(res.Changed, Event{Kind: KindNoResponse, rec: -1,
			Reason: "the conversation ends on a user message (a turn cut short); the reader adds the reply \"" + TextNoResponse + "\""})
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if m.role == "user" && len(m.blocks) == 0 && !m.str && !m.filled && slices.ContainsFunc(m.recs, func(i int) bool { return res.blanked[i] }) {
			// Left with nothing by its blank texts: the reader sends
			// "(no content)"; none when attachments beside it fill it (a
			// first prompt of only spaces in a real 2.1.330 or 2.1.332
			// session, followed by the environment's attachments).
			m.blocks = []blk{{Block{"type": "text", "text": TextNoContent}, -1}}
			res.Changed = append(res.Changed, Event{Kind: KindBlankText, Line: res.lineOf(m.recs[0]), UUID: res.uuidOf(m.recs[0]), rec: m.recs[0],
				Reason: "a user message left with nothing once its text blocks of only whitespace are dropped; the reader sends the text \"" + TextNoContent + "\" instead"})
		}
		mm := Message{Role: m.role, StringContent: m.str, recs: m.recs}
		if m.str {
			mm.Content = []Block{{"type": "text", "text": TextNoContent}}
		}
		for _, b := range m.blocks {
			mm.Content = append(mm.Content, b.b)
		}
		for _, i := range m.recs {
			mm.Lines = append(mm.Lines, int(res.Graph.Records[i].Line))
		}
		out = append(out, mm)
	}
	return out
}
