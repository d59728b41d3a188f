// Package entry extracts from a decoded transcript line the ids and links that the graph rules need.
package entry

import "sort"

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

	MessageID               string // assistant message.id: lines sharing it form one API message
	SourceToolAssistantUUID string
	ToolUses                []Tool // tool_use blocks in message.content
	ToolResults             []Tool // tool_result blocks in message.content

	LeafUUID string // summary entries

	// Progress entries (2.1.11-2.1.84) carry the tool they report on.
	ToolUseID       string
	ParentToolUseID string

	// File-history snapshots.
	SnapshotMessageID string
	Backups           []Backup

	Hash uint64 // hash of the raw line, to tell exact duplicates from reused uuids
}

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
	return r.UUID != "" && r.Type != "file-history-snapshot" && r.Type != "summary"
}

// Extract builds the record of one decoded line. obj is the line decoded
// with encoding/json's UseNumber; it is not kept.
func Extract(obj map[string]any, line int, offset int64) *Record {
	r := &Record{Line: line, Offset: offset}
	r.Type = str(obj, "type")
	r.Subtype = str(obj, "subtype")
	r.Version = str(obj, "version")
	r.UUID = str(obj, "uuid")
	if p, ok := obj["parentUuid"].(string); ok && p != "" {
		r.ParentUUID, r.HasParent = p, true
	}
	r.LogicalParentUUID = str(obj, "logicalParentUuid")
	r.SessionID = str(obj, "sessionId")
	r.AgentID = str(obj, "agentId")
	r.IsSidechain, _ = obj["isSidechain"].(bool)
	r.Cwd = str(obj, "cwd")
	r.Timestamp = str(obj, "timestamp")
	r.IsMeta, _ = obj["isMeta"].(bool)
	r.IsCompactSummary, _ = obj["isCompactSummary"].(bool)
	r.SourceToolAssistantUUID = str(obj, "sourceToolAssistantUUID")
	r.LeafUUID = str(obj, "leafUuid")
	r.ToolUseID = str(obj, "toolUseID")
	r.ParentToolUseID = str(obj, "parentToolUseID")
	if msg, ok := obj["message"].(map[string]any); ok {
		r.MessageID = str(msg, "id")
		if blocks, ok := msg["content"].([]any); ok {
			for i, b := range blocks {
				bm, ok := b.(map[string]any)
				if !ok {
					continue
				}
				switch str(bm, "type") {
				case "tool_use", "server_tool_use":
					r.ToolUses = append(r.ToolUses, Tool{ID: str(bm, "id"), Name: str(bm, "name"), Block: i,
						Server: str(bm, "type") == "server_tool_use"})
				case "tool_result":
					r.ToolResults = append(r.ToolResults, Tool{ID: str(bm, "tool_use_id"), Block: i})
				}
			}
		}
	}
	if r.Type == "file-history-snapshot" {
		r.SnapshotMessageID = str(obj, "messageId")
		if snap, ok := obj["snapshot"].(map[string]any); ok {
			if tfb, ok := snap["trackedFileBackups"].(map[string]any); ok {
				for key, v := range tfb {
					bm, ok := v.(map[string]any)
					if !ok {
						continue
					}
					b := Backup{Key: key, BackupTime: str(bm, "backupTime")}
					switch n := bm["backupFileName"].(type) {
					case string:
						b.FileName = n
					case nil:
						b.Null = true
					}
					if v, ok := bm["version"].(interface{ Int64() (int64, error) }); ok {
						n, _ := v.Int64()
						b.Version = int(n)
					}
					r.Backups = append(r.Backups, b)
				}
				sort.Slice(r.Backups, func(i, j int) bool { return r.Backups[i].Key < r.Backups[j].Key })
			}
		}
	}
	return r
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}
