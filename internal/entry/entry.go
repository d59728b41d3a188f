// Package entry extracts from a decoded transcript line the ids and links that the graph rules need.
package entry

import (
	"sort"
	"strconv"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// Record is the compact form of one transcript line: ids and links only, so
// that a whole project's graph fits in memory whatever the size of its text.
type Record struct {
	Line   int   // 1-based line number
	Offset int64 // byte offset of the line in its file

	Type    string
	Subtype string // system entries
	Version string

	UUID              string
	ParentUUID        string // "" when null or absent
	HasParent         bool   // parentUuid key present and not null
	LogicalParentUUID string // compaction boundaries
	SessionID         string
	AgentID           string
	IsSidechain       bool
	Cwd               string
	Timestamp         string
	IsMeta            bool
	IsCompactSummary  bool
	// NotResent: a user entry the 2.1.330 reader leaves out of a resume (a
	// turnCompanion reminder, an origin.kind "task-notification" prompt).
	NotResent bool

	MessageID               string // assistant message.id: lines sharing it form one API message
	SourceToolAssistantUUID string
	ToolUses                []Tool // tool_use blocks in message.content
	ToolResults             []Tool // tool_result blocks in message.content

	LeafUUID string // summary and last-prompt entries

	// A compaction boundary's compactMetadata.preservedSegment (2.1.2xx+):
	// the messages kept from head to tail are relinked after anchor.
	PreservedHead, PreservedAnchor, PreservedTail string

	// The shape of message.content, for the resume model.
	Content ContentKind
	Blocks  int // number of blocks when Content is ContentArray

	// Progress entries (2.1.11-2.1.84) carry the tool they report on.
	ToolUseID       string
	ParentToolUseID string

	// File-history snapshots.
	SnapshotMessageID string
	Backups           []Backup

	Hash uint64 // hash of the raw line, to tell exact duplicates from reused uuids
}

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
	r := &Record{Line: line, Offset: offset}
	var msg, snapshot, backup jsontree.Val
	var delta Backup
	var amends string
	// One pass over the members; a repeated key overwrites, so the last one
	// wins, as with encoding/json.
	for key, v := range obj.KeyMembers() {
		switch string(key) {
		case "type":
			r.Type = v.String()
		case "subtype":
			r.Subtype = v.String()
		case "version":
			r.Version = v.String()
		case "uuid":
			r.UUID = v.String()
		case "parentUuid":
			r.ParentUUID = v.String()
			r.HasParent = r.ParentUUID != ""
		case "logicalParentUuid":
			r.LogicalParentUUID = v.String()
		case "sessionId":
			r.SessionID = v.String()
		case "agentId":
			r.AgentID = v.String()
		case "isSidechain":
			r.IsSidechain, _ = v.Bool()
		case "cwd":
			r.Cwd = v.String()
		case "timestamp":
			r.Timestamp = v.String()
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
				r.NotResent = true
			}
		case "sourceToolAssistantUUID":
			r.SourceToolAssistantUUID = v.String()
		case "leafUuid":
			r.LeafUUID = v.String()
		case "toolUseID":
			r.ToolUseID = v.String()
		case "parentToolUseID":
			r.ParentToolUseID = v.String()
		case "messageId":
			r.SnapshotMessageID = v.String()
		case "message":
			msg = v
		case "compactMetadata":
			if ps := v.Get("preservedSegment"); ps.Kind() == jsontree.Object {
				r.PreservedHead = ps.Get("headUuid").String()
				r.PreservedAnchor = ps.Get("anchorUuid").String()
				r.PreservedTail = ps.Get("tailUuid").String()
			}
		case "snapshot":
			snapshot = v
		case "trackingPath":
			delta.Key = v.String()
		case "backup":
			backup = v
		case "snapshotMessageId":
			amends = v.String()
		}
	}
	if r.Type == "file-history-delta" {
		// A delta (2.1.220+) adds one backup to the snapshot of amends.
		r.SnapshotMessageID = amends
		if backup.Kind() == jsontree.Object && delta.Key != "" {
			delta.BackupTime = backup.Get("backupTime").String()
			switch n := backup.Get("backupFileName"); n.Kind() {
			case jsontree.String:
				delta.FileName = n.String()
			case jsontree.Null:
				delta.Null = true
			}
			if lit, ok := backup.Get("version").Number(); ok {
				n, _ := strconv.ParseInt(lit, 10, 64)
				delta.Version = int(n)
			}
			r.Backups = []Backup{delta}
		}
		return r
	}
	if r.Type != "file-history-snapshot" {
		r.SnapshotMessageID = ""
	}
	if msg.Kind() == jsontree.Object {
		r.MessageID = msg.Get("id").String()
		switch c := msg.Get("content"); c.Kind() {
		case jsontree.String:
			r.Content = ContentString
		case jsontree.Array:
			r.Content, r.Blocks = ContentArray, c.Len()
		default:
			if c.Exists() {
				r.Content = ContentOther
			}
		}
		for i, b := range msg.Get("content").Items() {
			if b.Kind() != jsontree.Object {
				continue
			}
			switch t := b.Get("type"); {
			case t.StrIs("tool_use"), t.StrIs("server_tool_use"):
				r.ToolUses = append(r.ToolUses, Tool{ID: b.Get("id").String(), Name: b.Get("name").String(), Block: i,
					Server: t.StrIs("server_tool_use")})
			case t.StrIs("tool_result"):
				r.ToolResults = append(r.ToolResults, Tool{ID: b.Get("tool_use_id").String(), Block: i})
			}
		}
	}
	if r.Type == "file-history-snapshot" {
		if tfb := snapshot.Get("trackedFileBackups"); tfb.Kind() == jsontree.Object {
			type member struct {
				b    Backup
				skip bool // not an object: no backup, but it hides an earlier repeat of its key
			}
			var ms []member
			for key, bm := range tfb.Members() {
				if bm.Kind() != jsontree.Object {
					ms = append(ms, member{b: Backup{Key: key}, skip: true})
					continue
				}
				b := Backup{Key: key, BackupTime: bm.Get("backupTime").String()}
				switch n := bm.Get("backupFileName"); n.Kind() {
				case jsontree.String:
					b.FileName = n.String()
				case jsontree.Null:
					b.Null = true
				}
				if lit, ok := bm.Get("version").Number(); ok {
					n, _ := strconv.ParseInt(lit, 10, 64)
					b.Version = int(n)
				}
				ms = append(ms, member{b: b})
			}
			// Sort by key; of repeated keys keep the last, as encoding/json does.
			sort.SliceStable(ms, func(i, j int) bool { return ms[i].b.Key < ms[j].b.Key })
			for i, m := range ms {
				if (i+1 < len(ms) && ms[i+1].b.Key == m.b.Key) || m.skip {
					continue
				}
				r.Backups = append(r.Backups, m.b)
			}
		}
	}
	return r
}
