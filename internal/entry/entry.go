// Package entry extracts from a decoded transcript line the ids and links that the graph rules need.
package entry

import (
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// Record is the compact form of one transcript line: ids and links only, so
// that a whole project's graph fits in memory whatever the size of its text.
// Strings that repeat from line to line (tool names, a parent that is the
// line before) share one copy; the fields nearly every line of a file
// repeats (type, version, session id, agent id, cwd) live in a part shared
// by the records that agree on all of them (Common), and the fields few
// entry types carry in a part of their own (Rare), both read as if they
// were the record's own.
type Record struct {
	Line   int32 // 1-based line number
	Blocks int32 // number of blocks when Content is ContentArray
	Offset int64 // byte offset of the line in its file

	*Common // never nil in records from Extract or Ref: shared with the records that agree on its fields

	UUID                    string
	ParentUUID              string // "" when null or absent
	Timestamp               string
	MessageID               string // assistant message.id: lines sharing it form one API message
	SourceToolAssistantUUID string
	// Tools holds the tool_use and server_tool_use blocks of
	// message.content, then its tool_result blocks (Result), each in
	// content order: read them through ToolUses and ToolResults. One slice
	// for both keeps a record in the 144-byte size class.
	Tools []Tool

	HasParent        bool // parentUuid key present and not null
	IsSidechain      bool
	IsMeta           bool
	IsCompactSummary bool
	// NotResent: a user entry the 2.1.330 reader leaves out of a resume (a
	// turnCompanion reminder).
	NotResent bool
	// TaskNotification: a user entry with origin.kind "task-notification"
	// (2.1.330 sends it wrapped in a system reminder).
	TaskNotification bool
	// ThinkingOnly: message.content is a non-empty list of thinking or
	// redacted_thinking blocks only.
	ThinkingOnly bool

	// The shape of message.content, for the resume model.
	Content ContentKind

	*Rare // never nil in records from Extract or Ref: records without rare fields share one empty Rare
}

// Ref is a record that only gives a line's position (for File.Column and
// File.ReportRecord). Prefer it to a composite literal, whose nil Rare
// makes reading a rare field panic.
func Ref(line int, offset int64) *Record {
	return &Record{Line: int32(line), Offset: offset, Common: noCommon, Rare: noRare}
}

// Common holds the fields of a Record that most lines of a file repeat:
// records that agree on all of them share one Common (a long session has a
// few hundred distinct ones for hundreds of thousands of lines). Read them
// through the Record; a Common from Extract is never written.
type Common struct {
	Type      string
	Version   string
	SessionID string
	AgentID   string
	Cwd       string
}

// noCommon is the Common of a Ref record; never written.
var noCommon = &Common{}

// Rare holds the fields of a Record that few entries carry. Read them
// through the Record; Extract gives a record its own Rare only when one of
// them is set.
type Rare struct {
	Subtype           string // system entries
	LogicalParentUUID string // compaction boundaries
	LeafUUID          string // summary and last-prompt entries

	// A compaction boundary's compactMetadata.preservedSegment (2.1.2xx+):
	// the messages kept from head to tail are relinked after anchor.
	PreservedHead, PreservedAnchor, PreservedTail string

	// Progress entries (2.1.11-2.1.84) carry the tool they report on.
	ToolUseID       string
	ParentToolUseID string

	// File-history snapshots.
	SnapshotMessageID string
	Backups           []Backup
}

// noRare is the Rare of every record without rare fields; never written.
var noRare = &Rare{}

// ContentKind is what message.content holds.
type ContentKind uint8

// The shapes of message.content.
const (
	ContentMissing ContentKind = iota // no message object, or no content in it
	ContentString
	ContentArray
	ContentOther // null, a number, an object…
)

// Tool is one tool_use or tool_result block.
type Tool struct {
	ID     string
	Name   string // tool_use only
	Block  int    // index in message.content
	Server bool   // a server_tool_use block: the API answers it inside the same message
	Result bool   // a tool_result block
}

// ToolUses returns the tool_use (and server_tool_use) blocks of
// message.content, in content order.
func (r *Record) ToolUses() []Tool { return r.Tools[:r.uses()] }

// ToolResults returns the tool_result blocks of message.content, in
// content order.
func (r *Record) ToolResults() []Tool { return r.Tools[r.uses():] }

// uses is the number of tool uses in r.Tools, which come first.
func (r *Record) uses() int {
	for i := range r.Tools {
		if r.Tools[i].Result {
			return i
		}
	}
	return len(r.Tools)
}

// AddTool adds t (a use, or a result when t.Result) after the others of
// its kind.
func (r *Record) AddTool(t Tool) {
	if t.Result {
		r.Tools = append(r.Tools, t)
		return
	}
	r.Tools = slices.Insert(r.Tools, r.uses(), t)
}

// Backup is one trackedFileBackups member of a file-history snapshot.
type Backup struct {
	Key        string // file path, relative to the launch cwd or absolute
	FileName   string // backupFileName; "" when null
	Null       bool   // backupFileName was null: a new file, no backup expected
	Version    int
	BackupTime string
}

// IsChain reports whether the record takes part in the parentUuid chain.
func (r *Record) IsChain() bool {
	switch r.Type {
	case "user", "assistant", "system", "attachment", "progress":
		return true
	}
	return r.UUID != "" && r.Type != "file-history-snapshot" && r.Type != "file-history-delta" && r.Type != "summary"
}

// Extract builds the record of one parsed line; obj is its root object. The
// strings of the record are copies: nothing of the line is kept.
func Extract(obj jsontree.Val, line int, offset int64) *Record {
	in := interners.Get().(*interner)
	defer interners.Put(in)
	r := &Record{Line: int32(line), Offset: offset}
	var c Common
	var rare Rare
	var msg, snapshot, backup jsontree.Val
	var uuid, timestamp jsontree.Val
	var trackingPath string // a file-history-delta's key
	var amends string
	// One pass over the members; a repeated key overwrites, so the last one
	// wins, as with encoding/json.
	for key, v := range obj.KeyMembers() {
		switch string(key) {
		case "type":
			c.Type = in.field(v, &in.lastType)
		case "subtype":
			rare.Subtype = in.str(v)
		case "version":
			c.Version = in.field(v, &in.lastVersion)
		case "uuid":
			uuid = v
		case "parentUuid":
			r.ParentUUID = in.recent(v, &in.uuids)
			r.HasParent = r.ParentUUID != ""
		case "logicalParentUuid":
			rare.LogicalParentUUID = in.recent(v, &in.uuids)
		case "sessionId":
			c.SessionID = in.field(v, &in.lastSession)
		case "agentId":
			c.AgentID = in.field(v, &in.lastAgent)
		case "isSidechain":
			r.IsSidechain, _ = v.Bool()
		case "cwd":
			c.Cwd = in.field(v, &in.lastCwd)
		case "timestamp":
			timestamp = v
		case "isMeta":
			r.IsMeta, _ = v.Bool()
		case "isCompactSummary":
			r.IsCompactSummary, _ = v.Bool()
		case "turnCompanion":
			if b, _ := v.Bool(); b {
				r.NotResent = true
			}
		case "origin":
			if v.Get("kind").StrIs("task-notification") {
				r.TaskNotification = true
			}
		case "compactMetadata":
			if ps := v.Get("preservedSegment"); ps.Kind() == jsontree.Object {
				rare.PreservedHead = ps.Get("headUuid").String()
				rare.PreservedAnchor = ps.Get("anchorUuid").String()
				rare.PreservedTail = ps.Get("tailUuid").String()
			}
		case "sourceToolAssistantUUID":
			r.SourceToolAssistantUUID = in.recent(v, &in.uuids)
		case "leafUuid":
			rare.LeafUUID = v.String()
		case "toolUseID":
			rare.ToolUseID = in.recent(v, &in.tools)
		case "parentToolUseID":
			rare.ParentToolUseID = in.recent(v, &in.tools)
		case "messageId":
			rare.SnapshotMessageID = v.String()
		case "message":
			msg = v
		case "snapshot":
			snapshot = v
		case "trackingPath":
			trackingPath = v.String()
		case "backup":
			backup = v
		case "snapshotMessageId":
			amends = v.String()
		}
	}
	r.Common = in.common(&c)
	r.UUID, r.Timestamp = in.uuidTime(uuid, timestamp)
	obj.Remember("message", msg) // the line rules look it up next (content block types)
	if r.Type == "file-history-delta" {
		// A delta (2.1.220+) adds one backup to the snapshot of amends.
		rare.SnapshotMessageID = amends
		if backup.Kind() == jsontree.Object && trackingPath != "" {
			rare.Backups = []Backup{in.backupOf(trackingPath, backup)}
		}
		r.setRare(&rare)
		return r
	}
	if r.Type != "file-history-snapshot" {
		rare.SnapshotMessageID = ""
	}
	if msg.Kind() == jsontree.Object {
		r.MessageID = in.recent(msg.Get("id"), &in.messages)
		c := msg.Get("content") // looked up once: message holds the longest members
		switch c.Kind() {
		case jsontree.String:
			r.Content = ContentString
		case jsontree.Array:
			r.Content, r.Blocks = ContentArray, int32(c.Len())
		default:
			if c.Exists() {
				r.Content = ContentOther
			}
		}
		thinking := 0
		uses, results := in.uses[:0], in.results[:0]
		for i, b := range c.Items() {
			if b.Kind() != jsontree.Object {
				continue
			}
			switch t := b.Get("type"); {
			case t.StrIs("thinking"), t.StrIs("redacted_thinking"):
				thinking++
			case t.StrIs("tool_use"), t.StrIs("server_tool_use"):
				uses = append(uses, Tool{ID: in.recent(b.Get("id"), &in.tools), Name: in.str(b.Get("name")), Block: i,
					Server: t.StrIs("server_tool_use")})
			case t.StrIs("tool_result"):
				results = append(results, Tool{ID: in.recent(b.Get("tool_use_id"), &in.tools), Block: i, Result: true})
			}
		}
		if n := len(uses) + len(results); n > 0 {
			r.Tools = append(append(make([]Tool, 0, n), uses...), results...)
		}
		in.uses, in.results = scratch(uses), scratch(results)
		r.ThinkingOnly = thinking > 0 && int32(thinking) == r.Blocks
	}
	if r.Type == "file-history-snapshot" {
		if tfb := snapshot.Get("trackedFileBackups"); tfb.Kind() == jsontree.Object {
			ms := in.members[:0]
			for key, bm := range tfb.KeyMembers() {
				if bm.Kind() != jsontree.Object {
					ms = append(ms, member{b: Backup{Key: in.intern(key)}, skip: true})
					continue
				}
				ms = append(ms, member{b: in.backupOf(in.intern(key), bm)})
			}
			// Sort by key; of repeated keys keep the last, as encoding/json does.
			slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.b.Key, b.b.Key) })
			keep := func(i int) bool { return !ms[i].skip && (i+1 == len(ms) || ms[i+1].b.Key != ms[i].b.Key) }
			n := 0
			for i := range ms {
				if keep(i) {
					n++
				}
			}
			if n > 0 {
				rare.Backups = make([]Backup, 0, n)
			}
			for i, m := range ms {
				if keep(i) {
					rare.Backups = append(rare.Backups, m.b)
				}
			}
			clear(ms)
			if cap(ms) > 1<<12 {
				ms = nil // a huge snapshot's members are not kept
			}
			in.members = ms[:0]
		}
	}
	r.setRare(&rare)
	return r
}

// member is one trackedFileBackups member while a snapshot is read.
type member struct {
	b    Backup
	skip bool // not an object: no backup, but it hides an earlier repeat of its key
}

// backupOf reads one backup object of a file-history snapshot or delta,
// filed under key (the tracked path). Each snapshot repeats the backups of
// the one before: its strings are shared.
func (in *interner) backupOf(key string, v jsontree.Val) Backup {
	b := Backup{Key: key, BackupTime: in.str(v.Get("backupTime"))}
	switch n := v.Get("backupFileName"); n.Kind() {
	case jsontree.String:
		b.FileName = in.str(n)
	case jsontree.Null:
		b.Null = true
	}
	if lit, ok := v.Get("version").Number(); ok {
		n, _ := strconv.ParseInt(lit, 10, 64)
		b.Version = int(n)
	}
	return b
}

// setRare gives r a copy of rare when one of its fields is set, else the
// shared empty Rare.
func (r *Record) setRare(rare *Rare) {
	r.Rare = noRare
	if rare.Subtype != "" || rare.LogicalParentUUID != "" || rare.LeafUUID != "" || rare.ToolUseID != "" ||
		rare.ParentToolUseID != "" || rare.SnapshotMessageID != "" || rare.Backups != nil || rare.PreservedHead != "" {
		p := new(Rare)
		*p = *rare
		r.Rare = p
	}
}

// interner shares the strings that repeat from line to line: a map for the
// few distinct values of a field (type, version, session id, cwd, tool
// names), and rings of the last few ids for ids that come back soon (a
// parent, the assistant entry a tool result answers, a tool id and its
// result, the message id of a split message). It is reused across lines and
// files; its map is emptied when it grows past maxInterned.
type interner struct {
	m                      map[string]string
	buf                    []byte
	uuids, tools, messages ring
	commons                []*Common // the last few, newest at commonNext-1
	commonMap              map[Common]*Common
	commonNext             int
	// The last value of the fields that keep theirs from line to line,
	// checked before the map.
	lastType, lastVersion, lastSession, lastAgent, lastCwd lastField
	members                                                []member // reused by snapshots
	uses, results                                          []Tool   // reused by Extract
	pair                                                   []byte   // reused by uuidTime
}

const maxInterned = 4096

// ring holds the last len(ring.s) ids seen (a power of two).
type ring struct {
	s    [8]string
	next int
}

var interners = sync.Pool{New: func() any {
	return &interner{m: map[string]string{}, commonMap: map[Common]*Common{}}
}}

// strBytes is v.StrBytes into in.buf, which it keeps when the value was
// escaped: a Windows cwd ("C:\\Users\\...") is unescaped on every line, and
// each made a new buffer. The bytes are valid until the next call.
func (in *interner) strBytes(v jsontree.Val) ([]byte, bool) {
	if !v.Escaped() {
		return v.StrBytes(nil)
	}
	b, ok := v.StrBytes(in.buf)
	if cap(b) <= 1<<12 {
		in.buf = b[:0]
	}
	return b, ok
}

// str returns the string value of v (or ""), from the map when seen before.
func (in *interner) str(v jsontree.Val) string {
	b, ok := in.strBytes(v)
	if !ok {
		return ""
	}
	return in.intern(b)
}

// lastField is the value a field had the last time, and, when it was
// written with escapes, the bytes as written.
type lastField struct{ s, raw string }

// field is str for a field whose value seldom changes: last holds the
// value it had the last time. A value written with escapes (a Windows cwd)
// is compared as written and decoded only when it changed.
func (in *interner) field(v jsontree.Val, last *lastField) string {
	if raw := v.EscapedBytes(); raw != nil {
		if string(raw) != last.raw {
			b, _ := in.strBytes(v)
			last.s, last.raw = in.intern(b), string(raw)
		}
		return last.s
	}
	b, ok := in.strBytes(v)
	if !ok {
		return ""
	}
	if string(b) != last.s || last.raw != "" {
		last.s, last.raw = in.intern(b), ""
	}
	return last.s
}

// intern returns b as a string, from the map when seen before.
func (in *interner) intern(b []byte) string {
	if s, ok := in.m[string(b)]; ok {
		return s
	}
	if len(in.m) >= maxInterned {
		clear(in.m)
	}
	s := string(b)
	in.m[s] = s
	return s
}

// recent returns the string value of v (or ""), shared with an equal id
// of the ring, which it then joins.
func (in *interner) recent(v jsontree.Val, r *ring) string {
	b, ok := in.strBytes(v)
	if !ok || len(b) == 0 {
		return ""
	}
	// Newest first: a parent is most often the line just before.
	for k := 1; k <= len(r.s); k++ {
		if s := r.s[(r.next-k)&(len(r.s)-1)]; s == string(b) {
			return s
		}
	}
	return r.add(string(b))
}

// uuidTime returns the string values of an entry's uuid and timestamp (""
// when absent or not strings), new on nearly every line, made in one
// allocation. The uuid joins the ring of ids, for the lines that name it
// next, without a search.
func (in *interner) uuidTime(uuid, timestamp jsontree.Val) (string, string) {
	u, _ := in.strBytes(uuid)
	b := append(in.pair[:0], u...) // u may be in in.buf, which the next strBytes reuses
	t, _ := in.strBytes(timestamp)
	b = append(b, t...)
	in.pair = b[:0]
	if cap(b) > 1<<12 {
		in.pair = nil // an odd huge timestamp is not kept
	}
	if len(b) == 0 {
		return "", ""
	}
	s := string(b)
	if len(u) == 0 {
		return "", s
	}
	return in.uuids.add(s[:len(u)]), s[len(u):]
}

// scratch empties s for reuse, or drops it when a line of many tool
// blocks made it large.
func scratch(s []Tool) []Tool {
	clear(s)
	if cap(s) > 1<<10 {
		return nil
	}
	return s[:0]
}

// commonsKept is how many recent Commons an interner compares a line's
// with: a file's lines alternate between a few entry types.
const commonsKept = 16

// maxCommons bounds the Commons an interner's map keeps: it is emptied
// when it grows past it.
const maxCommons = 1024

// common returns a Common equal to c: one of the last few, else one of the
// map (a file's lines can alternate between more combinations than the
// last few: entry types of other versions), else a new one. Its strings
// come from field, so equal ones are most often the same string and
// compare at once.
func (in *interner) common(c *Common) *Common {
	for k := 1; k <= len(in.commons); k++ {
		if p := in.commons[(in.commonNext-k)&(commonsKept-1)]; *p == *c {
			return p
		}
	}
	p := in.commonMap[*c]
	if p == nil {
		if len(in.commonMap) >= maxCommons {
			clear(in.commonMap)
		}
		p = new(Common)
		*p = *c
		in.commonMap[*p] = p
	}
	if len(in.commons) < commonsKept {
		in.commons = append(in.commons, p)
	} else {
		in.commons[in.commonNext] = p
	}
	in.commonNext = (in.commonNext + 1) & (commonsKept - 1)
	return p
}

// add puts s in the ring, in place of its oldest id.
func (r *ring) add(s string) string {
	r.s[r.next] = s
	r.next = (r.next + 1) & (len(r.s) - 1)
	return s
}
