package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Book is the ledger of several transcripts read with content: what
// `ccvet request` rebuilds requests from.
type Book struct {
	Requests map[string]*Request
	Content  map[string][]byte // stored blobs and shapes
	Refs     map[string]string // assistant entry uuid -> requestRef
	Order    []Ref             // every requestRef, in reading order

	prefixes map[string]prefix // the messages of the transcripts' runs
}

// NewBook merges facts read with content.
func NewBook(all ...*Facts) *Book {
	b := &Book{Requests: map[string]*Request{}, Content: map[string][]byte{}, Refs: map[string]string{}, prefixes: map[string]prefix{}}
	for _, f := range all {
		for i := range f.Requests {
			q := &f.Requests[i]
			if q.ID != "" {
				b.Requests[q.ID] = q
			}
		}
		for h, c := range f.Content {
			b.Content[h] = c
			delete(b.prefixes, h)
		}
		for h, p := range f.prefixes {
			b.prefixes[h] = p
			delete(b.Content, h)
		}
		for _, r := range f.Refs {
			b.Refs[r.UUID] = r.Ref
			b.Order = append(b.Order, r)
		}
	}
	return b
}

// Messages rebuilds the messages request id sent, as canonical JSON. The
// chain of bases is walked first, then built from its root in one slice,
// each request keeping its base's first messages and adding its tail.
func (b *Book) Messages(id string) ([][]byte, error) {
	var ids []string
	var chain []*Request
	seen := map[string]bool{}
	// wrap says which requests above level i the error came through.
	wrap := func(err error, i int) error {
		for j := i - 1; j >= 0; j-- {
			err = fmt.Errorf("api-request %s: base: %w", ids[j], err)
		}
		return err
	}
	for cur := id; ; {
		q := b.Requests[cur]
		if q == nil {
			return nil, wrap(fmt.Errorf("no api-request %q in these transcripts", cur), len(ids))
		}
		if seen[cur] {
			return nil, wrap(fmt.Errorf("api-request %q is its own base", cur), len(ids))
		}
		seen[cur] = true
		ids, chain = append(ids, cur), append(chain, q)
		if q.Keep <= 0 {
			break
		}
		cur = q.Base
	}
	var out [][]byte
	for i := len(chain) - 1; i >= 0; i-- {
		q := chain[i]
		if q.Keep > 0 {
			if q.Keep > len(out) {
				return nil, wrap(fmt.Errorf("api-request %s keeps %d messages of %s, which sent %d", ids[i], q.Keep, q.Base, len(out)), i)
			}
			out = out[:q.Keep]
		} else {
			out = out[:0]
		}
		for k, h := range q.Tail {
			c, ok := b.message(h)
			if !ok {
				return nil, wrap(fmt.Errorf("api-request %s: tail message %d (%s) is neither a stored blob nor a message of the transcript", ids[i], k+1, h), i)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// message is the content stored or rebuilt under hash h.
func (b *Book) message(h string) ([]byte, bool) {
	if c, ok := b.Content[h]; ok {
		return c, true
	}
	p, ok := b.prefixes[h]
	if !ok {
		return nil, false
	}
	return p.message(), true
}

// Request rebuilds the request id as it was sent: its params, the system
// blocks and tools of its shape, its messages, and its cache_control
// markers put back where cacheControl says. Keys come out sorted.
func (b *Book) Request(id string) ([]byte, error) {
	q := b.Requests[id]
	if q == nil {
		return nil, fmt.Errorf("no api-request %q in these transcripts", id)
	}
	msgs, err := b.Messages(id)
	if err != nil {
		return nil, err
	}
	req := map[string]any{}
	if len(q.Params) > 0 {
		if err := decode(q.Params, &req); err != nil {
			return nil, fmt.Errorf("api-request %s: params: %w", id, err)
		}
	}
	shape, ok := b.message(q.ShapeHash)
	if !ok {
		return nil, fmt.Errorf("api-request %s: no api-request-shape %s", id, q.ShapeHash)
	}
	var sh map[string]any
	if err := decode(shape, &sh); err != nil {
		return nil, err
	}
	for k, v := range sh {
		req[k] = v
	}
	list := make([]any, len(msgs))
	for i, m := range msgs {
		if err := decode(m, &list[i]); err != nil {
			return nil, err
		}
	}
	req["messages"] = list
	if len(q.CacheControl) > 0 {
		var marks []struct {
			Path  []any `json:"path"`
			Value any   `json:"value"`
		}
		if err := decode(q.CacheControl, &marks); err == nil {
			for _, m := range marks {
				setCacheControl(req, m.Path, m.Value)
			}
		}
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(req); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// setCacheControl sets "cache_control" on the object path names; a path
// that leads nowhere is skipped.
func setCacheControl(v any, path []any, value any) {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			k, _ := p.(string)
			v = x[k]
		case []any:
			n, ok := p.(json.Number)
			if !ok {
				return
			}
			i, err := n.Int64()
			if err != nil || i < 0 || i >= int64(len(x)) {
				return
			}
			v = x[i]
		default:
			return
		}
	}
	if obj, ok := v.(map[string]any); ok {
		obj["cache_control"] = value
	}
}

func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}
