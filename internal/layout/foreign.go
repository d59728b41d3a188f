package layout

import (
	"bytes"
	"io"
	"os"
	"regexp"
)

// markers are keys of which every kind of Claude Code transcript entry
// holds at least one (the envelope's uuid, parentUuid and sessionId; a
// summary's leafUuid; a snapshot's messageId).
var markers = [][]byte{[]byte(`"sessionId"`), []byte(`"uuid"`), []byte(`"parentUuid"`), []byte(`"leafUuid"`),
	[]byte(`"messageId"`), []byte(`"isSidechain"`)}

// entryType matches the "type" of a Claude Code entry, for cut-down
// transcripts (test fixtures of transcript tools) that keep no other key.
var entryType = regexp.MustCompile(`"type"\s*:\s*"(user|assistant|system|summary|progress|attachment|` +
	`file-history-snapshot|queue-operation|custom-title|ai-title|last-prompt|permission-mode|agent-name)"`)

// DropForeign takes out of res the loose .jsonl files that are somebody
// else's JSON Lines (a dataset, a log): files whose every non-blank line
// starts with '{' or '[', without a NUL byte, and without any key that
// Claude Code entries carry (nor a "type" of one) anywhere in the file.
// They count as skipped;
// their display paths are returned, and kept in res.Foreign, so that the
// caller can say so. Only loose files whose name says nothing are looked
// at: a file in a projects/<enc>/ folder, a <sessionId>.jsonl, an
// agent-*.jsonl, history.jsonl or standard input is always checked, and a
// file that is empty, unreadable, holds a NUL byte or a line that is not a
// JSON object or array is checked as a transcript, so a damaged real
// transcript is never skipped.
func DropForeign(res *Result) []string {
	var dropped []string
	files := res.Files[:0]
	for _, f := range res.Files {
		if f.Kind == Transcript && !f.InLayout && !f.Stdin && f.SessionID == "" && foreign(f.OSPath) {
			if !f.Context {
				res.Skipped++
				dropped = append(dropped, f.Path)
			}
			continue
		}
		files = append(files, f)
	}
	res.Files = files
	res.Foreign = append(res.Foreign, dropped...)
	return dropped
}

// foreign reads the file at p until it meets a marker.
func foreign(p string) bool {
	fh, err := os.Open(p)
	if err != nil {
		return false
	}
	defer fh.Close()
	const keep = 96 // longer than any marker or entry type
	buf := make([]byte, 64<<10)
	carry := 0
	lines := 0
	atLineStart := true
	for {
		n, err := fh.Read(buf[carry:])
		chunk := buf[:carry+n]
		for _, m := range markers {
			if bytes.Contains(chunk, m) {
				return false
			}
		}
		if entryType.Match(chunk) {
			return false
		}
		for _, c := range buf[carry : carry+n] {
			switch {
			case c == 0:
				return false
			case c == '\n':
				atLineStart = true
			case atLineStart && (c == ' ' || c == '\t' || c == '\r'):
			case atLineStart:
				if c != '{' && c != '[' {
					return false
				}
				lines++
				atLineStart = false
			}
		}
		if err == io.EOF {
			return lines > 0
		}
		if err != nil {
			return false
		}
		if len(chunk) > keep {
			carry = copy(buf, chunk[len(chunk)-keep:])
		} else {
			carry = len(chunk)
		}
	}
}
