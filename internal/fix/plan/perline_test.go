package plan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/rules"
)

// The plans below are as they were first written: each finding looked its
// block up from the start of its line, matched every result of its line
// again, and scanned the file after it for its group and follower. They
// are the reference the indexed plans are held to.

func planRef(data []byte, fs []finding.Finding) []Fix {
	p := newParsed(data)
	out := make([]Fix, 0, len(fs))
	for i := range fs {
		f := &fs[i]
		fx := Fix{Finding: i, Rule: f.Rule, Line: f.Line}
		info := rules.FixOf(f.Rule)
		fx.Safety = info.Class
		fx.Message = info.How
		if info.Class == rules.FixSafe || info.Class == rules.FixUnsafe {
			es, safety, msg := p.refPlan(f, fs)
			if len(es) > 0 && p.noop(es) {
				es, msg = nil, "the planned edit changes nothing ("+msg+"); the cause is elsewhere, see the other findings of this file"
			}
			switch {
			case len(es) > 0:
				fx.Edits, fx.Safety, fx.Message = es, safety, msg
			default:
				fx.Safety = rules.FixManual
				fx.Message = "no automatic fix: " + msg
			}
		}
		out = append(out, fx)
	}
	return out
}

func (p *parsed) refPlan(f *finding.Finding, all []finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	i := f.Line - 1
	if f.Line < 1 || i >= len(p.lines) {
		return p.plan(f, all)
	}
	switch f.Rule {
	case "duplicate-uuid":
		r := p.rec(i)
		if r == nil || r.UUID == "" || p.copyBefore(r.UUID, i) >= 0 {
			return p.plan(f, all)
		}
		return p.refReusedUUID(i)
	case "tool-result-off-chain":
		return p.refOffChain(i, f.Pointer)
	case "tool-source-mismatch":
		return p.refSource(i)
	case "unmatched-tool-result":
		return p.refOrphanResult(i, f)
	case "unmatched-tool-use":
		return p.refMissingResult(i, f)
	}
	return p.plan(f, all)
}

func (p *parsed) refSetString(i int, ptr, v string) (edit.Edit, bool) {
	raw := p.raw(i)
	off, ok := jsonpos.Find(raw, ptr, false)
	if !ok || off >= len(raw) || raw[off] != '"' {
		return edit.Edit{}, false
	}
	end := off + 1
	for end < len(raw) && raw[end] != '"' {
		if raw[end] == '\\' {
			return edit.Edit{}, false
		}
		end++
	}
	if end >= len(raw) {
		return edit.Edit{}, false
	}
	return edit.Edit{Offset: p.lines[i].off + int64(off) + 1, Length: int64(end - off - 1), Text: v}, true
}

func (p *parsed) refCallLine(i int) (int, string) {
	r := p.rec(i)
	c := -1
	for _, id := range r.results {
		j, ok := p.call(id)
		if !ok {
			continue
		}
		if c >= 0 && c != j {
			return -1, "the results of this entry answer calls on different lines"
		}
		c = j
	}
	if c < 0 {
		return -1, "no line of the file holds the call"
	}
	if p.rec(c).UUID == "" {
		return -1, "the call line has no uuid"
	}
	return c, ""
}

func (p *parsed) refOffChain(i int, ptr string) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || len(r.results) == 0 {
		return nil, "", "the line holds no tool_result"
	}
	safety := rules.FixSafe
	if ptr != "/parentUuid" {
		safety = rules.FixUnsafe
	}
	c, why := p.refCallLine(i)
	if c < 0 {
		return nil, "", why
	}
	call := p.rec(c)
	if call.Message.ID == "" {
		return nil, "", "the call entry has no message.id, so the entry after the call would need re-parenting too"
	}
	e, ok := p.refSetString(i, "/parentUuid", call.UUID)
	if !ok {
		return nil, "", "parentUuid is not a plain string"
	}
	es := []edit.Edit{e}
	if r.Source != "" && r.Source != call.UUID {
		s, ok := p.refSetString(i, "/sourceToolAssistantUUID", call.UUID)
		if !ok {
			return nil, "", "sourceToolAssistantUUID is not a plain string"
		}
		es = append(es, s)
		edit.Sort(es)
	}
	msg := fmt.Sprintf("re-point parentUuid to %s (line %d, which holds the call)", call.UUID, c+1)
	if safety == rules.FixUnsafe {
		msg += "; the call is off the resumed conversation today, so this changes the branch a resume walks"
	}
	return es, safety, msg
}

func (p *parsed) refSource(i int) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.ParentUUID == nil {
		return nil, "", "the entry has no parent"
	}
	c, why := p.refCallLine(i)
	if c < 0 {
		return nil, "", why
	}
	call := p.rec(c)
	if *r.ParentUUID != call.UUID {
		return nil, "", "parentUuid does not name the call line either; see tool-result-off-chain"
	}
	e, ok := p.refSetString(i, "/sourceToolAssistantUUID", call.UUID)
	if !ok {
		return nil, "", "sourceToolAssistantUUID is not a plain string"
	}
	return []edit.Edit{e}, rules.FixSafe, fmt.Sprintf("set sourceToolAssistantUUID to %s (line %d, the parent holding the call)", call.UUID, c+1)
}

func (p *parsed) refOrphanResult(i int, f *finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.Type != "user" || f.Severity < finding.Error {
		return nil, "", "only a result inside the conversation is replaced (not an excerpt's first line)"
	}
	n, ok := blockOf(f.Pointer)
	if !ok {
		return nil, "", "the finding names no content block"
	}
	raw := p.raw(i)
	id, _ := jsonpos.Find(raw, fmt.Sprintf("/message/content/%d/tool_use_id", n), false)
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
	off, ok := jsonpos.Find(raw, fmt.Sprintf("/message/content/%d", n), false)
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

func (p *parsed) refMissingResult(i int, f *finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.Type != "assistant" || r.UUID == "" || f.Severity < finding.Warning {
		return nil, "", "only a call with turns after it gets a result (a call at the end is the reader's to close)"
	}
	n, ok := blockOf(f.Pointer)
	if !ok {
		return nil, "", "the finding names no content block"
	}
	raw := p.raw(i)
	off, _ := jsonpos.Find(raw, fmt.Sprintf("/message/content/%d/id", n), false)
	var tid string
	if end, ok := valueEnd(raw, off); ok {
		_ = json.Unmarshal(raw[off:end], &tid)
	}
	if tid == "" {
		return nil, "", "the call has no id"
	}
	last := i
	if r.Message.ID != "" {
		for j := i + 1; j < len(p.lines); j++ {
			if o := p.rec(j); o != nil && o.Type == "assistant" && o.Message.ID == r.Message.ID {
				last = j
			}
		}
	}
	lastRec := p.rec(last)
	if !p.lines[last].nl {
		return nil, "", "the group ends the file without a newline"
	}
	follower := -1
	for j := last + 1; j < len(p.lines); j++ {
		if o := p.rec(j); o != nil && o.ParentUUID != nil && *o.ParentUUID == lastRec.UUID {
			follower = j
			break
		}
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
	re, ok := p.refSetString(follower, "/parentUuid", uuid)
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

func (p *parsed) refReusedUUID(i int) ([]edit.Edit, rules.FixClass, string) {
	u := p.rec(i).UUID
	k := -1
	for _, j := range p.withUUID(u) {
		if j < i {
			k = j
		}
	}
	if k < 0 {
		return nil, "", "no earlier line with this uuid"
	}
	fresh := freshUUID(u + ":" + strconv.Itoa(k))
	e, ok := p.refSetString(k, "/uuid", fresh)
	if !ok {
		return nil, "", "the earlier uuid is not a plain string"
	}
	es := []edit.Edit{e}
	n := 0
	for j := k + 1; j < i; j++ {
		o := p.rec(j)
		if o == nil || o.ParentUUID == nil || *o.ParentUUID != u {
			continue
		}
		re, ok := p.refSetString(j, "/parentUuid", fresh)
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

// randomPlanFile is a file of entries drawn from small pools of uuids,
// message ids and tool ids, some lines long enough to be searched through a
// Locator (many blocks, or a long text), with a finding of each rule the
// indexed plans serve on every block and on parentUuid.
func randomPlanFile(rng *rand.Rand) ([]byte, []finding.Finding) {
	id := func(pool int) string { return fmt.Sprintf("u%d", rng.IntN(pool)) }
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	nLines := 2 + rng.IntN(30)
	var lines []string
	blocks := make([]int, nLines)
	prev := id(12)
	for i := range nLines {
		var b strings.Builder
		typ := "user"
		if rng.IntN(2) == 0 {
			typ = "assistant"
		}
		b.WriteString(`{"parentUuid":`)
		switch rng.IntN(8) {
		case 0:
			b.WriteString("null")
		case 1:
			b.WriteString(`"esc\u0061ped"`)
		case 2, 3, 4: // a result's parent is then often its call
			b.WriteString(q(prev))
		default:
			b.WriteString(q(id(12)))
		}
		if rng.IntN(3) != 0 {
			b.WriteString(`,"sourceToolAssistantUUID":` + q(id(12)))
		}
		prev = id(12)
		b.WriteString(`,"type":"` + typ + `","uuid":` + q(prev))
		if rng.IntN(6) == 0 {
			b.WriteString(`,"isSidechain":true,"agentId":"a1"`)
		}
		b.WriteString(`,"timestamp":"2026-01-01T00:00:0` + strconv.Itoa(rng.IntN(10)) + `.000Z","message":{`)
		if typ == "assistant" && rng.IntN(4) != 0 {
			b.WriteString(`"id":` + q(fmt.Sprintf("msg_%d", rng.IntN(4))) + `,`)
		}
		b.WriteString(`"content":[`)
		n := rng.IntN(4)
		if rng.IntN(4) == 0 {
			n = 130 + rng.IntN(80) // past locatedFrom, mostly
		}
		for k := range n {
			if k > 0 {
				b.WriteString(",")
			}
			tid := q(fmt.Sprintf("toolu_%d", rng.IntN(40)))
			switch rng.IntN(5) {
			case 0:
				b.WriteString(`{"type":"text","text":` + q(strings.Repeat("x", rng.IntN(200))) + `}`)
			case 1, 2:
				b.WriteString(`{"type":"tool_use","id":` + tid + `,"name":"Bash","input":{"command":"ls"}}`)
			default: // some answer no call of the file
				tid = q(fmt.Sprintf("toolu_%d", rng.IntN(60)))
				b.WriteString(`{"type":"tool_result","tool_use_id":` + tid + `,"content":"x"}`)
			}
		}
		if rng.IntN(8) == 0 {
			b.WriteString(`,{"type":"text","text":"` + strings.Repeat("y", 9000) + `"}`)
			n++
		}
		b.WriteString(`]}}`)
		lines = append(lines, b.String())
		blocks[i] = n
	}
	data := []byte(strings.Join(lines, "\n"))
	if rng.IntN(4) != 0 {
		data = append(data, '\n')
	}
	var fs []finding.Finding
	for i := range nLines {
		for _, r := range []string{"duplicate-uuid", "tool-result-off-chain", "tool-source-mismatch", "orphan-parent"} {
			fs = append(fs, finding.Finding{Rule: r, Line: i + 1, Pointer: "/parentUuid", Severity: finding.Error})
		}
		for k := range blocks[i] + 1 {
			ptr := "/message/content/" + strconv.Itoa(k)
			for _, r := range []string{"unmatched-tool-result", "unmatched-tool-use", "tool-result-off-chain"} {
				fs = append(fs, finding.Finding{Rule: r, Line: i + 1, Pointer: ptr, Severity: finding.Severity(rng.IntN(4))})
			}
		}
	}
	rng.Shuffle(len(fs), func(a, b int) { fs[a], fs[b] = fs[b], fs[a] })
	return data, fs
}

// TestPlanPerLineMatchesRef holds the plans that find a line's blocks
// through its Locator, match its results once, and find a group's end and
// follower from an index to the plans that did each per finding.
func TestPlanPerLineMatchesRef(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	planned := map[string]int{}
	for it := range 80 {
		data, fs := randomPlanFile(rng)
		got, want := Plan(data, fs), planRef(data, fs)
		if !reflect.DeepEqual(got, want) {
			for k := range got {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Fatalf("case %d, finding %+v:\n got %+v\nwant %+v", it, fs[k], got[k], want[k])
				}
			}
			t.Fatalf("case %d: %d fixes, want %d", it, len(got), len(want))
		}
		for _, f := range got {
			if len(f.Edits) > 0 {
				planned[f.Rule]++
			}
		}
	}
	// The inputs reach the plans that edit, not only their refusals.
	for _, r := range []string{"duplicate-uuid", "tool-result-off-chain", "tool-source-mismatch", "orphan-parent",
		"unmatched-tool-result", "unmatched-tool-use"} {
		if planned[r] < 10 {
			t.Errorf("%d %s fixes with edits", planned[r], r)
		}
	}
	t.Logf("fixes with edits: %v", planned)
}
