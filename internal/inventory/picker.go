package inventory

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/readonly"
)

// The /resume picker of Claude Code does not read whole transcripts: it
// lists projects/<folder>/<uuid>.jsonl, newest first by mtime, and reads the
// first and the last 64 KiB of each (the whole file when it is smaller) with
// plain string searches. What follows reproduces those searches, as read in
// the program of 2.1.110 (cli.js) and 2.1.330 (the script inside the native
// binary), and checked by driving both pickers under a pseudo-terminal (see
// docs/resume.md, "ccvet sessions").

// Window is how much of each end of a transcript the picker reads.
const Window = 64 << 10

// The picker versions modelled; Newest decides Picker.Listed.
const (
	Older  = "2.1.110"
	Newest = "2.1.330"
)

var (
	both      = []string{Older, Newest}
	newest    = []string{Newest}
	older     = []string{Older}
	sdkPoints = map[string]bool{"sdk-cli": true, "sdk-ts": true, "sdk-py": true}

	saidRe    = regexp.MustCompile(`"type":\s*"(?:user|assistant|queued_command)"`)
	notSaidRe = regexp.MustCompile(`"content":\s*"<(?:local-command-|command-name>/exit<)`)
	argsRe    = regexp.MustCompile(`<command-args>[^<]`)
)

// Hidden-reason and note codes.
const (
	ReasonName        = "name-not-uuid"
	ReasonSidechain   = "sidechain-in-head"
	ReasonTeam        = "team-session"
	ReasonKind        = "background-session"
	ReasonSDK         = "sdk-entrypoint"
	ReasonLoop        = "loop-session"
	ReasonContinued   = "continued-in-other-session"
	ReasonNothingSaid = "nothing-said"

	NoteTitleOutside = "title-outside-window"
	NoteNoLabel      = "no-prompt-in-window"
	NoteSharedFolder = "folder-shared-with-other-path"
)

// picker judges one transcript as the /resume picker would.
func (s *store) picker(f *os.File, path, id string, size int64, sc scan) Picker {
	p := Picker{Hidden: []Reason{}, Notes: []Reason{}}
	hide := func(code string, versions []string, detail string) {
		p.Hidden = append(p.Hidden, Reason{Code: code, Versions: versions, Detail: detail})
	}
	if !isSessionName(id) {
		hide(ReasonName, both, "the picker lists only files named <uuid>.jsonl")
	}
	head, tail := readEnds(f, size)
	if head == "" {
		// An empty (or unreadable) file is listed as "(session)".
		p.Label = "(session)"
		p.Listed = len(p.Hidden) == 0
		return p
	}
	if strings.Contains(head, `"isSidechain":true`) || strings.Contains(head, `"isSidechain": true`) {
		hide(ReasonSidechain, both, `a line with "isSidechain":true within the first 64 KiB (subagent lines kept inside the main transcript, as up to 2.0.27, or a damaged flag): the picker takes the whole file for a subagent's`)
	}
	if t := firstField(head, "teamName"); t != "" {
		hide(ReasonTeam, both, "teamName "+quote(t)+" in the first 64 KiB: agent-team sessions are not listed")
	}
	chainHead := head
	for _, l := range strings.Split(head, "\n") {
		if strings.Contains(l, `"parentUuid":`) {
			chainHead = l
			break
		}
	}
	kind := firstField(chainHead, "sessionKind")
	if k := kind; k == "daemon" || k == "daemon-worker" {
		hide(ReasonKind, both, "sessionKind "+quote(k)+": background sessions are not listed")
	} else if k := firstField(head, "sessionKind"); k == "bg" || k == "daemon" || k == "daemon-worker" {
		hide(ReasonKind, older, "sessionKind "+quote(k)+": background sessions are not listed")
	}
	ep := firstField(head, "entrypoint")
	if ep == "" {
		ep = lastField(tail, "entrypoint")
	}
	if sdkPoints[ep] {
		hide(ReasonSDK, both, "entrypoint "+quote(ep)+": written by claude -p or the Agent SDK; the interactive picker lists only its own sessions (claude --resume <id> still loads it)")
	}
	if loop330(head) {
		hide(ReasonLoop, both, "a /loop session")
	} else if strings.Contains(head, "<command-name>/loop</command-name>") {
		hide(ReasonLoop, older, "/loop appears in the first 64 KiB")
	}
	next := continuedIn(tail)
	if next != "" && hasChain(filepath.Join(filepath.Dir(path), next+".jsonl")) {
		hide(ReasonContinued, newest, "continued in session "+next+", which the picker lists instead")
	}

	title := recordField(tail, "custom-title", "customTitle")
	if title == "" {
		title = customTitleFile(path, id)
	}
	if title == "" {
		title = recordField(head, "custom-title", "customTitle")
	}
	ai := recordField(tail, "ai-title", "aiTitle")
	if ai == "" {
		ai = recordField(head, "ai-title", "aiTitle")
	}
	summary := recordField(tail, "summary", "summary")
	tag := recordField(tail, "tag", "tag")
	prompt := lastField(tail, "lastPrompt")
	if prompt == "" {
		prompt = headPrompt(head)
	}
	if prompt == "" && tail != head {
		prompt = headPrompt(tail)
	}
	switch {
	case title != "":
		p.Label = title
	case ai != "":
		p.Label = ai
	case summary != "":
		p.Label = summary
	case prompt != "":
		p.Label = prompt
	default:
		p.Label = "(session)"
	}
	p.Label = Clip(strings.ReplaceAll(masked(p.Label), "\n", " "), 200)

	bookkeeping := !sc.chain
	if !bookkeeping && size < Window && !said(head) && title == "" && ai == "" && summary == "" && tag == "" &&
		kind != "bg" && kind != "daemon" && kind != "daemon-worker" && next == "" {
		hide(ReasonNothingSaid, newest, "no prompt and no reply in the whole file (only system lines or /exit), and no title: the picker hides sessions where nothing was said")
	}
	if sc.titled && title == "" && ai == "" {
		p.Notes = append(p.Notes, Reason{Code: NoteTitleOutside, Versions: both,
			Detail: "the file has a title record, but not within the first or last 64 KiB the picker reads: it shows " + quote(p.Label) + " instead"})
	}
	if p.Label == "(session)" && sc.firstPrompt != "" {
		p.Notes = append(p.Notes, Reason{Code: NoteNoLabel, Versions: both,
			Detail: "no title, last-prompt record or prompt within the 64 KiB the picker reads at each end: it shows (session)"})
	}
	p.Listed = true
	for _, r := range p.Hidden {
		if contains(r.Versions, Newest) {
			p.Listed = false
		}
	}
	return p
}

// readEnds returns the first and last Window bytes of f (the same text twice
// when the file is no larger), decoded as the picker does.
func readEnds(f *os.File, size int64) (head, tail string) {
	buf := make([]byte, Window)
	n, _ := f.ReadAt(buf, 0)
	if n <= 0 {
		return "", ""
	}
	head = string(buf[:n])
	if size <= Window {
		return head, head
	}
	m, _ := f.ReadAt(buf, size-Window)
	return head, string(buf[:max(m, 0)])
}

// firstField is the value of the first "key":"…" in s (the picker tries
// the spelling without a space first).
func firstField(s, key string) string {
	for _, pat := range []string{`"` + key + `":"`, `"` + key + `": "`} {
		i := strings.Index(s, pat)
		if i < 0 {
			continue
		}
		if v, ok := stringAt(s, i+len(pat)); ok {
			return v
		}
	}
	return ""
}

// lastField is the value of the last "key":"…" in s.
func lastField(s, key string) string {
	best, at := "", -1
	for _, pat := range []string{`"` + key + `":"`, `"` + key + `": "`} {
		i := strings.LastIndex(s, pat)
		for i >= 0 {
			if v, ok := stringAt(s, i+len(pat)); ok {
				if i > at {
					best, at = v, i
				}
				break
			}
			i = strings.LastIndex(s[:i], pat)
		}
	}
	return best
}

// stringAt reads a JSON string body starting at i, up to its closing quote.
func stringAt(s string, i int) (string, bool) {
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			body := s[i:j]
			var v string
			if json.Unmarshal([]byte(`"`+body+`"`), &v) == nil {
				return v, true
			}
			return body, true
		}
	}
	return "", false
}

// recordField is field of the last complete record of type typ in s.
func recordField(s, typ, field string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !strings.Contains(l, `"type":"`+typ+`"`) && !strings.Contains(l, `"type": "`+typ+`"`) {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(l), &m) != nil || str(m["type"]) != typ {
			continue
		}
		if v := str(m[field]); v != "" {
			return v
		}
	}
	return ""
}

// customTitleFile is the title 2.1.330 keeps in <folder>/<id>/custom-title.json.
func customTitleFile(path, id string) string {
	b, err := readSmall(filepath.Join(filepath.Dir(path), id, "custom-title.json"), 1<<20)
	if err != nil {
		return ""
	}
	var v struct {
		CustomTitle string `json:"customTitle"`
	}
	if json.Unmarshal(b, &v) != nil {
		return ""
	}
	return strings.TrimSpace(v.CustomTitle)
}

// headPrompt is the first prompt among the complete user lines of s.
func headPrompt(s string) string {
	var fallback string
	for _, l := range strings.Split(s, "\n") {
		if !strings.Contains(l, `"type":"user"`) && !strings.Contains(l, `"type": "user"`) {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(l), &m) != nil || str(m["type"]) != "user" || isTrue(m["isMeta"]) || isTrue(m["isCompactSummary"]) {
			continue
		}
		p, cmd := promptOf(m["message"])
		if p != "" {
			return p
		}
		if fallback == "" {
			fallback = cmd
		}
	}
	return fallback
}

// loop330 is 2.1.330's test: the first real user prompt is a /loop command.
func loop330(head string) bool {
	for _, l := range strings.Split(head, "\n") {
		if !strings.Contains(l, `"type":"user"`) && !strings.Contains(l, `"type": "user"`) || strings.Contains(l, `"tool_result"`) {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(l), &m) != nil || str(m["type"]) != "user" || isTrue(m["isMeta"]) || isTrue(m["isCompactSummary"]) {
			continue
		}
		var msg struct {
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m["message"], &msg) != nil {
			continue
		}
		return strings.Contains(string(msg.Content), "<command-name>/loop</command-name>")
	}
	return false
}

// said reports whether s holds a line the 2.1.330 picker counts as said.
func said(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, `"subtype":"voice_call_talk"`) || argsRe.MatchString(l) ||
			saidRe.MatchString(l) && !notSaidRe.MatchString(l) {
			return true
		}
	}
	return false
}

// continuedIn is the session a continued-in record in s points to.
func continuedIn(s string) string {
	if !strings.Contains(s, `"type":"continued-in"`) {
		return ""
	}
	return recordField(s, "continued-in", "continuedInSessionId")
}

// hasChain reports whether the transcript at p exists and holds a chain line.
func hasChain(p string) bool {
	f, err := readonly.OpenHandle(p, false)
	if err != nil {
		return false
	}
	defer f.Close()
	return scanFile(f).chain
}

func quote(s string) string { return strconv.Quote(s) }
