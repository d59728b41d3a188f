// Package entry extracts from a decoded transcript line the ids and links that the graph rules need.
package entry

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

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

	// The uuid and parentUuid (read them through UUID, ID, ParentUUID and
	// ParentID): 16 bytes each, no string kept beside the record. One
	// not in the written form (see ID) keeps its string in the Rare, as
	// the bits of n say.
	id, parent ID
	// msgOrSource is the ID of the assistant message.id (MessageID: a
	// hash, see ID; only compared, never printed) or, on a line without
	// one, of its sourceToolAssistantUUID (SourceID) when that is a uuid in
	// the written form, as the sourceBit of uses says: an assistant line
	// has the one, a tool result the other. A line with both, or with a
	// source in another form, keeps the source's string in its Rare
	// (SourceAlso). No string: a long transcript's records hold no
	// pointer to an id's bytes (6 to 9 MB of them for 370,000 entries).
	msgOrSource ID
	// tools points to the tool_use and server_tool_use blocks of
	// message.content (uses&usesMask of them), then its tool_result blocks
	// (the rest of n), each in content order: read them through ToolUses
	// and ToolResults. A pointer and two counts, the timestamp in 8 bytes
	// (ts, see Timestamp), msgOrSource and the two IDs keep a record in
	// the 112-byte size class, with nothing beside it.
	tools   *Tool
	ts      int64
	n, uses uint32 // n: tool blocks and the raw-id bits; uses: see usesMask

	HasParent        bool // parentUuid key present and not null
	IsSidechain      bool
	IsMeta           bool
	IsCompactSummary bool
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

// Rare holds the fields of a Record that few entries carry (system,
// progress and file-history entries: one line in eight of a long
// session), and points to those fewer still carry. Read them through the
// Record; Extract gives a record its own Rare only when one of them is
// set.
type Rare struct {
	Subtype string // system entries

	// The backups of a file-history snapshot, or of a delta.
	Backups []Backup

	// Never nil in records from Extract or Ref: Rares without its fields
	// share one empty Rarer. Reading its fields through a Rare made
	// without one panics, as reading a Rare's through a record without one.
	*Rarer
}

// Rarer holds the fields of a Record that fewer entries carry than those
// of Rare: a Rare of 48 bytes, not 176, for every snapshot and system
// line. Read them through the Record.
type Rarer struct {
	LogicalParentUUID string // compaction boundaries
	LeafUUID          string // summary and last-prompt entries

	// A compaction boundary's compactMetadata.preservedSegment (2.1.2xx+):
	// the messages kept from head to tail are relinked after anchor.
	PreservedHead, PreservedAnchor, PreservedTail string

	// RawTimestamp is a timestamp not written as toISOString writes them
	// (see Record.Timestamp).
	RawTimestamp string
	// SourceAlso is the sourceToolAssistantUUID of a line that also has
	// a message.id (see Record.msgOrSource).
	SourceAlso string

	// OwnNote and HookText mark a meta user entry as a note Claude Code
	// adds to a turn (ownNote: to go on after a reply cut at max_tokens,
	// after a refusal) or a hook's output (hookText), as 2.1.332 writes
	// them: its reader sends them inside a system reminder.
	OwnNote, HookText bool

	// QueuedImage: an attachment entry of a prompt sent while a call ran
	// (queued_command) whose prompt holds an image: the reader sends it
	// with the call's result (2.1.110, 2.1.330, 2.1.332).
	QueuedImage bool

	// APIError: an assistant entry with isApiErrorMessage true, which
	// Claude Code writes for an API error it gave up on (model
	// "<synthetic>"); the reader does not send it.
	APIError bool

	// rawIDs holds the uuid and parentUuid strings not in the written
	// form (see Record.id).
	rawIDs *rawIDs
}

// rawIDs are the strings of a record's uuid (rawIDs[uuidSlot]) and
// parentUuid (rawIDs[parentSlot]) that an ID cannot give back.
type rawIDs [2]string

// The two ids of a record: its uuid and its parentUuid.
const (
	uuidSlot = iota
	parentSlot
)

// noRare is the Rare of every record without rare fields, and noRarer
// the Rarer of every Rare without rarer ones; never written.
var (
	noRarer = &Rarer{}
	noRare  = &Rare{Rarer: noRarer}
)

// ContentKind is what message.content holds.
type ContentKind uint8

// The shapes of message.content.
const (
	ContentMissing ContentKind = iota // no message object, or no content in it
	ContentString
	ContentArray
	ContentOther // null, a number, an object…
)

// Tool is one tool_use or tool_result block: 24 bytes (a long session
// holds hundreds of thousands), its name an index in the run's table of
// tool names. Make one with ToolUse or ToolResult.
type Tool struct {
	ID    string
	Block int32  // index in message.content
	meta  uint32 // name index<<2 | serverBit | resultBit
}

// The bits of Tool.meta below the name index.
const (
	toolServerBit = 1 << iota
	toolResultBit
	toolNameShift = iota
)

// ToolUse is a tool_use block (a server_tool_use one when server) with
// this id and name, at index block of message.content.
func ToolUse(id, name string, block int, server bool) Tool {
	t := Tool{ID: id, Block: int32(block), meta: toolNameIndex(name) << toolNameShift}
	if server {
		t.meta |= toolServerBit
	}
	return t
}

// ToolResult is a tool_result block answering tool_use id, at index block
// of message.content.
func ToolResult(id string, block int) Tool {
	return Tool{ID: id, Block: int32(block), meta: toolResultBit}
}

// Name is a tool_use block's name ("" for a tool_result, and for a name
// the table of tool names does not keep: see NameKept).
func (t Tool) Name() string { return toolName(t.meta >> toolNameShift) }

// NameKept reports whether Name is the block's name: false for a name
// longer than 256 bytes, or new once the process has kept 65,536 names or
// 4 MiB of them (the names outlive the files that hold them); then only
// the line has it.
func (t Tool) NameKept() bool { return t.meta>>toolNameShift != lostName }

// Server reports a server_tool_use block: the API answers it inside the
// same message.
func (t Tool) Server() bool { return t.meta&toolServerBit != 0 }

// Result reports a tool_result block.
func (t Tool) Result() bool { return t.meta&toolResultBit != 0 }

// The bits of Record.uses and Record.n.
const (
	usesMask  = 1<<31 - 1
	sourceBit = 1 << 31 // uses: msgOrSource is the source, not the message id

	nMask        = 1<<30 - 1
	rawUUIDBit   = 1 << 31 // n: the uuid's string is in Rare.rawIDs
	rawParentBit = 1 << 30 // n: the parentUuid's string is in Rare.rawIDs
)

// rawBit is the bit of n that says id slot k's string is in Rare.rawIDs.
func rawBit(k int) uint32 { return rawUUIDBit >> k }

// UUID is the entry's uuid ("" when absent or not a string).
func (r *Record) UUID() string { return r.idString(uuidSlot, r.id) }

// idString is the string of id slot k, whose ID is id.
func (r *Record) idString(k int, id ID) string {
	if r.n&rawBit(k) != 0 {
		if r.Rare == nil || r.Rarer == nil || r.rawIDs == nil {
			return "" // a Rare written over (a test's)
		}
		return r.rawIDs[k]
	}
	return id.String()
}

// ID is the ID of the entry's uuid (zero when absent or not a string).
func (r *Record) ID() ID { return r.id }

// RawUUID reports whether the entry's uuid is a string not in the written
// form (see ID): its ID is a hash.
func (r *Record) RawUUID() bool { return r.n&rawUUIDBit != 0 }

// RawParent reports whether the entry's parentUuid is a string not in the
// written form (see ID): its ID is a hash.
func (r *Record) RawParent() bool { return r.n&rawParentBit != 0 }

// ParentUUID is the entry's parentUuid ("" when null or absent).
func (r *Record) ParentUUID() string { return r.idString(parentSlot, r.parent) }

// ParentID is the ID of the entry's parentUuid (zero when null or absent).
func (r *Record) ParentID() ID { return r.parent }

// SetUUID sets the entry's uuid. The record's Rare is not written: it gets
// a copy when s is not in the written form.
func (r *Record) SetUUID(s string) {
	var ok bool
	r.id, ok = ParseID(s)
	r.setRaw(uuidSlot, s, !ok && s != "")
}

// SetParentUUID sets the entry's parentUuid (HasParent is left as it is).
// The record's Rare is not written: it gets a copy when s is not in the
// written form.
func (r *Record) SetParentUUID(s string) {
	var ok bool
	r.parent, ok = ParseID(s)
	r.setRaw(parentSlot, s, !ok && s != "")
}

// setRaw keeps s, the string of id slot k, in a copy of the record's Rare
// when raw, and drops the one kept before.
func (r *Record) setRaw(k int, s string, raw bool) {
	if !raw && r.n&rawBit(k) == 0 {
		return
	}
	rare := r.ownRare()
	var ids rawIDs
	if rare.rawIDs != nil {
		ids = *rare.rawIDs
	}
	ids[k] = ""
	if raw {
		ids[k] = s
	}
	rare.rawIDs = nil
	if ids != (rawIDs{}) {
		rare.rawIDs = &ids
	}
	r.n &^= rawBit(k)
	if raw {
		r.n |= rawBit(k)
	}
}

// ownRare gives the record a copy of its Rare (the empty one when it has
// none) and returns it to be written: Rares are shared.
func (r *Record) ownRare() *Rare {
	rare := *noRare
	if r.Rare != nil {
		rare = *r.Rare
	}
	rarer := *noRarer
	if rare.Rarer != nil {
		rarer = *rare.Rarer
	}
	rare.Rarer = &rarer
	r.Rare = &rare
	return &rare
}

// ToolUses returns the tool_use (and server_tool_use) blocks of
// message.content, in content order.
func (r *Record) ToolUses() []Tool { return r.allTools()[:r.uses&usesMask] }

// ToolResults returns the tool_result blocks of message.content, in
// content order.
func (r *Record) ToolResults() []Tool { return r.allTools()[r.uses&usesMask:] }

// MessageID is the ID of the assistant message.id (zero when none): the
// lines that share it form one API message. Two lines have equal IDs when
// their ids are equal (see ID).
func (r *Record) MessageID() ID {
	if r.uses&sourceBit != 0 {
		return ID{}
	}
	return r.msgOrSource
}

// SourceToolAssistantUUID is the entry's sourceToolAssistantUUID ("" when
// none): the assistant entry whose tool call its results answer.
func (r *Record) SourceToolAssistantUUID() string {
	if r.uses&sourceBit != 0 {
		return r.msgOrSource.String()
	}
	if r.Rare != nil && r.Rarer != nil {
		return r.SourceAlso
	}
	return ""
}

// WrittenSource is the ID of the entry's sourceToolAssistantUUID and
// true when that is a uuid in the written form (false: none, or another
// string).
func (r *Record) WrittenSource() (ID, bool) {
	if r.uses&sourceBit != 0 {
		return r.msgOrSource, true
	}
	if r.Rare != nil && r.Rarer != nil && r.SourceAlso != "" {
		return ParseWritten(r.SourceAlso)
	}
	return ID{}, false
}

// SourceID is the ID of the entry's sourceToolAssistantUUID (zero when
// none), as ParseID gives it.
func (r *Record) SourceID() ID {
	if r.uses&sourceBit != 0 {
		return r.msgOrSource
	}
	if r.Rare != nil && r.Rarer != nil && r.SourceAlso != "" {
		id, _ := ParseID(r.SourceAlso)
		return id
	}
	return ID{}
}

// SetIDs sets the record's message id and sourceToolAssistantUUID (as
// Extract reads them: "" for none). The record's Rare is not written: it
// gets a copy when the line has both.
func (r *Record) SetIDs(messageID, source string) {
	if r.Rare == nil {
		r.Rare = noRare
	} else if r.Rarer == nil {
		r.ownRare() // a Rare made without its Rarer
	}
	sid, written := ParseWritten(source)
	inID := messageID == "" && written // the source's ID takes the message id's place
	if r.SourceAlso != "" || source != "" && !inID {
		rare := r.ownRare()
		rare.SourceAlso = ""
		if !inID {
			rare.SourceAlso = source
		}
	}
	r.uses &^= sourceBit
	r.msgOrSource, _ = ParseID(messageID)
	if inID {
		r.msgOrSource = sid
		r.uses |= sourceBit
	}
}

// allTools is the uses, then the results.
func (r *Record) allTools() []Tool {
	if r.n&nMask == 0 {
		return nil
	}
	return unsafe.Slice(r.tools, r.n&nMask)
}

// setTools makes ts (the uses, then the results) the record's tool blocks.
func (r *Record) setTools(ts []Tool, uses int) {
	r.tools, r.n, r.uses = nil, r.n&^nMask|uint32(len(ts)), r.uses&sourceBit|uint32(uses)
	if len(ts) > 0 {
		r.tools = &ts[0]
	}
}

// AddTool adds t (a use, or a result when t.Result) after the others of
// its kind.
func (r *Record) AddTool(t Tool) {
	ts := slices.Clone(r.allTools()) // never append to a shared array
	uses := int(r.uses & usesMask)
	if t.Result() {
		r.setTools(append(ts, t), uses)
		return
	}
	r.setTools(slices.Insert(ts, uses, t), uses+1)
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
	return !r.id.IsZero() && r.Type != "file-history-snapshot" && r.Type != "file-history-delta" && r.Type != "summary"
}

// Extract builds the record of one parsed line; obj is its root object. The
// strings of the record are copies: nothing of the line is kept.
func Extract(obj jsontree.Val, line int, offset int64) *Record {
	in := interners.Get().(*interner)
	t, root := obj.Node()
	if t == nil {
		// A value encoding/json decoded (the reference path): read from a
		// tree of it, which gives the same strings.
		t, root = in.treeOf(obj), jsontree.Root
	}
	x := extraction{in: in, t: t, msg: -1, snapshot: -1, backup: -1, uuid: -1, parent: -1, timestamp: -1}
	x.r.Line, x.r.Offset = int32(line), offset
	// One pass over the members, read off the tree's nodes; a repeated key
	// overwrites, so the last one wins, as with encoding/json.
	if t.Kind(root) == jsontree.Object {
		for k, m := root+1, 0; m < t.Len(root); m++ {
			nd := &t.Nodes[k]
			key := t.Raw[nd.Start:nd.End]
			if nd.Esc {
				key = in.escapedKey(t, k)
			}
			if f := fieldOf(key); f != fNone {
				x.member(f, k+1)
			}
			k = int(t.Nodes[k+1].Next)
		}
	}
	obj.Remember("message", t.Val(x.msg)) // the line rules look it up next (content block types)
	r := x.finish()
	in.trim()
	interners.Put(in) // not deferred: a deferred call cost 2% of Extract
	return r
}

// trim drops the scratch memory an odd huge line made large.
func (in *interner) trim() {
	if cap(in.buf) > 1<<12 || cap(in.key) > 1<<12 {
		in.buf, in.key = nil, nil
	}
	if in.tree != nil && len(in.tree.Raw) > 1<<16 {
		in.tree = nil
	}
}

// extraction is the state of one Extract: the record so far, and the nodes
// of the members read after the pass.
type extraction struct {
	in                                             *interner
	t                                              *jsontree.Tree
	r                                              Record // its Common and Rare are set at the end
	c                                              Common
	rare                                           Rare   // its Rarer is nil until the end: rarer holds those fields
	rarer                                          Rarer  // see rare
	msg, snapshot, backup, uuid, parent, timestamp int    // nodes, or -1
	trackingPath                                   string // a file-history-delta's key
	source                                         string // sourceToolAssistantUUID, when not in the written form
	sourceID                                       ID     // sourceToolAssistantUUID, when in the written form
}

// field is a member of an entry's root that Extract reads.
type field uint8

const (
	fNone field = iota
	fType
	fSubtype
	fVersion
	fUUID
	fParentUUID
	fLogicalParentUUID
	fSessionID
	fAgentID
	fIsSidechain
	fCwd
	fTimestamp
	fIsMeta
	fIsCompactSummary
	fOrigin
	fCompactMetadata
	fSourceToolAssistantUUID
	fLeafUUID
	fMessage
	fSnapshot
	fTrackingPath
	fBackup
	fAPIError
	fOwnNote
	fHookText
	fAttachment
)

// fieldOf returns the field key names (fNone for the many Extract skips):
// by length first, then comparisons with constants, which the compiler
// makes a word or two each.
func fieldOf(key []byte) field {
	switch len(key) {
	case 3:
		if string(key) == "cwd" {
			return fCwd
		}
	case 4:
		switch string(key) {
		case "type":
			return fType
		case "uuid":
			return fUUID
		}
	case 6:
		switch string(key) {
		case "isMeta":
			return fIsMeta
		case "origin":
			return fOrigin
		case "backup":
			return fBackup
		}
	case 7:
		switch string(key) {
		case "version":
			return fVersion
		case "message":
			return fMessage
		case "subtype":
			return fSubtype
		case "agentId":
			return fAgentID
		case "ownNote":
			return fOwnNote
		}
	case 8:
		switch string(key) {
		case "leafUuid":
			return fLeafUUID
		case "snapshot":
			return fSnapshot
		case "hookText":
			return fHookText
		}
	case 9:
		switch string(key) {
		case "sessionId":
			return fSessionID
		case "timestamp":
			return fTimestamp
		}
	case 10:
		switch string(key) {
		case "parentUuid":
			return fParentUUID
		case "attachment":
			return fAttachment
		}
	case 11:
		if string(key) == "isSidechain" {
			return fIsSidechain
		}
	case 12:
		if string(key) == "trackingPath" {
			return fTrackingPath
		}
	case 15:
		switch string(key) {
		case "compactMetadata":
			return fCompactMetadata
		}
	case 16:
		if string(key) == "isCompactSummary" {
			return fIsCompactSummary
		}
	case 17:
		switch string(key) {
		case "logicalParentUuid":
			return fLogicalParentUUID
		case "isApiErrorMessage":
			return fAPIError
		}
	case 23:
		if string(key) == "sourceToolAssistantUUID" {
			return fSourceToolAssistantUUID
		}
	}
	return fNone
}

// member reads one member of the root, node v, which key f names.
func (x *extraction) member(f field, v int) {
	in, t, r, c, rare, rarer := x.in, x.t, &x.r, &x.c, &x.rare, &x.rarer
	switch f {
	case fType:
		c.Type = in.field(t, v, &in.lastType)
	case fSubtype:
		rare.Subtype = in.str(t, v)
	case fVersion:
		c.Version = in.field(t, v, &in.lastVersion)
	case fUUID:
		x.uuid = v
	case fParentUUID:
		x.parent = v
	case fLogicalParentUUID:
		rarer.LogicalParentUUID = in.recent(t, v, &in.uuids)
	case fSessionID:
		c.SessionID = in.field(t, v, &in.lastSession)
	case fAgentID:
		c.AgentID = in.field(t, v, &in.lastAgent)
	case fIsSidechain:
		r.IsSidechain, _ = t.Bool(v)
	case fCwd:
		c.Cwd = in.field(t, v, &in.lastCwd)
	case fTimestamp:
		x.timestamp = v
	case fIsMeta:
		r.IsMeta, _ = t.Bool(v)
	case fIsCompactSummary:
		r.IsCompactSummary, _ = t.Bool(v)
	case fOwnNote:
		rarer.OwnNote, _ = t.Bool(v)
	case fHookText:
		rarer.HookText, _ = t.Bool(v)
	case fAttachment:
		rarer.QueuedImage = queuedImage(t, v)
	case fOrigin:
		if t.StrIs(t.Get(v, "kind"), "task-notification") {
			r.TaskNotification = true
		}
	case fCompactMetadata:
		if ps := t.Get(v, "preservedSegment"); t.Kind(ps) == jsontree.Object {
			rarer.PreservedHead = t.StrOrEmpty(t.Get(ps, "headUuid"))
			rarer.PreservedAnchor = t.StrOrEmpty(t.Get(ps, "anchorUuid"))
			rarer.PreservedTail = t.StrOrEmpty(t.Get(ps, "tailUuid"))
		}
	case fSourceToolAssistantUUID:
		// Its ID when in the written form (no string made), else its
		// string (see placeSource).
		x.sourceID, x.source = ID{}, ""
		if b, ok := in.strBytes(t, v); ok && len(b) > 0 {
			var written bool
			if x.sourceID, written = parseCanonical(b); !written {
				x.source = in.recent(t, v, &in.uuids)
			}
		}
	case fLeafUUID:
		rarer.LeafUUID = t.StrOrEmpty(v)
	case fMessage:
		x.msg = v
	case fSnapshot:
		x.snapshot = v
	case fTrackingPath:
		x.trackingPath = t.StrOrEmpty(v)
	case fBackup:
		x.backup = v
	case fAPIError:
		rarer.APIError, _ = t.Bool(v)
	}
}

// queuedImage reports whether attachment v is a queued_command whose
// prompt is a list holding an image block.
func queuedImage(t *jsontree.Tree, v int) bool {
	if !t.StrIs(t.Get(v, "type"), "queued_command") {
		return false
	}
	p := t.Get(v, "prompt")
	if t.Kind(p) != jsontree.Array {
		return false
	}
	for c := t.Child(p); c >= 0 && c < t.Next(p); c = t.Next(c) {
		if t.StrIs(t.Get(c, "type"), "image") {
			return true
		}
	}
	return false
}

// finish reads what the pass left for after it (message, snapshot,
// backup) and makes the record.
func (x *extraction) finish() *Record {
	in, t, rare, rarer := x.in, x.t, &x.rare, &x.rarer
	if ts, _ := in.strBytes(t, x.timestamp); len(ts) > 0 {
		var raw bool
		if x.r.ts, raw = timestampOf(ts); raw {
			rarer.RawTimestamp = string(ts)
		}
	}
	r := in.record(t, &x.r, x.uuid, x.parent, rarer)
	r.Common = in.common(&x.c)
	if r.Type == "file-history-delta" {
		// A delta (2.1.220+) adds one backup to the snapshot its
		// snapshotMessageId names.
		if t.Kind(x.backup) == jsontree.Object && x.trackingPath != "" {
			rare.Backups = []Backup{in.backupOf(x.trackingPath, t, x.backup)}
		}
		x.placeSource(r)
		r.Rare = in.rareOf(rare, rarer)
		return r
	}
	if t.Kind(x.msg) == jsontree.Object {
		x.message(r)
	}
	if r.Type == "file-history-snapshot" {
		if tfb := t.Get(x.snapshot, "trackedFileBackups"); t.Kind(tfb) == jsontree.Object {
			rare.Backups = in.backups(t, tfb)
		}
	}
	x.placeSource(r)
	r.Rare = in.rareOf(rare, rarer)
	return r
}

// placeSource gives r the line's sourceToolAssistantUUID, once its
// message id is read: its ID where the message id's would be, or its
// string in the Rare (beside a message id, or not in the written form).
func (x *extraction) placeSource(r *Record) {
	switch {
	case !x.sourceID.IsZero() && r.msgOrSource.IsZero():
		r.msgOrSource = x.sourceID
		r.uses |= sourceBit
	case !x.sourceID.IsZero():
		x.rarer.SourceAlso = x.sourceID.String()
	case x.source != "":
		x.rarer.SourceAlso = x.source
	}
}

// message reads the message object: its id, the shape of its content, and
// the tool uses and results among its blocks.
func (x *extraction) message(r *Record) {
	in, t := x.in, x.t
	// id and content in one pass over the members (the last of each, as
	// Get would give).
	id, c := -1, -1
	for k, m := x.msg+1, 0; m < t.Len(x.msg); m++ {
		nd := &t.Nodes[k]
		key := t.Raw[nd.Start:nd.End]
		if nd.Esc {
			key = in.escapedKey(t, k)
		}
		switch string(key) {
		case "id":
			id = k + 1
		case "content":
			c = k + 1
		}
		k = int(t.Nodes[k+1].Next)
	}
	if b, ok := in.strBytes(t, id); ok && len(b) > 0 {
		r.msgOrSource, _ = IDOfBytes(b)
	}
	switch t.Kind(c) {
	case jsontree.String:
		r.Content = ContentString
	case jsontree.Array:
		r.Content, r.Blocks = ContentArray, int32(t.Len(c))
	case jsontree.Invalid:
	default:
		r.Content = ContentOther
	}
	if r.Content != ContentArray {
		return
	}
	thinking := 0
	uses, results := in.uses[:0], in.results[:0]
	for b, i := c+1, 0; i < t.Len(c); i++ {
		if t.Kind(b) == jsontree.Object {
			switch typ, id, name, useID := x.block(b); typ {
			case blockThinking:
				thinking++
			case blockToolUse, blockServerToolUse:
				uses = append(uses, Tool{ID: in.recent(t, id, &in.tools), Block: int32(i),
					meta: in.toolName(t, name)<<toolNameShift | boolBit(typ == blockServerToolUse, toolServerBit)})
			case blockToolResult:
				results = append(results, ToolResult(in.recent(t, useID, &in.tools), i))
			}
		}
		b = t.Next(b)
	}
	if n := len(uses) + len(results); n > 0 {
		r.setTools(append(append(make([]Tool, 0, n), uses...), results...), len(uses))
	}
	in.uses, in.results = scratch(uses), scratch(results)
	r.ThinkingOnly = thinking > 0 && int32(thinking) == r.Blocks
}

// The kinds of content block Extract tells apart.
const (
	blockOther = iota
	blockThinking
	blockToolUse
	blockServerToolUse
	blockToolResult
)

// block reads content block b (an object) in one pass over its members: its
// kind, and the nodes of its id, name and tool_use_id (-1 when absent; the
// last of each, as Get would give).
func (x *extraction) block(b int) (typ, id, name, useID int) {
	in, t := x.in, x.t
	id, name, useID = -1, -1, -1
	tn := -1
	for k, m := b+1, 0; m < t.Len(b); m++ {
		nd := &t.Nodes[k]
		key := t.Raw[nd.Start:nd.End]
		if nd.Esc {
			key = in.escapedKey(t, k)
		}
		switch string(key) {
		case "type":
			tn = k + 1
		case "id":
			id = k + 1
		case "name":
			name = k + 1
		case "tool_use_id":
			useID = k + 1
		}
		k = t.Next(k + 1)
	}
	if t.Kind(tn) != jsontree.String {
		return blockOther, id, name, useID
	}
	v := t.RawBytes(tn)
	if t.Nodes[tn].Esc {
		in.buf = t.AppendStr(in.buf[:0], tn)
		v = in.buf
	}
	switch string(v) {
	case "thinking", "redacted_thinking":
		typ = blockThinking
	case "tool_use":
		typ = blockToolUse
	case "server_tool_use":
		typ = blockServerToolUse
	case "tool_result":
		typ = blockToolResult
	}
	return typ, id, name, useID
}

// backups reads a snapshot's trackedFileBackups, object o: its backups
// sorted by key, of repeated keys the last.
func (in *interner) backups(t *jsontree.Tree, o int) []Backup {
	ms := in.members[:0]
	for k, m := o+1, 0; m < t.Len(o); m++ {
		key, v := in.intern(in.keyOf(t, k)), k+1
		if t.Kind(v) != jsontree.Object {
			ms = append(ms, member{b: Backup{Key: key}, skip: true})
		} else {
			ms = append(ms, member{b: in.backupOf(key, t, v)})
		}
		k = t.Next(v)
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
	var bs []Backup
	if n > 0 {
		bs = make([]Backup, 0, n)
	}
	for i, m := range ms {
		if keep(i) {
			bs = append(bs, m.b)
		}
	}
	clear(ms)
	if cap(ms) > 1<<12 {
		ms = nil // a huge snapshot's members are not kept
	}
	in.members = ms[:0]
	return bs
}

// member is one trackedFileBackups member while a snapshot is read.
type member struct {
	b    Backup
	skip bool // not an object: no backup, but it hides an earlier repeat of its key
}

// backupOf reads one backup object of a file-history snapshot or delta,
// node v, filed under key (the tracked path). Each snapshot repeats the
// backups of the one before: its strings are shared.
func (in *interner) backupOf(key string, t *jsontree.Tree, v int) Backup {
	b := Backup{Key: key, BackupTime: in.str(t, t.Get(v, "backupTime"))}
	switch n := t.Get(v, "backupFileName"); t.Kind(n) {
	case jsontree.String:
		b.FileName = in.str(t, n)
	case jsontree.Null:
		b.Null = true
	}
	if n := t.Get(v, "version"); t.Kind(n) == jsontree.Number {
		n, _ := strconv.ParseInt(string(t.RawBytes(n)), 10, 64)
		b.Version = int(n)
	}
	return b
}

// keyOf returns key node k unescaped: its bytes in the line, or for a key
// with an escape, a copy valid until the next keyOf or escapedKey.
func (in *interner) keyOf(t *jsontree.Tree, k int) []byte {
	if nd := &t.Nodes[k]; !nd.Esc {
		return t.Raw[nd.Start:nd.End]
	}
	return in.escapedKey(t, k)
}

// escapedKey returns key node k, which holds an escape, unescaped (the
// loops over many keys test Esc themselves: keyOf is not inlined).
func (in *interner) escapedKey(t *jsontree.Tree, k int) []byte {
	in.key = t.AppendStr(in.key[:0], k)
	return in.key
}

// strBytes returns the unescaped bytes of string node i without copying
// when it holds no escape (else in in.buf, valid until the next
// strBytes), and false when i is not a string.
func (in *interner) strBytes(t *jsontree.Tree, i int) ([]byte, bool) {
	if t.Kind(i) != jsontree.String {
		return nil, false
	}
	if nd := &t.Nodes[i]; !nd.Esc {
		return t.Raw[nd.Start:nd.End], true
	}
	in.buf = t.AppendStr(in.buf[:0], i) // trim drops it when a value made it large
	return in.buf, true
}

// treeOf parses the JSON of a decoded value into the interner's tree
// (encoding/json writes it back: map keys sorted, each key once).
func (in *interner) treeOf(v jsontree.Val) *jsontree.Tree {
	b, err := json.Marshal(v.Decoded())
	if err != nil {
		b = []byte("null")
	}
	if in.tree == nil {
		in.tree = new(jsontree.Tree)
	}
	if in.tree.Parse(b) != nil {
		_ = in.tree.Parse([]byte("null"))
	}
	return in.tree
}

// rareOf returns a Rare equal to rare with rarer's fields: the shared
// empty one when none of them is set, the one it gave last when equal and
// without backups (system entries repeat their subtype), else a new copy, whose Rarer is the
// shared empty one when none of rarer's fields is set.
func (in *interner) rareOf(rare *Rare, rarer *Rarer) *Rare {
	none := *rarer == Rarer{}
	if none && rare.Subtype == "" && rare.Backups == nil {
		return noRare
	}
	if p := in.lastRare; p != nil && rare.Backups == nil && p.Backups == nil && p.Subtype == rare.Subtype &&
		*p.Rarer == *rarer {
		return p
	}
	p := new(Rare)
	*p = *rare
	p.Rarer = noRarer
	if !none {
		p.Rarer = new(Rarer)
		*p.Rarer = *rarer
	}
	in.lastRare = p
	return p
}

// record returns a new record equal to r, with the IDs of the entry's
// uuid and parentUuid (nodes uuid and parent; absent or not a string: the
// zero ID). A string an ID cannot give back goes in rare.
func (in *interner) record(t *jsontree.Tree, r *Record, uuid, parent int, rare *Rarer) *Record {
	p := new(Record)
	*p = *r
	var raw *rawIDs // made only for a uuid not in the written form: it escapes
	nodes, ids := [2]int{uuid, parent}, [2]*ID{&p.id, &p.parent}
	for k, id := range ids {
		u, _ := in.strBytes(t, nodes[k])
		if len(u) == 0 {
			continue
		}
		var ok bool
		if *id, ok = IDOfBytes(u); !ok {
			if raw == nil {
				raw = new(rawIDs)
			}
			raw[k] = string(u)
			p.n |= rawBit(k)
		}
	}
	p.HasParent = !p.parent.IsZero()
	if raw != nil && *raw != (rawIDs{}) {
		rare.rawIDs = raw
	}
	return p
}

// interner shares the strings that repeat from line to line: a map for the
// few distinct values of a field (type, version, session id, cwd, tool
// names), and rings of the last few ids for ids that come back soon (a
// parent, the assistant entry a tool result answers, a tool id and its
// result, the message id of a split message). It is reused across lines and
// files; its map is emptied when it grows past maxInterned.
type interner struct {
	m            map[string]string
	buf          []byte
	uuids, tools ring
	commons      []*Common // the last few, newest at commonNext-1
	commonMap    map[Common]*Common
	commonNext   int
	// The last value of the fields that keep theirs from line to line,
	// checked before the map.
	lastType, lastVersion, lastSession, lastAgent, lastCwd lastField
	members                                                []member // reused by snapshots
	uses, results                                          []Tool   // reused by Extract
	key                                                    []byte   // an escaped key, unescaped
	tree                                                   *jsontree.Tree
	lastRare                                               *Rare             // the last Rare rareOf made
	names                                                  map[string]uint32 // tool names seen, by table index (see toolName)
}

const maxInterned = 4096

// ring holds the last len(ring.s) ids seen (a power of two).
type ring struct {
	s    [8]string
	next int
}

var interners = sync.Pool{New: func() any {
	return &interner{m: map[string]string{}, commonMap: map[Common]*Common{}, names: map[string]uint32{}}
}}

// str returns the string value of node i (or ""), from the map when seen
// before.
func (in *interner) str(t *jsontree.Tree, i int) string {
	b, ok := in.strBytes(t, i)
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
func (in *interner) field(t *jsontree.Tree, i int, last *lastField) string {
	if t.Kind(i) == jsontree.String && t.Nodes[i].Esc {
		if raw := t.RawBytes(i); string(raw) != last.raw {
			b, _ := in.strBytes(t, i)
			last.s, last.raw = in.intern(b), string(raw)
		}
		return last.s
	}
	b, ok := in.strBytes(t, i)
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

// recent returns the string value of node i (or ""), shared with an equal
// id of the ring, which it then joins.
func (in *interner) recent(t *jsontree.Tree, i int, r *ring) string {
	b, ok := in.strBytes(t, i)
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
