package resume

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
)

// Loaded is a transcript read the way the reader reads it, with the
// message content of its user and assistant lines.
type Loaded struct {
	Source
	Writer  Version // the newest version named by the file's entries (zero: none)
	content map[int]json.RawMessage
	text    map[int]textFlags
	fused   map[int]bool // records read from two entries fused on one line
	Lines   int
	EndsCut bool // the last line has no newline
}

type textFlags struct{ surrogate, badUTF8 bool }

// Load reads a transcript from r: a line that does not parse to an object
// is skipped, as the reader skips it.
func Load(r io.Reader) (*Loaded, error) {
	ld := &Loaded{content: map[int]json.RawMessage{}, text: map[int]textFlags{}, fused: map[int]bool{}}
	rd := jsonl.NewReader(r)
	defer rd.Release()
	var tree jsontree.Tree
	for {
		l, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ld.Lines = l.Num
		ld.EndsCut = !l.Newline
		raw := l.Bytes
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		if l.Cut {
			ld.Skipped = append(ld.Skipped, Skip{l.Num, "line longer than ccvet reads (" + strconv.FormatInt(l.Length, 10) + " bytes)"})
			continue
		}
		if perr := tree.Parse(raw); perr != nil {
			if a, b, ok := splitFused(raw); ok {
				for _, part := range [][]byte{a, b} {
					if tree.Parse(part) == nil {
						ld.add(jsontree.TreeVal(&tree), part, l.Num, l.Offset)
						ld.fused[len(ld.Records)-1] = true
					}
				}
				continue
			}
			reason := "not valid JSON; the reader skips it and reads on"
			switch {
			case bytes.IndexByte(raw, 0) >= 0:
				reason = "holds a run of NUL bytes (an interrupted write); the reader skips it and reads on"
			case !l.Newline:
				reason = "the last line is cut off (a crash mid-write); the reader skips it"
			}
			ld.Skipped = append(ld.Skipped, Skip{l.Num, reason})
			continue
		}
		root := jsontree.TreeVal(&tree)
		if root.Kind() != jsontree.Object {
			ld.Skipped = append(ld.Skipped, Skip{l.Num, "not a JSON object; the reader skips it"})
			continue
		}
		ld.add(root, raw, l.Num, l.Offset)
	}
	ld.Content = ld.contentOf
	return ld, nil
}

// splitFused splits a line holding two JSON objects written one after the
// other (an append fused onto a line without its newline).
func splitFused(raw []byte) ([]byte, []byte, bool) {
	var t jsontree.Tree
	for i := 0; i+1 < len(raw); i++ {
		if raw[i] != '}' || raw[i+1] != '{' {
			continue
		}
		if t.Parse(raw[:i+1]) == nil && jsontree.TreeVal(&t).Kind() == jsontree.Object &&
			t.Parse(raw[i+1:]) == nil && jsontree.TreeVal(&t).Kind() == jsontree.Object {
			return raw[:i+1], raw[i+1:], true
		}
	}
	return nil, nil, false
}

// add keeps the record of one parsed entry.
func (ld *Loaded) add(root jsontree.Val, raw []byte, num int, off int64) {
	{
		rec := entry.Extract(root, num, off)
		i := len(ld.Records)
		ld.Records = append(ld.Records, rec)
		if v, ok := ParseVersion(rec.Version); ok && ld.Writer.Less(v) {
			ld.Writer = v
		}
		if rec.Type == "user" || rec.Type == "assistant" {
			if root.Get("message").Get("content").Exists() {
				ld.content[i] = json.RawMessage(append([]byte(nil), raw...))
			}
			f := textFlags{badUTF8: !utf8.Valid(raw)}
			if bytes.Contains(raw, []byte(`\u`)) && jsonpos.LoneSurrogate(raw) >= 0 {
				f.surrogate = true
			}
			if f != (textFlags{}) {
				ld.text[i] = f
			}
		}
	}
}

// contentOf decodes record i's message.content.
func (ld *Loaded) contentOf(i int) any {
	{
		raw, ok := ld.content[i]
		if !ok {
			return nil
		}
		var v struct {
			Message struct {
				Content any `json:"content"`
			} `json:"message"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil
		}
		return v.Message.Content
	}
}

// RunLoaded is Run on a loaded file, adding what the reader does to the text.
func RunLoaded(ld *Loaded, p Profile) *Result {
	src := ld.Source
	if len(ld.fused) > 0 && !p.SplitFused {
		// This reader cannot read a line holding two entries: both are lost.
		var recs []*entry.Record
		var idx []int
		lines := map[int]bool{}
		for i, r := range ld.Records {
			if ld.fused[i] {
				lines[r.Line] = true
				continue
			}
			recs = append(recs, r)
			idx = append(idx, i)
		}
		src.Records = recs
		src.Content = func(i int) any { return ld.contentOf(idx[i]) }
		src.Skipped = append([]Skip(nil), src.Skipped...)
		for n := range lines {
			src.Skipped = append(src.Skipped, Skip{n, "two entries fused on one line (an append onto a line without its newline); this reader skips the line"})
		}
		res := Run(src, p)
		return res
	}
	res := Run(src, p)
	for i := range ld.Records {
		if ld.fused[i] {
			res.Changed = append(res.Changed, Event{Kind: "fused-line-read", Line: ld.Records[i].Line, UUID: ld.Records[i].UUID, rec: i,
				Reason: "this entry shares its line with another (an append fused onto a line without its newline); this reader reads both"})
		}
	}
	for i := range ld.Records {
		f, ok := ld.text[i]
		if !ok || !res.Sent(i) {
			continue
		}
		r := ld.Records[i]
		if f.surrogate {
			reason := "a lone UTF-16 surrogate escape in its text is sent as U+FFFD"
			if !p.FixSurrogates {
				reason = "a lone UTF-16 surrogate escape in its text is sent as is; the real API answers 400 \"no low surrogate in string\" (2.1.330 sends U+FFFD)"
			}
			res.Changed = append(res.Changed, Event{Kind: "text-replaced", Line: r.Line, UUID: r.UUID, rec: i, Reason: reason})
		}
		if f.badUTF8 {
			res.Changed = append(res.Changed, Event{Kind: "text-replaced", Line: r.Line, UUID: r.UUID, rec: i,
				Reason: "invalid UTF-8 bytes in its text are sent as U+FFFD"})
		}
	}
	return res
}
