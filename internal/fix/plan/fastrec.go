package plan

import (
	"strings"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// The members of an entry that rec holds, by their JSON names.
const (
	fType = iota
	fSubtype
	fUUID
	fParentUUID
	fTimestamp
	fIsSidechain
	fAgentID
	fSource
	fSessionID
	fCwd
	fVersion
	fUserType
	fGitBranch
	fMessage
)

var recFields = [...]string{
	fType: "type", fSubtype: "subtype", fUUID: "uuid", fParentUUID: "parentUuid", fTimestamp: "timestamp",
	fIsSidechain: "isSidechain", fAgentID: "agentId", fSource: "sourceToolAssistantUUID", fSessionID: "sessionId",
	fCwd: "cwd", fVersion: "version", fUserType: "userType", fGitBranch: "gitBranch", fMessage: "message",
}

var (
	messageFields = []string{"id", "content"}
	blockFields   = []string{"type", "id", "tool_use_id"}
)

// fastRec fills the rec of an ordinary entry line from a jsontree parse of
// t (already TrimSpace'd, starting with '{'), giving what encoding/json
// decoding into rec gives (parseRec). ok is false, and parseRec decodes the
// line with encoding/json, wherever that decoding takes more care than
// plain lookups: the line does not parse, a key is escaped or not ASCII, a
// key names a field only case-insensitively, a field comes twice, a field
// has a value of another type than its own (or null), a content block is
// not an object or null.
func fastRec(tr *jsontree.Tree, t []byte) (r *rec, ok bool) {
	if tr.Parse(t) != nil || tr.Kind(0) != jsontree.Object {
		return nil, false
	}
	r = &rec{}
	var seen uint32
	content := -1
	ok = members(tr, 0, recFields[:], func(f, v int) bool {
		if seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		switch f {
		case fParentUUID:
			switch tr.Kind(v) {
			case jsontree.String:
				s := str(tr, v)
				r.ParentUUID = &s
			case jsontree.Null:
			default:
				return false
			}
			return true
		case fIsSidechain:
			switch tr.Kind(v) {
			case jsontree.True:
				r.IsSidechain = true
			case jsontree.False, jsontree.Null:
			default:
				return false
			}
			return true
		case fMessage:
			return message(tr, v, r, &content)
		}
		s, good := strOrNull(tr, v)
		switch f {
		case fType:
			r.Type = s
		case fSubtype:
			r.Subtype = s
		case fUUID:
			r.UUID = s
		case fTimestamp:
			r.Timestamp = s
		case fAgentID:
			r.AgentID = s
		case fSource:
			r.Source = s
		case fSessionID:
			r.SessionID = s
		case fCwd:
			r.Cwd = s
		case fVersion:
			r.Version = s
		case fUserType:
			r.UserType = s
		case fGitBranch:
			r.GitBranch = s
		}
		return good
	})
	if !ok {
		return nil, false
	}
	switch tr.Kind(content) {
	case jsontree.String:
		r.contentOK = true
	case jsontree.Array:
		r.contentOK = true
		for b := tr.Child(content); b >= 0 && b < tr.Next(content); b = tr.Next(b) {
			if !block(tr, b, r) {
				return nil, false
			}
		}
	}
	return r, true
}

// message reads the message object v into r.Message.ID and the index of its
// content value.
func message(tr *jsontree.Tree, v int, r *rec, content *int) bool {
	switch tr.Kind(v) {
	case jsontree.Null:
		return true
	case jsontree.Object:
	default:
		return false
	}
	var seen uint32
	return members(tr, v, messageFields, func(f, w int) bool {
		if seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		if f == 1 {
			*content = w
			return true
		}
		s, good := strOrNull(tr, w)
		r.Message.ID = s
		return good
	})
}

// block reads one content block b: a tool_use's id or a tool_result's tool_use_id.
func block(tr *jsontree.Tree, b int, r *rec) bool {
	switch tr.Kind(b) {
	case jsontree.Null:
		return true
	case jsontree.Object:
	default:
		return false
	}
	var seen uint32
	var vals [3]string
	good := members(tr, b, blockFields, func(f, w int) bool {
		if seen&(1<<f) != 0 {
			return false
		}
		seen |= 1 << f
		var ok bool
		vals[f], ok = strOrNull(tr, w)
		return ok
	})
	if !good {
		return false
	}
	switch vals[0] {
	case "tool_use":
		r.uses = append(r.uses, vals[1])
	case "tool_result":
		r.results = append(r.results, vals[2])
	}
	return true
}

// members calls set(field, value) for each member of object o whose key is
// one of fields (its index), and ignores the others. It returns false when
// a key is escaped, not ASCII, or equal to a field only case-insensitively
// (encoding/json would match it), or when set does.
func members(tr *jsontree.Tree, o int, fields []string, set func(f, v int) bool) bool {
	k := tr.Child(o)
	for m := tr.Len(o); m > 0; m-- {
		v := k + 1
		nd := &tr.Nodes[k]
		if nd.Esc {
			return false
		}
		key := tr.Raw[nd.Start:nd.End]
		for _, c := range key {
			if c >= utf8.RuneSelf {
				return false
			}
		}
		for f, name := range fields {
			if string(key) == name {
				if !set(f, v) {
					return false
				}
				break
			}
			if len(key) == len(name) && strings.EqualFold(string(key), name) {
				return false
			}
		}
		k = tr.Next(v)
	}
	return true
}

// strOrNull returns string node v as encoding/json decodes it, "" for
// null, and false for any other kind.
func strOrNull(tr *jsontree.Tree, v int) (string, bool) {
	switch tr.Kind(v) {
	case jsontree.String:
		return str(tr, v), true
	case jsontree.Null:
		return "", true
	}
	return "", false
}

// str decodes string node v as encoding/json does (invalid UTF-8 becomes U+FFFD).
func str(tr *jsontree.Tree, v int) string {
	nd := &tr.Nodes[v]
	raw := tr.Raw[nd.Start:nd.End]
	if !nd.Esc && utf8.Valid(raw) {
		return string(raw)
	}
	return string(tr.AppendStr(nil, v))
}
