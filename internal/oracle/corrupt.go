//go:build unix

package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Base names the healthy session a corruption is applied to.
const (
	// BaseTurns: two turns. Turn one: prompt TurnOnePrompt, a Bash call
	// (CmdOne), its result, the text TurnOneDone. Turn two, written by a
	// --resume: prompt TurnTwoPrompt, two parallel Bash calls (CmdTwoA,
	// CmdTwoB), their results, the text TurnTwoDone.
	BaseTurns = "turns"
	// BaseCompact: the compact scenario (a tool turn, /compact, a tool turn
	// after the boundary).
	BaseCompact = "compact"
	// BaseLarge: the large scenario (a transcript over 5 MiB, resumed once).
	BaseLarge = "large"
	// BaseHand: a hand-written session (HandCases' hand-linear: prompt,
	// reply, prompt, reply), written, not played: no Claude Code text.
	BaseHand = "hand"
	// BaseHandFork: hand-linear with a second branch from the first reply,
	// written later (HandCases' leaf-fork): the reader resumes that branch.
	BaseHandFork = "hand-fork"
)

// The markers of BaseTurns.
const (
	TurnOnePrompt = "Oracle turn one."
	CmdOne        = "echo oracle-one"
	TurnOneDone   = "Oracle turn one done."
	TurnTwoPrompt = "Oracle turn two."
	CmdTwoA       = "echo oracle-two-a"
	CmdTwoB       = "echo oracle-two-b"
	TurnTwoDone   = "Oracle turn two done."
)

// Pause is the delay a "-paused" corruption puts before the entries after
// the damage (well over the 5 s a reader bridges).
const Pause = time.Minute

// ErrNotApplicable is returned by a corruption that has nothing to damage
// in a session (e.g. no api-request lines in an older version's file).
var ErrNotApplicable = errors.New("oracle: corruption not applicable to this session")

// Corruption is one damage applied to a healthy session file. IDs are
// stable: tests and docs/reader-behaviour.json refer to them.
type Corruption struct {
	ID    string
	Doc   string
	Base  string   // BaseTurns or BaseCompact
	Rules []string // the ccvet rules meant to see it (informative)
	Apply func(s *Session) error
	// Healthy: a shape real sessions have, not damage (which branch end a
	// resume starts from): lint must report no error on it, whatever the
	// reader leaves out of the branch it does not pick.
	Healthy bool
}

// handCorruption replaces a hand base by the hand-written case id, written
// for the base's session id and working folder.
func handCorruption(id, base string, healthy bool, rules ...string) Corruption {
	c, ok := LookupHand(id)
	if !ok {
		panic("oracle: no hand case " + id)
	}
	return Corruption{ID: id, Base: base, Doc: c.Doc + " (hand-written)", Healthy: healthy, Rules: rules,
		Apply: func(s *Session) error {
			cwd := ""
			for _, l := range s.Lines {
				var e struct {
					Cwd string `json:"cwd"`
				}
				if json.Unmarshal(bytes.TrimPrefix(l, []byte("\xef\xbb\xbf")), &e) == nil && e.Cwd != "" {
					cwd = e.Cwd
					break
				}
			}
			h := &Hand{SID: HandSessionID, Cwd: cwd}
			c.Build(h)
			n := ParseSession(h.Bytes())
			*s = *n
			return nil
		}}
}

// line returns the index of a line or an error naming what is missing.
func need(i int, what string) (int, error) {
	if i < 0 {
		return i, fmt.Errorf("oracle: session has no %s", what)
	}
	return i, nil
}

func doneOne(s *Session) (int, error) {
	return need(s.withText("assistant", TurnOneDone), "turn-one text")
}

func useOne(s *Session) (int, string, error) {
	i, id := s.toolUse(CmdOne)
	_, err := need(i, "turn-one tool_use")
	return i, id, err
}

func resultOne(s *Session) (int, error) {
	_, id, err := useOne(s)
	if err != nil {
		return -1, err
	}
	return need(s.toolResult(id), "turn-one tool_result")
}

// deleteDoneOne deletes the turn-one text entry and returns the line of its
// child (now holding a dangling parentUuid).
func deleteDoneOne(s *Session) (int, error) {
	i, err := doneOne(s)
	if err != nil {
		return -1, err
	}
	uuid := s.E[i].UUID
	s.deleteLine(i)
	return need(s.child(uuid), "child of the turn-one text")
}

func cycleOne(s *Session) (int, error) {
	d, err := doneOne(s)
	if err != nil {
		return -1, err
	}
	u, _, err := useOne(s)
	if err != nil {
		return -1, err
	}
	return u, s.setField(u, "parentUuid", `"`+s.E[d].UUID+`"`)
}

const missingUUID = "00000000-0000-4000-8000-0000000000aa"

// Corruptions is the matrix, in a stable order.
func Corruptions() []Corruption {
	return []Corruption{
		{ID: "none", Base: BaseTurns, Doc: "no damage (the baseline every other row is compared with)",
			Apply: func(s *Session) error { return nil }},
		{ID: "torn-last-line", Base: BaseTurns, Rules: []string{"truncated-line"}, Doc: "the last line cut in half, no final newline (a crash mid-write)",
			Apply: func(s *Session) error {
				n := len(s.Lines) - 1
				s.Lines[n] = s.Lines[n][:len(s.Lines[n])/2]
				s.Final = false
				s.reparse()
				return nil
			}},
		{ID: "torn-last-assistant", Base: BaseTurns, Rules: []string{"truncated-line"}, Doc: "the file cut in the middle of the last assistant entry (turn-two text)",
			Apply: func(s *Session) error {
				i, err := need(s.withText("assistant", TurnTwoDone), "turn-two text")
				if err != nil {
					return err
				}
				s.Lines = s.Lines[:i+1]
				s.Lines[i] = s.Lines[i][:len(s.Lines[i])/2]
				s.Final = false
				s.reparse()
				return nil
			}},
		{ID: "missing-final-newline", Base: BaseTurns, Rules: []string{"missing-final-newline"}, Doc: "the final newline removed",
			Apply: func(s *Session) error { s.Final = false; return nil }},
		{ID: "nul-run", Base: BaseTurns, Rules: []string{"nul-bytes"}, Doc: "the turn-one text line overwritten by NUL bytes (same length)",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err != nil {
					return err
				}
				s.Lines[i] = make([]byte, len(s.Lines[i]))
				s.reparse()
				return nil
			}},
		{ID: "broken-json", Base: BaseTurns, Rules: []string{"invalid-json", "truncated-line"}, Doc: "the turn-one text line cut in half (its newline kept)",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err != nil {
					return err
				}
				s.Lines[i] = s.Lines[i][:len(s.Lines[i])/2]
				s.reparse()
				return nil
			}},
		{ID: "fused-lines", Base: BaseTurns, Rules: []string{"invalid-json"}, Doc: "the turn-one tool_result line moved onto the end of its tool_use line (two entries on one line)",
			Apply: func(s *Session) error {
				u, _, err := useOne(s)
				if err != nil {
					return err
				}
				r, err := resultOne(s)
				if err != nil {
					return err
				}
				s.Lines[u] = append(append([]byte{}, s.Lines[u]...), s.Lines[r]...)
				s.deleteLine(r)
				return nil
			}},
		{ID: "deleted-tool-result", Base: BaseTurns, Rules: []string{"unmatched-tool-use", "orphan-parent"}, Doc: "the turn-one tool_result line deleted",
			Apply: func(s *Session) error {
				i, err := resultOne(s)
				if err != nil {
					return err
				}
				s.deleteLine(i)
				return nil
			}},
		{ID: "ends-on-tool-use", Base: BaseTurns, Rules: []string{"unmatched-tool-use"}, Doc: "the file cut after the last tool_use entry (a crash while the tools ran)",
			Apply: func(s *Session) error {
				i, err := need(s.findLast(func(e SEntry) bool {
					for _, b := range e.blocks {
						if e.Type == "assistant" && b.Type == "tool_use" {
							return true
						}
					}
					return false
				}), "tool_use")
				if err != nil {
					return err
				}
				s.Lines = s.Lines[:i+1]
				s.reparse()
				return nil
			}},
		{ID: "orphan-result", Base: BaseTurns, Rules: []string{"unmatched-tool-result", "unmatched-tool-use"}, Doc: "the turn-one tool_result's tool_use_id changed to an id no call has",
			Apply: func(s *Session) error {
				i, err := resultOne(s)
				if err != nil {
					return err
				}
				_, id, _ := useOne(s)
				return s.replaceIn(i, id, "toolu_01OracMissing000000000")
			}},
		{ID: "result-off-chain", Base: BaseTurns, Rules: []string{"tool-result-off-chain"}, Doc: "the turn-one tool_result left off the chain (its child re-parented to the result's parent; the call stays on the chain)",
			Apply: func(s *Session) error {
				r, err := resultOne(s)
				if err != nil {
					return err
				}
				c, err := need(s.child(s.E[r].UUID), "child of the tool_result")
				if err != nil {
					return err
				}
				return s.setField(c, "parentUuid", `"`+*s.E[r].Parent+`"`)
			}},
		{ID: "duplicate-tool-id", Base: BaseTurns, Rules: []string{"duplicate-tool-use-id"}, Doc: "the second parallel call of turn two (and its result) given the first call's id",
			Apply: func(s *Session) error {
				_, a := s.toolUse(CmdTwoA)
				ib, b := s.toolUse(CmdTwoB)
				if a == "" || b == "" {
					return errors.New("oracle: session has no parallel calls")
				}
				rb, err := need(s.toolResult(b), "result of the second parallel call")
				if err != nil {
					return err
				}
				if err := s.replaceIn(ib, b, a); err != nil {
					return err
				}
				return s.replaceIn(rb, b, a)
			}},
		{ID: "duplicate-uuid", Base: BaseTurns, Rules: []string{"duplicate-uuid"}, Doc: "a copy of the first prompt, given the turn-one text's uuid, inserted after that text (the later line reuses the uuid)",
			Apply: func(s *Session) error {
				d, err := doneOne(s)
				if err != nil {
					return err
				}
				p, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				cp := append([]byte{}, s.Lines[p]...)
				s.insertLine(d+1, cp)
				return s.replaceIn(d+1, s.E[p].UUID, s.E[d].UUID)
			}},
		{ID: "sidechain-leaf", Base: BaseTurns, Rules: []string{"sidechain-mismatch", "dangling-leaf"}, Doc: "isSidechain set to true on the last chain entry (the leaf)",
			Apply: func(s *Session) error {
				i, err := need(s.leaf(), "leaf")
				if err != nil {
					return err
				}
				return s.setField(i, "isSidechain", "true")
			}},
		{ID: "sidechain-mid", Base: BaseTurns, Rules: []string{"sidechain-mismatch"}, Doc: "isSidechain set to true on the turn-one text (mid-chain)",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err != nil {
					return err
				}
				return s.setField(i, "isSidechain", "true")
			}},
		{ID: "lone-surrogate", Base: BaseTurns, Rules: []string{"lone-surrogate"}, Doc: `a lone \ud83d escape added to the first prompt's text`,
			Apply: func(s *Session) error {
				i, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				return s.replaceIn(i, TurnOnePrompt, TurnOnePrompt+`\ud83d`)
			}},
		{ID: "invalid-utf8", Base: BaseTurns, Rules: []string{"invalid-utf8"}, Doc: "bytes FF FE added to the first prompt's text",
			Apply: func(s *Session) error {
				i, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				return s.replaceIn(i, TurnOnePrompt, TurnOnePrompt+"\xff\xfe")
			}},
		{ID: "escaped-nul", Base: BaseTurns, Rules: []string{"escaped-nul"}, Doc: `a \u0000 escape added inside the first prompt's text`,
			Apply: func(s *Session) error {
				i, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				return s.replaceIn(i, TurnOnePrompt, `Oracle turn\u0000 one.`)
			}},
		{ID: "missing-message", Base: BaseTurns, Rules: []string{"schema"}, Doc: "the first prompt entry's message field removed",
			Apply: func(s *Session) error {
				i, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				return s.editJSON(i, func(m map[string]any) error { delete(m, "message"); return nil })
			}},
		{ID: "content-number", Base: BaseTurns, Rules: []string{"schema"}, Doc: "the first prompt's message.content replaced by the number 42",
			Apply: func(s *Session) error {
				i, err := need(s.withText("user", TurnOnePrompt), "first prompt")
				if err != nil {
					return err
				}
				return s.editJSON(i, func(m map[string]any) error {
					msg, ok := m["message"].(map[string]any)
					if !ok {
						return errors.New("oracle: no message")
					}
					msg["content"] = 42
					return nil
				})
			}},
		{ID: "dangling-parent", Base: BaseTurns, Rules: []string{"orphan-parent"}, Doc: "the turn-one text line deleted: the turn-two prompt's parentUuid dangles (timestamps as written: ms apart)",
			Apply: func(s *Session) error { _, err := deleteDoneOne(s); return err }},
		{ID: "dangling-parent-paused", Base: BaseTurns, Rules: []string{"orphan-parent"}, Doc: "as dangling-parent, and the entries from the orphan on shifted a minute later",
			Apply: func(s *Session) error {
				c, err := deleteDoneOne(s)
				if err == nil {
					s.shiftFrom(c, Pause)
				}
				return err
			}},
		{ID: "parent-cycle", Base: BaseTurns, Rules: []string{"parent-cycle"}, Doc: "the turn-one tool_use entry re-parented to the turn-one text, its descendant (timestamps as written)",
			Apply: func(s *Session) error { _, err := cycleOne(s); return err }},
		{ID: "parent-cycle-paused", Base: BaseTurns, Rules: []string{"parent-cycle"}, Doc: "as parent-cycle, and the entries from the tool_use on shifted a minute later",
			Apply: func(s *Session) error {
				u, err := cycleOne(s)
				if err == nil {
					s.shiftFrom(u, Pause)
				}
				return err
			}},
		{ID: "reordered-keys", Base: BaseTurns, Rules: []string{"reordered-keys"}, Doc: "every entry's keys re-sorted alphabetically",
			Apply: func(s *Session) error {
				for i := range s.Lines {
					if err := s.editJSON(i, func(map[string]any) error { return nil }); err != nil {
						return err
					}
				}
				return nil
			}},
		{ID: "no-api-request", Base: BaseTurns, Doc: "every api-request* line removed (2.1.2xx+ request ledger)",
			Apply: func(s *Session) error {
				var keep [][]byte
				for i, l := range s.Lines {
					if t := s.E[i].Type; t != "api-request" && t != "api-request-blob" && t != "api-request-shape" {
						keep = append(keep, l)
					}
				}
				if len(keep) == len(s.Lines) {
					return ErrNotApplicable
				}
				s.Lines = keep
				s.reparse()
				return nil
			}},
		{ID: "blank-line", Base: BaseTurns, Rules: []string{"blank-line"}, Doc: "an empty line inserted after the turn-one text",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err == nil {
					s.insertLine(i+1, nil)
				}
				return err
			}},
		{ID: "unknown-type", Base: BaseTurns, Rules: []string{"unknown-type"}, Doc: "an entry of an unknown type inserted after the turn-one text",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err == nil {
					s.insertLine(i+1, []byte(`{"type":"oracle-unknown-type","sessionId":"00000000-0000-4000-8000-000000000000"}`))
				}
				return err
			}},
		{ID: "foreign-session-id", Base: BaseTurns, Rules: []string{"session-mismatch"}, Doc: "the turn-one text entry's sessionId changed",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err != nil {
					return err
				}
				return s.setField(i, "sessionId", `"`+missingUUID+`"`)
			}},
		{ID: "non-iso-timestamp", Base: BaseTurns, Rules: []string{"schema"}, Doc: "the turn-one text entry's timestamp replaced by a non-ISO string",
			Apply: func(s *Session) error {
				i, err := doneOne(s)
				if err != nil {
					return err
				}
				return s.setField(i, "timestamp", `"yesterday at noon"`)
			}},
		{ID: "compact-none", Base: BaseCompact, Doc: "no damage (the baseline of the compacted session)",
			Apply: func(s *Session) error { return nil }},
		{ID: "deleted-before-compact-boundary", Base: BaseCompact, Rules: []string{"orphan-logical-parent"}, Doc: "every line before the compact boundary deleted",
			Apply: func(s *Session) error {
				i, err := need(s.boundary(), "compact boundary")
				if err != nil {
					return err
				}
				s.Lines = s.Lines[i:]
				s.reparse()
				return nil
			}},
		{ID: "dangling-logical-parent", Base: BaseCompact, Rules: []string{"orphan-logical-parent"}, Doc: "the compact boundary's logicalParentUuid changed to a uuid no entry has",
			Apply: func(s *Session) error {
				i, err := need(s.boundary(), "compact boundary")
				if err != nil {
					return err
				}
				return s.setField(i, "logicalParentUuid", `"`+missingUUID+`"`)
			}},
		{ID: "hand-none", Base: BaseHand, Doc: "no damage (the baseline of the hand-written session: prompt, reply, prompt, reply)",
			Apply: func(s *Session) error { return nil }},
		handCorruption("hand-bom", BaseHand, false, "invalid-json"),
		handCorruption("leaf-future-mid", BaseHand, false),
		handCorruption("leaf-tie-descendant", BaseHand, true),
		{ID: "hand-fork-none", Base: BaseHandFork, Doc: "no damage (the baseline of the hand-written fork: two branch ends after the first reply, the second written later)",
			Apply: func(s *Session) error { return nil }},
		handCorruption("leaf-last-prompt-older", BaseHandFork, true),
		handCorruption("leaf-last-prompt-parent", BaseHandFork, true),
		handCorruption("leaf-last-prompt-missing", BaseHandFork, true),
		handCorruption("leaf-older-later-line", BaseHandFork, true),
		handCorruption("leaf-tie", BaseHandFork, true),
		{ID: "large-none", Base: BaseLarge, Doc: "no damage (the baseline of the session over 5 MiB)",
			Apply: func(s *Session) error { return nil }},
		{ID: "large-reordered-keys", Base: BaseLarge, Rules: []string{"reordered-keys"}, Doc: "every entry's keys re-sorted, in the session over 5 MiB",
			Apply: func(s *Session) error {
				for i := range s.Lines {
					if err := s.editJSON(i, func(map[string]any) error { return nil }); err != nil {
						return err
					}
				}
				return nil
			}},
		{ID: "large-dangling-parent-paused", Base: BaseLarge, Rules: []string{"orphan-parent"}, Doc: "in the session over 5 MiB, the first big reply's line deleted and the entries after it shifted a minute later",
			Apply: func(s *Session) error {
				i, err := need(s.withText("assistant", "Big reply 0."), "first big reply")
				if err != nil {
					return err
				}
				uuid := s.E[i].UUID
				s.deleteLine(i)
				c, err := need(s.child(uuid), "child of the first big reply")
				if err == nil {
					s.shiftFrom(c, Pause)
				}
				return err
			}},
	}
}

// boundary returns the line of the first compact boundary, or -1.
func (s *Session) boundary() int {
	for i, e := range s.E {
		if e.OK && e.Type == "system" && bytes.Contains(s.Lines[i], []byte(`"compact_boundary"`)) {
			return i
		}
	}
	return -1
}

// Selected reports whether corruption id is to be run:
// $CCVET_ORACLE_CORRUPTIONS (a comma list) names the rows to run (and, for
// TestReaderBehaviour with CCVET_ORACLE_UPDATE=1, to rewrite, keeping the
// others); unset, every row.
func Selected(id string) bool {
	only := os.Getenv("CCVET_ORACLE_CORRUPTIONS")
	return only == "" || slices.Contains(strings.Split(only, ","), id)
}

// LookupCorruption returns the corruption with that id.
func LookupCorruption(id string) (Corruption, bool) {
	for _, c := range Corruptions() {
		if c.ID == id {
			return c, true
		}
	}
	return Corruption{}, false
}

// ApplyCorruption applies the corruption id to the session file path, in
// place.
func ApplyCorruption(id, path string) error {
	c, ok := LookupCorruption(id)
	if !ok {
		return fmt.Errorf("oracle: no corruption %q", id)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := ParseSession(data)
	if err := c.Apply(s); err != nil {
		return err
	}
	return os.WriteFile(path, s.Bytes(), 0o600)
}
