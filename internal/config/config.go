// Package config reads .ccvet.yaml: which rules run and how severe they are,
// which paths are not checked, which findings are ignored and why, --strict
// and --fail-on. Every error names the file, line and column.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ccvet/ccvet/internal/ccversion"
	"github.com/ccvet/ccvet/internal/finding"
	"github.com/ccvet/ccvet/internal/readonly"
	"github.com/ccvet/ccvet/internal/rules"
	"github.com/ccvet/ccvet/internal/suggest"
)

// FileName is the name ccvet looks for.
const FileName = ".ccvet.yaml"

// MaxBytes bounds the size of a configuration file.
const MaxBytes = 1 << 20

// Config is one parsed configuration file.
type Config struct {
	Path   string            // the file, as it is named in messages and findings (slash-separated)
	Strict *bool             // nil: not set
	FailOn *finding.Severity // nil: not set; never Off
	// ReaderVersion judges every file for the reader of this Claude Code
	// version ("" when not set): a version ccversion.Parse reads.
	ReaderVersion string
	Rules         []RuleSetting // in file order
	Exclude       []*Glob       // paths not checked
	Ignores       []*Ignore     // findings not reported
}

// RuleSetting is one entry of `rules:`.
type RuleSetting struct {
	ID       string
	On       bool
	Severity finding.Severity // Off: the rule's default severity
	Line     int
}

// Ignore silences the findings of some rules on the paths a glob matches.
// Its reason is required, so that every ignore says why it exists.
type Ignore struct {
	Path   *Glob
	Rules  []string
	Reason string
	Line   int // where the ignore starts in the file
	Column int
}

// Error is a problem in a configuration file, at a line and column (0 when
// the problem is about the whole file).
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// Load reads and parses the file at osPath; display is how messages name it.
func Load(osPath, display string) (*Config, error) {
	f, err := os.Open(osPath)
	if err != nil {
		return nil, &Error{File: display, Msg: "cannot read: " + readonly.Pathless(err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, &Error{File: display, Msg: "cannot read: " + readonly.Pathless(err)}
	}
	if len(data) > MaxBytes {
		return nil, &Error{File: display, Msg: fmt.Sprintf("larger than %d KiB; is this a configuration file?", MaxBytes>>10)}
	}
	return Parse(display, data)
}

// topKeys are the keys a configuration file may hold, in documentation order.
var topKeys = []string{"strict", "fail-on", "reader-version", "rules", "exclude", "ignore"}

// Parse reads a configuration from data; display names the file in errors.
func Parse(display string, data []byte) (*Config, error) {
	c := &Config{Path: display}
	p := parser{file: display}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return c, nil // an empty file: all defaults
		}
		return nil, p.yamlError(err, data)
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, p.yamlError(err, data)
		}
		return nil, p.errf(&second, "a second YAML document; a configuration file holds one")
	}
	root := deref(&doc)
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return c, nil
		}
		root = deref(root.Content[0])
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil // only comments
	}
	err := p.mapping(root, "the configuration", topKeys, func(key string, k, v *yaml.Node) error {
		if isNull(v) && (key == "rules" || key == "exclude" || key == "ignore") {
			return nil // a key whose entries are all commented out
		}
		switch key {
		case "strict":
			b, err := p.boolean(v, key)
			if err != nil {
				return err
			}
			c.Strict = &b
		case "fail-on":
			s, err := p.scalar(v, key)
			if err != nil {
				return err
			}
			sev, perr := finding.ParseSeverity(s)
			if perr != nil || sev == finding.Off {
				return p.errf(v, "fail-on: want error, warning or note, got %q", s)
			}
			c.FailOn = &sev
		case "reader-version":
			s, err := p.scalar(v, key)
			if err != nil {
				return err
			}
			if _, ok := ccversion.Parse(s); !ok {
				return p.errf(v, "reader-version: want a version such as 2.1.330, got %q", s)
			}
			c.ReaderVersion = s
		case "rules":
			return p.rules(c, v)
		case "exclude":
			globs, err := p.globs(v, key)
			if err != nil {
				return err
			}
			c.Exclude = append(c.Exclude, globs...)
		case "ignore":
			return p.ignores(c, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

type parser struct{ file string }

func (p parser) errf(n *yaml.Node, format string, args ...any) error {
	e := &Error{File: p.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line, e.Column = n.Line, n.Column
	}
	return e
}

// yamlError turns a syntax error of the YAML library ("yaml: line 3: …")
// into an Error that names the file and the place of the problem. The
// library names the line where the enclosing block starts (for `rules: {}`
// followed by an indented key, the first key of the file), not the line at
// fault; syntaxAt finds that one.
func (p parser) yamlError(err error, data []byte) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if n, _ := fmt.Sscanf(msg, "line %d:", &line); n == 1 {
		_, rest, _ := strings.Cut(msg, ":")
		rest = strings.TrimSpace(rest)
		col := 1
		if l, c, ok := syntaxAt(data, rest); ok {
			line, col = l, c
		}
		return &Error{File: p.file, Line: line, Column: col, Msg: "invalid YAML: " + rest}
	}
	return &Error{File: p.file, Msg: "invalid YAML: " + msg}
}

// syntaxAt returns the line (and the column of its first character) that
// makes data fail with the YAML syntax error msg: the last line of the
// shortest run of whole lines from the start that fails with the same
// message. Files over maxScanLines lines are not searched (ok is false).
func syntaxAt(data []byte, msg string) (line, col int, ok bool) {
	const maxScanLines = 2000
	lines := bytes.SplitAfter(data, []byte("\n"))
	if len(lines) > maxScanLines {
		return 0, 0, false
	}
	end := 0
	for i, l := range lines {
		end += len(l)
		if yamlProblem(data[:end]) == msg {
			trimmed := bytes.TrimLeft(l, " ")
			return i + 1, len([]rune(string(l[:len(l)-len(trimmed)]))) + 1, true
		}
	}
	return 0, 0, false
}

// yamlProblem is the message of the syntax error in data, without its
// "yaml: line N:" prefix, or "" when data parses.
func yamlProblem(data []byte) string {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			msg := strings.TrimPrefix(err.Error(), "yaml: ")
			if strings.HasPrefix(msg, "line ") {
				_, msg, _ = strings.Cut(msg, ":")
			}
			return strings.TrimSpace(msg)
		}
	}
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

// mapping walks a mapping whose keys must be among known; each key once.
func (p parser) mapping(n *yaml.Node, what string, known []string, fn func(key string, k, v *yaml.Node) error) error {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return p.errf(n, "%s must be a mapping of keys to values, got %s", what, kindName(n))
	}
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return p.errf(k, "%s: a key must be a plain name", what)
		}
		key := k.Value
		if !contains(known, key) {
			msg := fmt.Sprintf("unknown key %q in %s (want %s)", key, what, strings.Join(known, ", "))
			if s := closestKey(key, known); s != "" {
				msg = fmt.Sprintf("unknown key %q in %s (did you mean %q?)", key, what, s)
			}
			return p.errf(k, "%s", msg)
		}
		if line, dup := seen[key]; dup {
			return p.errf(k, "key %q appears twice in %s (first on line %d)", key, what, line)
		}
		seen[key] = k.Line
		if err := fn(key, k, v); err != nil {
			return err
		}
	}
	return nil
}

func (p parser) scalar(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", p.errf(n, "%s: want a single value, got %s", what, kindName(n))
	}
	return n.Value, nil
}

func (p parser) boolean(n *yaml.Node, what string) (bool, error) {
	s, err := p.scalar(n, what)
	if err != nil {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, p.errf(n, "%s: want true or false, got %q", what, s)
}

// strings reads a list of strings, or a single string.
func (p parser) strings(n *yaml.Node, what string) ([]string, []*yaml.Node, error) {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return []string{n.Value}, []*yaml.Node{n}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, nil, p.errf(n, "%s: want a list, got %s", what, kindName(n))
	}
	var out []string
	var nodes []*yaml.Node
	for _, item := range n.Content {
		item = deref(item)
		s, err := p.scalar(item, what)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, s)
		nodes = append(nodes, item)
	}
	return out, nodes, nil
}

func (p parser) globs(n *yaml.Node, what string) ([]*Glob, error) {
	pats, nodes, err := p.strings(n, what)
	if err != nil {
		return nil, err
	}
	var out []*Glob
	for i, pat := range pats {
		g, err := NewGlob(pat)
		if err != nil {
			return nil, p.errf(nodes[i], "%s: %v", what, err)
		}
		g.Line, g.Column = nodes[i].Line, nodes[i].Column
		out = append(out, g)
	}
	return out, nil
}

func (p parser) ruleID(n *yaml.Node, id, what string) error {
	if _, ok := rules.Lookup(id); !ok {
		return p.errf(n, "%s: unknown rule %q (see `ccvet rules`)", what, id)
	}
	return nil
}

func (p parser) rules(c *Config, n *yaml.Node) error {
	return p.mapping(n, "rules", allRuleIDs(), func(id string, k, v *yaml.Node) error {
		s, err := p.scalar(v, "rules: "+id)
		if err != nil {
			return err
		}
		set := RuleSetting{ID: id, Line: k.Line}
		switch strings.ToLower(s) {
		case "on", "true":
			set.On = true
		case "off", "false":
		case "error", "warning", "note":
			set.On = true
			set.Severity, _ = finding.ParseSeverity(s)
		default:
			return p.errf(v, "rules: %s: want on, off, error, warning or note, got %q", id, s)
		}
		c.Rules = append(c.Rules, set)
		return nil
	})
}

func allRuleIDs() []string {
	var ids []string
	for _, r := range rules.All() {
		ids = append(ids, r.ID)
	}
	return ids
}

var ignoreKeys = []string{"path", "rules", "reason"}

func (p parser) ignores(c *Config, n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return p.errf(n, "ignore: want a list of {path, rules, reason}, got %s", kindName(n))
	}
	for _, item := range n.Content {
		item = deref(item)
		ig := &Ignore{Line: item.Line, Column: item.Column}
		err := p.mapping(item, "an ignore", ignoreKeys, func(key string, k, v *yaml.Node) error {
			switch key {
			case "path":
				globs, err := p.globs(v, "ignore: path")
				if err != nil {
					return err
				}
				if len(globs) != 1 {
					return p.errf(v, "ignore: path: want one glob (write one ignore per path)")
				}
				ig.Path = globs[0]
			case "rules":
				ids, nodes, err := p.strings(v, "ignore: rules")
				if err != nil {
					return err
				}
				for i, id := range ids {
					if err := p.ruleID(nodes[i], id, "ignore: rules"); err != nil {
						return err
					}
				}
				ig.Rules = ids
			case "reason":
				s, err := p.scalar(v, "ignore: reason")
				if err != nil {
					return err
				}
				ig.Reason = strings.TrimSpace(s)
			}
			return nil
		})
		if err != nil {
			return err
		}
		var missing []string
		if ig.Path == nil {
			missing = append(missing, "path")
		}
		if len(ig.Rules) == 0 {
			missing = append(missing, "rules")
		}
		if ig.Reason == "" {
			missing = append(missing, "reason")
		}
		if len(missing) > 0 {
			return p.errf(item, "an ignore needs %s (every ignore says which paths, which rules and why)",
				strings.Join(missing, ", "))
		}
		c.Ignores = append(c.Ignores, ig)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// closestKey returns the known key closest to key when it is a likely typo.
func closestKey(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := suggest.Distance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// Find looks for FileName in dir, then in each parent folder. It stops after
// the first folder that is a repository's root (it holds .git), after home
// (the user's home folder; "" for none), and at the filesystem root. It
// returns "" when no file is found.
func Find(dir, home string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if home != "" {
		if h, err := filepath.Abs(home); err == nil {
			home = h
		}
	}
	for {
		p := filepath.Join(dir, FileName)
		if st, err := os.Stat(p); err == nil {
			if st.IsDir() {
				return "", fmt.Errorf("%s is a folder, not a configuration file", p)
			}
			return p, nil
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		if home != "" && dir == home {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Enabled returns the rule selection the file makes: rule id -> on. The
// methods of Config accept a nil *Config: no file, no settings.
func (c *Config) Enabled() map[string]bool {
	out := map[string]bool{}
	if c == nil {
		return out
	}
	for _, r := range c.Rules {
		out[r.ID] = r.On
	}
	return out
}

// Severity returns the severity overrides the file makes.
func (c *Config) Severity() map[string]finding.Severity {
	out := map[string]finding.Severity{}
	if c == nil {
		return out
	}
	for _, r := range c.Rules {
		if r.On && r.Severity != finding.Off {
			out[r.ID] = r.Severity
		}
	}
	return out
}

// Excluded reports whether an exclude glob matches one of the paths (the
// reported path of a file and its key).
func (c *Config) Excluded(paths ...string) bool {
	if c == nil {
		return false
	}
	for _, g := range c.Exclude {
		for _, p := range paths {
			if g.Match(p) {
				return true
			}
		}
	}
	return false
}
