package rules

import "github.com/ccvet/ccvet/internal/finding"

// MissingBackupFolder notes a session whose snapshots name backups while its
// whole file-history folder is absent.
var MissingBackupFolder = register(&Rule{
	ID:       "missing-backup-folder",
	Severity: finding.Note,
	Enabled:  true,
	Summary:  "a session's snapshots name file backups, but file-history/<sessionId>/ does not exist",
	Why: "Without its file-history folder a session's checkpoints can rewind the conversation but no " +
		"longer restore code. This is normal: cleanup removes whole file-history folders after " +
		"cleanupPeriodDays (30 by default), checkpointing can be switched off, and copies of a store often " +
		"leave file-history/ out. Reported once per session, at its first backup.",
	Bad:  "projects/-home-me-app/<sid>.jsonl with a snapshot naming \"3f9a0c1e2b4d5a6f@v1\", and no file-history/<sid>/",
	Good: "the same store with file-history/<sid>/3f9a0c1e2b4d5a6f@v1",
	Fix: "Nothing to repair. Keep file-history/ with projects/ when copying a store if you want " +
		"checkpoints to restore code.",
	File:  backupsCheck,
	Store: emitFolderNotes,
})
