// Package plan turns one file's bytes and findings into byte edits, each with a fix class and a reason; it reads and writes nothing.
package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/ccvet/ccvet/internal/edit"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/secret"
)

// BridgeMillis is the widest timestamp gap a re-link may bridge and stay
// safe: what Claude Code 2.1.94+ bridges in memory on resume.
const BridgeMillis = 5000

// Fix is what ccvet fix proposes for one finding.
type Fix struct {
	Finding int            // index of the finding in the input
	Rule    string         // rule id
	Line    int            // line of the finding
	Safety  rules.FixClass // safe, unsafe, manual or none
	Message string         // the change, or why there is none and what to do
	Edits   []edit.Edit    // against the planned bytes; empty for manual and none
}

// Fixable reports whether f carries edits that --write (or --unsafe) would apply.
func (f *Fix) Fixable() bool {
	return len(f.Edits) > 0 && (f.Safety == rules.FixSafe || f.Safety == rules.FixUnsafe)
}

// Plan proposes one Fix per finding of one file; data is the file's bytes
// and fs its findings (line numbers against data).
func Plan(data []byte, fs []finding.Finding) []Fix {
	p := newParsed(data)
	out := make([]Fix, 0, len(fs))
	for i := range fs {
		f := &fs[i]
		fx := Fix{Finding: i, Rule: f.Rule, Line: f.Line}
		info := rules.FixOf(f.Rule)
		fx.Safety = info.Class
		fx.Message = info.How
		if info.Class == rules.FixSafe || info.Class == rules.FixUnsafe {
			es, safety, msg := p.plan(f, fs)
			if len(es) > 0 && p.noop(es) {
				// A splice that changes nothing would loop the passes: the
				// finding has another cause (e.g. the line its parentUuid
				// names does not parse for ccvet; see that line's finding).
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

// Layer orders the fixes of one pass: the byte layer first (a line that
// does not parse hides its entry from the graph rules), then identical
// duplicates, then the graph. A pass applies only its lowest layer.
func Layer(rule string) int {
	switch rule {
	case "truncated-line", "missing-final-newline", "invalid-json", "nul-bytes", "blank-line":
		return 0
	case "duplicate-uuid":
		return 1
	}
	return 2
}

// Choose picks the fixes to apply in one pass: safe ones, plus unsafe ones
// when unsafe is set, of the lowest layer present, in line order; a fix
// whose edits conflict with one already chosen is left out (run again), a
// fix of a higher layer waits for the next pass. Identical edits of two
// fixes are applied once.
func Choose(fixes []Fix, unsafe bool) (edits []edit.Edit, chosen, dropped []int) {
	idx := make([]int, 0, len(fixes))
	low := 3
	for i := range fixes {
		f := &fixes[i]
		if f.Fixable() && (f.Safety == rules.FixSafe || unsafe) {
			idx = append(idx, i)
			low = min(low, Layer(f.Rule))
		}
	}
	kept := idx[:0]
	for _, i := range idx {
		if Layer(fixes[i].Rule) == low {
			kept = append(kept, i)
		}
	}
	idx = kept
	sort.SliceStable(idx, func(a, b int) bool { return fixes[idx[a]].Edits[0].Offset < fixes[idx[b]].Edits[0].Offset })
	// edits stays sorted (by offset, then end) and free of conflicts, so
	// the edits a new one may meet are found by a binary search: those
	// that start by its end, and the one before them.
	for _, i := range idx {
		ok := true
		var add []edit.Edit
		for _, e := range fixes[i].Edits {
			dup, conflict := meets(edits, e)
			if conflict {
				ok = false
			}
			if !dup {
				add = append(add, e)
			}
		}
		if !ok {
			dropped = append(dropped, i)
			continue
		}
		for _, e := range add {
			at := sort.Search(len(edits), func(k int) bool {
				return edits[k].Offset > e.Offset || edits[k].Offset == e.Offset && edits[k].End() > e.End()
			})
			edits = slices.Insert(edits, at, e)
		}
		chosen = append(chosen, i)
	}
	return edits, chosen, dropped
}

// meets reports whether sorted, conflict-free edits hold e already (dup),
// and else whether one of them conflicts with it.
func meets(edits []edit.Edit, e edit.Edit) (dup, conflict bool) {
	k := sort.Search(len(edits), func(k int) bool { return edits[k].Offset >= e.Offset })
	if k > 0 && edit.Conflict(edits[k-1], e) {
		conflict = true
	}
	for ; k < len(edits) && edits[k].Offset <= e.End(); k++ {
		if edits[k] == e {
			return true, false
		}
		if edit.Conflict(edits[k], e) {
			conflict = true
		}
	}
	return false, conflict
}

// line is one line of the file.
type line struct {
	off, end int64 // [off, end) without the newline
	nl       bool  // ends with \n
	rec      *rec  // nil when the line is not a JSON object
}

// rec is the part of an entry planning needs.
type rec struct {
	Type        string  `json:"type"`
	Subtype     string  `json:"subtype"`
	UUID        string  `json:"uuid"`
	ParentUUID  *string `json:"parentUuid"`
	Timestamp   string  `json:"timestamp"`
	IsSidechain bool    `json:"isSidechain"`
	AgentID     string  `json:"agentId"`
	Source      string  `json:"sourceToolAssistantUUID"`
	SessionID   string  `json:"sessionId"`
	Cwd         string  `json:"cwd"`
	Version     string  `json:"version"`
	UserType    string  `json:"userType"`
	GitBranch   string  `json:"gitBranch"`
	Message     struct {
		ID      string          `json:"id"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	uses, results []string
	contentOK     bool // message.content is a string or an array
}

// parsed is one file split into lines. A line's entry is decoded when
// first asked for (rec), and every line's only when a plan looks an entry
// up by uuid or tool_use id (index): a file whose findings need neither
// (reordered keys, a missing final newline) is not decoded at all.
type parsed struct {
	data   []byte
	lines  []line
	tr     jsontree.Tree
	done   []bool           // lines[i].rec is decoded
	byUUID map[string][]int // uuid -> line indexes (index)
	callAt map[string]int   // tool_use id -> first line holding it (index)
	copyOf map[int]int      // line -> the last line before it of the same uuid and bytes (copies)
	copied map[string]bool  // the uuids copyOf answers for
	before []int32          // line -> the nearest earlier entry of its chain, or -1 (chainBefore)
	locs   []heldLoc        // Locators over the long lines asked about last, the most recent first (find)
	calls  map[int]callOf   // line -> callLine's answer
	// follows (made by follow): assistant message.id -> its last line, and
	// parentUuid -> the lines naming it, in file order.
	lastOfID map[string]int
	children map[string][]int
}

// heldLoc is a Locator over line i.
type heldLoc struct {
	i   int
	loc *jsonpos.Locator
}

// callOf is what callLine answers for one line.
type callOf struct {
	c   int
	why string
}

// locatedFrom is the length from which a line is searched through a
// Locator; heldLocs is how many such lines are held. The findings of a
// line (one per block of it) come together, so each block is found from
// the line's index, not by reading the line from its start.
const (
	locatedFrom = jsonpos.IndexFrom
	heldLocs    = 4
)

func newParsed(data []byte) *parsed {
	// lines grows as it goes: counting the newlines first to size it was a
	// whole pass over the file (0.6 s on 500 MB), the slice is a few MB.
	p := &parsed{data: data}
	var off int64
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		off = 3 // a byte order mark is not part of line 1 (as lint and the reader frame it)
	}
	for off < int64(len(data)) {
		end := int64(bytes.IndexByte(data[off:], '\n'))
		l := line{off: off}
		if end < 0 {
			l.end = int64(len(data))
		} else {
			l.end = off + end
			l.nl = true
		}
		p.lines = append(p.lines, l)
		off = l.end + 1
	}
	p.done = make([]bool, len(p.lines))
	return p
}

// rec is the entry of line i, nil when the line is not a JSON object.
func (p *parsed) rec(i int) *rec {
	if !p.done[i] {
		p.lines[i].rec = parseRec(&p.tr, p.raw(i))
		p.done[i] = true
	}
	return p.lines[i].rec
}

// index decodes every line and indexes the entries by uuid and tool_use id.
func (p *parsed) index() {
	if p.byUUID != nil {
		return
	}
	p.byUUID, p.callAt = map[string][]int{}, map[string]int{}
	for i := range p.lines {
		r := p.rec(i)
		if r == nil {
			continue
		}
		if r.UUID != "" {
			p.byUUID[r.UUID] = append(p.byUUID[r.UUID], i)
		}
		for _, u := range r.uses {
			if _, ok := p.callAt[u]; !ok {
				p.callAt[u] = i
			}
		}
	}
}

// follow indexes every line's entry by the message.id of an assistant
// entry (its last line) and by parentUuid (the lines naming it).
func (p *parsed) follow() {
	if p.children != nil {
		return
	}
	p.lastOfID, p.children = map[string]int{}, map[string][]int{}
	for j := range p.lines {
		o := p.rec(j)
		if o == nil {
			continue
		}
		if o.Type == "assistant" && o.Message.ID != "" {
			p.lastOfID[o.Message.ID] = j
		}
		if o.ParentUUID != nil {
			p.children[*o.ParentUUID] = append(p.children[*o.ParentUUID], j)
		}
	}
}

// naming lists the lines after line a and before line b whose parentUuid
// is u, in file order.
func (p *parsed) naming(u string, a, b int) []int {
	p.follow()
	js := p.children[u]
	from, _ := slices.BinarySearch(js, a+1)
	to, _ := slices.BinarySearch(js, b)
	if to < from {
		return nil
	}
	return js[from:to]
}

// withUUID lists the lines whose entry has uuid u.
func (p *parsed) withUUID(u string) []int {
	p.index()
	return p.byUUID[u]
}

// call returns the first line holding tool_use id.
func (p *parsed) call(id string) (int, bool) {
	p.index()
	j, ok := p.callAt[id]
	return j, ok
}

// parseRec decodes the entry on line b, nil when it is not a JSON object:
// with tr (fastRec) where that gives the same, else with encoding/json.
func parseRec(tr *jsontree.Tree, b []byte) *rec {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return nil
	}
	if r, ok := fastRec(tr, t); ok {
		return r
	}
	return slowRec(t)
}

// slowRec decodes the entry t with encoding/json.
func slowRec(t []byte) *rec {
	var r rec
	if err := json.Unmarshal(t, &r); err != nil {
		// A field of an unexpected type leaves the others filled; only a
		// line that is not JSON is not an entry.
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil
		}
	}
	var blocks []struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		ToolUseID string `json:"tool_use_id"`
	}
	if len(r.Message.Content) > 0 && r.Message.Content[0] == '[' && json.Unmarshal(r.Message.Content, &blocks) == nil {
		for _, bl := range blocks {
			switch bl.Type {
			case "tool_use":
				r.uses = append(r.uses, bl.ID)
			case "tool_result":
				r.results = append(r.results, bl.ToolUseID)
			}
		}
	}
	if c := bytes.TrimSpace(r.Message.Content); len(c) > 0 && (c[0] == '"' || c[0] == '[') {
		r.contentOK = true
	}
	r.Message.Content = nil
	return &r
}

// noop reports whether every edit of es puts back the bytes it replaces.
func (p *parsed) noop(es []edit.Edit) bool {
	for _, e := range es {
		if e.Length != int64(len(e.Text)) || string(p.data[e.Offset:e.End()]) != e.Text {
			return false
		}
	}
	return true
}

func (p *parsed) raw(i int) []byte { return p.data[p.lines[i].off:p.lines[i].end] }

// find is jsonpos.Find over line i.
func (p *parsed) find(i int, ptr string, key bool) (int, bool) {
	raw := p.raw(i)
	if len(raw) < locatedFrom {
		return jsonpos.Find(raw, ptr, key)
	}
	for k, h := range p.locs {
		if h.i == i {
			copy(p.locs[1:k+1], p.locs[:k])
			p.locs[0] = h
			return h.loc.Find(ptr, key)
		}
	}
	h := heldLoc{i, jsonpos.NewLocator(raw)}
	if len(p.locs) < heldLocs {
		p.locs = append(p.locs, heldLoc{})
	}
	copy(p.locs[1:], p.locs)
	p.locs[0] = h
	return h.loc.Find(ptr, key)
}

// whole is the edit deleting line i with its newline.
func (p *parsed) whole(i int) edit.Edit {
	l := p.lines[i]
	end := l.end
	if l.nl {
		end++
	}
	return edit.Edit{Offset: l.off, Length: end - l.off}
}

// plan computes the edits for one finding of a safe or unsafe class.
func (p *parsed) plan(f *finding.Finding, all []finding.Finding) ([]edit.Edit, rules.FixClass, string) {
	i := f.Line - 1
	if f.Line < 1 || i >= len(p.lines) {
		return nil, "", "the finding names no line of the file"
	}
	l := p.lines[i]
	last := i == len(p.lines)-1
	switch f.Rule {
	case "truncated-line":
		if !last || l.nl {
			return nil, "", "the torn line is not the last line (a torn line mid-file is never deleted)"
		}
		return []edit.Edit{{Offset: l.off, Length: l.end - l.off}}, rules.FixSafe,
			fmt.Sprintf("delete the torn last line (%d bytes, kept in the backup)", l.end-l.off)
	case "missing-final-newline":
		if !last || l.nl {
			return nil, "", "the file already ends with a newline"
		}
		for _, o := range all {
			if o.Rule == "truncated-line" && o.Line == f.Line {
				return nil, "", "the last line is torn; its fix deletes it"
			}
		}
		if p.rec(i) == nil {
			// A line nested deeper than ccvet reads is JSON all the same.
			if _, deep := jsontree.ValidDeep(p.raw(i)); !deep {
				return nil, "", "the last line does not parse"
			}
		}
		return []edit.Edit{{Offset: int64(len(p.data)), Text: "\n"}}, rules.FixSafe, "append a newline"
	case "invalid-json":
		cuts := fusedCuts(p.raw(i))
		if len(cuts) == 0 {
			return nil, "", "the line is not two or more whole entries fused together; restore it from a backup"
		}
		var es []edit.Edit
		for _, c := range cuts {
			es = append(es, edit.Edit{Offset: l.off + int64(c), Text: "\n"})
		}
		return es, rules.FixSafe, fmt.Sprintf("split %d fused entries onto their own lines", len(cuts)+1)
	case "nul-bytes":
		return p.planNUL(i)
	case "blank-line":
		if len(bytes.TrimSpace(p.raw(i))) != 0 {
			return nil, "", "the line is not blank"
		}
		return []edit.Edit{p.whole(i)}, rules.FixSafe, "delete the blank line"
	case "duplicate-uuid":
		return p.planDuplicate(i)
	case "tool-result-off-chain":
		return p.planOffChain(i, f.Pointer)
	case "tool-source-mismatch":
		return p.planSource(i)
	case "orphan-parent":
		return p.planOrphan(i)
	case "lone-surrogate", "escaped-nul":
		return p.planEscape(i, f.Rule)
	case "invalid-utf8":
		return p.planUTF8(i)
	case "unmatched-tool-result":
		return p.planOrphanResult(i, f)
	case "unmatched-tool-use":
		return p.planMissingResult(i, f)
	case "reordered-keys":
		return p.planReorder(i)
	case "parent-cycle":
		return p.planCycle(i)
	}
	return nil, "", "ccvet has no automatic fix for this rule yet"
}

func (p *parsed) planNUL(i int) ([]edit.Edit, rules.FixClass, string) {
	l := p.lines[i]
	raw := p.raw(i)
	n := 0
	for n < len(raw) && raw[n] == 0 {
		n++
	}
	if n == 0 {
		return nil, "", "the NUL run does not start the line"
	}
	switch {
	case n == len(raw): // the whole line: NULs then \n or EOF
		if i == len(p.lines)-1 && !l.nl && i > 0 && !p.lines[i-1].nl {
			return nil, "", "unexpected layout"
		}
		return []edit.Edit{p.whole(i)}, rules.FixSafe, fmt.Sprintf("delete the line of %d NUL bytes", n)
	case raw[n] == '{':
		return []edit.Edit{{Offset: l.off, Length: int64(n)}}, rules.FixSafe,
			fmt.Sprintf("delete the %d NUL bytes before the entry", n)
	}
	return nil, "", "the NUL run is followed by other bytes than an entry"
}

func (p *parsed) planDuplicate(i int) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.UUID == "" {
		return nil, "", "the line does not parse"
	}
	k := p.copyBefore(r.UUID, i)
	if k < 0 {
		return p.planReusedUUID(i)
	}
	if k == 0 {
		return []edit.Edit{p.whole(i)}, rules.FixSafe,
			"delete this exact repeat of line 1 (line 1 is never deleted)"
	}
	return []edit.Edit{p.whole(k)}, rules.FixSafe,
		fmt.Sprintf("delete line %d, an exact copy of this line (the reader keeps the last copy)", k+1)
}

// copyBefore is the last line before i whose bytes are line i's, among the
// lines with uuid u; -1 if none. The lines of a uuid are matched once, by a
// hash of their bytes: thousands of copies of one entry are not each
// compared with all the others.
func (p *parsed) copyBefore(u string, i int) int {
	if !p.copied[u] {
		if p.copied == nil {
			p.copied, p.copyOf = map[string]bool{}, map[int]int{}
		}
		p.copied[u] = true
		seed := maphash.MakeSeed()
		byHash := map[uint64][]int{}
		for _, j := range p.withUUID(u) {
			h := maphash.Bytes(seed, p.raw(j))
			same := byHash[h]
			for k := len(same) - 1; k >= 0; k-- {
				if bytes.Equal(p.raw(same[k]), p.raw(j)) {
					p.copyOf[j] = same[k]
					break
				}
			}
			byHash[h] = append(same, j)
		}
	}
	if k, ok := p.copyOf[i]; ok {
		return k
	}
	return -1
}

// setString replaces the string value at ptr of line i with v.
func (p *parsed) setString(i int, ptr, v string) (edit.Edit, bool) {
	raw := p.raw(i)
	off, ok := p.find(i, ptr, false)
	if !ok || off >= len(raw) || raw[off] != '"' {
		return edit.Edit{}, false
	}
	end := off + 1
	for end < len(raw) && raw[end] != '"' {
		if raw[end] == '\\' {
			return edit.Edit{}, false // an escaped id is never a real uuid
		}
		end++
	}
	if end >= len(raw) {
		return edit.Edit{}, false
	}
	base := p.lines[i].off
	return edit.Edit{Offset: base + int64(off) + 1, Length: int64(end - off - 1), Text: v}, true
}

// callLine is the line holding the call that the results of line i
// answer. A line of many results has a finding for each: they are matched
// once.
func (p *parsed) callLine(i int) (int, string) {
	if a, ok := p.calls[i]; ok {
		return a.c, a.why
	}
	c, why := p.findCallLine(i)
	if p.calls == nil {
		p.calls = map[int]callOf{}
	}
	p.calls[i] = callOf{c, why}
	return c, why
}

func (p *parsed) findCallLine(i int) (int, string) {
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

func (p *parsed) planOffChain(i int, ptr string) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || len(r.results) == 0 {
		return nil, "", "the line holds no tool_result"
	}
	safety := rules.FixSafe
	if ptr != "/parentUuid" {
		// The result is on the conversation, its call is not: re-pointing
		// the result at the call changes the branch a resume walks.
		safety = rules.FixUnsafe
	}
	c, why := p.callLine(i)
	if c < 0 {
		return nil, "", why
	}
	call := p.rec(c)
	if call.Message.ID == "" {
		return nil, "", "the call entry has no message.id, so the entry after the call would need re-parenting too"
	}
	e, ok := p.setString(i, "/parentUuid", call.UUID)
	if !ok {
		return nil, "", "parentUuid is not a plain string"
	}
	es := []edit.Edit{e}
	if r.Source != "" && r.Source != call.UUID {
		s, ok := p.setString(i, "/sourceToolAssistantUUID", call.UUID)
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

func (p *parsed) planSource(i int) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.ParentUUID == nil {
		return nil, "", "the entry has no parent"
	}
	c, why := p.callLine(i)
	if c < 0 {
		return nil, "", why
	}
	call := p.rec(c)
	if *r.ParentUUID != call.UUID {
		return nil, "", "parentUuid does not name the call line either; see tool-result-off-chain"
	}
	e, ok := p.setString(i, "/sourceToolAssistantUUID", call.UUID)
	if !ok {
		return nil, "", "sourceToolAssistantUUID is not a plain string"
	}
	return []edit.Edit{e}, rules.FixSafe, fmt.Sprintf("set sourceToolAssistantUUID to %s (line %d, the parent holding the call)", call.UUID, c+1)
}

func millis(ts string) (int64, bool) {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return 0, false
	}
	return t.UnixMilli(), true
}

// sound reports whether line j can take children: its own parent is null or
// names a line of the file.
func (p *parsed) sound(j int) bool {
	r := p.rec(j)
	return r.ParentUUID == nil || *r.ParentUUID == "" || len(p.withUUID(*r.ParentUUID)) > 0
}

func (p *parsed) planOrphan(i int) ([]edit.Edit, rules.FixClass, string) { return p.planOrphanAt(i) }

// chainBefore is the nearest line before i holding a user, assistant,
// system or attachment entry with a uuid of line i's chain (the same
// isSidechain and agentId), or -1. One pass down the file answers every
// line.
func (p *parsed) chainBefore(i int) int {
	if p.before == nil {
		type chainKey struct {
			side  bool
			agent string
		}
		last := map[chainKey]int32{}
		p.before = make([]int32, len(p.lines))
		for j := range p.lines {
			p.before[j] = -1
			o := p.rec(j)
			if o == nil {
				continue
			}
			k := chainKey{o.IsSidechain, o.AgentID}
			if b, ok := last[k]; ok {
				p.before[j] = b
			}
			switch o.Type {
			case "user", "assistant", "system", "attachment":
				if o.UUID != "" {
					last[k] = int32(j)
				}
			}
		}
	}
	return int(p.before[i])
}

// planOrphanAt re-links line i's parentUuid to the nearest earlier entry of
// its chain; safe within BridgeMillis, unsafe beyond.
func (p *parsed) planOrphanAt(i int) ([]edit.Edit, rules.FixClass, string) {
	r := p.rec(i)
	if r == nil || r.ParentUUID == nil {
		return nil, "", "the line does not parse"
	}
	c := p.chainBefore(i)
	if c < 0 {
		return nil, "", "no earlier entry of the same chain in this file (the file starts mid-conversation?)"
	}
	cand := p.rec(c)
	if !p.sound(c) {
		return nil, "", fmt.Sprintf("the nearest earlier entry (line %d) has a missing parent itself", c+1)
	}
	e, ok := p.setString(i, "/parentUuid", cand.UUID)
	if !ok {
		return nil, "", "parentUuid is not a plain string"
	}
	t0, ok0 := millis(cand.Timestamp)
	t1, ok1 := millis(r.Timestamp)
	gap := "unknown"
	safety := rules.FixUnsafe
	if ok0 && ok1 {
		d := t1 - t0
		gap = fmt.Sprintf("%.2f s", float64(d)/1000)
		if d >= 0 && d <= BridgeMillis {
			safety = rules.FixSafe
		}
	}
	msg := fmt.Sprintf("re-link parentUuid to %s (line %d, %s entry), timestamp gap %s", cand.UUID, c+1, cand.Type, gap)
	if safety == rules.FixUnsafe {
		msg += " (over 5 s: the reader would not bridge it, so this adds history it drops today)"
	}
	return []edit.Edit{e}, safety, msg
}

// fusedCuts returns the offsets inside b where one top-level JSON object
// ends and the next begins, when b is two or more whole entries written on
// one line; nil otherwise.
func fusedCuts(b []byte) []int {
	var cuts []int
	depth := 0
	in, esc := false, false
	start := 0
	var segs [][]byte
	for k, c := range b {
		if in {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return nil
			}
			if depth == 0 {
				segs = append(segs, b[start:k+1])
				start = k + 1
				if start < len(b) {
					cuts = append(cuts, start)
				}
			}
		}
	}
	if depth != 0 || in || start != len(b) || len(segs) < 2 {
		return nil
	}
	for _, s := range segs {
		var probe struct {
			Type *string `json:"type"`
		}
		if len(s) == 0 || s[0] != '{' || json.Unmarshal(s, &probe) != nil || probe.Type == nil {
			return nil
		}
	}
	return cuts
}

// Describe renders an edit for a person: what bytes go, what bytes come.
// The bytes of any secret on the lines the edit touches are shown as '*'
// (a torn last line that holds a key is deleted whole: its first and last
// bytes are shown).
func Describe(data []byte, e edit.Edit) string {
	old := masked(data, int(e.Offset), int(e.End()))
	switch {
	case e.Length == 0:
		return fmt.Sprintf("@%d insert %s", e.Offset, quote(e.Text))
	case e.Text == "":
		return fmt.Sprintf("@%d delete %d bytes %s", e.Offset, e.Length, quote(string(clip(old))))
	}
	return fmt.Sprintf("@%d replace %s with %s", e.Offset, quote(string(clip(old))), quote(e.Text))
}

// masked is data[off:end] with the bytes of every secret on the lines the
// range touches (what rule secret finds on each) replaced by '*': the
// lines are scanned whole, since a key's name may lie outside the range.
func masked(data []byte, off, end int) []byte {
	if off >= end {
		return nil
	}
	ls, le := bytes.LastIndexByte(data[:off], '\n')+1, len(data)
	if i := bytes.IndexByte(data[end:], '\n'); i >= 0 {
		le = end + i
	}
	out := append([]byte(nil), data[ls:le]...)
	for start := 0; start <= len(out); {
		stop := len(out)
		if i := bytes.IndexByte(out[start:], '\n'); i >= 0 {
			stop = start + i
		}
		copy(out[start:stop], secret.Default().MaskLine(out[start:stop]))
		start = stop + 1
	}
	return out[off-ls : end-ls]
}

func clip(b []byte) []byte {
	if len(b) > 60 {
		return append(append([]byte{}, b[:28]...), append([]byte("…"), b[len(b)-28:]...)...)
	}
	return b
}

func quote(s string) string { return strconv.Quote(s) }
