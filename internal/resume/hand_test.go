//go:build unix

package resume

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ccvet/ccvet/internal/oracle"
)

// measuredHand is what the real readers sent for each hand-written case of
// the oracle (oracle.HandSignature; TestResumeAgreesOnHandCases in
// internal/cli checks it against the real program with CCVET_ORACLE=1).
// 2.1.332 sent the same as 2.1.330 on every case but those listed for it.
var measuredHand = map[string]map[string]string{
	"2.1.330": {
		"leaf-last-prompt-older":       "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"leaf-older-later-line":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Forked prompt.] assistant[text:Forked reply.]",
		"leaf-tie":                     "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Forked prompt.] assistant[text:Forked reply.]",
		"leaf-future-mid":              "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"leaf-tie-descendant":          "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three. | text:Hand prompt four. | text:Hand prompt five.] assistant[text:No response requested.]",
		"hand-bom":                     "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-foreign-signed":      "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-foreign-unsigned":    "user[text:Hand prompt one.] assistant[thinking | text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-gateway-claude":      "user[text:Hand prompt one.] assistant[thinking | text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-other-claude":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-foreign-only":        "user[text:Hand prompt one. | text:Hand prompt two.] assistant[text:Hand reply two.]",
		"thinking-only-cut":            "user[text:Hand prompt one. | text:Hand prompt two.] assistant[text:Hand reply two.]",
		"local-command-end":            "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:<command-name>/hand</command-name>             < | text:<local-command-stdout>Hand output.</local-comman]",
		"task-notification-mid":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:<system-reminder>(task-notification)] assistant[text:Hand reply two.]",
		"task-notification-end":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:<system-reminder>(task-notification)] assistant[text:No response requested.]",
		"compaction-big-file":          bigFileSent,
		"compaction-big-last-line":     bigLastLineSent,
		"api-error-mid":                apiErrorMidSent,
		"api-error-end":                apiErrorEndSent,
		"synthetic-unmarked":           syntheticSent,
		"api-error-after-result":       "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E]",
		"result-end":                   "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E] assistant[text:No response requested.]",
		"result-end-ends-turn":         "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E] assistant[text:No response requested.]",
		"note-companion":               noteSent,
		"note-own":                     noteSent,
		"note-hook-text":               noteSent,
		"note-meta":                    noteSent,
		"queued-image":                 queuedImageSent,
		"queued-blocks":                queuedBlocksSent,
		"result-then-text-end":         resultThenTextSent,
		"api-error-companion":          apiErrorCompanionSent,
		"queued-image-end":             queuedImageEndSent,
		"companion-tools-notification": companionToolsNotificationSent330,
		"companion-tools-prompt":       companionToolsPromptSent,
		"companion-text-notification":  "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand note: go on. | text:<system-reminder>(task-notification)] assistant[text:Hand reply two.]",
		// Blank texts (2.1.330 and 2.1.332 alike).
		"content-whitespace-block": noContentSent,
		"content-whitespace-first": "user[text:(no content)] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		// The date attachment fills the first message: no "(no content)".
		"content-whitespace-first-date": "assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"content-empty-text-block":      noContentSent,
		"content-whitespace-and-text":   linearSent,
		"content-whitespace-block-end":  linearSent + " user[text:(no content)] assistant[text:No response requested.]",
		"assistant-empty-list":          emptyReplySent,
		"assistant-empty-list-end":      linearSent + " user[text:Hand prompt three.] assistant[text:(no content)]",
		"assistant-empty-text":          mergedPromptsSent,
		"assistant-whitespace-text":     mergedPromptsSent,
		"assistant-empty-text-and-text": linearSent,
		"assistant-empty-text-split":    linearSent,
		"assistant-whitespace-and-call": "user[text:Hand prompt one.] assistant[text: | tool_use:toolu_hand0000000000000A] user[tool_result:toolu_hand0000000000000A] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		// A meta note at the end gets the reply; a command's caveat does not.
		"meta-end":              metaEndSent,
		"meta-end-blocks":       metaEndSent,
		"meta-end-companion":    metaEndSent,
		"meta-end-continue":     linearSent + " user[text:Continue from where you left off.] assistant[text:No response requested.]",
		"meta-end-reminder":     linearSent + " user[text:<system-reminder>(note)] assistant[text:No response requested.]",
		"meta-end-after-prompt": linearSent + " user[text:Hand prompt three. | text:Hand note: go on.] assistant[text:No response requested.]",
		"meta-end-caveat":       linearSent + " user[text:<local-command-caveat>Caveat: hand.</local-comma]",
		// The file ends on some of a batch's results: the other calls are
		// kept, with an is_error result after those.
		"parallel-split-missing-end":       batchEndSent + "A | tool_use:toolu_hand0000000000000B] user[tool_result:toolu_hand0000000000000A | tool_result:toolu_hand0000000000000B!] assistant[text:No response requested.]",
		"parallel-one-line-missing-end":    batchEndSent + "A | tool_use:toolu_hand0000000000000B] user[tool_result:toolu_hand0000000000000A | tool_result:toolu_hand0000000000000B!] assistant[text:No response requested.]",
		"parallel-split-first-missing-end": batchEndSent + "A | tool_use:toolu_hand0000000000000B] user[tool_result:toolu_hand0000000000000B | tool_result:toolu_hand0000000000000A!] assistant[text:No response requested.]",
		"call-missing-then-text-end":       batchEndSent + "A] user[tool_result:toolu_hand0000000000000A | text:Hand text after the result.] assistant[text:No response requested.]",
		"assistant-string":                 "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		// The leaf after a reused uuid (a later line reusing it, dated
		// after the entry that names it as parent, is where the resume
		// starts) and a compaction boundary at the end (never the leaf).
		"torn-end-duplicate-uuid":      "user[text:Hand prompt one. | text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[text:No response requested.]",
		"duplicate-uuid-leaf":          mergedPromptsSent,
		"duplicate-uuid-leaf-no-cycle": "user[text:Hand prompt one.] assistant[text:Hand reply again.]",
		"duplicate-uuid-root":          "user[text:Hand prompt again.] assistant[text:No response requested.]",
		"boundary-end":                 linearSent,
		"boundary-end-logical-missing": linearSent,
		"boundary-end-after-prompt":    linearSent + " user[text:Hand prompt three.] assistant[text:No response requested.]",
	},
	"2.1.110": {
		// 2.1.110 sends blank texts as they are, but for an assistant
		// message of nothing else; it crashes on an assistant entry whose
		// content is a string.
		"content-whitespace-block":      "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:] assistant[text:Hand reply two.]",
		"content-empty-text-block":      "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:] assistant[text:Hand reply two.]",
		"content-whitespace-first":      "user[text:] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"content-whitespace-and-text":   "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text: | text:Hand prompt two.] assistant[text:Hand reply two.]",
		"assistant-empty-text-and-text": "user[text:Hand prompt one.] assistant[text: | text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"assistant-empty-list":          emptyReplySent,
		"assistant-empty-text":          mergedPromptsSent,
		"assistant-whitespace-text":     mergedPromptsSent,
		"assistant-empty-text-split":    linearSent, // its entry of only "" is left out
		"assistant-empty-list-end":      linearSent + " user[text:Hand prompt three.] assistant[text:(no content)]",
		"assistant-string":              "FAILED",
		"meta-end":                      metaEndSent,
		"meta-end-caveat":               linearSent + " user[text:<local-command-caveat>Caveat: hand.</local-comma] assistant[text:No response requested.]",
		"parallel-split-missing-end":    batchEndSent + "A] user[tool_result:toolu_hand0000000000000A | text:Continue from where you left off.] assistant[text:No response requested.]",
		// One entry with both calls: the other kept, its is_error result first.
		"parallel-one-line-missing-end": batchEndSent + "A | tool_use:toolu_hand0000000000000B] user[tool_result:toolu_hand0000000000000B! | tool_result:toolu_hand0000000000000A | text:Continue from where you left off.] assistant[text:No response requested.]",
		"leaf-last-prompt-older":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Forked prompt.] assistant[text:Forked reply.]",
		"thinking-foreign-signed":       "user[text:Hand prompt one.] assistant[thinking | text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"local-command-end":             "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"task-notification-end":         "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:<task-notification> <task-id>hand1</task-id> <st] assistant[text:No response requested.]",
		"compaction-big-file":           bigFileSent,
		"compaction-big-last-line":      bigLastLineSent,
		"api-error-mid":                 apiErrorMidSent,
		"api-error-end":                 apiErrorEndSent,
		"synthetic-unmarked":            syntheticSent,
		"api-error-after-result":        "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E | text:Continue from where you left off.] assistant[text:No response requested.]",
		"result-end":                    "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E | text:Continue from where you left off.] assistant[text:No response requested.]",
		"result-end-ends-turn":          "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E | text:Continue from where you left off.] assistant[text:No response requested.]",
		"note-companion":                noteSent,
		"note-own":                      noteSent,
		"note-hook-text":                noteSent,
		"note-meta":                     noteSent,
		"queued-image":                  queuedImageSent,
		"queued-blocks":                 queuedBlocksSent,
		"result-then-text-end":          resultThenTextSent,
		"api-error-companion":           apiErrorCompanionSent,
		"companion-tools-notification":  "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:<system-reminder>(tools-used) | text:<task-notification> <task-id>hand1</task-id> <st] assistant[text:Hand reply two.]",
		"companion-tools-prompt":        companionToolsPromptSent,
		"companion-text-notification":   "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand note: go on. | text:<task-notification> <task-id>hand1</task-id> <st] assistant[text:Hand reply two.]",
		// The queued prompt at the end is not sent; the result gets the
		// continue text.
		"queued-image-end": "user[text:Hand prompt one.] assistant[tool_use:toolu_hand0000000000000F] user[tool_result:toolu_hand0000000000000F | text:Continue from where you left off.] assistant[text:No response requested.]",
	},
	// 2.1.332 sends a note marked ownNote or hookText inside a system
	// reminder (a hook's with words of its own before it).
	"2.1.332": {
		"note-companion": noteSent,
		"note-own":       "user[text:Hand prompt one.] assistant[text:Hand reply one, cut.] user[text:<system-reminder>(note)] assistant[text:Hand reply one, rest.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"note-hook-text": "user[text:Hand prompt one.] assistant[text:Hand reply one, cut.] user[text:<system-reminder>(note)] assistant[text:Hand reply one, rest.] user[text:Hand prompt two.] assistant[text:Hand reply two.]",
		"note-meta":      noteSent,
	},
}

// Signatures of the blank-text, meta-end and batch-end cases.
const (
	linearSent        = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]"
	noContentSent     = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:(no content)] assistant[text:Hand reply two.]"
	emptyReplySent    = "user[text:Hand prompt one.] assistant[text:(no content)] user[text:Hand prompt two.] assistant[text:Hand reply two.]"
	mergedPromptsSent = "user[text:Hand prompt one. | text:Hand prompt two.] assistant[text:Hand reply two.]"
	metaEndSent       = linearSent + " user[text:Hand note: go on.] assistant[text:No response requested.]"
	batchEndSent      = linearSent + " user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000"
)

// pendingHand is what the real readers sent on the hand-written cases
// ccvet resume does not predict yet (resumePending in internal/cli), so
// that the fix has its truth. Empty: 2.1.110's result for a one-entry
// batch, the last, is modelled (Profile.MissingResultFirst).
var pendingHand = map[string]map[string]string{}

// TestHandCasesPending checks that the model still differs from the real
// readers on pendingHand: once one agrees, it belongs in measuredHand (and
// out of resumePending in internal/cli).
func TestHandCasesPending(t *testing.T) {
	for v, cases := range pendingHand {
		ver, _ := ParseVersion(v)
		for id, want := range cases {
			if got := handSent(t, id, ver); got == want {
				t.Errorf("%s %s: the model now predicts what the real reader sent; move it to measuredHand", v, id)
			}
		}
	}
}

// handSent is the signature of what the model sends for hand-written case
// id on reader v ("FAILED" when the resume fails).
func handSent(t *testing.T, id string, v Version) string {
	t.Helper()
	res := RunLoaded(loadHand(t, id), ProfileOf(v))
	if res.Failed != "" {
		return "FAILED"
	}
	b, _ := json.Marshal(res.Messages)
	var msgs []oracle.Message
	if err := json.Unmarshal(b, &msgs); err != nil {
		t.Fatal(err)
	}
	return oracle.HandSignature(msgs)
}

// Signatures several readers sent alike (measured on 2.1.110, 2.1.330 and
// 2.1.332 unless the map says otherwise).
const (
	resultThenTextSent = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.] assistant[tool_use:toolu_hand0000000000000E] user[tool_result:toolu_hand0000000000000E | text:Hand text after the result.] assistant[text:No response requested.]" // result-then-text-end: no continue text on 2.1.110
	apiErrorMidSent    = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two. | text:Hand prompt three.] assistant[text:Hand reply three.]"                                                                                                                                                                     // api-error-mid
	apiErrorEndSent    = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.] user[text:Hand prompt three.]"                                                                                                                                                                   // api-error-end
	syntheticSent      = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:API Error: 500 the hand stand-in failed] user[text:Hand prompt three.] assistant[text:Hand reply three.]"                                                                                                         // synthetic-unmarked
	noteSent           = "user[text:Hand prompt one.] assistant[text:Hand reply one, cut.] user[text:Hand note: go on.] assistant[text:Hand reply one, rest.] user[text:Hand prompt two.] assistant[text:Hand reply two.]"                                                                                                                         // note-companion
	queuedImageSent    = "user[text:Hand prompt one.] assistant[tool_use:toolu_hand0000000000000F] user[tool_result:toolu_hand0000000000000F | text:<system-reminder>(queued) | image] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]"                                                                // queued-image
	// A companion note after an API error entry is sent, merged with the
	// prompts around it (the one beside a task notification is not).
	apiErrorCompanionSent = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:Hand prompt two. | text:Hand note: go on. | text:Hand prompt three.] assistant[text:Hand reply three.]"
	// 2.1.330 and 2.1.332 send a queued prompt with an image that ends the
	// file with the result, then the synthetic reply.
	queuedImageEndSent = "user[text:Hand prompt one.] assistant[tool_use:toolu_hand0000000000000F] user[tool_result:toolu_hand0000000000000F | text:<system-reminder>(queued) | image] assistant[text:No response requested.]"
	// A turnCompanion note is sent, whatever its text and whether or not
	// it skips the queue's attachments (the tools-used reminder 2.1.3xx
	// writes before a background task's notification included).
	companionToolsNotificationSent330 = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:<system-reminder>(tools-used) | text:<system-reminder>(task-notification)] assistant[text:Hand reply two.]"
	companionToolsPromptSent          = "user[text:Hand prompt one.] assistant[text:Hand reply one.] user[text:<system-reminder>(tools-used) | text:Hand prompt two.] assistant[text:Hand reply two.]"
	queuedBlocksSent                  = "user[text:Hand prompt one.] assistant[tool_use:toolu_hand0000000000000F] user[tool_result:toolu_hand0000000000000F] assistant[text:Hand reply one.] user[text:Hand prompt two.] assistant[text:Hand reply two.]" // queued-blocks
)

// bigFileSent is what 2.1.110, 2.1.330 and 2.1.332 sent for
// compaction-big-file: only the batch after the boundary (the same file
// under 5 MiB gets the first batch's calls gathered too).
const bigFileSent = "user[text:Hand prompt two.] assistant[tool_use:toolu_hand0000000000000C | tool_use:toolu_hand0000000000000D] user[tool_result:toolu_hand0000000000000D | tool_result:toolu_hand0000000000000C] assistant[text:Hand reply two.]"

// bigLastLineSent is what they sent for compaction-big-last-line (over
// 5 MiB by its last line alone; measured on 2.1.110, 2.1.330 and 2.1.332):
// the same, the reply's padding cut by the signature. The reader goes by
// the file's size, not where its last line starts.
const bigLastLineSent = "user[text:Hand prompt two.] assistant[tool_use:toolu_hand0000000000000C | tool_use:toolu_hand0000000000000D] user[tool_result:toolu_hand0000000000000D | tool_result:toolu_hand0000000000000C] assistant[text:Hand reply two. pad pad pad pad pad pad pad pad ]"

// loadHand builds the oracle's hand-written case id and loads it.
func loadHand(t *testing.T, id string) *Loaded {
	t.Helper()
	c, ok := oracle.LookupHand(id)
	if !ok {
		t.Fatalf("no hand case %s", id)
	}
	h := &oracle.Hand{SID: oracle.HandSessionID, Cwd: "/hand"}
	c.Build(h)
	// Read as ccvet resume reads a file: the lines a message needs read
	// again from it (TestLoadFromAgrees holds that to Load's copies).
	b := h.Bytes()
	ld, err := LoadFrom(bytes.NewReader(b), bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return ld
}

func TestHandCasesAsMeasured(t *testing.T) {
	for v, cases := range measuredHand {
		ver, _ := ParseVersion(v)
		for id, want := range cases {
			if got := handSent(t, id, ver); got != want {
				t.Errorf("%s %s:\n got %s\nwant %s", v, id, got, want)
			}
		}
	}
}

// Lint runs the model on records alone (no Content, no Model): for the
// cases of API error entries, notes and queued prompts it gives the same
// messages, from the same lines, as the model on the loaded file.
func TestHandCasesRecordsOnly(t *testing.T) {
	for _, id := range []string{"api-error-mid", "api-error-end", "api-error-after-result", "synthetic-unmarked",
		"note-companion", "note-own", "note-hook-text", "queued-image", "queued-blocks"} {
		ld := loadHand(t, id)
		for _, v := range []string{"2.1.110", "2.1.330", "2.1.332"} {
			ver, _ := ParseVersion(v)
			full := RunLoaded(ld, ProfileOf(ver))
			bare := Run(Source{Records: ld.Records}, ProfileOf(ver))
			if len(full.Messages) != len(bare.Messages) {
				t.Fatalf("%s %s: %d messages from the file, %d from records", v, id, len(full.Messages), len(bare.Messages))
			}
			for k := range full.Messages {
				f, b := full.Messages[k], bare.Messages[k]
				if f.Role != b.Role || len(f.Content) != len(b.Content) || !slices.Equal(f.Lines, b.Lines) {
					t.Errorf("%s %s message %d: %s %d blocks lines %v from the file, %s %d blocks lines %v from records",
						v, id, k+1, f.Role, len(f.Content), f.Lines, b.Role, len(b.Content), b.Lines)
				}
			}
		}
	}
}

// TestLoadFromAgrees: on every hand case, for every measured reader, the
// lines read again from the file (LoadFrom) give what their copies (Load)
// give, event for event.
func TestLoadFromAgrees(t *testing.T) {
	for _, c := range oracle.HandCases() {
		h := &oracle.Hand{SID: oracle.HandSessionID, Cwd: "/hand"}
		c.Build(h)
		b := h.Bytes()
		kept, err := Load(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		again, err := LoadFrom(bytes.NewReader(b), bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []string{"2.1.110", "2.1.330", "2.1.332"} {
			ver, _ := ParseVersion(v)
			x, _ := json.Marshal(RunLoaded(kept, ProfileOf(ver)))
			y, _ := json.Marshal(RunLoaded(again, ProfileOf(ver)))
			if !bytes.Equal(x, y) {
				t.Errorf("%s on %s: kept %s\nread again %s", c.ID, v, x, y)
			}
		}
		if again.Err() != nil {
			t.Errorf("%s: %v", c.ID, again.Err())
		}
	}
}

// TestLoadFromChanged: a line that reads back otherwise than it was read
// (the file rewritten after the load) gives no content, and Err names it.
func TestLoadFromChanged(t *testing.T) {
	c, _ := oracle.LookupHand("api-error-mid")
	h := &oracle.Hand{SID: oracle.HandSessionID, Cwd: "/hand"}
	c.Build(h)
	b := h.Bytes()
	changed := bytes.Replace(b, []byte("Hand reply one."), []byte("Hand reply 1.!!"), 1)
	if bytes.Equal(changed, b) {
		t.Fatal("the case has no text to change")
	}
	for name, ra := range map[string]*bytes.Reader{"changed": bytes.NewReader(changed), "cut": bytes.NewReader(b[:len(b)/2])} {
		ld, err := LoadFrom(bytes.NewReader(b), ra)
		if err != nil {
			t.Fatal(err)
		}
		RunLoaded(ld, ProfileOf(Newest))
		if ld.Err() == nil || !strings.Contains(ld.Err().Error(), "could not be read again") {
			t.Errorf("%s: Err() = %v, want a line that could not be read again", name, ld.Err())
		}
	}
}
