//go:build unix

package oracle

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ccvet/ccvet/internal/pathenc"
)

// HandSessionID is the session id of every hand-written session.
const HandSessionID = "6c1f0a52-3e8b-4d7a-9c2e-5b4d8f1a7e30"

// Hand builds a hand-written session: every text in it is the oracle's own
// (no Claude Code text), every entry shaped as 2.1.33x writes it. Entry n
// has the uuid U(n); times are in ms after a fixed start.
type Hand struct {
	SID, Cwd string
	lines    []string
	BOM      bool // a UTF-8 byte order mark before the first line
	torn     bool // no newline after the last line
}

// handStart is the time of ms 0 of a hand-written session.
var handStart = time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

// U is the uuid of entry n.
func (h *Hand) U(n int) string { return fmt.Sprintf("6c1f0a52-0000-4000-8000-%012d", n) }

// At is the timestamp ms after the start.
func (h *Hand) At(ms int64) string {
	return handStart.Add(time.Duration(ms) * time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z")
}

func (h *Hand) head(n, parent int, ms int64) string {
	p := "null"
	if parent > 0 {
		p = `"` + h.U(parent) + `"`
	}
	return fmt.Sprintf(`"parentUuid":%s,"isSidechain":false,"userType":"external","cwd":%q,"sessionId":%q,"version":"2.1.330","gitBranch":""`, p, h.Cwd, h.SID)
}

// User writes a user entry; content is raw JSON (a string or blocks);
// extra is raw JSON members added after the message (",\"origin\":{…}").
func (h *Hand) User(n, parent int, ms int64, content, extra string) {
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"type":"user","message":{"role":"user","content":%s}%s,"uuid":%q,"timestamp":%q}`,
		h.head(n, parent, ms), content, extra, h.U(n), h.At(ms)))
}

// Prompt writes a user prompt of plain text.
func (h *Hand) Prompt(n, parent int, ms int64, text string) {
	h.User(n, parent, ms, jsonString(text), "")
}

// Assistant writes an assistant entry: message id, model, content (raw JSON
// blocks) and stop_reason (raw JSON: "null" or a quoted string).
func (h *Hand) Assistant(n, parent int, ms int64, id, model, content, stop string) {
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"message":{"id":%q,"type":"message","role":"assistant","model":%q,"content":%s,"stop_reason":%s,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}},"requestId":"req_%s","type":"assistant","uuid":%q,"timestamp":%q}`,
		h.head(n, parent, ms), id, model, content, stop, id, h.U(n), h.At(ms)))
}

// Reply writes an assistant text reply of a Claude model.
func (h *Hand) Reply(n, parent int, ms int64, text string) {
	h.Assistant(n, parent, ms, fmt.Sprintf("msg_hand%04d", n), claudeModel, blocks(TextBlock(text)), endTurn)
}

// System writes a system entry of a subtype with a content string.
func (h *Hand) System(n, parent int, ms int64, subtype, content string) {
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"type":"system","subtype":%q,"content":%s,"level":"info","timestamp":%q,"uuid":%q,"isMeta":false}`,
		h.head(n, parent, ms), subtype, jsonString(content), h.At(ms), h.U(n)))
}

// Boundary writes a compaction boundary (no preservedSegment) whose
// logicalParentUuid is entry logical.
func (h *Hand) Boundary(n, logical int, ms int64) {
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"logicalParentUuid":%q,"type":"system","subtype":"compact_boundary","content":"Conversation compacted","isMeta":false,"timestamp":%q,"uuid":%q,"level":"info","compactMetadata":{"trigger":"manual","preTokens":1000}}`,
		h.head(n, 0, ms), h.U(logical), h.At(ms), h.U(n)))
}

// LastPrompt writes a last-prompt line naming uuid.
func (h *Hand) LastPrompt(uuid string) {
	h.lines = append(h.lines, fmt.Sprintf(`{"type":"last-prompt","lastPrompt":"Hand prompt.","leafUuid":%q,"sessionId":%q}`, uuid, h.SID))
}

// Summary writes a summary line naming uuid.
func (h *Hand) Summary(uuid string) {
	h.lines = append(h.lines, fmt.Sprintf(`{"type":"summary","summary":"Hand summary.","leafUuid":%q}`, uuid))
}

// Side writes a sidechain entry (a subagent's, without agentId) of type
// typ ("user" or "assistant") with the text.
func (h *Hand) Side(n, parent int, ms int64, typ, text string) {
	if typ == "user" {
		h.Prompt(n, parent, ms, text)
	} else {
		h.Reply(n, parent, ms, text)
	}
	k := len(h.lines) - 1
	h.lines[k] = strings.Replace(h.lines[k], `"isSidechain":false`, `"isSidechain":true`, 1)
}

// Progress writes a progress entry of a hook.
func (h *Hand) Progress(n, parent int, ms int64) {
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"type":"progress","data":{"type":"hook_progress","hookEvent":"SessionStart","hookName":"SessionStart:startup","command":"true"},"parentToolUseID":"hand-progress","toolUseID":"hand-progress","timestamp":%q,"uuid":%q}`,
		h.head(n, parent, ms), h.At(ms), h.U(n)))
}

// Bytes is the file.
func (h *Hand) Bytes() []byte {
	s := strings.Join(h.lines, "\n")
	if !h.torn {
		s += "\n"
	}
	if h.BOM {
		s = "\ufeff" + s
	}
	return []byte(s)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// Thinking is a thinking block with a signature ("" for none).
func Thinking(text, sig string) string {
	return `{"type":"thinking","thinking":` + jsonString(text) + `,"signature":` + jsonString(sig) + `}`
}

// TextBlock is a text block.
func TextBlock(text string) string { return `{"type":"text","text":` + jsonString(text) + `}` }

// HandCase is one hand-written session the real reader resumes.
type HandCase struct {
	ID  string
	Doc string
	// Leaf: a case of which entry the resume starts from (in the reader
	// table); otherwise a case of what the reader sends.
	Leaf bool
	// Damage: the session is damaged (torn lines, a reused uuid, a call
	// without its result…), so lint's reader rules report it; the
	// agreement test compares only what a resume sends.
	Damage bool
	Build  func(h *Hand)
}

// linear is the four-entry session every case starts from: prompt, reply,
// prompt, reply, one second apart.
func linear(h *Hand) {
	firstTurn(h)
	secondTurn(h)
}

// firstTurn writes the first prompt and reply (entries 1 and 2).
func firstTurn(h *Hand) {
	h.Prompt(1, 0, 0, "Hand prompt one.")
	h.Reply(2, 1, 1000, "Hand reply one.")
}

// secondTurn writes the second prompt, child of entry 2, and its reply
// (entries 3 and 4).
func secondTurn(h *Hand) {
	h.Prompt(3, 2, 2000, "Hand prompt two.")
	h.Reply(4, 3, 3000, "Hand reply two.")
}

// forked is linear plus a second branch from entry 2 (a rewind): a prompt
// and a reply written after entry 4.
func forked(h *Hand, t5, t6 int64) {
	linear(h)
	h.Prompt(5, 2, t5, "Forked prompt.")
	h.Reply(6, 5, t6, "Forked reply.")
}

const (
	foreignModel = "glm-4.6"
	claudeModel  = "claude-sonnet-4-5-20250929"
	endTurn      = `"end_turn"`
	noStop       = "null"
)

// blocks is a content list of raw JSON blocks.
func blocks(b ...string) string { return "[" + strings.Join(b, ",") + "]" }

// Blocks of the cases: a signed thinking block, an unsigned one, the
// first reply's text.
var (
	signedThought   = Thinking("Hand thought.", "c2lnbmF0dXJl")
	unsignedThought = Thinking("Hand thought.", "")
	replyOne        = TextBlock("Hand reply one.")
)

// firstReply is linear with the first reply an assistant entry of model
// with content blocks and stop_reason stop.
func firstReply(model, stop string, content ...string) func(h *Hand) {
	return func(h *Hand) {
		h.Prompt(1, 0, 0, "Hand prompt one.")
		h.Assistant(2, 1, 1000, "msg_hand0002", model, blocks(content...), stop)
		secondTurn(h)
	}
}

// thinkingModel is firstReply with a signed thinking block and a text.
func thinkingModel(model string) func(h *Hand) {
	return firstReply(model, endTurn, signedThought, replyOne)
}

// localCommand writes at n, n+1 the two system local_command entries of
// a command: its name, then its output.
func localCommand(h *Hand, n, parent int, ms int64) {
	h.System(n, parent, ms, "local_command", "<command-name>/hand</command-name>\n            <command-message>hand</command-message>\n            <command-args></command-args>")
	h.System(n+1, n, ms+1, "local_command", "<local-command-stdout>Hand output.</local-command-stdout>")
}

// taskNotification writes a user entry with origin.kind task-notification.
func taskNotification(h *Hand, n, parent int, ms int64) {
	h.User(n, parent, ms, jsonString("<task-notification>\n<task-id>hand1</task-id>\n<status>completed</status>\n<summary>Hand task done</summary>\n</task-notification>"), `,"origin":{"kind":"task-notification"}`)
}

// handQueued is the text of queued's prompt.
const handQueued = "Hand queued prompt."

// queued writes a prompt, a call, its result, a queued_command attachment
// whose prompt is the raw JSON given, the reply, then a second prompt and
// reply.
func queued(h *Hand, prompt string) {
	h.Prompt(1, 0, 0, "Hand prompt one.")
	h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, globUse("toolu_hand0000000000000F"), `"tool_use"`)
	h.User(3, 2, 1500, globResult("toolu_hand0000000000000F"), "")
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"attachment":{"type":"queued_command","prompt":%s,"commandMode":"prompt","timestamp":%q},"type":"attachment","uuid":%q,"timestamp":%q}`,
		h.head(4, 3, 1600), prompt, h.At(1600), h.U(4), h.At(1600)))
	h.Reply(5, 4, 2000, "Hand reply one.")
	h.Prompt(6, 5, 3000, "Hand prompt two.")
	h.Reply(7, 6, 4000, "Hand reply two.")
}

// queuedImagePrompt is a queued prompt of an image (handPNG) and a text,
// as 2.1.332 writes one sent with an image while a call runs.
func queuedImagePrompt() string {
	return `[{"type":"image","source":{"type":"base64","media_type":"image/png","data":` + jsonString(handPNG()) +
		`}},{"type":"text","text":` + jsonString(handQueued) + `}]`
}

// handPNG is a 1x1 PNG, base64: an image made here, not read.
func handPNG() string {
	var b bytes.Buffer
	img := image.NewGray(image.Rect(0, 0, 1, 1))
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// handNote is the text of metaNote's note.
const handNote = "Hand note: go on."

// metaNote writes a prompt, a reply cut at max_tokens, a user note with
// the extra members, the rest of the reply, then a second prompt and reply.
func metaNote(h *Hand, extra string) {
	h.Prompt(1, 0, 0, "Hand prompt one.")
	h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, blocks(TextBlock("Hand reply one, cut.")), `"max_tokens"`)
	h.User(3, 2, 1100, jsonString(handNote), extra)
	h.Reply(4, 3, 2000, "Hand reply one, rest.")
	h.Prompt(5, 4, 3000, "Hand prompt two.")
	h.Reply(6, 5, 4000, "Hand reply two.")
}

// toolsUsedNote is a companion note's text naming the tools a turn used
// before a background task's summary (the shape 2.1.3xx writes).
const toolsUsedNote = "<system-reminder>\n<tools-used-before-summary>" + handTool + "</tools-used-before-summary>\n</system-reminder>"

// handTool is the tool toolsUsedNote names: no reader makes that note
// itself with this name, so HandSignature can show it was sent.
const handTool = "HandTool"

// companionMarks are the members of a companion note written beside a
// background task's notification.
const companionMarks = `,"isMeta":true,"turnCompanion":true,"queueSkipAttachments":true`

// companionThen writes a first turn, a meta note marked turnCompanion and
// queueSkipAttachments with the text given, then a task notification (or,
// when notification is false, a plain prompt) and a reply.
func companionThen(h *Hand, note string, notification bool) {
	firstTurn(h)
	h.User(3, 2, 2000, jsonString(note), companionMarks)
	if notification {
		taskNotification(h, 4, 3, 2001)
	} else {
		h.Prompt(4, 3, 2001, "Hand prompt two.")
	}
	h.Reply(5, 4, 3000, "Hand reply two.")
}

// apiErrorMid writes a first turn, a second prompt answered by an API
// error entry (marked or not), then a third prompt and its reply.
func apiErrorMid(h *Hand, marked bool) {
	firstTurn(h)
	h.Prompt(3, 2, 2000, "Hand prompt two.")
	handAPIError(h, 4, 3, 3000, marked)
	h.Prompt(5, 4, 4000, "Hand prompt three.")
	h.Reply(6, 5, 5000, "Hand reply three.")
}

// callAtEnd writes two turns, a third prompt, a call and its result (with
// the extra members), entries 1 to 7.
func callAtEnd(h *Hand, extra string) {
	linear(h)
	h.Prompt(5, 4, 4000, "Hand prompt three.")
	h.Assistant(6, 5, 5000, "msg_hand0006", claudeModel, globUse("toolu_hand0000000000000E"), `"tool_use"`)
	h.User(7, 6, 5500, globResult("toolu_hand0000000000000E"), extra)
}

// handAPIError writes an assistant entry as 2.1.33x writes an API error it
// gave up on: model "<synthetic>", a text saying so, isApiErrorMessage
// (marked false: the same entry without the mark).
func handAPIError(h *Hand, n, parent int, ms int64, marked bool) {
	extra := ""
	if marked {
		extra = `,"error":"unknown","isApiErrorMessage":true,"apiErrorStatus":500,"apiErrorType":"api_error"`
	}
	h.lines = append(h.lines, fmt.Sprintf(`{%s,"type":"assistant","uuid":%q,"timestamp":%q,"message":{"id":"6c1f0a52-0000-4000-8000-9999%08d","model":"<synthetic>","role":"assistant","stop_reason":"stop_sequence","stop_sequence":"","type":"message","usage":{"input_tokens":0,"output_tokens":0},"content":[{"type":"text","text":"API Error: 500 the hand stand-in failed"}]}%s}`,
		h.head(n, parent, ms), h.U(n), h.At(ms), n, extra))
}

// globUse is the content of an assistant entry calling Glob with tool id
// t; globResult that of the user entry answering it.
func globUse(t string) string {
	return `[{"type":"tool_use","id":"` + t + `","name":"Glob","input":{"pattern":"*.hand"}}]`
}

func globResult(t string) string {
	return `[{"type":"tool_result","tool_use_id":"` + t + `","content":"No files found"}]`
}

// parallelBatch writes at n.. a prompt (parent: 0 for a root), two
// assistant lines of message id with a call each (a, b), b's result, a's
// result, each the child of the line before, and a reply.
func parallelBatch(h *Hand, n, parent int, ms int64, id, a, b, prompt, reply string) {
	h.Prompt(n, parent, ms, prompt)
	h.Assistant(n+1, n, ms+1000, id, claudeModel, globUse(a), noStop)
	h.Assistant(n+2, n+1, ms+1100, id, claudeModel, globUse(b), `"tool_use"`)
	h.User(n+3, n+2, ms+1500, globResult(b), "")
	h.User(n+4, n+3, ms+1501, globResult(a), "")
	h.Reply(n+5, n+4, ms+3000, reply)
}

// BigPad is how many times parallelRepeated repeats " pad" in the first
// prompt (or the last reply) to take the file over 5 MiB (5,247,071 bytes;
// 5 MiB is 5,242,880).
const BigPad = 1310000

// parallelRepeated is a parallel batch, a compaction boundary, and a batch
// with the same message.id (other tool ids); the first prompt ends in pad
// times " pad", the last reply (the file's last line) in tail times.
func parallelRepeated(h *Hand, pad, tail int) {
	parallelBatch(h, 1, 0, 0, "msg_handpar", "toolu_hand0000000000000A", "toolu_hand0000000000000B",
		"Hand prompt one."+strings.Repeat(" pad", pad), "Hand reply one.")
	h.Boundary(7, 6, 9000)
	parallelBatch(h, 8, 7, 10000, "msg_handpar", "toolu_hand0000000000000C", "toolu_hand0000000000000D", "Hand prompt two.",
		"Hand reply two."+strings.Repeat(" pad", tail))
}

// HandCases are the hand-written sessions, in a stable order.
func HandCases() []HandCase {
	return []HandCase{
		{ID: "hand-linear", Leaf: true, Doc: "four entries: prompt, reply, prompt, reply (the baseline)", Build: linear},
		{ID: "hand-bom", Leaf: true, Doc: "the four entries with a UTF-8 byte order mark before the first line",
			Build: func(h *Hand) { linear(h); h.BOM = true }},
		{ID: "leaf-future-mid", Leaf: true, Doc: "the first reply, mid-session, dated 2099",
			Build: func(h *Hand) {
				linear(h)
				h.lines[1] = strings.Replace(h.lines[1], h.At(1000), "2099-01-01T00:00:00.000Z", 1)
			}},
		{ID: "leaf-fork", Leaf: true, Doc: "two branch ends after the first reply; the second branch written later",
			Build: func(h *Hand) { forked(h, 4000, 5000) }},
		{ID: "leaf-last-prompt-older", Leaf: true, Doc: "two branch ends; a last-prompt line names the older end",
			Build: func(h *Hand) { forked(h, 4000, 5000); h.LastPrompt(h.U(4)) }},
		{ID: "leaf-last-prompt-parent", Leaf: true, Doc: "two branch ends; a last-prompt line names the first reply (an entry with children)",
			Build: func(h *Hand) { forked(h, 4000, 5000); h.LastPrompt(h.U(2)) }},
		{ID: "leaf-last-prompt-missing", Leaf: true, Doc: "two branch ends; a last-prompt line names no entry",
			Build: func(h *Hand) { forked(h, 4000, 5000); h.LastPrompt(missingUUID) }},
		{ID: "leaf-older-later-line", Leaf: true, Doc: "two branch ends; the second branch, later in the file, dated before the first branch's end",
			Build: func(h *Hand) { forked(h, 2500, 2800) }},
		{ID: "leaf-tie", Leaf: true, Doc: "two branch ends with the same timestamp (the second branch's reply dated as the first's)",
			Build: func(h *Hand) { forked(h, 2500, 3000) }},
		{ID: "leaf-tie-descendant", Leaf: true, Doc: "a chain of user entries dated T, T-48 ms, T after the last reply",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Prompt(6, 5, 3952, "Hand prompt four.")
				h.Prompt(7, 6, 4000, "Hand prompt five.")
			}},
		{ID: "thinking-foreign-signed", Doc: "the first reply, of a non-Claude model, holds a signed thinking block and a text",
			Build: thinkingModel(foreignModel)},
		{ID: "thinking-foreign-unsigned", Doc: "as thinking-foreign-signed, the signature empty",
			Build: firstReply(foreignModel, endTurn, unsignedThought, replyOne)},
		{ID: "thinking-claude-signed", Doc: "as thinking-foreign-signed, the model a Claude model",
			Build: thinkingModel(claudeModel)},
		{ID: "thinking-gateway-claude", Doc: "as thinking-foreign-signed, the model a gateway's name of a Claude model",
			Build: thinkingModel("anthropic/claude-sonnet-4.5")},
		{ID: "thinking-other-claude", Doc: "as thinking-foreign-signed, the model an older Claude model than the reader's",
			Build: thinkingModel("claude-3-5-haiku-20241022")},
		{ID: "thinking-synthetic", Doc: "as thinking-foreign-signed, the model \"<synthetic>\"",
			Build: thinkingModel("<synthetic>")},
		{ID: "thinking-foreign-only", Doc: "the first reply, of a non-Claude model, holds only a signed thinking block",
			Build: firstReply(foreignModel, endTurn, signedThought)},
		{ID: "thinking-only-cut", Doc: "the first reply is only a signed thinking block of a Claude model, its own message.id, stop_reason null (the rest never written)",
			Build: firstReply(claudeModel, noStop, signedThought)},
		{ID: "thinking-only-ended", Doc: "as thinking-only-cut, stop_reason \"end_turn\"",
			Build: firstReply(claudeModel, endTurn, signedThought)},
		{ID: "thinking-only-end", Doc: "the file ends on a prompt and a reply that is only a signed thinking block (its own message.id, stop_reason null)",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_hand0006", claudeModel, blocks(signedThought), noStop)
			}},
		{ID: "thinking-split", Doc: "the first reply written as two entries of one message.id: a signed thinking block (stop_reason null), then the text",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, blocks(signedThought), noStop)
				h.Assistant(3, 2, 1100, "msg_hand0002", claudeModel, blocks(replyOne), noStop)
				h.Prompt(4, 3, 2000, "Hand prompt two.")
				h.Reply(5, 4, 3000, "Hand reply two.")
			}},
		{ID: "local-command-mid", Doc: "two system local_command entries (the command, its output) between the first reply and the second prompt",
			Build: func(h *Hand) {
				firstTurn(h)
				localCommand(h, 3, 2, 1500)
				h.Prompt(5, 4, 2000, "Hand prompt two.")
				h.Reply(6, 5, 3000, "Hand reply two.")
			}},
		{ID: "local-command-end", Doc: "the file ends on two system local_command entries after the last reply",
			Build: func(h *Hand) { linear(h); localCommand(h, 5, 4, 3500) }},
		{ID: "task-notification-mid", Doc: "a user entry with origin.kind task-notification between the first reply and a reply to it",
			Build: func(h *Hand) {
				firstTurn(h)
				taskNotification(h, 3, 2, 2000)
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "compaction-big-file", Doc: "a file over 5 MiB (a long first prompt): a 2.0.x parallel batch (call, call, result, result, each the child of the line before), a compaction boundary, and a batch with the same message.id and other tool ids: the reader reads from the boundary on, so the first batch's calls are not gathered",
			Build: func(h *Hand) { parallelRepeated(h, BigPad, 0) }},
		{ID: "task-notification-end", Doc: "the file ends on a user entry with origin.kind task-notification",
			Build: func(h *Hand) { linear(h); taskNotification(h, 5, 4, 4000) }},
		{ID: "api-error-mid", Doc: "an API error entry (isApiErrorMessage, model <synthetic>) answers the second prompt; a third prompt and its reply follow",
			Build: func(h *Hand) { apiErrorMid(h, true) }},
		{ID: "api-error-end", Doc: "the file ends on a third prompt and the API error entry that answers it",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				handAPIError(h, 6, 5, 5000, true)
			}},
		{ID: "synthetic-unmarked", Doc: "as api-error-mid, the entry without isApiErrorMessage (model <synthetic> only)",
			Build: func(h *Hand) { apiErrorMid(h, false) }},
		{ID: "api-error-after-result", Doc: "the file ends on a call, its result and the API error entry that follows them",
			Build: func(h *Hand) { callAtEnd(h, ""); handAPIError(h, 8, 7, 6000, true) }},
		{ID: "result-end", Doc: "the file ends on a call and its result",
			Build: func(h *Hand) { callAtEnd(h, "") }},
		{ID: "result-end-ends-turn", Doc: "as result-end, the result marked toolEndsTurn (a --json-schema run's last call)",
			Build: func(h *Hand) { callAtEnd(h, `,"toolEndsTurn":true`) }},
		{ID: "note-companion", Doc: "a reply cut at max_tokens, then a meta user note marked turnCompanion (as 2.1.330 writes the one that asks to go on), then the rest of the reply",
			Build: func(h *Hand) { metaNote(h, `,"isMeta":true,"turnCompanion":true`) }},
		{ID: "note-own", Doc: "as note-companion, the note also marked ownNote (as 2.1.332 writes it)",
			Build: func(h *Hand) { metaNote(h, `,"isMeta":true,"turnCompanion":true,"ownNote":true`) }},
		{ID: "note-hook-text", Doc: "as note-companion, the note a Stop hook's output (isMeta, hookText, rowSource hook, as 2.1.332 writes it)",
			Build: func(h *Hand) {
				metaNote(h, `,"isMeta":true,"rowSource":"hook","hookText":true,"hookTextLead":"Hand lead."`)
			}},
		{ID: "note-meta", Doc: "as note-companion, the note only isMeta",
			Build: func(h *Hand) { metaNote(h, `,"isMeta":true`) }},
		{ID: "queued-string", Doc: "a queued_command attachment with only type, prompt (a string) and commandMode between a call's result and the reply (2.1.332 writes more beside a prompt sent while a call runs: source_uuid, delivery_id, hostsOwnTurn): not sent",
			Build: func(h *Hand) { queued(h, jsonString(handQueued)) }},
		{ID: "queued-blocks", Doc: "as queued-string, the prompt a list of one text block (as 2.1.332 writes one sent as blocks)",
			Build: func(h *Hand) { queued(h, `[{"type":"text","text":`+jsonString(handQueued)+`}]`) }},
		{ID: "queued-image", Doc: "as queued-blocks, the prompt an image (a 1x1 PNG made here) and a text, as 2.1.332 writes one sent with an image while a call runs: sent with the result",
			Build: func(h *Hand) {
				queued(h, queuedImagePrompt())
			}},
		{ID: "result-then-text-end", Doc: "the file ends on a call, its result, then a user text entry after the result (as an interrupted call leaves)",
			Build: func(h *Hand) { callAtEnd(h, ""); h.Prompt(8, 7, 6000, "Hand text after the result.") }},
		{ID: "api-error-companion", Doc: "as api-error-mid, a meta note marked turnCompanion and queueSkipAttachments (as 2.1.330 writes beside a task notification) between the API error entry and the third prompt",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Prompt(3, 2, 2000, "Hand prompt two.")
				handAPIError(h, 4, 3, 3000, true)
				h.User(5, 4, 3100, jsonString(handNote), companionMarks)
				h.Prompt(6, 5, 4000, "Hand prompt three.")
				h.Reply(7, 6, 5000, "Hand reply three.")
			}},
		{ID: "companion-tools-notification", Doc: "after the first turn, a meta note marked turnCompanion and queueSkipAttachments that lists the tools used (a tools-used-before-summary reminder, as 2.1.3xx writes beside a background task's notification), then a task notification and a reply",
			Build: func(h *Hand) { companionThen(h, toolsUsedNote, true) }},
		{ID: "companion-tools-prompt", Doc: "as companion-tools-notification, a plain prompt in place of the task notification",
			Build: func(h *Hand) { companionThen(h, toolsUsedNote, false) }},
		{ID: "companion-text-notification", Doc: "as companion-tools-notification, the note a plain text",
			Build: func(h *Hand) { companionThen(h, handNote, true) }},
		{ID: "queued-image-end", Doc: "as queued-image, the file ends on the queued_command attachment (no reply after it)",
			Build: func(h *Hand) {
				queued(h, queuedImagePrompt())
				h.lines = h.lines[:4]
			}},
		{ID: "two-torn-lines", Damage: true, Doc: "the first reply's line cut in half (its newline kept) and the last line cut in half, no final newline",
			Build: func(h *Hand) {
				linear(h)
				h.lines[1] = h.lines[1][:len(h.lines[1])/2]
				h.torn = true
				h.lines[3] = h.lines[3][:len(h.lines[3])/2]
			}},
		{ID: "torn-end-duplicate-uuid", Damage: true, Doc: "a third prompt that reuses the first reply's uuid (a later line, other text), then a last line cut in half",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(2, 4, 4000, "Hand prompt three.")
				h.Reply(6, 2, 5000, "Hand reply three.")
				h.torn = true
				h.lines[5] = h.lines[5][:len(h.lines[5])/2]
			}},
		{ID: "duplicate-uuid-leaf", Damage: true, Doc: "the last line reuses the first reply's uuid (a reply to the second prompt, other text)",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Prompt(3, 2, 2000, "Hand prompt two.")
				h.Reply(2, 3, 3000, "Hand reply two.")
			}},
		{ID: "summary-leaf-older", Doc: "two branch ends; a summary line whose leafUuid names the older end",
			Build: func(h *Hand) { forked(h, 4000, 5000); h.Summary(h.U(4)) }},
		{ID: "summary-leaf-sidechain", Doc: "a summary line whose leafUuid names a sidechain entry (a subagent's prompt and reply written in the main file)",
			Build: func(h *Hand) {
				linear(h)
				h.Side(5, 0, 3500, "user", "Side prompt.")
				h.Side(6, 5, 3600, "assistant", "Side reply.")
				h.Summary(h.U(6))
			}},
		{ID: "last-prompt-sidechain-mixed", Doc: "sidechain entries (a subagent's prompt and reply) written between the two turns; a last-prompt line names the main leaf",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Side(5, 0, 1500, "user", "Side prompt.")
				h.Side(6, 5, 1600, "assistant", "Side reply.")
				secondTurn(h)
				h.LastPrompt(h.U(4))
			}},
		{ID: "sidechain-after-leaf", Doc: "sidechain entries (a subagent's prompt and reply, no agentId) written after the last reply",
			Build: func(h *Hand) {
				linear(h)
				h.Side(5, 0, 3500, "user", "Side prompt.")
				h.Side(6, 5, 3600, "assistant", "Side reply.")
			}},
		{ID: "sidechain-child-of-main", Damage: true, Doc: "a sidechain entry whose parent is the last reply, written after it (a prompt flagged isSidechain by mistake)",
			Build: func(h *Hand) {
				linear(h)
				h.Side(5, 4, 4000, "user", "Side prompt.")
			}},
		{ID: "time-reversed", Doc: "the four entries dated in reverse file order (each earlier than the line before)",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 3000, "Hand prompt one.")
				h.Reply(2, 1, 2000, "Hand reply one.")
				h.Prompt(3, 2, 1000, "Hand prompt two.")
				h.Reply(4, 3, 0, "Hand reply two.")
			}},
		{ID: "dangling-time-reversed", Doc: "the second prompt's parent names no entry; it is dated between the first prompt and the first reply (before the reply in time, after it in the file)",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Prompt(3, 99, 500, "Hand prompt two.")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "dangling-bridge-later-line", Doc: "the second prompt's parent names no entry; the entry written 1 s before it in time is the first reply, but a sidechain entry comes between them in the file",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Side(5, 0, 1500, "user", "Side prompt.")
				h.Prompt(3, 99, 2000, "Hand prompt two.")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "content-empty-list", Doc: "the second prompt's message.content is []",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, "[]", "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "content-whitespace", Doc: "the second prompt's message.content is a string of only whitespace",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, jsonString(" \n\t "), "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "content-empty-string", Doc: "the second prompt's message.content is \"\"",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, `""`, "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "content-whitespace-block", Doc: "the second prompt's message.content is one text block of only whitespace",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, blocks(TextBlock("  ")), "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "assistant-empty-list", Doc: "the first reply's message.content is []",
			Build: firstReply(claudeModel, endTurn)},
		{ID: "assistant-empty-text", Doc: "the first reply's message.content is one text block \"\"",
			Build: firstReply(claudeModel, endTurn, TextBlock(""))},
		{ID: "content-empty-list-end", Doc: "the file ends on a prompt whose message.content is []",
			Build: func(h *Hand) { linear(h); h.User(5, 4, 4000, "[]", "") }},
		{ID: "parallel-split-missing", Damage: true, Doc: "two calls written as two assistant lines of one message.id; only the first call's result follows, then a reply",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000A"), noStop)
				h.Assistant(3, 2, 1100, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000B"), `"tool_use"`)
				h.User(4, 3, 1500, globResult("toolu_hand0000000000000A"), "")
				h.Reply(5, 4, 3000, "Hand reply one.")
				h.Prompt(6, 5, 4000, "Hand prompt two.")
				h.Reply(7, 6, 5000, "Hand reply two.")
			}},
		{ID: "parallel-split-missing-end", Damage: true, Doc: "as parallel-split-missing, the file ends on the first call's result",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000A"), noStop)
				h.Assistant(7, 6, 5100, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000B"), `"tool_use"`)
				h.User(8, 7, 5500, globResult("toolu_hand0000000000000A"), "")
			}},
		{ID: "parallel-split-interleaved", Doc: "two calls of one message.id, each line followed by its result (call, result, call, result, each the child of the line before), then a reply",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000A"), noStop)
				h.User(3, 2, 1050, globResult("toolu_hand0000000000000A"), "")
				h.Assistant(4, 3, 1100, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000B"), `"tool_use"`)
				h.User(5, 4, 1500, globResult("toolu_hand0000000000000B"), "")
				h.Reply(6, 5, 3000, "Hand reply one.")
				h.Prompt(7, 6, 4000, "Hand prompt two.")
				h.Reply(8, 7, 5000, "Hand reply two.")
			}},
		{ID: "progress-mid", Doc: "two progress entries (a hook's) on the chain between the first reply and the second prompt",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Progress(5, 2, 1500)
				h.Progress(6, 5, 1501)
				h.Prompt(3, 6, 2000, "Hand prompt two.")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "progress-end", Doc: "the file ends on a progress entry after the last reply",
			Build: func(h *Hand) { linear(h); h.Progress(5, 4, 3500) }},
		{ID: "system-mid", Doc: "a system entry (turn_duration) on the chain between the first reply and the second prompt",
			Build: func(h *Hand) {
				firstTurn(h)
				h.System(5, 2, 1500, "turn_duration", "")
				h.Prompt(3, 5, 2000, "Hand prompt two.")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "system-end", Doc: "the file ends on a system entry (turn_duration) after a prompt",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.System(6, 5, 4100, "turn_duration", "")
			}},
		{ID: "boundary-small", Doc: "a compaction boundary (parentUuid null, logicalParentUuid the last reply) in a small file, then a prompt and reply",
			Build: func(h *Hand) {
				linear(h)
				h.Boundary(5, 4, 4000)
				h.Prompt(6, 5, 5000, "Hand prompt three.")
				h.Reply(7, 6, 6000, "Hand reply three.")
			}},
		{ID: "boundary-logical-missing", Doc: "as boundary-small, the boundary's logicalParentUuid names no entry",
			Build: func(h *Hand) {
				linear(h)
				h.Boundary(5, 99, 4000)
				h.Prompt(6, 5, 5000, "Hand prompt three.")
				h.Reply(7, 6, 6000, "Hand reply three.")
			}},
		{ID: "boundary-end", Doc: "the file ends on a compaction boundary after the last reply",
			Build: func(h *Hand) { linear(h); h.Boundary(5, 4, 4000) }},
		{ID: "result-before-call-file", Damage: true, Doc: "the first entry is a tool result whose call is in no entry of the file (parentUuid names an entry of another transcript), then a reply and a turn",
			Build: func(h *Hand) {
				h.User(1, 99, 0, globResult("toolu_hand0000000000000X"), "")
				h.Reply(2, 1, 1000, "Hand reply one.")
				secondTurn(h)
			}},
		{ID: "long-chain", Doc: "5,000 turns of prompt and reply (10,000 entries), 1 s apart",
			Build: func(h *Hand) {
				for k := 0; k < 5000; k++ {
					n := 2*k + 1
					h.Prompt(n, n-1, int64(n-1)*1000, fmt.Sprintf("Hand prompt %d.", k+1))
					h.Reply(n+1, n, int64(n)*1000, fmt.Sprintf("Hand reply %d.", k+1))
				}
			}},
		{ID: "thinking-only-tip-split", Doc: "the file ends on a prompt, then two assistant lines of one message.id that hold only thinking",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_hand0006", claudeModel, blocks(signedThought), noStop)
				h.Assistant(7, 6, 5100, "msg_hand0006", claudeModel, blocks(signedThought), noStop)
			}},
		{ID: "meta-end", Doc: "the file ends on a meta user note after the last reply",
			Build: func(h *Hand) { linear(h); h.User(5, 4, 4000, jsonString(handNote), `,"isMeta":true`) }},
		{ID: "meta-end-caveat", Doc: "the file ends on a meta user entry holding a local-command caveat after the last reply",
			Build: func(h *Hand) {
				linear(h)
				h.User(5, 4, 4000, jsonString("<local-command-caveat>Caveat: hand.</local-command-caveat>"), `,"isMeta":true`)
			}},
		{ID: "meta-end-blocks", Doc: "as meta-end, the note a list of one text block",
			Build: func(h *Hand) { linear(h); h.User(5, 4, 4000, blocks(TextBlock(handNote)), `,"isMeta":true`) }},
		{ID: "meta-end-after-prompt", Doc: "the file ends on a third prompt and a meta user note",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.User(6, 5, 4100, jsonString(handNote), `,"isMeta":true`)
			}},
		{ID: "meta-end-companion", Doc: "as meta-end, the note marked turnCompanion",
			Build: func(h *Hand) {
				linear(h)
				h.User(5, 4, 4000, jsonString(handNote), `,"isMeta":true,"turnCompanion":true`)
			}},
		{ID: "assistant-empty-list-end", Doc: "the file ends on a third prompt and a reply whose message.content is []",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_hand0006", claudeModel, "[]", endTurn)
			}},
		{ID: "assistant-whitespace-text", Doc: "the first reply's message.content is one text block of only whitespace",
			Build: firstReply(claudeModel, endTurn, TextBlock(" \n "))},
		{ID: "assistant-empty-text-and-text", Doc: "the first reply's message.content is a text block \"\" and the reply's text",
			Build: firstReply(claudeModel, endTurn, TextBlock(""), replyOne)},
		{ID: "assistant-string", Damage: true, Doc: "the first reply's message.content is a string",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, jsonString("Hand reply one."), endTurn)
				secondTurn(h)
			}},
		{ID: "child-line-before-parent", Doc: "the last reply's line written before the second prompt's line, its parent (the file's last line is the second prompt)",
			Build: func(h *Hand) {
				firstTurn(h)
				h.Reply(4, 3, 3000, "Hand reply two.")
				h.Prompt(3, 2, 2000, "Hand prompt two.")
			}},
		{ID: "meta-end-continue", Doc: "as meta-end, the note's text \"Continue from where you left off.\"",
			Build: func(h *Hand) {
				linear(h)
				h.User(5, 4, 4000, jsonString("Continue from where you left off."), `,"isMeta":true`)
			}},
		{ID: "meta-end-reminder", Doc: "as meta-end, the note a system reminder",
			Build: func(h *Hand) {
				linear(h)
				h.User(5, 4, 4000, jsonString("<system-reminder>\n"+handNote+"\n</system-reminder>"), `,"isMeta":true`)
			}},
		{ID: "assistant-whitespace-and-call", Doc: "the first reply holds a whitespace text block and a call; its result and a reply follow",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, blocks(TextBlock("  "), `{"type":"tool_use","id":"toolu_hand0000000000000A","name":"Glob","input":{"pattern":"*.hand"}}`), `"tool_use"`)
				h.User(3, 2, 1500, globResult("toolu_hand0000000000000A"), "")
				h.Reply(4, 3, 2000, "Hand reply one.")
				h.Prompt(5, 4, 3000, "Hand prompt two.")
				h.Reply(6, 5, 4000, "Hand reply two.")
			}},
		{ID: "content-whitespace-block-end", Doc: "the file ends on a prompt whose content is one text block of only whitespace",
			Build: func(h *Hand) { linear(h); h.User(5, 4, 4000, blocks(TextBlock("  ")), "") }},
		{ID: "assistant-empty-text-split", Doc: "the first reply written as two entries of one message.id: a text block \"\", then the text",
			Build: func(h *Hand) {
				h.Prompt(1, 0, 0, "Hand prompt one.")
				h.Assistant(2, 1, 1000, "msg_hand0002", claudeModel, blocks(TextBlock("")), noStop)
				h.Assistant(3, 2, 1100, "msg_hand0002", claudeModel, blocks(replyOne), endTurn)
				h.Prompt(4, 3, 2000, "Hand prompt two.")
				h.Reply(5, 4, 3000, "Hand reply two.")
			}},
		{ID: "content-whitespace-and-text", Doc: "the second prompt's message.content is a text block of only whitespace and a text block",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, blocks(TextBlock("  "), TextBlock("Hand prompt two.")), "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "content-empty-text-block", Doc: "the second prompt's message.content is one text block \"\"",
			Build: func(h *Hand) {
				firstTurn(h)
				h.User(3, 2, 2000, blocks(TextBlock("")), "")
				h.Reply(4, 3, 3000, "Hand reply two.")
			}},
		{ID: "parallel-split-first-missing-end", Damage: true, Doc: "as parallel-split-missing-end, the file ends on the second call's result (the first call's missing)",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000A"), noStop)
				h.Assistant(7, 6, 5100, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000B"), `"tool_use"`)
				h.User(8, 7, 5500, globResult("toolu_hand0000000000000B"), "")
			}},
		{ID: "parallel-one-line-missing-end", Damage: true, Doc: "the file ends on one assistant entry with two calls and the first call's result",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_handpar", claudeModel, `[{"type":"tool_use","id":"toolu_hand0000000000000A","name":"Glob","input":{"pattern":"*.hand"}},{"type":"tool_use","id":"toolu_hand0000000000000B","name":"Glob","input":{"pattern":"*.hand"}}]`, `"tool_use"`)
				h.User(7, 6, 5500, globResult("toolu_hand0000000000000A"), "")
			}},
		{ID: "call-missing-then-text-end", Damage: true, Doc: "the file ends on two calls of one message.id, the first call's result, then a user text",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Assistant(6, 5, 5000, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000A"), noStop)
				h.Assistant(7, 6, 5100, "msg_handpar", claudeModel, globUse("toolu_hand0000000000000B"), `"tool_use"`)
				h.User(8, 7, 5500, globResult("toolu_hand0000000000000A"), "")
				h.Prompt(9, 8, 6000, "Hand text after the result.")
			}},
		{ID: "boundary-end-logical-missing", Doc: "as boundary-end, the boundary's logicalParentUuid names no entry",
			Build: func(h *Hand) { linear(h); h.Boundary(5, 99, 4000) }},
		{ID: "boundary-end-after-prompt", Doc: "the file ends on a third prompt and a compaction boundary",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(5, 4, 4000, "Hand prompt three.")
				h.Boundary(6, 5, 5000)
			}},
		{ID: "duplicate-uuid-leaf-no-cycle", Damage: true, Doc: "the last line, a reply to the first prompt (parent: entry 1), reuses the first reply's uuid, which the second prompt continues",
			Build: func(h *Hand) {
				linear(h)
				h.Reply(2, 1, 5000, "Hand reply again.")
			}},
		{ID: "duplicate-uuid-mid-cycle", Damage: true, Doc: "a third prompt reusing the second prompt's uuid, its parent the last reply (a loop), then its reply",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(3, 4, 4000, "Hand prompt three.")
				h.Reply(6, 3, 5000, "Hand reply three.")
			}},
		{ID: "duplicate-uuid-leaf-older", Damage: true, Doc: "as duplicate-uuid-leaf-no-cycle, the last line dated before the second prompt",
			Build: func(h *Hand) {
				linear(h)
				h.Reply(2, 1, 1500, "Hand reply again.")
			}},
		{ID: "duplicate-uuid-root", Damage: true, Doc: "the last line, a prompt with no parent, reuses the first prompt's uuid",
			Build: func(h *Hand) {
				linear(h)
				h.Prompt(1, 0, 5000, "Hand prompt again.")
			}},
		{ID: "content-whitespace-first", Doc: "the first prompt's message.content is one text block of only whitespace",
			Build: func(h *Hand) {
				h.User(1, 0, 0, blocks(TextBlock("  ")), "")
				h.Reply(2, 1, 1000, "Hand reply one.")
				secondTurn(h)
			}},
		{ID: "content-whitespace-first-date", Doc: "as content-whitespace-first, a date attachment (as 2.1.332 writes after a prompt) between the prompt and the reply",
			Build: func(h *Hand) {
				h.User(1, 0, 0, blocks(TextBlock("  ")), "")
				h.lines = append(h.lines, fmt.Sprintf(`{%s,"attachment":{"type":"date","date":"2026-11-20"},"type":"attachment","uuid":%q,"timestamp":%q}`,
					h.head(5, 1, 10), h.U(5), h.At(10)))
				h.Reply(2, 5, 1000, "Hand reply one.")
				secondTurn(h)
			}},
		{ID: "compaction-big-last-line", Doc: "as compaction-big-file, the file over 5 MiB by its last line alone (the last reply ends in the padding; every earlier line starts in the first 5 KiB): the reader goes by the file's size, so it reads from the boundary on too",
			Build: func(h *Hand) { parallelRepeated(h, 0, BigPad) }},
	}
}

// HandSelected reports whether the hand-written case id is among those
// CCVET_ORACLE_HAND names (a comma list; every case when it is unset).
func HandSelected(id string) bool {
	only := os.Getenv("CCVET_ORACLE_HAND")
	return only == "" || slices.Contains(strings.Split(only, ","), id)
}

// LookupHand returns the hand-written case with that id.
func LookupHand(id string) (HandCase, bool) {
	for _, c := range HandCases() {
		if c.ID == id {
			return c, true
		}
	}
	return HandCase{}, false
}

// HandFile writes a hand-written case as the session HandSessionID of the
// env's working folder and returns its path and bytes.
func (e *Env) HandFile(c HandCase) (string, []byte, error) {
	h := &Hand{SID: HandSessionID, Cwd: e.Work}
	c.Build(h)
	data := h.Bytes()
	dir := filepath.Join(e.Root, "projects", pathenc.Encode(e.Work))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	p := filepath.Join(dir, HandSessionID+".jsonl")
	return p, data, os.WriteFile(p, data, 0o600)
}

// ResumeHand writes a hand-written case and resumes it with prompt.
func (e *Env) ResumeHand(ctx context.Context, c HandCase, prompt string) (Resumed, error) {
	p, data, err := e.HandFile(c)
	if err != nil {
		return Resumed{}, err
	}
	return e.resumeFile(ctx, p, HandSessionID, data, prompt)
}

// HandSignature is a request's messages in short, for the hand-written
// cases: role[block,…] with each text's first words ("text:Hand prompt
// one."), thinking blocks, tool ids. System messages, reminders only
// made at run time and the resume prompt at the end are left out.
func HandSignature(msgs []Message) string {
	var out []string
	for _, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			continue
		}
		var toks []string
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				t := strings.TrimSpace(b.Text)
				if strings.Contains(t, PlanMarker) {
					continue
				}
				if strings.HasPrefix(t, "<system-reminder>") {
					// Made at run time, except a task notification the
					// reader wraps in one.
					if strings.Contains(t, "<task-notification>") {
						toks = append(toks, "text:<system-reminder>(task-notification)")
					}
					// And a hand-written note (metaNote) or queued prompt
					// (queued) the reader wraps.
					if strings.Contains(t, handNote) {
						toks = append(toks, "text:<system-reminder>(note)")
					}
					if strings.Contains(t, handQueued) {
						toks = append(toks, "text:<system-reminder>(queued)")
					}
					if strings.Contains(t, handTool) {
						toks = append(toks, "text:<system-reminder>(tools-used)")
					}
					continue
				}
				t = strings.ReplaceAll(t, "\n", " ")
				if len(t) > 48 {
					t = t[:48]
				}
				toks = append(toks, "text:"+t)
			case "tool_use", "tool_result":
				toks = append(toks, ToolToken(b))
			default:
				toks = append(toks, b.Type)
			}
		}
		if len(toks) > 0 {
			out = append(out, m.Role+"["+strings.Join(toks, " | ")+"]")
		}
	}
	return strings.Join(out, " ")
}
