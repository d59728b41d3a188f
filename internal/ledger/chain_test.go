package ledger

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"
)

// messagesByRecursion is how Messages rebuilt a chain before: each level
// copying its base's messages. Held as the reference.
func messagesByRecursion(b *Book, id string) ([][]byte, error) {
	seen := map[string]bool{}
	var walk func(id string) ([][]byte, error)
	walk = func(id string) ([][]byte, error) {
		q := b.Requests[id]
		if q == nil {
			return nil, fmt.Errorf("no api-request %q in these transcripts", id)
		}
		if seen[id] {
			return nil, fmt.Errorf("api-request %q is its own base", id)
		}
		seen[id] = true
		var out [][]byte
		if q.Keep > 0 {
			base, err := walk(q.Base)
			if err != nil {
				return nil, fmt.Errorf("api-request %s: base: %w", id, err)
			}
			if q.Keep > len(base) {
				return nil, fmt.Errorf("api-request %s keeps %d messages of %s, which sent %d", id, q.Keep, q.Base, len(base))
			}
			out = append(out, base[:q.Keep]...)
		}
		for i, h := range q.Tail {
			c, ok := b.message(h)
			if !ok {
				return nil, fmt.Errorf("api-request %s: tail message %d (%s) is neither a stored blob nor a message of the transcript", id, i+1, h)
			}
			out = append(out, c)
		}
		return out, nil
	}
	return walk(id)
}

// TestChainRandom holds Messages to the recursive rebuild on random books:
// bases missing, cyclic, keeping too much, tails naming unknown hashes.
func TestChainRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 3000; round++ {
		b := &Book{Requests: map[string]*Request{}, Content: map[string][]byte{}, prefixes: map[string]prefix{}}
		for h := 0; h < 4; h++ {
			b.Content["h"+strconv.Itoa(h)] = []byte("content " + strconv.Itoa(h))
		}
		n := 1 + rng.Intn(8)
		for i := 0; i < n; i++ {
			q := &Request{ID: "r" + strconv.Itoa(i), Keep: rng.Intn(6) - 1}
			if rng.Intn(8) > 0 {
				q.Base = "r" + strconv.Itoa(rng.Intn(n+1)) // r<n> is missing
			}
			for k := rng.Intn(4); k > 0; k-- {
				q.Tail = append(q.Tail, "h"+strconv.Itoa(rng.Intn(5))) // h4 is unknown
			}
			b.Requests[q.ID] = q
		}
		for i := 0; i <= n; i++ {
			id := "r" + strconv.Itoa(i)
			want, werr := messagesByRecursion(b, id)
			got, err := b.Messages(id)
			if fmt.Sprint(werr) != fmt.Sprint(err) || fmt.Sprintf("%q", want) != fmt.Sprintf("%q", got) {
				t.Fatalf("round %d, %s: got %q, %v; want %q, %v", round, id, got, err, want, werr)
			}
		}
	}
}

// TestLongChain: 20,000 requests, each keeping its base's messages and
// adding one, rebuild in one pass (the old way copied the chain at every
// level: 2 s here).
func TestLongChain(t *testing.T) {
	const n = 20000
	b := &Book{Requests: map[string]*Request{}, Content: map[string][]byte{}, prefixes: map[string]prefix{}}
	for i := 0; i < n; i++ {
		h := "h" + strconv.Itoa(i)
		b.Content[h] = []byte(h)
		q := &Request{ID: "r" + strconv.Itoa(i), Keep: i, Tail: []string{h}}
		if i > 0 {
			q.Base = "r" + strconv.Itoa(i-1)
		}
		b.Requests[q.ID] = q
	}
	msgs, err := b.Messages("r" + strconv.Itoa(n-1))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != n {
		t.Fatalf("%d messages, want %d", len(msgs), n)
	}
	for i, m := range msgs {
		if string(m) != "h"+strconv.Itoa(i) {
			t.Fatalf("message %d is %s", i, m)
		}
	}
}
