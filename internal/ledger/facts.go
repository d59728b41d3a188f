package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"io"

	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsontree"
)

// Request is one api-request entry.
type Request struct {
	Line      int
	ID        string
	Base      string // "" when absent (keep 0)
	Keep      int
	Tail      []string
	ShapeHash string
	SessionID string
	// Params and CacheControl are the canonical JSON of the request's
	// params and cacheControl, kept only when reading with content.
	Params       []byte
	CacheControl []byte
}

// Stored is an api-request-blob or api-request-shape entry.
type Stored struct {
	Line   int
	Hash   string // the hash it is stored under
	Actual string // the hash of its content ("" when it has none)
}

// Ref is an assistant entry's requestRef.
type Ref struct {
	Line int
	UUID string
	Ref  string
}

// Facts is what one transcript holds of the ledger.
type Facts struct {
	Requests []Request
	Blobs    []Stored
	Shapes   []Stored
	Refs     []Ref
	// Known holds every hash a tail may name in this file: stored blobs
	// and shapes, and the messages Claude Code rebuilds from the file's own
	// user and assistant entries (runs of entries of one role, and of one
	// message id for the assistant, each prefix of a run counting).
	Known map[string]bool
	// Content maps a hash to the canonical JSON of its message or shape,
	// when the facts were read with content.
	Content map[string][]byte

	keepContent bool
	run         runState
}

type runState struct {
	active bool
	role   string
	id     string
	blocks []byte // canonical blocks so far, comma-separated
}

// Read reads a transcript's ledger facts. With content, Content is filled
// for the `ccvet request` command.
func Read(r io.Reader, content bool) (*Facts, error) {
	f := &Facts{Known: map[string]bool{}, keepContent: content}
	if content {
		f.Content = map[string][]byte{}
	}
	rd := jsonl.NewReader(r)
	defer rd.Release()
	var tree jsontree.Tree
	for n := 1; ; n++ {
		l, err := rd.Next()
		if err == io.EOF {
			return f, nil
		}
		if err != nil {
			return f, err
		}
		if tree.Parse(l.Bytes) != nil {
			continue
		}
		f.Note(n, jsontree.TreeVal(&tree))
	}
}

// Note adds one parsed line (line number n).
func (f *Facts) Note(n int, v jsontree.Val) {
	if v.Kind() != jsontree.Object {
		return
	}
	t, _ := v.Get("type").Str()
	switch t {
	case "api-request":
		q := Request{Line: n}
		q.ID, _ = v.Get("id").Str()
		q.Base, _ = v.Get("base").Str()
		if k, ok := v.Get("keep").Number(); ok {
			q.Keep = atoi(k)
		}
		for _, h := range v.Get("tail").Items() {
			s, _ := h.Str()
			q.Tail = append(q.Tail, s)
		}
		q.ShapeHash, _ = v.Get("shapeHash").Str()
		q.SessionID, _ = v.Get("sessionId").Str()
		if f.keepContent {
			if p := v.Get("params"); p.Exists() {
				q.Params = AppendCanon(nil, p)
			}
			if c := v.Get("cacheControl"); c.Exists() {
				q.CacheControl = AppendCanon(nil, c)
			}
		}
		f.Requests = append(f.Requests, q)
		return
	case "api-request-blob", "api-request-shape":
		key, body := "hash", "message"
		if t == "api-request-shape" {
			key, body = "shapeHash", "shape"
		}
		s := Stored{Line: n}
		s.Hash, _ = v.Get(key).Str()
		if b := v.Get(body); b.Exists() {
			c := AppendCanon(nil, b)
			if t == "api-request-blob" {
				c = AppendMessageCanon(nil, b)
			}
			sum := sha256.Sum256(c)
			s.Actual = hex.EncodeToString(sum[:])
			if f.keepContent {
				f.Content[s.Hash] = c
			}
		}
		if s.Hash != "" {
			f.Known[s.Hash] = true
		}
		if t == "api-request-shape" {
			f.Shapes = append(f.Shapes, s)
		} else {
			f.Blobs = append(f.Blobs, s)
		}
		return
	case "user", "assistant":
	default:
		return
	}
	if t == "assistant" {
		if ref, ok := v.Get("requestRef").Str(); ok {
			u, _ := v.Get("uuid").Str()
			f.Refs = append(f.Refs, Ref{Line: n, UUID: u, Ref: ref})
		}
	}
	f.noteMessage(v.Get("message"))
}

// noteMessage extends the current run with a user or assistant message, as
// Claude Code's request recorder does.
func (f *Facts) noteMessage(m jsontree.Val) {
	role, ok := m.Get("role").Str()
	content := m.Get("content")
	if m.Kind() != jsontree.Object || !ok || !content.Exists() || content.Kind() == jsontree.Null {
		f.run = runState{}
		return
	}
	id, _ := m.Get("id").Str()
	same := f.run.active && f.run.role == role && (role == "user" || (id != "" && f.run.id == id))
	if !same {
		f.run = runState{active: true, role: role, id: id}
	}
	add := func(b []byte) {
		if len(f.run.blocks) > 0 {
			f.run.blocks = append(f.run.blocks, ',')
		}
		f.run.blocks = append(f.run.blocks, b...)
	}
	switch content.Kind() {
	case jsontree.String:
		s, _ := content.Str()
		b := append([]byte(`{"text":`), appendJSString(nil, s)...)
		add(append(b, `,"type":"text"}`...))
	case jsontree.Array:
		for _, it := range content.Items() {
			add(AppendCanon(nil, it))
		}
	default:
		add(AppendCanon(nil, content))
	}
	msg := make([]byte, 0, len(f.run.blocks)+32)
	msg = append(msg, `{"content":[`...)
	msg = append(msg, f.run.blocks...)
	msg = append(msg, `],"role":`...)
	msg = appendJSString(msg, role)
	msg = append(msg, '}')
	sum := sha256.Sum256(msg)
	h := hex.EncodeToString(sum[:])
	f.Known[h] = true
	if f.keepContent {
		f.Content[h] = msg
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<30 {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
