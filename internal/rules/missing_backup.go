package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/entry"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/jsonpos"
	"github.com/ccvet/ccvet/internal/model"
)

// MissingBackup reports a file-history snapshot naming a backup that is not
// in its session's file-history folder. The same file-history pass also
// reports backup-name-mismatch, missing-backup-folder and unsafe-backup-name
// (see backupsCheck).
var MissingBackup = register(&Rule{
	ID:       "missing-backup",
	Severity: finding.Error,
	Enabled:  true,
	Summary:  "a file-history snapshot names a backup file that is missing from file-history/<sessionId>/",
	Why: "Each file-history-snapshot entry lists, for every file Claude Code edited, the backup " +
		"(file-history/<sessionId>/<hash>@v<N>) that holds the file as it was at that checkpoint. " +
		"Rewinding (Esc Esc, /rewind) with \"restore code\" reads those backups; when one is missing while " +
		"the session's folder exists, the restore fails or leaves that file as it is, so code and " +
		"conversation no longer agree. A null backupFileName (a file created later) is normal, and so is " +
		"a whole folder removed by cleanup (see missing-backup-folder). Backups of a resumed or forked " +
		"session are hard-linked into the new session's folder; ccvet looks in the folders of every " +
		"session id the transcript carries. A `file-history-delta` line (2.1.220+) adds one backup to the " +
		"snapshot it amends and is checked the same way. From 2.1.208 Claude Code prunes superseded backups " +
		"itself: in a transcript written by 2.1.208 or later only the newest backup of each file must exist. " +
		"Checked only when the data root (the folder holding " +
		"projects/ and file-history/) is among the scanned paths.",
	Bad: `{"type":"file-history-snapshot",…,"snapshot":{"trackedFileBackups":{"src/a.ts":` +
		`{"backupFileName":"3f9a0c1e2b4d5a6f@v2","version":2,…}}}}` + "\nwith file-history/<sessionId>/ lacking 3f9a0c1e2b4d5a6f@v2",
	Good: "the same snapshot with file-history/<sessionId>/3f9a0c1e2b4d5a6f@v2 present",
	Fix: "Restore the backup from a copy of the store if you have one. Otherwise the checkpoint cannot " +
		"restore that file; rewind the conversation only, or edit the file by hand.",
	File: backupsCheck,
})

// backupRules are the rules the file-history pass reports for, in the order
// File hooks run (by id): the first enabled one runs the pass for all.
var backupRules = []string{"backup-name-mismatch", "missing-backup", "missing-backup-folder", "unsafe-backup-name"}

var backupNameRe = regexp.MustCompile(`^([0-9a-f]{16})@v([0-9]+)$`)

// backupsCheck is the File hook of all four file-history rules: it checks
// a transcript's snapshots against the file-history/<sessionId>/ folders
// they name as soon as the transcript is read, so no snapshot is kept past
// its file's checks. Only the first enabled rule runs the pass; it reports
// for all of them (the engine drops findings of rules that are off).
//
// Each transcript is checked on its own, with one exception: a session's
// missing folder is noted once per store, on the first transcript (in path
// order) that meets it, and a session's transcripts may lie in several
// project folders, read in any order. That note waits in a store summary
// (folderNotes, one finding per session) for the Store hook of
// missing-backup-folder.
func backupsCheck(r *Rule, f *model.File) {
	if !f.Kind.IsTranscript() {
		return
	}
	for _, id := range backupRules {
		if id == r.ID {
			break
		}
		if f.Env != nil && f.Env.Enabled != nil && f.Env.Enabled(id) {
			return // that rule's hook runs the pass
		}
	}
	if !slices.ContainsFunc(f.Records, isBackupRecord) {
		return // nothing to check (most transcripts: subagents, sessions that edited no file)
	}
	on := func(id string) bool { return f.Env == nil || f.Env.Enabled == nil || f.Env.Enabled(id) }
	// Looked up by id: the rule variables refer to this function.
	unsafeRule, nameRule := registry["unsafe-backup-name"], registry["backup-name-mismatch"]
	missingRule, folderRule := registry["missing-backup"], registry["missing-backup-folder"]
	checkHash := on(nameRule.ID)
	// Session ids whose folders may hold this file's backups: its own,
	// then every id its entries carry (resumed and forked sessions).
	var sids []string
	seen := map[string]bool{}
	add := func(sid string) {
		if safeName(sid) && !seen[sid] {
			seen[sid] = true
			sids = append(sids, sid)
		}
	}
	add(f.SessionID)
	var cwds []string
	seenCwd := map[string]bool{}
	// From 2.1.208 Claude Code prunes superseded backups itself: a
	// backup older than the file's newest one may be gone. As when this
	// pass ran over the whole store, the version is read from the
	// records kept for it then: snapshots, deltas, and where a session
	// id or a cwd first appears.
	prunes, newest := false, map[string]int{}
	firstSid := map[string]bool{}
	var lastSid, lastCwd string
	// Keys are relative to the directory Claude Code was launched in:
	// the first cwd of each session id comes first, then the others.
	var launch []string
	launched, seenLaunch := true, map[string]bool{}
	for i, rec := range f.Records {
		kept := isBackupRecord(rec)
		// The session id and cwd of the record before were seen: most
		// records repeat them.
		if i == 0 || rec.SessionID != lastSid {
			lastSid = rec.SessionID
			add(rec.SessionID)
			if rec.SessionID != "" && !firstSid[rec.SessionID] {
				firstSid[rec.SessionID], kept = true, true
				launched = false
			}
		}
		if !launched && rec.Cwd != "" {
			launched = true
			if !seenLaunch[rec.Cwd] {
				seenLaunch[rec.Cwd] = true
				launch = append(launch, rec.Cwd)
			}
		}
		if i == 0 || rec.Cwd != lastCwd {
			lastCwd = rec.Cwd
			if rec.Cwd != "" && !seenCwd[rec.Cwd] {
				seenCwd[rec.Cwd], kept = true, true
				cwds = append(cwds, rec.Cwd)
			}
		}
		if kept && rec.Version != "" && !ccversion.Less(rec.Version, "2.1.208") {
			prunes = true
		}
		for _, b := range rec.Backups {
			if b.Version > newest[b.Key] {
				newest[b.Key] = b.Version
			}
		}
	}
	if len(launch) > 0 {
		cwds = slices.DeleteFunc(cwds, func(c string) bool { return seenLaunch[c] })
		cwds = append(launch, cwds...)
	}
	owner := ""
	if len(sids) > 0 {
		owner = sids[0]
	}
	// Only called with a known root and a safe session id.
	var ownerDir *dirList
	ownerFolder := func() *dirList {
		if ownerDir == nil {
			ownerDir = listDir(filepath.Join(f.Root, "file-history", owner))
		}
		return ownerDir
	}
	// The names in the folders of the other session ids, read at the
	// first backup missing from the owner's: one look-up a backup however
	// many ids the transcript carries.
	var elsewhere map[string]bool
	inSomeFolder := func(name string) bool {
		if d := ownerFolder(); d.state == dirPresent && d.names[name] {
			return true
		}
		if elsewhere == nil {
			elsewhere = map[string]bool{}
			for _, sid := range sids[1:] {
				if d := listDir(filepath.Join(f.Root, "file-history", sid)); d.state == dirPresent {
					for n := range d.names {
						elsewhere[n] = true
					}
				}
			}
		}
		return elsewhere[name]
	}
	reported := map[string]bool{}
	noted := false // the file noted its session's missing folder
	// A backup whose hash differs is reported only when another backup of
	// the same file, of the same kind (key relative to the cwd, or
	// absolute), matches: when none does, the launch cwd is not the path
	// Claude Code hashed (a symlinked or rewritten folder).
	type hashMiss struct {
		rec *entry.Record
		ptr string
		msg string
		abs bool
	}
	var hashMisses []hashMiss
	hashMatched := map[bool]bool{} // by isAbsPath(key)
	once := func(kind, name string) bool {
		k := kind + "\x00" + name
		if reported[k] {
			return false
		}
		reported[k] = true
		return true
	}
	// Each snapshot repeats the backups of the one before: a backup seen
	// already (key, name and version) was checked then, and anything it
	// had to report on was reported on its first record.
	type backupSeen struct {
		key, name string
		version   int
	}
	checked := map[backupSeen]bool{}
	budget := hashBudget
	for _, rec := range f.Records {
		// A file-history-delta (2.1.220+) adds one backup to the
		// snapshot it amends: its backup is checked the same way.
		if !isBackupRecord(rec) {
			continue
		}
		for _, b := range rec.Backups {
			if b.Null || b.FileName == "" {
				continue
			}
			k := backupSeen{b.Key, b.FileName, b.Version}
			if checked[k] {
				continue
			}
			checked[k] = true
			ptr := "/backup/backupFileName"
			if rec.Type != "file-history-delta" {
				ptr = "/snapshot/trackedFileBackups/" + jsonpos.Escape(b.Key) + "/backupFileName"
			}
			if !safeName(b.FileName) {
				if once("unsafe", b.FileName) {
					f.ReportRecord(unsafeRule, rec, ptr, finding.Finding{Message: "backupFileName " + quote(b.FileName) +
						" of " + quote(b.Key) + " is not a plain file name: restoring this checkpoint would read " +
						"or write outside file-history/<sessionId>/"})
				}
				continue
			}
			if checkHash && once("name", b.Key+"\x00"+b.FileName) {
				switch msg, verdict := backupNameProblem(b.Key, b.FileName, b.Version, cwds, &budget); verdict {
				case nameMalformed:
					f.ReportRecord(nameRule, rec, ptr, finding.Finding{Message: msg})
				case nameHashDiffers:
					hashMisses = append(hashMisses, hashMiss{rec, ptr, msg, isAbsPath(b.Key)})
				case nameHashMatches:
					hashMatched[isAbsPath(b.Key)] = true
				}
			}
			if owner == "" || f.Root == "" {
				continue // existence is checked only when the data root is known
			}
			if inSomeFolder(b.FileName) || prunes && b.Version < newest[b.Key] {
				continue
			}
			switch ownerFolder().state {
			case dirPresent:
				if once("missing", b.FileName) {
					f.ReportRecord(missingRule, rec, ptr, finding.Finding{Message: "backup " + quote(b.FileName) + " of " +
						quote(b.Key) + " is missing from file-history/" + owner + "/: rewinding to this " +
						"checkpoint cannot restore the file"})
				}
			case dirAbsent:
				if !noted {
					noted = true
					msg := "file-history/" + owner + "/ does not exist, so the file backups this session's snapshots " +
						"name (first " + quote(b.FileName) + " of " + quote(b.Key) + ") are gone: its checkpoints " +
						"can no longer restore code (normal after cleanupPeriodDays, or with checkpointing off)"
					if f.Store == nil { // checked alone (benchmarks)
						f.ReportRecord(folderRule, rec, ptr, finding.Finding{Message: msg})
					} else {
						storeFolderNotes(f.Store).add(owner, f.Store.Order(f), recordFinding(f, rec, ptr, msg))
					}
				}
			}
		}
	}
	for _, m := range hashMisses {
		if hashMatched[m.abs] {
			f.ReportRecord(nameRule, m.rec, m.ptr, finding.Finding{Message: m.msg})
		}
	}
}

// isBackupRecord reports whether rec names backups: a file-history
// snapshot, or a delta (2.1.220+) adding one to the snapshot it amends.
func isBackupRecord(rec *entry.Record) bool {
	return rec.Type == "file-history-snapshot" || rec.Type == "file-history-delta"
}

// folderNotesKey names the store summary of missing session folders.
type folderNotesKey struct{}

// folderNotes holds, for each session whose file-history folder is
// missing, the note of the first transcript (in path order) that met it:
// one finding per session, whichever transcript is read first.
type folderNotes struct {
	mu sync.Mutex
	m  map[string]folderNote
}

type folderNote struct {
	order int // the transcript's place in the store's files
	f     finding.Finding
}

func (n *folderNotes) add(owner string, order int, f finding.Finding) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if old, ok := n.m[owner]; !ok || order < old.order {
		n.m[owner] = folderNote{order, f}
	}
}

func storeFolderNotes(s *model.Store) *folderNotes {
	return s.Shared(folderNotesKey{}, func() any { return &folderNotes{m: map[string]folderNote{}} }).(*folderNotes)
}

// emitFolderNotes is the Store hook of missing-backup-folder: it reports
// the notes the transcripts left.
func emitFolderNotes(r *Rule, s *model.Store) {
	notes := storeFolderNotes(s)
	notes.mu.Lock()
	defer notes.mu.Unlock()
	for _, n := range notes.m {
		s.Emit(r, n.f)
	}
}

// Verdicts of backupNameProblem.
const (
	nameUnchecked   = iota // nothing to compare the hash with
	nameMalformed          // not <16 hex>@v<N>, or the wrong version
	nameHashDiffers        // well formed, but the hash is not the path's
	nameHashMatches        // the hash is the path's
)

// backupNameProblem checks a backup name against the name Claude Code
// gives it: the first 16 hex digits of sha256 of the file's absolute path
// (the key resolved against the launch directory when relative), "@v", and
// the snapshot's version. It says why a name does not fit, and its verdict.
func backupNameProblem(key, name string, version int, cwds []string, budget *int) (string, int) {
	m := backupNameRe.FindStringSubmatch(name)
	if m == nil {
		return "backup name " + quote(name) + " of " + quote(key) + " is not of the form <16 hex digits>@v<N> " +
			"Claude Code writes: the snapshot was edited or written by another tool", nameMalformed
	}
	if n, err := strconv.Atoi(m[2]); err == nil && version > 0 && n != version {
		return "backup name " + quote(name) + " of " + quote(key) + " says version " + m[2] + " but the entry's " +
			"version is " + strconv.Itoa(version) + ": the snapshot was edited or mixes two checkpoints", nameMalformed
	}
	// The path Claude Code hashed: the key, or the key resolved against
	// a launch directory. A transcript of thousands of directories and as
	// many keys has its first million paths hashed: a key tried after
	// that is left unchecked, not reported.
	first := ""
	try := func(a string) (matched, spent bool) {
		if first == "" {
			first = a
		}
		if *budget <= 0 {
			return false, true
		}
		*budget--
		return backupHash(a) == m[1], false
	}
	if isAbsPath(key) {
		if ok, spent := try(key); ok || spent {
			return "", verdictOf(ok)
		}
	} else {
		for _, cwd := range cwds {
			if a := joinPath(cwd, key); a != "" {
				if ok, spent := try(a); ok || spent {
					return "", verdictOf(ok)
				}
			}
		}
	}
	if first == "" {
		return "", nameUnchecked // a relative key and no cwd: nothing to compare with
	}
	return "backup name " + quote(name) + " does not start with the first 16 hex digits of sha256(" + quote(first) +
		") = " + backupHash(first) + ", as Claude Code names backups, although other backups of this session " +
		"do: the snapshot was edited or the backup belongs to another file", nameHashDiffers
}

// verdictOf is the verdict of a hash that matched, or of a budget spent.
func verdictOf(matched bool) int {
	if matched {
		return nameHashMatches
	}
	return nameUnchecked
}

// hashBudget bounds the paths backupNameProblem hashes for one
// transcript (about a third of a second), so that thousands of relative
// keys are not each resolved against thousands of directories.
const hashBudget = 1 << 20

// backupHash is the 16-hex-digit prefix of a backup name for absolute path p.
func backupHash(p string) string {
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:8])
}

// isAbsPath reports whether p is absolute for POSIX or Windows.
func isAbsPath(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) || isWinDrive(p)
}

func isWinDrive(p string) bool {
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// joinPath resolves a relative key against cwd the way Node's path.join does
// on the platform cwd comes from; "" if cwd is not absolute.
func joinPath(cwd, key string) string {
	switch {
	case strings.HasPrefix(cwd, "/"):
		return path.Join(cwd, key)
	case isWinDrive(cwd) || strings.HasPrefix(cwd, `\\`):
		return strings.TrimRight(cwd, `\/`) + `\` + strings.ReplaceAll(key, "/", `\`)
	}
	return ""
}
