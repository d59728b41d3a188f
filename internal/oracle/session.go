//go:build unix

package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Session is a transcript split into lines, each with the fields the
// corruptions look for. Edits work on the raw lines, so that what is not
// edited keeps its bytes.
type Session struct {
	Lines [][]byte // without newlines
	Final bool     // the file ended with a newline
	E     []SEntry // one per line
}

// SEntry is what a line holds (zero when it is not a JSON object).
type SEntry struct {
	OK        bool
	Type      string  `json:"type"`
	UUID      string  `json:"uuid"`
	Parent    *string `json:"parentUuid"`
	Sidechain bool    `json:"isSidechain"`
	Timestamp string  `json:"timestamp"`
	Message   *struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
	blocks Content
}

// ParseSession splits data into lines.
func ParseSession(data []byte) *Session {
	s := &Session{Final: len(data) > 0 && data[len(data)-1] == '\n'}
	data = bytes.TrimSuffix(data, []byte("\n"))
	if len(data) == 0 {
		return s
	}
	s.Lines = bytes.Split(data, []byte("\n"))
	s.reparse()
	return s
}

func (s *Session) reparse() {
	s.E = make([]SEntry, len(s.Lines))
	for i, l := range s.Lines {
		var e SEntry
		if i == 0 {
			// The readers read a first line after a UTF-8 byte order mark
			// (measured on 2.1.110, 2.1.330 and 2.1.332).
			l = bytes.TrimPrefix(l, []byte("\xef\xbb\xbf"))
		}
		if json.Unmarshal(l, &e) == nil {
			e.OK = true
			if e.Message != nil {
				_ = json.Unmarshal(e.Message.Content, &e.blocks)
			}
		}
		s.E[i] = e
	}
}

// Bytes joins the lines again.
func (s *Session) Bytes() []byte {
	b := bytes.Join(s.Lines, []byte("\n"))
	if s.Final && len(s.Lines) > 0 {
		b = append(b, '\n')
	}
	return b
}

// find returns the index of the first line (from start, in steps of dir)
// matching f, or -1.
func (s *Session) find(f func(e SEntry) bool) int {
	for i, e := range s.E {
		if e.OK && f(e) {
			return i
		}
	}
	return -1
}

func (s *Session) findLast(f func(e SEntry) bool) int {
	for i := len(s.E) - 1; i >= 0; i-- {
		if s.E[i].OK && f(s.E[i]) {
			return i
		}
	}
	return -1
}

// withText finds the first user/assistant line with a text block holding sub.
func (s *Session) withText(role, sub string) int {
	return s.find(func(e SEntry) bool {
		if e.Message == nil || e.Message.Role != role || e.Type != role {
			return false
		}
		for _, b := range e.blocks {
			if b.Type == "text" && strings.Contains(b.Text, sub) {
				return true
			}
		}
		return false
	})
}

// toolUse finds the assistant line whose tool_use input holds sub and
// returns it with the call id.
func (s *Session) toolUse(sub string) (int, string) {
	for i, e := range s.E {
		if !e.OK || e.Type != "assistant" {
			continue
		}
		for _, b := range e.blocks {
			if b.Type == "tool_use" && strings.Contains(string(b.Input), sub) {
				return i, b.ID
			}
		}
	}
	return -1, ""
}

// toolResult finds the user line answering call id.
func (s *Session) toolResult(id string) int {
	return s.find(func(e SEntry) bool {
		for _, b := range e.blocks {
			if e.Type == "user" && b.Type == "tool_result" && b.ToolUseID == id {
				return true
			}
		}
		return false
	})
}

// child returns the first line whose parentUuid is uuid.
func (s *Session) child(uuid string) int {
	return s.find(func(e SEntry) bool { return e.Parent != nil && *e.Parent == uuid })
}

// leaf returns the last main-chain user/assistant line.
func (s *Session) leaf() int {
	return s.findLast(func(e SEntry) bool { return (e.Type == "user" || e.Type == "assistant") && !e.Sidechain })
}

func (s *Session) deleteLine(i int) {
	s.Lines = append(s.Lines[:i:i], s.Lines[i+1:]...)
	s.reparse()
}

func (s *Session) insertLine(i int, l []byte) {
	s.Lines = append(s.Lines[:i:i], append([][]byte{l}, s.Lines[i:]...)...)
	s.reparse()
}

// setField replaces the first occurrence of "key":VALUE (a string, null,
// true or false) in line i by "key":val (val is raw JSON).
func (s *Session) setField(i int, key, val string) error {
	re := regexp.MustCompile(`"` + regexp.QuoteMeta(key) + `":("(?:[^"\\]|\\.)*"|null|true|false)`)
	loc := re.FindIndex(s.Lines[i])
	if loc == nil {
		return fmt.Errorf("line %d has no %q", i+1, key)
	}
	l := s.Lines[i]
	n := append(append(append([]byte{}, l[:loc[0]]...), []byte(`"`+key+`":`+val)...), l[loc[1]:]...)
	s.Lines[i] = n
	s.reparse()
	return nil
}

// replaceIn replaces every old by new in line i.
func (s *Session) replaceIn(i int, old, new string) error {
	if !bytes.Contains(s.Lines[i], []byte(old)) {
		return fmt.Errorf("line %d has no %q", i+1, old)
	}
	s.Lines[i] = bytes.ReplaceAll(s.Lines[i], []byte(old), []byte(new))
	s.reparse()
	return nil
}

var tsRE = regexp.MustCompile(`"timestamp":"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"`)

// shiftFrom adds d to the timestamp of every line from index i on (a
// realistic pause before line i).
func (s *Session) shiftFrom(i int, d time.Duration) {
	for j := i; j < len(s.Lines); j++ {
		s.Lines[j] = tsRE.ReplaceAllFunc(s.Lines[j], func(m []byte) []byte {
			sub := tsRE.FindSubmatch(m)
			t, err := time.Parse(time.RFC3339Nano, string(sub[1]))
			if err != nil {
				return m
			}
			return []byte(`"timestamp":"` + t.Add(d).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
		})
	}
	s.reparse()
}

// editJSON decodes line i, lets f change it, and encodes it again (key
// order is lost on that line only).
func (s *Session) editJSON(i int, f func(m map[string]any) error) error {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(s.Lines[i]))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return err
	}
	if err := f(m); err != nil {
		return err
	}
	b, err := marshalNoEscape(m)
	if err != nil {
		return err
	}
	s.Lines[i] = b
	s.reparse()
	return nil
}

func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Respace sets the timestamp of every line to the first one plus step
// times its line index (file order), so that the gaps between entries do
// not depend on how fast the machine ran the scenario.
func (s *Session) Respace(step time.Duration) {
	var t0 time.Time
	for _, l := range s.Lines {
		if m := tsRE.FindSubmatch(l); m != nil {
			if t, err := time.Parse(time.RFC3339Nano, string(m[1])); err == nil {
				t0 = t
				break
			}
		}
	}
	if t0.IsZero() {
		return
	}
	for i := range s.Lines {
		v := []byte(`"timestamp":"` + t0.Add(time.Duration(i)*step).UTC().Format("2006-01-02T15:04:05.000Z") + `"`)
		s.Lines[i] = tsRE.ReplaceAllLiteral(s.Lines[i], v)
	}
	s.reparse()
}
