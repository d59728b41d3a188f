package resume

import (
	"fmt"
	"strconv"

	"github.com/ccvet/ccvet/internal/ccversion"
)

// Version is a Claude Code version (see ccversion: a pre-release comes
// before its release).
type Version = ccversion.Version

// ParseVersion reads "2.1.330" (also "v2.1.330", "2.1.330-beta.1", "2.1.330
// (Claude Code)"); see ccversion.Parse.
func ParseVersion(s string) (Version, bool) { return ccversion.Parse(s) }

// The versions where the reader's behaviour changes, as far as ccvet knows.
// Behaviours measured on 2.1.110 and 2.1.330 whose first version is not
// known are filed under Measured: ccvet treats every version before it
// like 2.1.110, and says so in its messages.
var (
	// Bridge: from 2.1.94 a missing or looping parentUuid is bridged to the
	// latest earlier entry written within 5 s (changelog).
	BridgeSince = Version{Major: 2, Minor: 1, Patch: 94}
	// Measured is the newer reader measured against the real program: a
	// trailing tool_use gets a synthetic error result, a result off the
	// chain is re-attached by call id, lone surrogates become U+FFFD,
	// last-prompt.leafUuid on a sidechain entry fails the resume, and a
	// newline is written before appending to an unterminated last line.
	// 2.1.110 does none of these; the first version that does is unknown.
	Measured = Version{Major: 2, Minor: 1, Patch: 330}
	// NotesWrapped: from here ownNote and hookText entries are sent inside
	// a system reminder (measured on 2.1.332, not on 2.1.330; 2.1.331 not
	// measured).
	NotesWrapped = Version{Major: 2, Minor: 1, Patch: 332}
	// Newest is the newest version ccvet's model has been checked against.
	Newest = Version{Major: 2, Minor: 1, Patch: 332}
	// OldMeasured is the older reader measured against the real program.
	OldMeasured = Version{Major: 2, Minor: 1, Patch: 110}
	// TrailingCallDropped is the oldest reader seen to drop a tool_use the
	// file ends on (the oracle's killed-resumed scenario, 2026-11-26):
	// 1.0.0, 1.0.10 and 1.0.25 send it without a result, and the API
	// refuses the request (400); 1.0.30 and every later version measured
	// do not (1.0.27, the one published between, was not run). ccvet's
	// resume model treats those versions as it does 2.1.110
	// (Notice); unmatched-tool-use says what they do.
	TrailingCallDropped = Version{Major: 1, Minor: 0, Patch: 30}
	// BOMLineRead is the oldest reader seen to read a first line that
	// starts with a UTF-8 byte order mark (measured 2026-11-27 with the
	// hand-written hand-bom session): 1.0.25, 1.0.127, 1.0.128, 2.0.10,
	// 2.0.30, 2.0.55, 2.0.56, 2.0.64, 2.0.65 and 2.0.67 skip the line and
	// resume without it; 2.0.69 (the next published) and every later
	// version measured read it. Not in the resume model, which reads it
	// for every reader; byte-order-mark says what the older ones do.
	BOMLineRead = Version{Major: 2, Minor: 0, Patch: 69}
)

// Profile is the set of reader behaviours of one version.
type Profile struct {
	Version Version
	// Bridge: missing or looping parents are bridged within 5 s.
	Bridge bool
	// SyntheticResult: a trailing unanswered tool_use is kept with an
	// is_error result; otherwise the call is dropped.
	SyntheticResult bool
	// MissingResultFirst: where the file ends on results of some calls of
	// one entry (older versions wrote a batch's calls in one entry), the
	// entry's other calls are kept, each with an is_error result
	// TextResultMissing put before the results (2.1.110; SyntheticResult
	// puts its own after them).
	MissingResultFirst bool
	// SendsTrailingCall: a trailing unanswered tool_use is sent as it is,
	// and the API refuses the request (before TrailingCallDropped; not in
	// the resume model, see TrailingCallDropped).
	SendsTrailingCall bool
	// Reattach: a tool_result off the chain whose call is on it is put back.
	Reattach bool
	// FixSurrogates: lone UTF-16 surrogates are sent as U+FFFD.
	FixSurrogates bool
	// ContinuePrompt: a conversation ending on tool results gets the text
	// "Continue from where you left off." (2.1.110).
	ContinuePrompt bool
	// SidechainLeafFails: last-prompt.leafUuid naming a sidechain entry makes
	// --resume fail with "No conversation found".
	SidechainLeafFails bool
	// QuietAfterCommand: no "No response requested." after a local command
	// (/compact…) ends the conversation (2.1.330; 2.1.110 adds it).
	QuietAfterCommand bool
	// FileOrder: parallel results are put back in file order, not by timestamp.
	FileOrder bool
	// ChildlessLeaf: the leaf is the latest of the entries nothing continues,
	// each standing for its nearest user or assistant ancestor (2.1.110).
	ChildlessLeaf bool
	// LastPromptLeaf: the leaf is an entry nothing continues (of any type),
	// the one the last last-prompt line's leafUuid names when it is one,
	// else the latest (2.1.330).
	LastPromptLeaf bool
	// ForeignThinking: a signed thinking block of an assistant entry whose
	// message.model is not the model of the conversation's last assistant
	// message is dropped (2.1.330).
	ForeignThinking bool
	// WrapTaskNotification: a user entry with origin.kind
	// "task-notification" is sent wrapped in a system reminder (2.1.330);
	// 2.1.110 sends its text as it is.
	WrapTaskNotification bool
	// CrashOnBadContent: a message, or a message.content that is neither
	// text nor a list (a number), missing on the conversation crashes the
	// resume (2.1.110: "… is not iterable"), and so does an assistant
	// entry's content that is a string (2.1.110: "….message.content.find
	// is not a function"); 2.1.330 sends nothing for the first and the
	// text of the second.
	CrashOnBadContent bool
	// OrphanMarker: a first message left empty by dropped results becomes
	// the text "[Orphaned tool result removed due to conversation resume]".
	OrphanMarker bool
	// NewlineFirst: before appending to a file whose last line has no
	// newline, the writer adds one (otherwise the next entry fuses onto it).
	NewlineFirst bool
	// WrapNotes: a meta user entry marked ownNote (a note Claude Code adds
	// to a turn) or hookText (a hook's output) is sent inside a system
	// reminder, a hook's with words of the reader's own before it (2.1.332;
	// 2.1.110 and 2.1.330 send the text as it is; 2.1.331 not measured).
	WrapNotes bool
	// BlankText: a user entry's text blocks of only whitespace are dropped
	// (one left with none is sent as "(no content)"), and so are the empty
	// text blocks of an assistant message (measured on 2.1.330 and 2.1.332;
	// 2.1.110 sends them). Every version measured leaves out an assistant
	// entry of only blank texts and sends a message of [] as "(no content)".
	BlankText bool
}

// Behaviour is p without its version: two profiles with the same
// behaviour give the same resume (Run, Walk, Finish) but for
// Result.Reader (see Result.For).
func (p Profile) Behaviour() Profile {
	p.Version = Version{}
	return p
}

// WalkBehaviour is the part of p that Walk reads: Walk(src, p) is
// Walk(src, p.WalkBehaviour()) but for Result.Reader. When a walk's
// conversation took no bridge (or there is none), the other value of
// Bridge gives the same walk too (see chain.Graph.RebuildWith).
func (p Profile) WalkBehaviour() Profile {
	return Profile{
		Bridge:             p.Bridge,
		FileOrder:          p.FileOrder,
		ChildlessLeaf:      p.ChildlessLeaf,
		LastPromptLeaf:     p.LastPromptLeaf,
		SidechainLeafFails: p.SidechainLeafFails,
		CrashOnBadContent:  p.CrashOnBadContent,
	}
}

// ProfileOf returns the behaviours of version v.
func ProfileOf(v Version) Profile {
	newer := !v.Less(Measured)
	return Profile{
		Version:              v,
		Bridge:               !v.Less(BridgeSince),
		SyntheticResult:      newer,
		MissingResultFirst:   !newer,
		SendsTrailingCall:    v.Less(TrailingCallDropped),
		Reattach:             newer,
		FixSurrogates:        newer,
		ContinuePrompt:       !newer,
		SidechainLeafFails:   newer,
		OrphanMarker:         newer,
		CrashOnBadContent:    !newer,
		ChildlessLeaf:        !newer,
		LastPromptLeaf:       newer,
		ForeignThinking:      newer,
		WrapTaskNotification: newer,
		FileOrder:            newer,
		QuietAfterCommand:    newer,
		NewlineFirst:         newer,
		WrapNotes:            !v.Less(NotesWrapped),
		BlankText:            newer,
	}
}

// Readers lists the reader versions a message about a file written by
// writer describes: the writer's own and each later version where a
// behaviour changes, up to Newest. The last one is the reader the file is
// judged for (today's: what users who upgrade run); the others only name,
// in the message, what older readers do when it differs. An unknown writer
// (zero) starts from the oldest behaviour. When override is set, only it:
// the file is judged for that pinned reader.
func Readers(writer, override Version) []Version {
	if !override.Zero() {
		return []Version{override}
	}
	out := []Version{writer}
	for _, b := range []Version{TrailingCallDropped, BridgeSince, Measured, NotesWrapped, Newest} {
		if writer.Less(b) && out[len(out)-1].Less(b) {
			out = append(out, b)
		}
	}
	return out
}

// Range names a set of versions for a message: "2.1.94 and later",
// "versions before 2.1.94".
func Range(from, to Version, last bool) string {
	switch {
	case last && from.Zero():
		return "every version"
	case last:
		return from.String() + " and later"
	case from.Zero():
		return "versions before " + to.String()
	}
	return from.String() + " to before " + to.String()
}

// Notice is one sentence saying how ccvet models the reader of v when v lies
// outside the versions its model was measured on (OldMeasured to Newest),
// and "" inside them: a version newer than Newest is modelled as Newest, an
// older one as OldMeasured (without the 5 s bridge before BridgeSince).
func Notice(v Version) string {
	measured := fmt.Sprintf("the readers ccvet's model was measured on (%s to %s)", OldMeasured, Newest)
	switch {
	case Newest.Less(v):
		return fmt.Sprintf("Claude Code %s is newer than %s: it is modelled as %s", v, measured, Newest)
	case v.Less(OldMeasured):
		s := fmt.Sprintf("Claude Code %s is older than %s: it is modelled as %s", v, measured, OldMeasured)
		if v.Less(BridgeSince) {
			s += fmt.Sprintf(", without the 5 s bridge that %s added", BridgeSince)
		}
		s += "; on ccvet's " + strconv.Itoa(handCases) + " hand-written sessions, " + handAgreementOf(v) + " (docs/resume.md says where they differ)"
		if v.Less(TrailingCallDropped) {
			s += fmt.Sprintf("; before %s a tool call the file ends on is sent without a result, which the API refuses (unmatched-tool-use says so, ccvet resume does not)", TrailingCallDropped)
		}
		return s
	}
	return ""
}

// handCases is how many hand-written sessions the older readers were
// measured on (TestResumeAgreesOnHandCases, internal/cli).
const handCases = 46

// handAgreement is, for each older reader measured (2026-11-27, with
// CCVET_ORACLE_VERSIONS), on how many of the hand-written sessions it sent
// what the model predicts for it, oldest first.
var handAgreement = []struct {
	v     Version
	equal int
}{
	{Version{Major: 1, Minor: 0, Patch: 25}, 26},
	{Version{Major: 1, Minor: 0, Patch: 127}, 28},
	{Version{Major: 2, Minor: 0, Patch: 76}, 32},
	{Version{Major: 2, Minor: 1, Patch: 0}, 33},
	{Version{Major: 2, Minor: 1, Patch: 20}, 37},
	{Version{Major: 2, Minor: 1, Patch: 50}, 39},
	{Version{Major: 2, Minor: 1, Patch: 80}, 38},
	{Version{Major: 2, Minor: 1, Patch: 94}, 40},
	{Version{Major: 2, Minor: 1, Patch: 101}, 46},
}

// handAgreementOf says how the measured readers nearest v agreed with the
// model: v's own count when it was measured, else those of the measured
// readers on either side of it.
func handAgreementOf(v Version) string {
	count := func(n int) string {
		if n == handCases {
			return "all of them"
		}
		return strconv.Itoa(n)
	}
	below, above := -1, -1
	for i, m := range handAgreement {
		switch {
		case m.v == v:
			return m.v.String() + " sent what that predicts for " + count(m.equal)
		case m.v.Less(v):
			below = i
		case above < 0:
			above = i
		}
	}
	switch {
	case below >= 0 && above >= 0:
		b, a := handAgreement[below], handAgreement[above]
		return "the nearest readers measured, " + b.v.String() + " and " + a.v.String() + ", sent what that predicts for " + count(b.equal) + " and " + count(a.equal)
	case above >= 0:
		a := handAgreement[above]
		return "the oldest reader measured, " + a.v.String() + ", sent what that predicts for " + count(a.equal)
	default:
		b := handAgreement[below]
		return "the nearest older reader measured, " + b.v.String() + ", sent what that predicts for " + count(b.equal)
	}
}
