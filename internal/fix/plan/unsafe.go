package plan

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/rules"
)

// The texts Claude Code itself puts in place of a missing or orphaned tool
// result when it rebuilds a conversation in memory.
const (
	MissingResultText  = "[Tool result missing due to internal error]"
	OrphanedResultText = "[Orphaned tool result removed due to conversation resume]"
)

// assistant content is never edited.
func (p *parsed) isAssistant(i int) bool {
	r := p.rec(i)
	return r != nil && r.Type == "assistant"
}

// planEscape replaces each lone surrogate (or \u0000) escape of line i by
// the same-length \ufffd.
func (p *parsed) planEscape(i int, rule string) ([]edit.Edit, rules.FixClass, string) {
	if p.isAssistant(i) {
		return nil, "", "the escape is in assistant content, which ccvet never edits"
	}
	raw := p.raw(i)
	// Only inside the message, where the finding is.
	a, ok := jsonpos.Find(raw, "/message", false)
	if !ok {
		return nil, "", "the line has no message"
	}
	b, ok := valueEnd(raw, a)
	if !ok {
		return nil, "", "the message does not parse"
	}
	line := append([]byte(nil), raw[a:b]...)
	// A scan from the start would step over the \ufffd just written and be
	// back at off+6 with nothing pending: each scan starts there, inside
	// the string (a line of binary data holds thousands of escapes).
	find := func(from int) int {
		if rule == "escaped-nul" {
			if off := jsonpos.EscapedNUL(line[from:]); off >= 0 {
				return from + off
			}
			return -1
		}
		if from == 0 {
			return jsonpos.LoneSurrogate(line)
		}
		return jsonpos.NextLoneSurrogate(line, from)
	}
	var es []edit.Edit
	for off := find(0); off >= 0 && off+6 <= len(line); off = find(off + 6) {
		copy(line[off:], `\ufffd`)
		es = append(es, edit.Edit{Offset: p.lines[i].off + int64(a+off), Length: 6, Text: `\ufffd`})
	}
	if len(es) == 0 {
		return nil, "", "no such escape found on the line"
	}
	if rule == "lone-surrogate" {
		// The finding names the line's first lone escape, which may lie
		// outside the message (a gitBranch, a cwd): replacing those in the
		// message only would leave it, and the plan would fail its own
		// verification.
		whole := append([]byte(nil), raw...)
		copy(whole[a:], line)
		if jsonpos.LoneSurrogate(whole) >= 0 {
			return nil, "", "the line holds a lone surrogate escape outside its message too; edit it by hand"
		}
	}
	return es, rules.FixUnsafe, fmt.Sprintf("replace %d escape(s) by the same-length \\ufffd (U+FFFD)", len(es))
}

// planUTF8 replaces each invalid UTF-8 sequence of line i by U+FFFD.
func (p *parsed) planUTF8(i int) ([]edit.Edit, rules.FixClass, string) {
	if p.isAssistant(i) {
		return nil, "", "the bytes are in assistant content, which ccvet never edits"
	}
	raw := p.raw(i)
	var es []edit.Edit
	for k := 0; k < len(raw); {
		r, n := utf8.DecodeRune(raw[k:])
		if r == utf8.RuneError && n <= 1 {
			es = append(es, edit.Edit{Offset: p.lines[i].off + int64(k), Length: 1, Text: "\uFFFD"})
			k++
			continue
		}
		k += n
	}
	es = Coalesce(es)
	if len(es) == 0 {
		return nil, "", "the line is valid UTF-8"
	}
	return es, rules.FixUnsafe, fmt.Sprintf("replace %d invalid byte run(s) by U+FFFD", len(es))
}

// Coalesce joins touching edits (see edit.Coalesce).
func Coalesce(es []edit.Edit) []edit.Edit { return edit.Coalesce(es) }

// valueEnd returns the end offset of the JSON value starting at off in b.
func valueEnd(b []byte, off int) (int, bool) {
	dec := json.NewDecoder(bytes.NewReader(b[off:]))
	var raw json.RawMessage
	if dec.Decode(&raw) != nil {
		return 0, false
	}
	return off + int(dec.InputOffset()), true
}

// blockOf returns the content block index named by a pointer
// /message/content/N/...
func blockOf(ptr string) (int, bool) {
	toks, err := jsonpos.Split(ptr)
	if err != nil || len(toks) < 3 || toks[0] != "message" || toks[1] != "content" {
		return 0, false
	}
	n, err := strconv.Atoi(toks[2])
	return n, err == nil
}

// planOrphanResult replaces a tool_result block whose call exists nowhere
// by the text block the reader itself puts there.
func (p *parsed) planOrphanResult(i int, f *finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.Type != "user" || f.Severity < finding.Error {
		return nil, "", "only a result inside the conversation is replaced (not an excerpt's first line)"
	}
	n, ok := blockOf(f.Pointer)
	if !ok {
		return nil, "", "the finding names no content block"
	}
	raw := p.raw(i)
	id, _ := p.find(i, fmt.Sprintf("/message/content/%d/tool_use_id", n), false)
	var tid string
	if end, ok := valueEnd(raw, id); ok {
		_ = json.Unmarshal(raw[id:end], &tid)
	}
	if tid == "" {
		return nil, "", "the block has no tool_use_id"
	}
	if _, ok := p.call(tid); ok {
		return nil, "", "the call is in this file (before its result is wrong, not missing); `/rewind` instead"
	}
	off, ok := p.find(i, fmt.Sprintf("/message/content/%d", n), false)
	if !ok || raw[off] != '{' {
		return nil, "", "the block is not an object"
	}
	end, ok := valueEnd(raw, off)
	if !ok {
		return nil, "", "the block does not parse"
	}
	text := `{"type":"text","text":"` + OrphanedResultText + `"}`
	return []edit.Edit{{Offset: p.lines[i].off + int64(off), Length: int64(end - off), Text: text}}, rules.FixUnsafe,
		"replace the tool_result block (call " + tid + " exists nowhere) by the reader's own text \"" + OrphanedResultText + "\""
}

// freshUUID derives a stable uuid (version 4 layout) from seed, so a plan
// is the same on every run.
func freshUUID(seed string) string {
	h := sha256.Sum256([]byte("ccvet-fix:" + seed))
	h[6] = h[6]&0x0f | 0x40
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// planMissingResult inserts, right after the call's message.id group, one
// user line holding the reader's own error result, and re-points the entry
// that followed the group to it.
func (p *parsed) planMissingResult(i int, f *finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.Type != "assistant" || r.UUID == "" || f.Severity < finding.Warning {
		return nil, "", "only a call with turns after it gets a result (a call at the end is the reader's to close)"
	}
	n, ok := blockOf(f.Pointer)
	if !ok {
		return nil, "", "the finding names no content block"
	}
	raw := p.raw(i)
	off, _ := p.find(i, fmt.Sprintf("/message/content/%d/id", n), false)
	var tid string
	if end, ok := valueEnd(raw, off); ok {
		_ = json.Unmarshal(raw[off:end], &tid)
	}
	if tid == "" {
		return nil, "", "the call has no id"
	}
	// The last line of the call's message.id group, and its follower
	// (found from an index: a line of many calls has a finding for each).
	p.follow()
	last := i
	if j, ok := p.lastOfID[r.Message.ID]; ok && r.Message.ID != "" && j > i {
		last = j
	}
	lastRec := p.rec(last)
	if !p.lines[last].nl {
		return nil, "", "the group ends the file without a newline"
	}
	follower := -1
	if js := p.naming(lastRec.UUID, last, len(p.lines)); len(js) > 0 {
		follower = js[0]
	}
	if follower < 0 {
		return nil, "", "no entry follows the call's group"
	}
	uuid := freshUUID(tid + r.UUID)
	var parent string
	if b, err := json.Marshal(lastRec.UUID); err == nil {
		parent = string(b)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	mb := `{"role":"user","content":[{"tool_use_id":` + q(tid) + `,"type":"tool_result","content":` + q(MissingResultText) +
		`,"is_error":true}]}`
	line := `{"parentUuid":` + parent + `,"isSidechain":` + strconv.FormatBool(r.IsSidechain)
	if r.AgentID != "" {
		line += `,"agentId":` + q(r.AgentID)
	}
	line += `,"userType":` + q(orDefault(r.UserType, "external")) + `,"cwd":` + q(r.Cwd) + `,"sessionId":` + q(r.SessionID) +
		`,"version":` + q(r.Version)
	if r.GitBranch != "" {
		line += `,"gitBranch":` + q(r.GitBranch)
	}
	line += `,"type":"user","message":` + mb + `,"uuid":"` + uuid + `","timestamp":` + q(lastRec.Timestamp) +
		`,"toolUseResult":` + q("Error: "+MissingResultText) + `,"sourceToolAssistantUUID":` + q(r.UUID) + "}\n"
	es := []edit.Edit{{Offset: p.lines[last].end + 1, Text: line}}
	re, ok := p.setString(follower, "/parentUuid", uuid)
	if !ok {
		return nil, "", "the follower's parentUuid is not a plain string"
	}
	es = append(es, re)
	edit.Sort(es)
	if edit.Conflict(es[0], es[1]) {
		return nil, "", "the follower is the next line"
	}
	return es, rules.FixUnsafe, fmt.Sprintf("insert after line %d a user entry %s holding the reader's own result for %s (%q, is_error) and re-point line %d to it",
		last+1, uuid, tid, MissingResultText, follower+1)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// planReorder moves the "parentUuid" member of line i to the front.
func (p *parsed) planReorder(i int) ([]edit.Edit, rules.FixClass, string) {
	raw := p.raw(i)
	// Moving the key makes the line visible to the 2.1.77+ pre-filter; a
	// turn without a readable message.content then crashes the reader
	// (2.1.110: "Cannot read properties of undefined (reading 'content')").
	if r := p.rec(i); r != nil && (r.Type == "user" || r.Type == "assistant") && !r.contentOK {
		return nil, "", "the entry has no readable message.content; moving parentUuid to the front would make it visible to the reader, which crashes on it"
	}
	if len(raw) == 0 || raw[0] != '{' {
		return nil, "", "the line does not start with {"
	}
	k, ok := jsonpos.Find(raw, "/parentUuid", true)
	if !ok {
		return nil, "", "the line has no parentUuid"
	}
	v, _ := jsonpos.Find(raw, "/parentUuid", false)
	end, ok := valueEnd(raw, v)
	if !ok {
		return nil, "", "parentUuid does not parse"
	}
	member := string(raw[k:end])
	base := p.lines[i].off
	// Delete the member with the comma before it; insert it with a comma after.
	c := k - 1
	for c > 0 && (raw[c] == ' ' || raw[c] == '\t') {
		c--
	}
	if raw[c] != ',' {
		return nil, "", "parentUuid is already first"
	}
	if bytes.ContainsAny(raw[1:c], "\n") {
		return nil, "", "unexpected layout"
	}
	es := []edit.Edit{{Offset: base + 1, Text: member + ","}, {Offset: base + int64(c), Length: int64(end - c)}}
	return es, rules.FixUnsafe, "move the \"parentUuid\" member to the front of the line (bytes moved, not re-serialized)"
}

// planCycle breaks a parent cycle at its forward edge: the entry whose
// parent is written later in the file is re-linked like an orphan.
func (p *parsed) planCycle(i int) ([]edit.Edit, rules.FixClass, string) {
	seen := map[int]bool{}
	for cur := i; cur >= 0 && !seen[cur]; {
		seen[cur] = true
		r := p.rec(cur)
		if r == nil || r.ParentUUID == nil {
			break
		}
		ps := p.withUUID(*r.ParentUUID)
		if len(ps) == 0 {
			break
		}
		next := ps[len(ps)-1]
		if next > cur {
			es, _, msg := p.planOrphanAt(cur)
			if len(es) == 0 {
				return nil, "", "the forward edge at line " + strconv.Itoa(cur+1) + " has no earlier entry to re-link to: " + msg
			}
			return es, rules.FixUnsafe, fmt.Sprintf("break the cycle at line %d (its parent is written after it): %s", cur+1, msg)
		}
		cur = next
	}
	return nil, "", "no forward edge found in the cycle"
}

// planReusedUUID gives the earlier of two different entries sharing line
// i's uuid a fresh uuid, and re-points the entries written between the two
// that name it (they meant the earlier one; later ones keep the later).
func (p *parsed) planReusedUUID(i int) ([]edit.Edit, rules.FixClass, string) {
	u := p.rec(i).UUID
	// The last line of u before i (the lines are in file order).
	k := -1
	js := p.withUUID(u)
	if at, _ := slices.BinarySearch(js, i); at > 0 {
		k = js[at-1]
	}
	if k < 0 {
		return nil, "", "no earlier line with this uuid"
	}
	fresh := freshUUID(u + ":" + strconv.Itoa(k))
	e, ok := p.setString(k, "/uuid", fresh)
	if !ok {
		return nil, "", "the earlier uuid is not a plain string"
	}
	es := []edit.Edit{e}
	n := 0
	for _, j := range p.naming(u, k, i) {
		re, ok := p.setString(j, "/parentUuid", fresh)
		if !ok {
			return nil, "", fmt.Sprintf("line %d's parentUuid is not a plain string", j+1)
		}
		es = append(es, re)
		n++
	}
	edit.Sort(es)
	return es, rules.FixUnsafe, fmt.Sprintf("give the earlier entry (line %d) the fresh uuid %s and re-point the %d entries between the two that name it",
		k+1, fresh, n)
}
