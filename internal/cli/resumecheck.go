package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ccvet/ccvet/internal/inventory"
	"github.com/ccvet/ccvet/internal/layout"
	"github.com/ccvet/ccvet/internal/report"
	"github.com/ccvet/ccvet/internal/resume"
)

// JSONSchemaVersion is the schema_version of the JSON of lint, resume and
// sessions (docs/schema/*.json). It grows only when a key changes meaning
// or goes away; keys may be added without it.
const JSONSchemaVersion = report.SchemaVersion

// ExitCannotResume is `ccvet resume --check`'s status when `claude
// --resume` cannot resume the session at all (docs/resume.md).
const ExitCannotResume = 5

// What `resume --check` says (check.status).
const (
	statusResumes  = "resumes"
	statusLoss     = "resumes-with-loss"
	statusCannot   = "cannot-resume"
	exitLossStatus = ExitFindings
)

// Why a session cannot be resumed (check.reason).
const (
	reasonNoTranscript   = "no-transcript"
	reasonStalePid       = "stale-pid-file"
	reasonNoConversation = "no-conversation"
	reasonSidechainLeaf  = "sidechain-leaf"
	reasonCrash          = "crash"
	reasonSubagent       = "subagent-transcript"
)

// checkVerdict is the "check" object of `resume --check --format json`.
type checkVerdict struct {
	Status  string         `json:"status"`
	Exit    int            `json:"exit_code"`
	Reason  string         `json:"reason"`
	Message string         `json:"message"`
	Lost    []resume.Event `json:"lost"`
	// Traces: what survives of a session whose transcript is gone (as
	// `ccvet sessions` reports it under "lost"), when --root was given.
	Traces *inventory.Lost `json:"traces,omitempty"`
}

// resumeTarget resolves resume's argument: a transcript path, or a session
// id looked up under root/projects/*/. A session with no transcript is a
// verdict (for --check), not an error.
func resumeTarget(arg, root string, stdin io.Reader) (string, *checkVerdict, error) {
	st, err := os.Stat(arg)
	if err == nil && st.IsDir() {
		return "", nil, usagef("%s is a folder; resume takes one transcript (.jsonl) or a session id with --root", arg)
	}
	if err == nil || (root == "" && !layout.IsUUID(arg)) {
		return arg, nil, nil // a file; or a path that does not exist (reported on opening it)
	}
	if strings.ContainsAny(arg, `/\`) || !layout.IsUUID(arg) {
		return "", nil, usagef("%s: want a transcript path, or a session id (a UUID) with --root ROOT", arg)
	}
	if root == "" {
		r, err := defaultRootFor(stdin, "--root")
		if err != nil {
			return "", nil, err
		}
		root = r
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return "", nil, usagef("--root %s: not a folder", root)
	}
	if m, err := lookupTranscript(root, arg); m != "" || err != nil {
		return m, nil, err
	}
	v := &checkVerdict{Reason: reasonNoTranscript,
		Message: "no transcript of session " + arg + " under " + filepath.Join(root, "projects") + ": `claude --resume " + arg + "` answers \"No conversation found\""}
	l, _ := inventory.Find(root, arg, inventory.Options{})
	if l != nil {
		v.Traces = l
		if l.Cause == inventory.CausePidFile {
			v.Reason = reasonStalePid
			v.Message += "; a sessions/<pid>.json of a process no longer running names it (a stale pointer: the transcript was never written or was removed)"
		}
		v.Message += fmt.Sprintf("; what survives: %d prompt(s) in history.jsonl, %d file version(s), %d subagent transcript(s), %d tool result(s) (ccvet sessions --recover %s --out DIR %s)",
			l.Prompts, l.FileVersion, l.Subagents, l.ToolResults, arg, root)
	}
	return "", v, nil
}

// verdictOf judges a resume: cannot resume (Failed, or a subagent's
// transcript), resumes with loss (something the file holds is left out),
// or resumes without loss.
func verdictOf(res *resume.Result, agent string) *checkVerdict {
	if agent != "" {
		return &checkVerdict{Reason: reasonSubagent,
			Message: "a subagent's transcript (agent " + agent + "): `claude --resume` takes the session id of a main transcript, not this file"}
	}
	if res.Failed != "" {
		reason := reasonNoConversation
		switch {
		case strings.HasPrefix(res.Failed, "the resume crashes"):
			reason = reasonCrash
		case strings.Contains(res.Failed, "isSidechain: true"):
			reason = reasonSidechainLeaf
		}
		return &checkVerdict{Reason: reason, Message: res.Failed}
	}
	v := &checkVerdict{Lost: []resume.Event{}}
	for _, e := range res.LeftOut {
		if !isLoss(e) {
			continue
		}
		v.Lost = append(v.Lost, e)
	}
	if len(v.Lost) > 0 {
		v.Message = fmt.Sprintf("Claude Code %s resumes it but leaves out %d thing(s) the file holds", res.Reader, len(v.Lost))
	} else {
		v.Message = fmt.Sprintf("Claude Code %s resumes it and sends everything the file holds", res.Reader)
	}
	return v
}

// isLoss reports whether a left-out event loses something the user would
// want back. Not a loss: a reminder the reader never sends again (not-sent),
// and entries on branches the conversation moved away from (a rewind, an
// edit, a retry: other-branch with a count), and what a big file holds before
// its last compaction boundary (the summary after it stands for it). A sidechain entry written after
// the leaf (other-branch naming one entry) is a loss.
func isLoss(e resume.Event) bool {
	switch e.Kind {
	case resume.KindNotSent, resume.KindBeforeCompaction:
		return false
	case resume.KindOtherBranch:
		return e.Count == 0
	}
	return true
}

// finishCheck prints the verdict of --check and returns its exit status.
func finishCheck(stdout, stderr io.Writer, format, name string, res *resume.Result, v *checkVerdict) error {
	switch {
	case v.Reason != "":
		v.Status, v.Exit = statusCannot, ExitCannotResume
	case len(v.Lost) > 0:
		v.Status, v.Exit = statusLoss, exitLossStatus
	default:
		v.Status, v.Exit = statusResumes, ExitOK
	}
	if v.Lost == nil {
		v.Lost = []resume.Event{}
	}
	if format == "json" {
		if err := resumeJSON(stdout, res, v); err != nil {
			return err
		}
	} else {
		// A key in a path, a reason or a message is masked, as in the JSON.
		s := func(x string) string { return report.Sanitize(report.MaskText(x)) }
		switch v.Status {
		case statusResumes:
			fmt.Fprintf(stdout, "%s: resumes without loss (%s)\n", s(report.MaskPath(name)), s(v.Message))
		case statusLoss:
			fmt.Fprintf(stdout, "%s: resumes with loss (%s)\n", s(report.MaskPath(name)), s(v.Message))
			for _, e := range v.Lost {
				where := ""
				if e.Line > 0 {
					where = "line " + strconv.Itoa(e.Line) + ": "
				}
				fmt.Fprintf(stderr, "  - %s%s\n", where, s(e.Reason))
			}
		default:
			fmt.Fprintf(stdout, "%s: cannot resume (%s)\n", s(report.MaskPath(name)), v.Reason)
			fmt.Fprintf(stderr, "  %s\n", s(v.Message))
		}
	}
	return exitStatus(v.Exit)
}
