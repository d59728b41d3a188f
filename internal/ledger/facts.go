package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"
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
	Line    int
	UUID    string
	Ref     string
	Version string // the entry's version, the Claude Code that wrote it
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
	// Content maps a stored blob's or shape's hash to its canonical JSON,
	// when the facts were read with content; Message also finds the
	// messages of the file's runs.
	Content map[string][]byte

	keepContent bool
	run         runState
	// prefixes maps the hash of each prefix of a run to where its content
	// is (read with content): a hash is in Content or here, never both,
	// the later line winning as a map write would.
	prefixes map[string]prefix
}

type runState struct {
	active bool
	role   string
	id     string
	n      int       // bytes of the canonical blocks so far, comma-separated
	sum    hash.Hash // sha256 of the message's opening and the blocks so far
	buf    *runBuf   // the blocks, when read with content
}

// runBuf is the canonical blocks of one run, comma-separated: a prefix of
// the run is its first n bytes, so each is kept once, not copied.
type runBuf struct {
	role   string
	blocks []byte
}

type prefix struct {
	buf *runBuf
	n   int
}

const msgOpen = `{"content":[`

// Message is the canonical JSON of the message or shape stored or rebuilt
// under hash h, when the facts were read with content.
func (f *Facts) Message(h string) ([]byte, bool) {
	if c, ok := f.Content[h]; ok {
		return c, true
	}
	p, ok := f.prefixes[h]
	if !ok {
		return nil, false
	}
	return p.message(), true
}

func (p prefix) message() []byte {
	msg := make([]byte, 0, len(msgOpen)+p.n+len(p.buf.role)+16)
	msg = append(msg, msgOpen...)
	msg = append(msg, p.buf.blocks[:p.n]...)
	return appendMsgClose(msg, p.buf.role)
}

func appendMsgClose(b []byte, role string) []byte {
	b = append(b, `],"role":`...)
	b = appendJSString(b, role)
	return append(b, '}')
}

// Read reads a transcript's ledger facts. With content, Content is filled
// for the `ccvet request` command.
func Read(r io.Reader, content bool) (*Facts, error) {
	f := &Facts{Known: map[string]bool{}, keepContent: content}
	if content {
		f.Content = map[string][]byte{}
		f.prefixes = map[string]prefix{}
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
				delete(f.prefixes, s.Hash)
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
			ver, _ := v.Get("version").Str()
			f.Refs = append(f.Refs, Ref{Line: n, UUID: u, Ref: ref, Version: ver})
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
		// One sha256 per run: each message's hash is the run's state so
		// far, cloned, with the message's closing written after it.
		f.run = runState{active: true, role: role, id: id, sum: sha256.New()}
		f.run.sum.Write([]byte(msgOpen))
		if f.keepContent {
			f.run.buf = &runBuf{role: role}
		}
	}
	add := func(b []byte) {
		if f.run.n > 0 {
			f.run.sum.Write([]byte{','})
			f.run.n++
			if f.run.buf != nil {
				f.run.buf.blocks = append(f.run.buf.blocks, ',')
			}
		}
		f.run.sum.Write(b)
		f.run.n += len(b)
		if f.run.buf != nil {
			f.run.buf.blocks = append(f.run.buf.blocks, b...)
		}
	}
	var scratch []byte
	switch content.Kind() {
	case jsontree.String:
		s, _ := content.Str()
		scratch = append(scratch, `{"text":`...)
		scratch = appendJSString(scratch, s)
		add(append(scratch, `,"type":"text"}`...))
	case jsontree.Array:
		for _, it := range content.Items() {
			scratch = AppendCanon(scratch[:0], it)
			add(scratch)
		}
	default:
		add(AppendCanon(scratch, content))
	}
	d, err := f.run.sum.(hash.Cloner).Clone()
	if err != nil {
		panic(err) // crypto/sha256's digest always clones
	}
	d.Write(appendMsgClose(scratch[:0], role))
	var sum [sha256.Size]byte
	h := hex.EncodeToString(d.Sum(sum[:0]))
	f.Known[h] = true
	if f.keepContent {
		delete(f.Content, h)
		f.prefixes[h] = prefix{buf: f.run.buf, n: f.run.n}
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
