package resume

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/jsonl"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/jsontree"
)

// bom is the UTF-8 byte order mark the reader reads past on line 1.
var bom = []byte("\xef\xbb\xbf")

// Loaded is a transcript read the way the reader reads it, with the
// message content of its user and assistant lines.
type Loaded struct {
	Source
	Writer Version // the newest version named by the file's entries (zero: none)
	// content holds the lines whose content a message may need, copied
	// (Load); with a file to read them again from (LoadFrom), where they
	// are instead, and what they hashed to.
	content map[int]json.RawMessage
	at      map[int]lineAt
	ra      io.ReaderAt
	err     error          // the first line that could not be read again as it was
	model   map[int]string // message.model of assistant lines
	text    map[int]textFlags
	Lines   int
	EndsCut bool // the last line has no newline
}

// lineAt is where a line is in the file, and the hash of its bytes.
type lineAt struct {
	off  int64
	n    int
	hash uint64
}

// lineSeed is the seed of lineAt's hashes.
var lineSeed = maphash.MakeSeed()

type textFlags struct{ surrogate, badUTF8 bool }

// Load reads a transcript from r: a line that does not parse to an object
// is skipped, as the reader skips it. The lines whose content a message
// may need are kept (the whole transcript, or nearly: see LoadFrom).
func Load(r io.Reader) (*Loaded, error) { return LoadFrom(r, nil) }

// LoadFrom is Load, given also ra, which reads the bytes r reads at the
// same offsets (the same file; nil: none). The lines a message may need
// are then read again from ra when they are, not kept: a transcript of
// hundreds of MB is not held in memory, only its records. A line that
// reads back otherwise than it was read (the file was rewritten meanwhile)
// gives no content, and Err says so.
func LoadFrom(r io.Reader, ra io.ReaderAt) (*Loaded, error) {
	ld := &Loaded{content: map[int]json.RawMessage{}, text: map[int]textFlags{}, ra: ra}
	if ra != nil {
		ld.at = map[int]lineAt{}
	}
	keep := func(i int, raw []byte, off int64) {
		if ra != nil {
			ld.at[i] = lineAt{off: off, n: len(raw), hash: maphash.Bytes(lineSeed, raw)}
			return
		}
		ld.content[i] = json.RawMessage(append([]byte(nil), raw...))
	}
	rd := jsonl.NewReader(r)
	defer rd.Release()
	var tree jsontree.Tree
	lastModel := "" // shared by the entries naming the same model
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
		ld.Size = l.Offset + l.Length // the reader goes by the file's size
		if l.Newline {
			ld.Size++
		}
		raw := l.Bytes
		if l.Num == 1 && bytes.HasPrefix(raw, bom) {
			// The reader reads the line after a byte order mark (2.1.330, 2.1.332).
			raw = raw[3:]
			l.Offset += 3
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		if l.Cut {
			ld.Skipped = append(ld.Skipped, Skip{l.Num, "line longer than ccvet reads (" + strconv.FormatInt(l.Length, 10) + " bytes)"})
			continue
		}
		if perr := tree.Parse(raw); perr != nil {
			reason := "not valid JSON; the reader skips it and reads on"
			_, deep := jsontree.ValidDeep(raw) // JSON nested deeper than the tree reads
			switch {
			case deep && bytes.TrimLeft(raw, " \t\r\n")[0] != '{':
				reason = "not a JSON object; the reader skips it" // as a line it reads
			case deep:
				reason = "nests arrays or objects more than " + strconv.Itoa(jsontree.MaxDepth) +
					" deep, which ccvet does not read: the reader parses it, but what it holds is not in this prediction (counted as left out: ccvet cannot tell what the reader makes of it)"
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
		rec := entry.Extract(root, l.Num, l.Offset)
		i := len(ld.Records)
		ld.Records = append(ld.Records, rec)
		if v, ok := ParseVersion(rec.Version); ok && ld.Writer.Less(v) {
			ld.Writer = v
		}
		if rec.Type == "system" && rec.Subtype == "local_command" && root.Get("content").Exists() ||
			rec.Type == "attachment" && rec.QueuedImage {
			keep(i, raw, l.Offset)
		}
		if rec.Type == "user" || rec.Type == "assistant" {
			if root.Get("message").Get("content").Exists() {
				keep(i, raw, l.Offset)
			}
			if rec.Type == "assistant" {
				if ld.model == nil {
					ld.model = map[int]string{}
				}
				m := root.Get("message").Get("model")
				if !m.StrIs(lastModel) {
					lastModel = m.String()
				}
				ld.model[i] = lastModel
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
	ld.Content = func(i int) any {
		raw, ok := ld.line(i)
		if !ok {
			return nil
		}
		var v struct {
			Type    string `json:"type"`
			Content any    `json:"content"`
			Message struct {
				Content any `json:"content"`
			} `json:"message"`
			Attachment struct {
				Prompt any `json:"prompt"`
			} `json:"attachment"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil
		}
		switch v.Type {
		case "system":
			return v.Content
		case "attachment":
			return v.Attachment.Prompt
		}
		return v.Message.Content
	}
	ld.Model = func(i int) string { return ld.model[i] }
	return ld, nil
}

// line returns the bytes of kept line i: its copy, or the file's bytes
// there, read again.
func (ld *Loaded) line(i int) ([]byte, bool) {
	if ld.ra == nil {
		raw, ok := ld.content[i]
		return raw, ok
	}
	a, ok := ld.at[i]
	if !ok {
		return nil, false
	}
	raw := make([]byte, a.n)
	n, err := ld.ra.ReadAt(raw, a.off)
	if n == a.n {
		err = nil // io.EOF with the last byte of the file is no error
		if maphash.Bytes(lineSeed, raw) != a.hash {
			err = errors.New("it changed after it was read")
		}
	} else if err == nil {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		if ld.err == nil {
			ld.err = fmt.Errorf("line %d could not be read again: %w", ld.Records[i].Line, err)
		}
		return nil, false
	}
	return raw, true
}

// Err is the first line LoadFrom's transcript could not give back as it
// was read; what was built from it then is not what the file says.
func (ld *Loaded) Err() error { return ld.err }

// RunLoaded is Run on a loaded file, adding what the reader does to the text.
func RunLoaded(ld *Loaded, p Profile) *Result {
	res := Run(ld.Source, p)
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
			res.Changed = append(res.Changed, Event{Kind: "text-replaced", Line: int(r.Line), UUID: r.UUID(), rec: i, Reason: reason})
		}
		if f.badUTF8 {
			res.Changed = append(res.Changed, Event{Kind: "text-replaced", Line: int(r.Line), UUID: r.UUID(), rec: i,
				Reason: "invalid UTF-8 bytes in its text are sent as U+FFFD"})
		}
	}
	return res
}
