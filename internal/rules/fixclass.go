package rules

// FixClass says what `ccvet fix` may do about a rule's findings.
type FixClass string

// Fix classes, from most to least automatic.
const (
	FixSafe   FixClass = "safe"   // applied by `ccvet fix --write`
	FixUnsafe FixClass = "unsafe" // applied only with --unsafe
	FixManual FixClass = "manual" // ccvet prints the steps, never writes
	FixNone   FixClass = "none"   // data, not damage: nothing to repair
)

// FixInfo is a rule's fix class and what `ccvet fix` does, or what to do by hand.
type FixInfo struct {
	Class FixClass
	How   string // the edit (safe, unsafe) or the manual steps
}

// fixInfo is the one table of fix classes; fixclass_test.go proves every rule has a row.
var fixInfo = map[string]FixInfo{
	"truncated-line": {FixSafe, "deletes the torn last line (kept in the backup and the edit record); " +
		"a torn line in the middle of the file is never touched"},
	"missing-final-newline": {FixSafe, "appends `\\n`"},
	"invalid-json": {FixSafe, "two records fused on one line: inserts `\\n` at the one boundary where both halves " +
		"parse as entries; any other broken line is left alone (restore it from a backup)"},
	"nul-bytes":  {FixSafe, "deletes a NUL run that starts a line and is followed by `{`, a newline or the end of the file"},
	"blank-line": {FixSafe, "deletes the whitespace-only line"},
	"byte-order-mark": {FixNone, "nothing to repair for Claude Code, which reads the line; for a tool that rejects it, " +
		"remove the first three bytes (EF BB BF) by hand"},
	"duplicate-uuid": {FixSafe, "byte-identical repeat: deletes the earlier copy (the reader keeps the last; line 1 is " +
		"never deleted). Different entries sharing a uuid (unsafe): the earlier gets a fresh uuid and the entries written " +
		"between the two that name it are re-pointed to it"},
	"tool-result-off-chain": {FixSafe, "re-points the result entry's `parentUuid` (and `sourceToolAssistantUUID`) to " +
		"the line holding the call, when that line is on the resumed conversation"},
	"tool-source-mismatch": {FixSafe, "re-points `sourceToolAssistantUUID` to the call line when `parentUuid` already names it"},
	"orphan-parent": {FixSafe, "re-links `parentUuid` to the nearest earlier entry of the same chain (same " +
		"isSidechain/agentId, not progress, not across a compaction boundary) when the timestamp gap is at most 5 s, " +
		"what Claude Code 2.1.94+ bridges in memory; a larger gap is an unsafe fix; no candidate, no fix"},
	"parent-cycle":          {FixUnsafe, "breaks the loop at its forward edge (the entry whose parent is written after it), re-linking that entry to the nearest earlier entry of its chain; or `/rewind` to before the loop"},
	"unmatched-tool-use":    {FixUnsafe, "when turns follow the call: inserts, right after the call's message.id group, one user entry holding the reader's own `[Tool result missing due to internal error]` result (is_error) and re-points the follower to it; a call at the end of the file is left for the reader to close"},
	"unmatched-tool-result": {FixUnsafe, "when the call exists nowhere: replaces the tool_result block by the reader's own `[Orphaned tool result removed due to conversation resume]` text block, keeping the line; a result before its call: `/rewind` to before it"},
	"duplicate-tool-use-id": {FixManual, "`/rewind` to before the second call; tool ids are never edited"},
	"lone-surrogate":        {FixUnsafe, "replaces the lone `\\uD8xx` escape by the same-length `\\ufffd` (never in assistant content)"},
	"secret": {FixManual, "revoke the key, then `ccvet redact --write PATH` replaces every copy under the data root by " +
		"`[REDACTED:<rule>:<fingerprint>]` (backed up; `ccvet redact --undo` restores)"},
	"escaped-nul":           {FixUnsafe, "replaces `\\u0000` by the same-length `\\ufffd` (never in assistant content)"},
	"invalid-utf8":          {FixUnsafe, "replaces each invalid byte run by U+FFFD (never in assistant content)"},
	"reordered-keys":        {FixUnsafe, "moves the `\"parentUuid\":…` member, bytes unchanged, to the front of the line (only the >5 MB resume pre-filter of 2.1.77+ cares)"},
	"orphan-logical-parent": {FixManual, "restore the transcript holding the compaction's logical parent from a backup, if the history before the boundary matters"},
	"sidechain-mismatch":    {FixManual, "`mv` the subagent transcript under the session it belongs to (`<session>/subagents/`), or fix its `isSidechain` by hand"},
	"sidechain-leaf":        {FixManual, "set `isSidechain` to false on the newest entry (it continues the main conversation)"},
	"session-mismatch":      {FixManual, "`mv` the file to `<sessionId>.jsonl` named by its entries, or into the project it belongs to"},
	"project-dir-mismatch":  {FixManual, "`mv` the transcript into the project folder that encodes its `cwd`"},
	"path-encoding-collision": {FixManual, "two working folders encode to one project folder: `mv` one project's " +
		"transcripts to a folder of their own and resume from there"},
	"orphan-subagent":             {FixManual, "`mv` the subagent transcript next to its session, or delete it by hand if the session is gone"},
	"invalid-filename":            {FixManual, "`mv` the file to a name Claude Code lists (`<uuid>.jsonl`)"},
	"missing-backup":              {FixNone, "a missing file-history backup cannot be recreated; never null `backupFileName` (a rewind would delete the file)"},
	"missing-backup-folder":       {FixNone, "a missing file-history folder cannot be recreated"},
	"backup-name-mismatch":        {FixNone, "file-history is never edited"},
	"unsafe-backup-name":          {FixNone, "file-history is never edited"},
	"unreadable":                  {FixManual, "fix the file's permissions or restore it from a backup"},
	"oversized":                   {FixNone, "size is data, not damage; start a new session or `/compact`"},
	"dangling-leaf":               {FixNone, "data, not damage"},
	"history-orphan":              {FixNone, "data, not damage"},
	"timestamp-order":             {FixNone, "data, not damage: the reader picks the leaf by timestamp as written"},
	"unknown-field":               {FixNone, "data, not damage: a format ccvet does not know yet"},
	"unknown-type":                {FixNone, "data, not damage: a format ccvet does not know yet"},
	"schema":                      {FixNone, "data, not damage: values are never guessed"},
	"unfollowed-link":             {FixManual, "name the link's target on the command line, or replace the link by the file (ccvet never writes through a link)"},
	"ledger-dangling-base":        {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"ledger-dangling-request-ref": {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"ledger-dangling-tail":        {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"ledger-hash-mismatch":        {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"ledger-keep-overflow":        {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"ledger-missing-shape":        {FixNone, "the request ledger is a record of what was sent, not what a resume reads; ccvet never edits it"},
	"unused-ignore":               {FixManual, "delete the ignore entry from the configuration"},
}

// FixOf returns rule id's fix class; a rule with no row has FixNone.
func FixOf(id string) FixInfo {
	if fi, ok := fixInfo[id]; ok {
		return fi
	}
	return FixInfo{Class: FixNone, How: "no automatic or manual repair is defined"}
}

// HasFixInfo reports whether rule id has a row in the fix table.
func HasFixInfo(id string) bool { _, ok := fixInfo[id]; return ok }
