package report

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/finding"
)

// SARIF constants. The rules' help pages are the sections of docs/rules.md.
const (
	sarifSchema      = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion     = "2.1.0"
	sarifInfoURI     = "https://github.com/ccvet/ccvet"
	sarifRulesDocURI = "https://github.com/ccvet/ccvet/blob/main/docs/rules.md#"
	sarifSrcRoot     = "%SRCROOT%"
	// sarifFingerprint names ccvet's partial fingerprint; bump the version
	// whenever what it hashes changes, so viewers do not mix the two.
	sarifFingerprint = "ccvetFingerprint/v1"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                        `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLocation `json:"originalUriBaseIds"`
	Results            []sarifResult                    `json:"results"`
	ColumnKind         string                           `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	Version         string      `json:"version,omitempty"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	Name                 string             `json:"name,omitempty"`
	ShortDescription     sarifText          `json:"shortDescription"`
	FullDescription      sarifText          `json:"fullDescription"`
	Help                 sarifHelp          `json:"help"`
	HelpURI              string             `json:"helpUri"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
	Properties           sarifRuleProps     `json:"properties"`
}

type sarifConfiguration struct {
	Enabled *bool  `json:"enabled,omitempty"` // written only when false (SARIF's default is true)
	Level   string `json:"level"`
}

type sarifRuleProps struct {
	Tags []string `json:"tags"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
}

// sarifFix is a finding's repair as byte regions (ccvet fix).
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Replacements     []sarifReplacement    `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion       `json:"deletedRegion"`
	InsertedContent *sarifArtifactContent `json:"insertedContent,omitempty"`
}

type sarifByteRegion struct {
	ByteOffset int64 `json:"byteOffset"`
	ByteLength int64 `json:"byteLength"`
}

// sarifArtifactContent carries inserted bytes: as text when they are valid
// UTF-8, else base64.
type sarifArtifactContent struct {
	Text   *string `json:"text,omitempty"`
	Binary string  `json:"binary,omitempty"`
}

type sarifLocation struct {
	ID               *int                  `json:"id,omitempty"`
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifText            `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region"`
}

type sarifArtifactLocation struct {
	URI         string     `json:"uri,omitempty"`
	URIBaseID   string     `json:"uriBaseId,omitempty"`
	Description *sarifText `json:"description,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIF writes the run as a SARIF 2.1.0 log with one run: the whole rule
// catalogue in tool.driver.rules, and one result per finding. Artifact URIs
// are relative to %SRCROOT% (the current folder: the CLI starts each path
// with the argument that found it) and percent-encoded; an absolute path
// becomes a file:// URI. The output has no timestamp, so the same findings
// always give the same bytes.
func SARIF(w io.Writer, r *Run) error {
	version := toolVersion(r.Version)
	driver := sarifDriver{Name: "ccvet", Version: version, SemanticVersion: semanticVersion(version),
		InformationURI: sarifInfoURI, Rules: []sarifRule{}}
	ruleIndex := map[string]int{}
	for _, ri := range r.Rules {
		ruleIndex[ri.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRuleOf(ri))
	}

	run := sarifRun{
		Tool: sarifTool{Driver: driver},
		OriginalURIBaseIDs: map[string]sarifArtifactLocation{sarifSrcRoot: {Description: &sarifText{
			Text: "The folder ccvet ran in: every path starts with the argument that found it."}}},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints",
	}
	// The descriptors first (a finding's rule the catalogue lacks gets a
	// minimal one, so ruleIndex always points at a descriptor with the same
	// id), then each result written as it is made.
	for i := range r.Findings {
		f := &r.Findings[i]
		if _, ok := ruleIndex[f.Rule]; !ok {
			ruleIndex[f.Rule] = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules,
				sarifRuleOf(RuleInfo{ID: f.Rule, Severity: f.Severity, Enabled: true, Summary: f.Rule}))
		}
	}
	seen := map[string]int{} // fingerprint → occurrences so far
	log := sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
	return encodeSpliced(w, log, "results", "      ", len(r.Findings), func(i int) any {
		f := &r.Findings[i]
		res := sarifResult{
			RuleID:    f.Rule,
			RuleIndex: ruleIndex[f.Rule],
			Level:     sarifLevel(f.Severity),
			Message:   sarifMessage(f.Message),
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical(f.Path, f.Line, f.Column)}},
		}
		for j, rel := range f.Related {
			id := j + 1
			p := rel.Path
			if p == "" {
				p = f.Path
			}
			loc := sarifLocation{ID: &id, PhysicalLocation: sarifPhysical(p, rel.Line, rel.Column)}
			if rel.Message != "" {
				m := sarifMessage(rel.Message)
				loc.Message = &m
			}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		if f.Fix != nil && len(f.Fix.Edits) > 0 {
			res.Fixes = []sarifFix{sarifFixOf(f)}
		}
		fp := finding.Fingerprint(f)
		seen[fp]++
		res.PartialFingerprints = map[string]string{sarifFingerprint: fp + ":" + strconv.Itoa(seen[fp])}
		return res
	})
}

// sarifMessage is a message object (SARIF 2.1.0 §3.11) with text s. In a
// message string "{" and "}" are placeholder syntax (§3.11.5: "{0}" is
// replaced by the message's first argument), so a literal brace is
// written doubled: a message quoting {"parentUuid": or a tool input reads
// the same in a viewer that substitutes arguments. Rule descriptions are
// multiformatMessageStrings (§3.12), which take no arguments: left as is.
func sarifMessage(s string) sarifText {
	if strings.ContainsAny(s, "{}") {
		s = strings.NewReplacer("{", "{{", "}", "}}").Replace(s)
	}
	return sarifText{Text: s}
}

// escapeInvisible rewrites, as \uXXXX escapes, the characters that
// encoding/json leaves raw but that can hide or reorder text in an editor or
// a terminal: DEL, C1 controls and bidirectional controls (and U+FFFD, which
// stands for invalid UTF-8). Outside strings a JSON document is ASCII, so
// every such character is inside a string, where the escape means the same.
// The '[' of a "##[" is written \u005b too (workflow.go).
func escapeInvisible(b []byte) []byte {
	b = defuseJSON(b)
	if !bytes.ContainsFunc(b, hidden) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if hidden(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+n]...)
		}
		i += n
	}
	return out
}

// hidden reports whether r is escaped by escapeInvisible. C0 controls are
// left alone: encoding/json escapes those inside strings, and the newlines
// of the indentation are C0 too.
func hidden(r rune) bool { return r >= 0x7f && NeedsEscape(r) }

func sarifRuleOf(ri RuleInfo) sarifRule {
	cfg := sarifConfiguration{Level: sarifLevel(ri.Severity)}
	if !ri.Enabled {
		off := false
		cfg.Enabled = &off
	}
	why := ri.Why
	if why == "" {
		why = sentence(ri.Summary)
	}
	// A one-word id would give a name equal to it but for case, which the
	// validator flags (SARIF1001): such rules go without a name.
	name := pascalCase(ri.ID)
	if strings.EqualFold(name, ri.ID) {
		name = ""
	}
	return sarifRule{
		ID:                   ri.ID,
		Name:                 name,
		ShortDescription:     sarifText{Text: sentence(ri.Summary)},
		FullDescription:      sarifText{Text: why},
		Help:                 sarifHelp{Text: helpText(ri), Markdown: helpMarkdown(ri)},
		HelpURI:              sarifRulesDocURI + ri.ID,
		DefaultConfiguration: cfg,
		Properties:           sarifRuleProps{Tags: []string{"ccvet"}},
	}
}

func sarifLevel(s finding.Severity) string {
	if s == finding.Off {
		return "none"
	}
	return s.String()
}

// sarifPhysical locates a line and column in p. A finding about the whole
// file (line 0) is put on line 1: GitHub code scanning needs a startLine, and
// the validator warns about a result without a region (SARIF2017).
func sarifPhysical(p string, line, col int) sarifPhysicalLocation {
	region := &sarifRegion{StartLine: 1}
	if line > 0 {
		region = &sarifRegion{StartLine: line, StartColumn: col}
	}
	return sarifPhysicalLocation{ArtifactLocation: artifactLocation(p), Region: region}
}

// artifactLocation is p as a SARIF artifact location: relative to %SRCROOT%,
// or a file:// URI without base when p is absolute.
func artifactLocation(p string) sarifArtifactLocation {
	u := pathURI(p)
	if strings.HasPrefix(u, "file:") {
		return sarifArtifactLocation{URI: u}
	}
	return sarifArtifactLocation{URI: u, URIBaseID: sarifSrcRoot}
}

// drivePaths is whether paths are Windows paths: "C:/x" and the UNC path
// "//server/share/x" absolute. Elsewhere "C:/x" is a relative path whose
// first folder is named "C:", and "//x" is the absolute path /x.
var drivePaths = runtime.GOOS == "windows"

// pathURI turns a slash-separated path into a URI reference (RFC 3986):
// a relative reference for a relative path, a file:// URI for an absolute one
// ("/x", and on Windows "C:/x" and "//server/share/x"). Every byte that is
// not unreserved, "/" or a harmless sub-delimiter is percent-encoded (UTF-8
// for non-ASCII), so spaces, "%", "#", "?", ":" and control characters never
// reach a viewer raw.
func pathURI(p string) string {
	switch {
	case drivePaths && strings.HasPrefix(p, "//"): // UNC: //server/share/…
		return "file:" + escapePath(p)
	case strings.HasPrefix(p, "/"):
		// Linux and macOS read leading slashes as one.
		return "file://" + escapePath("/"+strings.TrimLeft(p, "/"))
	case drivePaths && isDrivePath(p):
		return "file:///" + p[:2] + escapePath(p[2:])
	}
	return escapePath(p)
}

func isDrivePath(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/' &&
		('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

func escapePath(p string) string {
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if keepInURI(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hexDigits[c>>4])
		b.WriteByte(hexDigits[c&15])
	}
	return b.String()
}

// keepInURI reports whether c may stay as it is in a path segment. ":" is
// escaped so the first segment of a relative reference never reads as a scheme.
func keepInURI(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~/!$&'()*+,;=@", c) >= 0
}

// semverRE is semver 2.0.0 (semver.org), without a leading "v".
var semverRE = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)` +
	`(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?` +
	`(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)

// toolVersion is ccvet's version as SARIF wants it, starting with a number
// (the validator warns otherwise, SARIF2005): "v1.2.3 (abc)" → "1.2.3 (abc)",
// and a build without a module version, "(devel) (abc)", → "0.0.0-devel (abc)"
// ("(built without version information)" → "0.0.0-devel").
func toolVersion(v string) string {
	switch {
	case v == "":
		return "0.0.0-devel"
	case strings.HasPrefix(v, "(devel)"):
		return "0.0.0-devel" + strings.TrimPrefix(v, "(devel)")
	case strings.HasPrefix(v, "(built without"): // a build without version information
		return "0.0.0-devel"
	case len(v) > 1 && v[0] == 'v' && '0' <= v[1] && v[1] <= '9':
		return v[1:]
	}
	return v
}

// semanticVersion is the semver at the start of a tool version
// ("1.2.3 (abc123-dirty)" → "1.2.3"), or "" when it does not start with one.
func semanticVersion(v string) string {
	v, _, _ = strings.Cut(v, " ")
	if semverRE.MatchString(v) {
		return v
	}
	return ""
}

// pascalCase turns a kebab-case rule id into a SARIF rule name: "invalid-json" → "InvalidJson".
func pascalCase(id string) string {
	var b strings.Builder
	for _, w := range strings.FieldsFunc(id, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		r, n := utf8.DecodeRuneInString(w)
		b.WriteRune(unicode.ToUpper(r))
		b.WriteString(w[n:])
	}
	return b.String()
}

// sentence capitalizes s and ends it with a period, as SARIF asks of its
// descriptions: "a line is not a single JSON value" → "A line is not a single JSON value.".
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") {
		s += "."
	}
	return s
}

func helpText(ri RuleInfo) string {
	var b strings.Builder
	b.WriteString(sentence(ri.Summary))
	if ri.Why != "" {
		b.WriteString("\n\n" + ri.Why)
	}
	if ri.Fix != "" {
		b.WriteString("\n\nFix: " + ri.Fix)
	}
	if ri.Bad != "" {
		b.WriteString("\n\nBad:\n" + strings.TrimRight(ri.Bad, "\n"))
	}
	if ri.Good != "" {
		b.WriteString("\n\nGood:\n" + strings.TrimRight(ri.Good, "\n"))
	}
	return b.String()
}

func helpMarkdown(ri RuleInfo) string {
	var b strings.Builder
	b.WriteString(mdText(sentence(ri.Summary)))
	if ri.Why != "" {
		b.WriteString("\n\n**Why it matters.** " + mdText(ri.Why))
	}
	if ri.Fix != "" {
		b.WriteString("\n\n**Fix.** " + mdText(ri.Fix))
	}
	if ri.Bad != "" {
		b.WriteString("\n\nBad:\n\n" + mdCode(ri.Bad))
	}
	if ri.Good != "" {
		b.WriteString("\n\nGood:\n\n" + mdCode(ri.Good))
	}
	return b.String()
}

// mdText keeps prose from being read as HTML ("<session-uuid>" would vanish)
// but leaves code spans alone, where an entity would show as typed.
func mdText(s string) string {
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	var b strings.Builder
	for s != "" {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			b.WriteString(esc.Replace(s))
			break
		}
		b.WriteString(esc.Replace(s[:i]))
		s = s[i:]
		n := len(s) - len(strings.TrimLeft(s, "`"))
		end := strings.Index(s[n:], s[:n])
		if end < 0 { // no closing run: the backticks are text
			b.WriteString(s[:n])
			s = s[n:]
			continue
		}
		b.WriteString(s[:n+end+n])
		s = s[n+end+n:]
	}
	return b.String()
}

// mdCode fences s with more backticks than it holds in a row.
func mdCode(s string) string {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "\n" + strings.TrimRight(s, "\n") + "\n" + fence
}

// sarifFixOf turns a finding's fix into one SARIF fix of byte replacements.
func sarifFixOf(f *finding.Finding) sarifFix {
	ch := sarifArtifactChange{ArtifactLocation: artifactLocation(f.Path)}
	for _, e := range f.Fix.Edits {
		r := sarifReplacement{DeletedRegion: sarifByteRegion{ByteOffset: e.Offset, ByteLength: e.Length}}
		if e.Text != "" {
			if utf8.ValidString(e.Text) {
				t := e.Text
				r.InsertedContent = &sarifArtifactContent{Text: &t}
			} else {
				r.InsertedContent = &sarifArtifactContent{Binary: base64.StdEncoding.EncodeToString([]byte(e.Text))}
			}
		}
		ch.Replacements = append(ch.Replacements, r)
	}
	return sarifFix{Description: sarifMessage("[" + f.Fix.Safety + "] " + f.Fix.Message), ArtifactChanges: []sarifArtifactChange{ch}}
}
