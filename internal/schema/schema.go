// Package schema validates decoded entries against the embedded JSON Schemas.
package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/ccvet/ccvet/internal/jsontree"
	"github.com/ccvet/ccvet/schemas"
)

// baseURL is the prefix of every schema's $id; a schema named "defs/usage"
// has the id baseURL + "defs/usage.json".
const baseURL = "https://ccvet.dev/schemas/"

// Names of the schemas that describe something other than a transcript line.
const (
	historyName = "history"
	todosName   = "todos"
)

// Problem is one way a value does not conform to its schema.
type Problem struct {
	// Pointer is the JSON pointer (RFC 6901) of the offending value. For an
	// unknown field it is the pointer of that field; for a missing required
	// field, the pointer of the object that lacks it.
	Pointer string
	// Message is a sentence a person understands.
	Message string
	// UnknownField is true when the problem is a field the schema does not
	// declare (rule unknown-field) rather than a schema error.
	UnknownField bool
	// Keyword is the schema keyword that failed ("required", "type", ...).
	Keyword string
	// Missing holds, for a "required" problem, the pointer of each missing field.
	Missing []string
	// MissingNames holds the same fields as Missing, as messages name them.
	MissingNames []string
	// Shape is Pointer with every array index as "*", where the fast
	// check found the problem (FastUnknownEntry); "" where not known.
	Shape string
	// unnamed is set while Message is still to be written (nameUnknown).
	unnamed bool
}

// Validator validates values against the embedded schemas. It is safe for
// concurrent use. The reference validator (jsonschema/v5) of each schema is
// compiled on first use: a run over healthy files seldom needs any.
type Validator struct {
	entries map[string]*refSchema
	history *refSchema
	todos   *refSchema
	cat     *catalog
	fast    *fastRoots

	mu   sync.Mutex // guards comp
	comp *jsonschema.Compiler
}

// refSchema is the reference validator of one schema, compiled once.
type refSchema struct {
	name string
	once sync.Once
	s    *jsonschema.Schema
	err  error
}

// catalog is what the validator knows of the raw schema documents. The
// documents are decoded on first use: a run decodes only the schemas of
// the entry types it meets.
type catalog struct {
	names []string            // sorted schema names, e.g. "defs/usage", "user"
	raw   map[string][]byte   // name -> file content
	docs  map[string]*lazyDoc // $id (without fragment) -> document

	declaredOnce sync.Once
	declaredVal  map[string]bool // every property name declared by some schema

	knownOnce   sync.Once
	blocksVal   map[string]bool // known content block types
	subtypesVal map[string]bool // known system subtypes
}

// lazyDoc is one schema document, decoded once.
type lazyDoc struct {
	path string // e.g. "defs/usage.json"
	data []byte
	once sync.Once
	val  any
	err  error
}

var (
	catOnce sync.Once
	catVal  *catalog
	catErr  error
)

// loadCatalog reads the embedded schema files once.
func loadCatalog() (*catalog, error) {
	catOnce.Do(func() { catVal, catErr = readCatalog(schemas.FS) })
	return catVal, catErr
}

func readCatalog(fsys fs.FS) (*catalog, error) {
	c := &catalog{raw: map[string][]byte{}, docs: map[string]*lazyDoc{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".json") || p == versionsFile {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(p, ".json")
		c.names = append(c.names, name)
		c.raw[name] = data
		c.docs[baseURL+p] = &lazyDoc{path: p, data: data}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(c.names)
	return c, nil
}

// doc returns the decoded document whose $id is id.
func (c *catalog) doc(id string) (any, error) {
	d, ok := c.docs[id]
	if !ok {
		return nil, fmt.Errorf("schema: no document %s", id)
	}
	d.once.Do(func() {
		if err := json.Unmarshal(d.data, &d.val); err != nil {
			d.val, d.err = nil, fmt.Errorf("schema %s: %w", d.path, err)
			return
		}
		m, _ := d.val.(map[string]any)
		if got, _ := m["$id"].(string); got != baseURL+d.path {
			d.val, d.err = nil, fmt.Errorf("schema %s: $id is %q, want %q", d.path, got, baseURL+d.path)
		}
	})
	return d.val, d.err
}

// declared returns every property name some schema declares.
func (c *catalog) declared() map[string]bool {
	c.declaredOnce.Do(func() {
		c.declaredVal = map[string]bool{}
		for _, name := range c.names {
			d, _ := c.doc(baseURL + name + ".json")
			collectDeclared(d, c.declaredVal)
		}
	})
	return c.declaredVal
}

// known returns the content block types and system subtypes the schemas
// describe (the $defs of content-block.json and system.json).
func (c *catalog) known() (blocks, subtypes map[string]bool) {
	c.knownOnce.Do(func() {
		c.blocksVal, c.subtypesVal = map[string]bool{}, map[string]bool{}
		d, _ := c.doc(baseURL + "defs/content-block.json")
		for k := range defsOf(d) {
			c.blocksVal[k] = true
		}
		d, _ = c.doc(baseURL + "system.json")
		for k := range defsOf(d) {
			c.subtypesVal[k] = true
		}
	})
	return c.blocksVal, c.subtypesVal
}

// defsOf returns the $defs object of a schema document.
func defsOf(doc any) map[string]any {
	m, _ := doc.(map[string]any)
	defs, _ := m["$defs"].(map[string]any)
	return defs
}

// collectDeclared adds every name found under a "properties" keyword.
func collectDeclared(v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			if k == "properties" {
				if props, ok := sub.(map[string]any); ok {
					for name, ps := range props {
						out[name] = true
						collectDeclared(ps, out)
					}
					continue
				}
			}
			collectDeclared(sub, out)
		}
	case []any:
		for _, sub := range v {
			collectDeclared(sub, out)
		}
	}
}

// New compiles every embedded schema. The Validator is safe for concurrent
// use afterwards.
func New() (*Validator, error) {
	cat, err := loadCatalog()
	if err != nil {
		return nil, err
	}
	return newValidator(cat)
}

// newValidator builds a Validator over the schema documents of cat.
func newValidator(cat *catalog) (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	c.LoadURL = func(s string) (io.ReadCloser, error) {
		d, ok := cat.docs[s]
		if !ok {
			return nil, fmt.Errorf("schema: %s is not an embedded schema", s)
		}
		if _, err := cat.doc(s); err != nil {
			return nil, err // does not decode, or its $id is not its path
		}
		return io.NopCloser(bytes.NewReader(d.data)), nil
	}
	v := &Validator{entries: map[string]*refSchema{}, cat: cat, comp: c}
	for _, name := range cat.names {
		switch {
		case name == historyName:
			v.history = &refSchema{name: name}
		case name == todosName:
			v.todos = &refSchema{name: name}
		case !strings.Contains(name, "/"):
			v.entries[name] = &refSchema{name: name}
		}
	}
	if v.history == nil || v.todos == nil {
		return nil, errors.New("schema: history or todos schema missing")
	}
	if err := v.compileFast(); err != nil {
		return nil, err
	}
	return v, nil
}

// reference returns the compiled reference validator of r.
func (v *Validator) reference(r *refSchema) (*jsonschema.Schema, error) {
	r.once.Do(func() {
		v.mu.Lock()
		defer v.mu.Unlock()
		r.s, r.err = v.comp.Compile(baseURL + r.name + ".json")
		if r.err != nil {
			r.err = fmt.Errorf("schema %s: %w", r.name, r.err)
		}
	})
	return r.s, r.err
}

// compileAll compiles the reference validator and the fast check of every
// schema, for tests.
func (v *Validator) compileAll() error {
	all := []*refSchema{v.history, v.todos}
	for _, t := range v.EntryTypes() {
		all = append(all, v.entries[t])
	}
	for _, r := range all {
		if _, err := v.reference(r); err != nil {
			return err
		}
	}
	return v.fast.compileAll()
}

// KnownEntryType reports whether transcript lines of type t have a schema.
func (v *Validator) KnownEntryType(t string) bool {
	return v.fast.entry(t) != nil
}

// EntryTypes returns the transcript entry types that have a schema, sorted.
func (v *Validator) EntryTypes() []string {
	out := make([]string, 0, len(v.entries))
	for t := range v.entries {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// ValidateEntry validates a transcript line whose "type" is t. value is the
// line decoded with encoding/json (UseNumber) into any. An unknown t yields
// no problem: unknown types are reported elsewhere.
func (v *Validator) ValidateEntry(t string, value any) []Problem {
	s, ok := v.entries[t]
	if !ok {
		return nil
	}
	return v.validate(s, value)
}

// ValidateEntryTree is ValidateEntry given also the line parsed into tree
// (nil when it was not): the content blocks the fast check proves valid are
// not given to the reference validator, which reports the same problems.
func (v *Validator) ValidateEntryTree(t string, value any, tree *jsontree.Tree) []Problem {
	s, ok := v.entries[t]
	if !ok {
		return nil
	}
	if prunable[t] && tree != nil {
		if p, ok := v.pruneBlocks(value, tree); ok {
			return v.validatePruned(s, value, &p)
		}
	}
	return v.validate(s, value)
}

// ValidateHistory validates one line of history.jsonl.
func (v *Validator) ValidateHistory(value any) []Problem {
	return v.validate(v.history, value)
}

// ValidateTodos validates a whole todos/*.json document.
func (v *Validator) ValidateTodos(value any) []Problem {
	return v.validate(v.todos, value)
}

// KnownBlockType reports whether the schemas know the content block type t.
func KnownBlockType(t string) bool {
	cat, err := loadCatalog()
	if err != nil {
		return false
	}
	blocks, _ := cat.known()
	return blocks[t]
}

// KnownSystemSubtype reports whether the schemas know the system subtype s.
func KnownSystemSubtype(s string) bool {
	cat, err := loadCatalog()
	if err != nil {
		return false
	}
	_, subtypes := cat.known()
	return subtypes[s]
}

// Names returns the names of every embedded schema, sorted, e.g. "assistant",
// "defs/usage", "history", "todos".
func Names() []string {
	cat, err := loadCatalog()
	if err != nil {
		return nil
	}
	return append([]string(nil), cat.names...)
}

// Source returns the raw text of the embedded schema called name.
func Source(name string) ([]byte, bool) {
	cat, err := loadCatalog()
	if err != nil {
		return nil, false
	}
	data, ok := cat.raw[name]
	if !ok {
		return nil, false
	}
	return append([]byte(nil), data...), true
}

func (v *Validator) validate(r *refSchema, value any) []Problem {
	return v.validatePruned(r, value, nil)
}

// validatePruned validates value, or p.value in its place when p is not nil;
// the problems are those of value.
func (v *Validator) validatePruned(r *refSchema, value any, p *pruned) []Problem {
	s, err := v.reference(r)
	if err != nil {
		return []Problem{{Pointer: "", Message: "cannot validate: " + err.Error()}}
	}
	if p != nil {
		err = safeValidate(s, p.value)
	} else {
		err = safeValidate(s, value)
	}
	if err == nil {
		return nil
	}
	if failed, ok := err.(errValidatorPanic); ok {
		return unreadableNumbers(value, failed)
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Pointer: "", Message: "cannot validate: " + err.Error()}}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	probs := make([]Problem, 0, len(leaves))
	for _, l := range leaves {
		if p != nil {
			l.InstanceLocation = p.unprune(l.InstanceLocation)
		}
		probs = append(probs, v.describe(l, value)...)
	}
	probs = v.dropCascade(probs)
	nameUnknown(probs, value)
	return tidy(probs)
}

// collectLeaves gathers the errors of a tree that have no causes.
func collectLeaves(ve *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(ve.Causes) == 0 {
		*out = append(*out, ve)
		return
	}
	for _, c := range ve.Causes {
		collectLeaves(c, out)
	}
}

// dropCascade removes unknown-field problems that are only an echo of another
// problem. When a subschema applied in place ($ref, allOf, then) fails, the
// properties it declares do not count as evaluated, so unevaluatedProperties
// reports each of them. Such a report is dropped when the field is declared
// somewhere in the schemas and a real problem sits in the same object.
//
// The same echo follows a problem inside a declared field (an unknown field
// nested in compactMetadata makes the subschema that declares compactMetadata
// fail): the report of the declared field itself is dropped when some other
// problem lies below it.
func (v *Validator) dropCascade(probs []Problem) []Problem {
	var real, all []string
	for _, p := range probs {
		if !p.UnknownField {
			real = append(real, p.Pointer)
		}
		all = append(all, p.Pointer)
	}
	// Sorted, the pointers below p are the run that follows p+"/": a line
	// of a million unknown members is not compared pair by pair.
	slices.Sort(real)
	slices.Sort(all)
	out := probs[:0]
	for _, p := range probs {
		if p.UnknownField {
			parent, name := splitPointer(p.Pointer)
			if v.cat.declared()[name] && (anyUnder(real, parent) || anyBelow(all, p.Pointer)) {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// anyBelow reports whether some pointer of sorted lies strictly below p.
func anyBelow(sorted []string, p string) bool {
	k, _ := slices.BinarySearch(sorted, p+"/")
	return k < len(sorted) && strings.HasPrefix(sorted[k], p+"/")
}

// anyUnder reports whether some pointer of sorted equals parent or lies
// below it.
func anyUnder(sorted []string, parent string) bool {
	_, found := slices.BinarySearch(sorted, parent)
	return found || anyBelow(sorted, parent)
}

// tidy sorts problems by pointer then message and removes duplicates.
func tidy(probs []Problem) []Problem {
	sort.Slice(probs, func(i, j int) bool {
		if probs[i].Pointer != probs[j].Pointer {
			return probs[i].Pointer < probs[j].Pointer
		}
		if probs[i].Message != probs[j].Message {
			return probs[i].Message < probs[j].Message
		}
		return !probs[i].UnknownField && probs[j].UnknownField
	})
	out := probs[:0]
	for i, p := range probs {
		if i > 0 && sameProblem(p, probs[i-1]) {
			continue
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sameProblem reports whether a and b say the same thing at the same place.
func sameProblem(a, b Problem) bool {
	return a.Pointer == b.Pointer && a.Message == b.Message && a.UnknownField == b.UnknownField
}

func sortStrings(s []string) { sort.Strings(s) }
