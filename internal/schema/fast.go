package schema

import (
	"errors"
	"fmt"
	"hash/maphash"
	"net/url"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

// Verdict is what the fast check says of a value.
type Verdict uint8

// Verdicts of the fast check. Only Valid and UnknownOnly are trusted; for
// Invalid and Unsure the caller asks the reference validator for the problems.
const (
	// Unsure: the value uses something the fast check does not decide
	// (a keyword it does not support, duplicate or escaped keys, a number it
	// does not compare exactly).
	Unsure Verdict = iota
	// Valid: the reference validator reports no problem.
	Valid
	// UnknownOnly: every problem the reference validator reports is an
	// unknown field (rule unknown-field), none a schema error.
	UnknownOnly
	// Invalid: the reference validator reports at least one schema error.
	Invalid
)

func (v Verdict) String() string {
	return [...]string{"unsure", "valid", "unknown-only", "invalid"}[v]
}

// fnode is one compiled schema of the fast check; it mirrors what
// jsonschema/v5 does with the keywords our schemas use.
type fnode struct {
	loc      string // for messages about the compiled schema
	unsure   bool   // uses a keyword the fast check does not support
	always   int8   // boolean schema: 1 true, -1 false, 0 neither
	types    uint8  // bit set of tNull...; 0: any
	consts   []cval // const (one value) or enum
	dateTime bool
	minLen   int // -1: none
	hasMin   bool
	min      int64
	keys     map[string]keyInfo // properties and required
	ktab     keyTable           // keys, for lookup without hashing strings
	nreq     int
	addl     *fnode // additionalProperties schema
	addlSet  bool   // additionalProperties present
	addlNo   bool   // additionalProperties: false
	uneval   *fnode // unevaluatedProperties
	ref      *fnode
	not      *fnode
	allOf    []*fnode
	ifs      *fnode
	then     *fnode
	els      *fnode
	items    *fnode
	// disc marks the discriminator test {"properties": {K: {"const": V}},
	// "required": [K]} of a tagged union's if/then: it is decided by
	// finding member K, without a pass through object.
	disc           bool
	discKey, discV string
	// union is set when allOf is a tagged union: every member {"if": a
	// discriminator on the same key, "then": S}, each with its own value.
	// It finds the key once instead of once per member.
	union *union
	// reqAll has one bit per required key (keyInfo.bits).
	reqAll uint64
	// pure is set when n is only {"$ref": S}: validate goes straight to S.
	pure bool
	// flat is set when n has a $ref to a schema that only names object
	// members (flattenRef): on an object, one pass applies both.
	flat *flatObj
	// leaf is set when n asserts at most a type (markLeaf).
	leaf bool
	// scalar is set when n asserts only what a scalar value is checked
	// for (type, const or enum, date-time, minLength, minimum), or is a
	// pure $ref to such a node (markScalar).
	scalar bool
}

// flatObj is the key table of a node merged with that of its $ref target.
type flatObj struct {
	ktab   keyTable // keyInfo.prop: the node's; prop2: the target's
	reqAll uint64
}

// union dispatches on the value of key to the "then" of the one allOf
// member whose discriminator has that value; the members of another shape
// are applied as usual.
type union struct {
	key   string
	thens keyTable // value -> keyInfo{prop: the member's then}
	rest  []*fnode // the members that are not such if/then pairs
}

type keyInfo struct {
	prop  *fnode // nil: not under properties
	req   int    // index in required, or -1
	bits  uint64 // the bit of req in reqAll (of the merged table for flat)
	prop2 *fnode // in a flatObj table, the $ref target's property
}

// cval is a const or enum value (strings, null and booleans only).
type cval struct {
	kind jsontree.Kind
	s    string
}

const (
	tNull = 1 << iota
	tBool
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var typeBits = map[string]uint8{"null": tNull, "boolean": tBool, "number": tNumber, "integer": tInteger,
	"string": tString, "array": tArray, "object": tObject}

// ignored keywords carry no assertion.
var ignored = map[string]bool{"$schema": true, "$id": true, "$comment": true, "title": true, "description": true,
	"$defs": true, "examples": true, "default": true}

// fastCompiler compiles the raw schema documents.
type fastCompiler struct {
	cat   *catalog
	done  map[string]*fnode
	order []*fnode // done, in the order compiled
}

func compileFast(cat *catalog) (*fastCompiler, error) {
	return &fastCompiler{cat: cat, done: map[string]*fnode{}}, nil
}

// at compiles the schema at the absolute location loc ("doc#/pointer").
func (c *fastCompiler) at(loc string) (*fnode, error) {
	if n, ok := c.done[loc]; ok {
		return n, nil
	}
	doc, frag, _ := strings.Cut(loc, "#")
	d, err := c.cat.doc(doc)
	if err != nil {
		return nil, fmt.Errorf("fast schema: %w", err)
	}
	val, ok := lookup(d, frag)
	if !ok {
		return nil, fmt.Errorf("fast schema: %s does not resolve", loc)
	}
	n := &fnode{loc: loc, minLen: -1}
	c.done[loc] = n
	c.order = append(c.order, n)
	if err := c.fill(n, doc, frag, val); err != nil {
		return nil, err
	}
	return n, nil
}

func (c *fastCompiler) sub(doc, frag string, parts ...string) (*fnode, error) {
	for _, p := range parts {
		frag += "/" + escapeToken(p)
	}
	return c.at(doc + "#" + frag)
}

func (c *fastCompiler) fill(n *fnode, doc, frag string, val any) error {
	switch v := val.(type) {
	case bool:
		n.always = -1
		if v {
			n.always = 1
		}
		return nil
	case map[string]any:
		var err error
		for k, kv := range v {
			if ignored[k] {
				continue
			}
			switch k {
			case "type":
				switch t := kv.(type) {
				case string:
					n.types |= typeBits[t]
				case []any:
					for _, e := range t {
						s, _ := e.(string)
						n.types |= typeBits[s]
					}
				}
			case "const":
				n.consts = append(n.consts[:0], toCval(kv, n))
			case "enum":
				list, _ := kv.([]any)
				if len(list) == 0 {
					n.unsure = true
				}
				for _, e := range list {
					n.consts = append(n.consts, toCval(e, n))
				}
			case "format":
				if kv != "date-time" {
					n.unsure = true
				}
				n.dateTime = true
			case "minLength":
				f, _ := kv.(float64)
				n.minLen = int(f)
				if float64(n.minLen) != f || f < 0 {
					n.unsure = true
				}
			case "minimum":
				f, _ := kv.(float64)
				n.hasMin, n.min = true, int64(f)
				if float64(n.min) != f || f > 1e15 || f < -1e15 {
					n.unsure = true
				}
			case "required":
				list, _ := kv.([]any)
				if n.keys == nil {
					n.keys = map[string]keyInfo{}
				}
				for _, e := range list {
					s, _ := e.(string)
					ki, ok := n.keys[s]
					if !ok {
						ki.req = -1
					}
					if ki.req >= 0 {
						continue // listed twice
					}
					ki.req = n.nreq
					n.keys[s] = ki
					n.nreq++
				}
				if n.nreq > 64 {
					n.unsure = true
				}
			case "properties":
				props, _ := kv.(map[string]any)
				if n.keys == nil {
					n.keys = map[string]keyInfo{}
				}
				for name := range props {
					ki, ok := n.keys[name]
					if !ok {
						ki.req = -1
					}
					if ki.prop, err = c.sub(doc, frag, "properties", name); err != nil {
						return err
					}
					n.keys[name] = ki
				}
			case "additionalProperties":
				n.addlSet = true
				if b, ok := kv.(bool); ok && !b {
					n.addlNo = true
				} else if n.addl, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "unevaluatedProperties":
				if n.uneval, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "items":
				if n.items, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "not":
				if n.not, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "if":
				if n.ifs, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "then":
				if n.then, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "else":
				if n.els, err = c.sub(doc, frag, k); err != nil {
					return err
				}
			case "allOf":
				list, _ := kv.([]any)
				for i := range list {
					s, err := c.sub(doc, frag, k, fmt.Sprint(i))
					if err != nil {
						return err
					}
					n.allOf = append(n.allOf, s)
				}
			case "$ref":
				ref, _ := kv.(string)
				base, err := url.Parse(doc)
				if err != nil {
					return err
				}
				r, err := url.Parse(ref)
				if err != nil {
					return err
				}
				abs := base.ResolveReference(r)
				f := abs.Fragment
				abs.Fragment = ""
				if n.ref, err = c.at(abs.String() + "#" + f); err != nil {
					return err
				}
			default:
				n.unsure = true
			}
		}
		if n.ifs == nil {
			n.then, n.els = nil, nil // without if, then and else are ignored
		}
		for k, ki := range n.keys {
			if ki.req >= 0 {
				ki.bits = 1 << ki.req
				n.reqAll |= ki.bits
			}
			n.keys[k] = ki
		}
		n.ktab = newKeyTable(n.keys)
		n.markDiscriminator()
		return nil
	}
	return fmt.Errorf("fast schema: %s is not a schema", doc+"#"+frag)
}

// markDiscriminator sets disc when n is exactly {"properties": {K:
// {"const": "V"}}, "required": [K]}.
func (n *fnode) markDiscriminator() {
	if n.unsure || n.always != 0 || n.types != 0 || len(n.consts) > 0 || n.dateTime || n.minLen >= 0 || n.hasMin ||
		n.addlSet || n.uneval != nil || n.ref != nil || n.not != nil || len(n.allOf) > 0 || n.ifs != nil ||
		n.items != nil || len(n.keys) != 1 || n.nreq != 1 {
		return
	}
	for k, ki := range n.keys {
		p := ki.prop
		if p == nil || ki.req != 0 || p.unsure || p.always != 0 || p.types != 0 || len(p.consts) != 1 ||
			p.consts[0].kind != jsontree.String || p.dateTime || p.minLen >= 0 || p.hasMin || p.addlSet ||
			p.uneval != nil || p.ref != nil || p.not != nil || len(p.allOf) > 0 || p.ifs != nil || p.items != nil ||
			len(p.keys) > 0 {
			return
		}
		n.disc, n.discKey, n.discV = true, k, p.consts[0].s
	}
}

// discriminate is validate for a node marked disc: what object, the
// property's const and required would say, in one look for the key.
func (c *checker) discriminate(s *fnode, i, ev int) int {
	t := c.t
	nd := &t.Nodes[i]
	if nd.Kind != jsontree.Object {
		return 0 // properties and required do not apply
	}
	found, at := -1, 0
	for k, m := i+1, 0; m < int(nd.Len); m++ {
		if string(c.keyAt(k, &c.kb)) == s.discKey {
			if found >= 0 {
				return rUnsure // as object: a repeated key
			}
			found, at = k+1, m
		}
		k = t.Next(k + 1)
	}
	if found < 0 || t.Nodes[found].Kind != jsontree.String || !t.KeyIs(found, s.discV) {
		return rBad | rReal
	}
	if ev >= 0 {
		c.words[ev+at/64] |= 1 << (at % 64)
	}
	return 0
}

// dispatch is the allOf of a tagged union applied to object i: what each
// member's discriminate and then would say, in one look for the key.
func (c *checker) dispatch(s *fnode, i, ev int) int {
	u := s.union
	t := c.t
	nd := &t.Nodes[i]
	found, at := -1, 0
	for k, m := i+1, 0; m < int(nd.Len); m++ {
		if string(c.keyAt(k, &c.kb)) == u.key {
			if found >= 0 {
				return rUnsure // as discriminate: a repeated key
			}
			found, at = k+1, m
		}
		k = t.Next(k + 1)
	}
	if found >= 0 && t.Nodes[found].Kind == jsontree.String && t.Nodes[found].Esc {
		return c.allOf(s, i, ev) // compare unescaped values the slow way
	}
	res := 0
	for _, a := range u.rest {
		res |= c.inplace(a, i, ev)
	}
	if found < 0 || t.Nodes[found].Kind != jsontree.String {
		return res // every discriminator fails, and none has an else
	}
	ki, ok := u.thens.get(t.RawBytes(found))
	if !ok {
		return res
	}
	// The member whose if holds: its discriminator marks the key, then
	// applies in place; both count in ev only if the member succeeds.
	mark := len(c.words)
	sub := c.alloc(i)
	c.words[sub+at/64] |= 1 << (at % 64)
	r := c.inplace(ki.prop, i, sub)
	if r&rBad == 0 && ev >= 0 {
		for k := 0; k < (t.Len(i)+63)/64; k++ {
			c.words[ev+k] |= c.words[sub+k]
		}
	}
	c.words = c.words[:mark]
	return res | r
}

// allOf applies the allOf members of s one by one.
func (c *checker) allOf(s *fnode, i, ev int) int {
	res := 0
	for _, a := range s.allOf {
		res |= c.inplace(a, i, ev)
	}
	return res
}

func toCval(v any, n *fnode) cval {
	switch x := v.(type) {
	case nil:
		return cval{kind: jsontree.Null}
	case bool:
		if x {
			return cval{kind: jsontree.True}
		}
		return cval{kind: jsontree.False}
	case string:
		return cval{kind: jsontree.String, s: x}
	}
	n.unsure = true
	return cval{}
}

// Result bits of one validation: whether it failed, and the kinds of leaf
// error the reference validator would report.
const (
	rBad     = 1 << iota // the value does not validate
	rReal                // a leaf error other than an unknown field
	rUnknown             // a leaf error that is an unknown field
	rUnsure              // something the fast check does not decide
)

// checker holds the scratch memory of one fast validation.
type checker struct {
	t     *jsontree.Tree
	words []uint64 // bit sets of evaluated members, allocated stack-wise
	buf   []byte
	// dupDone has a bit per node of the objects found free of duplicate
	// keys on this line (objects are validated again by each in-place
	// subschema).
	dupDone []uint64
	set     []uint32 // hasDupKeys: key node + 1, or 0
	// pred holds, for each key table (by id), the slot of the key found at
	// each of the first predicted member positions of the last object
	// walked with it (predictions): an object's keys come in the same order
	// line after line, and a key that is where it was needs no hash.
	pred []uint16
	// kb and kb2 hold an escaped key unescaped (keyAt).
	kb, kb2 []byte
	// collect says to record in unknown each member reported as an
	// unknown field (FastUnknownEntry); off for the verdict alone.
	collect bool
	unknown []unknownAt
}

// keyAt returns key node k as encoding/json decodes it: its raw bytes, or,
// for a key that holds an escape (a Windows path in trackedFileBackups),
// the key unescaped into *buf, valid until *buf is used again.
func (c *checker) keyAt(k int, buf *[]byte) []byte {
	t := c.t
	if nd := &t.Nodes[k]; !nd.Esc {
		return t.Raw[nd.Start:nd.End]
	}
	return c.unescapeKey(k, buf)
}

// unescapeKey is keyAt for a key that holds an escape (out of keyAt, so
// that keyAt is inlined).
func (c *checker) unescapeKey(k int, buf *[]byte) []byte {
	*buf = c.t.AppendStr((*buf)[:0], k)
	return *buf
}

var checkers = sync.Pool{New: func() any { return &checker{} }}

// fastRoots are the compiled schemas the fast check starts from.
type fastRoots struct {
	entries map[string]*fastRoot
	types   keyTable // entries, by type: keyInfo.req indexes list
	list    []*fastRoot
	history *fastRoot
	block   *fastRoot // one content block (pruneBlocks)

	mu   sync.Mutex // guards comp, finished and broken
	comp *fastCompiler
	// finished counts the nodes of comp.order the shortcuts were marked on.
	finished int
	// broken is set when a compilation failed: comp may hold half-built
	// nodes, so nothing more is compiled.
	broken error
	// tables counts the key tables numbered (keyTable.id).
	tables int32
}

// fastRoot is the fast check of one schema, compiled on first use: a run
// compiles only the entry types it meets.
type fastRoot struct {
	loc  string
	once sync.Once
	n    *fnode
	err  error
}

func (v *Validator) compileFast() error {
	c, err := compileFast(v.cat)
	if err != nil {
		return err
	}
	f := &fastRoots{entries: map[string]*fastRoot{}, comp: c, block: &fastRoot{loc: blockSchema}}
	types := map[string]keyInfo{}
	for _, name := range v.cat.names {
		r := &fastRoot{loc: baseURL + name + ".json#"}
		switch {
		case name == historyName:
			f.history = r
		case name == todosName:
		case !strings.Contains(name, "/"):
			f.entries[name] = r
			types[name] = keyInfo{req: len(f.list)}
			f.list = append(f.list, r)
		}
	}
	if f.history == nil {
		return errors.New("fast schema: no history schema")
	}
	f.types = newKeyTable(types)
	v.fast = f
	return nil
}

// root returns the compiled fast check of r, or nil when it does not
// compile (the caller is then unsure, and the reference reports why).
func (f *fastRoots) root(r *fastRoot) *fnode {
	r.once.Do(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.broken != nil {
			r.err = f.broken
			return
		}
		r.n, r.err = f.comp.at(r.loc)
		if r.err != nil {
			r.n, f.broken = nil, r.err
			return
		}
		// Mark the shortcuts on the nodes this compilation added; older
		// nodes never change, and other goroutines may be reading them.
		added := f.comp.order[f.finished:]
		for _, n := range added {
			n.markUnion()
			n.markPure()
		}
		for _, n := range added {
			n.flattenRef()
		}
		for _, n := range added {
			n.markLeaf()
		}
		for _, n := range added {
			n.markScalar()
			if n.ktab.slots != nil {
				f.tables++
				n.ktab.id = f.tables
			}
			if n.flat != nil && n.flat.ktab.slots != nil {
				f.tables++
				n.flat.ktab.id = f.tables
			}
		}
		f.finished = len(f.comp.order)
	})
	return r.n
}

// compileAll compiles the fast check of every schema, for tests.
func (f *fastRoots) compileAll() error {
	for _, r := range append([]*fastRoot{f.history}, f.list...) {
		if f.root(r); r.err != nil {
			return r.err
		}
	}
	return nil
}

// markLeaf sets leaf when n asserts nothing but (maybe) a type: validating
// a value against it is the type check alone, whatever the value holds.
func (n *fnode) markLeaf() {
	n.leaf = !n.unsure && (n.always == 0 || n.always == 1) && !n.disc && len(n.consts) == 0 && !n.dateTime &&
		n.minLen < 0 && !n.hasMin && len(n.keys) == 0 && !n.addlSet && n.uneval == nil && n.ref == nil &&
		n.not == nil && len(n.allOf) == 0 && n.ifs == nil && n.items == nil && n.union == nil && n.flat == nil && !n.pure
	if n.always == 1 && n.types != 0 {
		n.leaf = false // a boolean schema has no type; keep to what validate does
	}
}

// markScalar sets scalar when n, or the node its pure $refs lead to,
// asserts nothing but a type, const or enum, date-time format, minLength
// or minimum: keywords that never look inside an object or array, so the
// value is checked without a walk into it (as for leaf: a duplicate or
// escaped key inside, which cannot change the result, no longer makes the
// check unsure).
func (n *fnode) markScalar() {
	t := n.target()
	n.scalar = t.leaf || !t.unsure && t.always == 0 && !t.disc && len(t.keys) == 0 && !t.addlSet &&
		t.uneval == nil && t.ref == nil && t.not == nil && len(t.allOf) == 0 && t.ifs == nil && t.items == nil &&
		t.union == nil && t.flat == nil && !t.pure
}

// onlyRef reports whether n has a $ref and no other keyword.
func (n *fnode) onlyRef() bool {
	return n.ref != nil && !n.unsure && n.always == 0 && n.types == 0 && len(n.consts) == 0 && !n.dateTime &&
		n.minLen < 0 && !n.hasMin && len(n.keys) == 0 && !n.addlSet && n.uneval == nil && n.not == nil &&
		len(n.allOf) == 0 && n.ifs == nil && n.items == nil && !n.disc
}

// markPure sets pure when n is only a $ref (and the chain of such nodes
// ends). Applying n in place is then applying its target in place: the
// target's evaluated members count for n exactly when it succeeds, and n
// succeeds exactly when its target does.
func (n *fnode) markPure() {
	t := n
	for k := 0; k < 64 && t.onlyRef(); k++ {
		t = t.ref
	}
	n.pure = n.onlyRef() && !t.onlyRef()
}

// target follows pure $ref nodes to the first node that does something.
func (n *fnode) target() *fnode {
	for n.pure {
		n = n.ref
	}
	return n
}

// plainObject reports whether n only names object members: properties and
// required, with at most a type that allows objects.
func (n *fnode) plainObject() bool {
	return !n.unsure && n.always == 0 && (n.types == 0 || n.types&tObject != 0) && len(n.consts) == 0 &&
		!n.dateTime && n.minLen < 0 && !n.hasMin && !n.addlSet && n.uneval == nil && n.ref == nil &&
		n.not == nil && len(n.allOf) == 0 && n.ifs == nil && n.items == nil && !n.disc && n.union == nil
}

// flattenRef sets flat when n's $ref target R is a plain object schema and
// n's unevaluatedProperties is absent, true or false. On an object, the
// members of n and R are then looked up once, in one merged table. The
// verdict is unchanged: when R succeeds, its members count as evaluated
// either way; when it fails, n fails with R's own errors, and the unknown
// field echoes unevaluatedProperties would add for R's members (of kind
// unknown field) can only join an error already there, which does not
// change the verdict.
func (n *fnode) flattenRef() {
	if n.ref == nil || n.pure || n.unsure || (n.uneval != nil && n.uneval.always == 0) {
		return
	}
	r := n.ref.target()
	if !r.plainObject() || n.nreq+r.nreq > 64 {
		return
	}
	keys := map[string]keyInfo{}
	for k, ki := range n.keys {
		keys[k] = ki
	}
	all := n.reqAll
	for k, rk := range r.keys {
		ki := keys[k]
		if _, ok := n.keys[k]; !ok {
			ki.req = -1
		}
		ki.prop2 = rk.prop
		if rk.req >= 0 {
			b := uint64(1) << (n.nreq + rk.req)
			ki.bits |= b
			all |= b
		}
		keys[k] = ki
	}
	n.flat = &flatObj{ktab: newKeyTable(keys), reqAll: all}
}

// markUnion sets union when at least two allOf members of n are exactly
// {"if": a discriminator, "then": S}, all on one key with distinct values;
// the other members are applied one by one. Run it once every node is
// compiled.
func (n *fnode) markUnion() {
	vals := map[string]keyInfo{}
	key := ""
	var rest []*fnode
	for _, a := range n.allOf {
		if a.unsure || a.always != 0 || a.types != 0 || len(a.consts) > 0 || a.dateTime || a.minLen >= 0 || a.hasMin ||
			len(a.keys) > 0 || a.addlSet || a.uneval != nil || a.ref != nil || a.not != nil || len(a.allOf) > 0 ||
			a.items != nil || a.disc || a.ifs == nil || !a.ifs.disc || a.then == nil || a.els != nil {
			rest = append(rest, a)
			continue
		}
		if key == "" {
			key = a.ifs.discKey
		}
		if a.ifs.discKey != key {
			return
		}
		if _, dup := vals[a.ifs.discV]; dup {
			return
		}
		vals[a.ifs.discV] = keyInfo{prop: a.then, req: -1}
	}
	if len(vals) < 2 {
		return
	}
	n.union = &union{key: key, thens: newKeyTable(vals), rest: rest}
}

// FastEntry checks the transcript line held in t (parsed, its root an
// object) against the schema of entry type typ, without decoding it. An
// unknown type yields Valid: ValidateEntry reports nothing for it.
func (v *Validator) FastEntry(typ string, t *jsontree.Tree) Verdict {
	if v.fast == nil {
		return Unsure
	}
	r := v.fast.entry(typ)
	if r == nil {
		return Valid
	}
	return v.fastCheck(v.fast.root(r), t)
}

// entry is the fast check of entry type typ, nil when it has no schema.
func (f *fastRoots) entry(typ string) *fastRoot {
	ki, ok := f.types.getStr(typ)
	if !ok {
		return nil
	}
	return f.list[ki.req]
}

// Warm compiles the fast checks of entry types types (those without a
// schema are passed over) ahead of their first line, on a core that would
// otherwise wait: a first line of each type then finds its check made.
// Each is compiled once whoever asks first; a compilation holds the lock
// that another type's first compilation waits for.
func (v *Validator) Warm(types ...string) {
	if v.fast == nil {
		return
	}
	for _, typ := range types {
		if r := v.fast.entry(typ); r != nil {
			v.fast.root(r)
		}
	}
}

// FastHistory checks one parsed history.jsonl line.
func (v *Validator) FastHistory(t *jsontree.Tree) Verdict {
	if v.fast == nil {
		return Unsure
	}
	return v.fastCheck(v.fast.root(v.fast.history), t)
}

func (v *Validator) fastCheck(s *fnode, t *jsontree.Tree) Verdict {
	verdict, _ := v.fastCollect(s, t, false)
	return verdict
}

// fastCollect is fastCheck; with collect, it also returns the members the
// reference would report as unknown fields, in the order met (see
// checker.unknown), when the verdict is UnknownOnly.
func (v *Validator) fastCollect(s *fnode, t *jsontree.Tree, collect bool) (Verdict, []unknownAt) {
	if s == nil {
		return Unsure, nil
	}
	c := checkers.Get().(*checker)
	c.t = t
	c.collect = collect
	c.unknown = c.unknown[:0]
	c.words = c.words[:0]
	c.dupDone = slices.Grow(c.dupDone[:0], (len(t.Nodes)+63)/64)[:(len(t.Nodes)+63)/64]
	clear(c.dupDone)
	r := c.validate(s, jsontree.Root, c.alloc(jsontree.Root))
	var unknown []unknownAt
	if collect && r&(rUnsure|rReal) == 0 && r&rUnknown != 0 {
		unknown = slices.Clone(c.unknown)
	}
	c.t = nil
	c.collect = false
	if cap(c.dupDone) > 1<<14 {
		c.dupDone = nil // a huge line's scratch is not kept for the next ones
	}
	if cap(c.unknown) > 1<<10 {
		c.unknown = nil
	}
	checkers.Put(c)
	switch {
	case r&rUnsure != 0:
		return Unsure, nil
	case r&rBad == 0:
		return Valid, nil
	case r&rReal != 0:
		return Invalid, nil
	case r&rUnknown != 0:
		return UnknownOnly, unknown
	}
	return Unsure, nil // failed without a leaf: should not happen
}

// alloc reserves a zeroed bit set for the members of object i; it returns
// its offset in c.words (-1 when i is not an object).
func (c *checker) alloc(i int) int {
	nd := &c.t.Nodes[i]
	if nd.Kind != jsontree.Object {
		return -1
	}
	off := len(c.words)
	c.words = slices.Grow(c.words, (int(nd.Len)+63)/64)
	c.words = c.words[:off+(int(nd.Len)+63)/64]
	clear(c.words[off:])
	return off
}

// inplace validates i against s applied in place: on success the members
// s evaluated count as evaluated in ev too.
func (c *checker) inplace(s *fnode, i, ev int) int {
	mark := len(c.words)
	sub := c.alloc(i)
	r := c.validate(s, i, sub)
	if r&rBad == 0 && ev >= 0 {
		for k := 0; k < (c.t.Len(i)+63)/64; k++ {
			c.words[ev+k] |= c.words[sub+k]
		}
	}
	c.words = c.words[:mark]
	return r
}

// child validates i against s as a fresh instance (a property value, an item).
func (c *checker) child(s *fnode, i int) int {
	mark := len(c.words)
	r := c.validate(s, i, c.alloc(i))
	c.words = c.words[:mark]
	return r
}

func (c *checker) setAll(ev, i int) {
	if ev < 0 {
		return
	}
	for k := 0; k < (c.t.Len(i)+63)/64; k++ {
		c.words[ev+k] = ^uint64(0)
	}
}

// validate mirrors jsonschema/v5's Schema.validate for the keywords fnode
// supports. ev is the bit set of the members of i that count as evaluated
// (-1 when i is not an object).
func (c *checker) validate(s *fnode, i, ev int) int {
	s = s.target()
	if s.unsure {
		return rUnsure
	}
	switch s.always {
	case 1:
		return 0
	case -1:
		return rBad | rReal // callers turn it into an unknown field where v5's message does
	}
	if s.disc {
		return c.discriminate(s, i, ev)
	}
	t := c.t
	nd := &t.Nodes[i]
	kind := nd.Kind
	if s.types != 0 {
		if r := c.typeCheck(s, i); r != 0 {
			return r
		}
	}
	res := c.scalarKeywords(s, i)
	if res&rUnsure != 0 {
		return rUnsure
	}
	fail := func(r int) {
		res |= r
	}
	switch kind {
	case jsontree.Object:
		if r := c.object(s, i, ev); r != 0 {
			fail(r)
		}
	case jsontree.Array:
		if s.items != nil {
			for k, m := i+1, 0; m < int(nd.Len); m++ {
				if r := c.member(s.items, k); r != 0 {
					fail(r)
				}
				k = t.Next(k)
			}
		}
	}
	if s.ref != nil && (s.flat == nil || kind != jsontree.Object) {
		if r := c.inplace(s.ref, i, ev); r != 0 {
			fail(r)
		}
	}
	if s.not != nil {
		mark := len(c.unknown)
		r := c.inplace(s.not, i, ev)
		c.unknown = c.unknown[:mark] // what the negated schema reports is not reported
		if r&rUnsure != 0 {
			return rUnsure
		}
		if r&rBad == 0 {
			fail(rBad | rReal)
		}
	}
	if s.union != nil && kind == jsontree.Object {
		fail(c.dispatch(s, i, ev))
	} else if len(s.allOf) > 0 {
		fail(c.allOf(s, i, ev))
	}
	if s.ifs != nil {
		mark := len(c.unknown)
		r := c.inplace(s.ifs, i, ev)
		if r&rUnsure != 0 {
			return rUnsure
		}
		c.unknown = c.unknown[:mark] // a failed condition reports nothing
		if r&rBad == 0 {
			if s.then != nil {
				if r := c.inplace(s.then, i, ev); r != 0 {
					fail(r)
				}
			}
		} else if s.els != nil {
			if r := c.inplace(s.els, i, ev); r != 0 {
				fail(r)
			}
		}
	}
	if s.uneval != nil && kind == jsontree.Object {
		for k, m := i+1, 0; m < int(nd.Len); m++ {
			v := k + 1
			if c.words[ev+m/64]&(1<<(m%64)) == 0 {
				if s.uneval.always == -1 {
					fail(rBad | rUnknown)
					if c.collect {
						c.unknown = append(c.unknown, unknownAt{key: int32(k), uneval: true})
					}
				} else if r := c.child(s.uneval, v); r != 0 {
					fail(r)
				}
			}
			k = t.Next(v)
		}
		c.setAll(ev, i)
	}
	return res
}

// scalarKeywords applies the keywords of s that check scalar values (const
// or enum, date-time, minimum, minLength) to node i.
func (c *checker) scalarKeywords(s *fnode, i int) int {
	t := c.t
	nd := &t.Nodes[i]
	kind := nd.Kind
	res := 0
	if len(s.consts) > 0 {
		ok := false
		for _, cv := range s.consts {
			if kind == cv.kind && (kind != jsontree.String || t.KeyIs(i, cv.s)) {
				ok = true
				break
			}
		}
		if !ok {
			res |= rBad | rReal
		}
	}
	switch kind {
	case jsontree.Number:
		if s.hasMin {
			n, ok := parseInt(t.RawBytes(i))
			if !ok {
				return rUnsure
			}
			if n < s.min {
				res |= rBad | rReal
			}
		}
	case jsontree.String:
		if s.dateTime {
			var ok bool
			if nd.Esc {
				str, _ := t.Str(i)
				ok = isDateTime(str)
			} else {
				ok = isDateTimeBytes(t.RawBytes(i))
			}
			if !ok {
				res |= rBad | rReal
			}
		}
		if s.minLen >= 0 {
			b := t.RawBytes(i)
			if nd.Esc {
				c.buf = t.AppendStr(c.buf[:0], i)
				b = c.buf
			}
			// A rune (or an invalid byte, which RuneCount counts as one)
			// is at most utf8.UTFMax bytes: a string that long has enough
			// runes without counting them (the long texts of real lines).
			if len(b) < s.minLen*utf8.UTFMax && utf8.RuneCount(b) < s.minLen {
				res |= rBad | rReal
			}
		}
	}
	return res
}

// typeCheck applies the type keyword of s to node i.
func (c *checker) typeCheck(s *fnode, i int) int {
	if s.types == 0 {
		return 0
	}
	kind := c.t.Nodes[i].Kind
	bit := kindBits[kind&7]
	if s.types&bit != 0 {
		return 0
	}
	if kind == jsontree.Number && s.types&tInteger != 0 {
		// Only integer allowed (number would have matched above).
		switch isIntLiteral(c.t.RawBytes(i)) {
		case 1:
			return 0
		case 0:
			return rUnsure
		}
	}
	return rBad | rReal
}

// kindBits is the type bit of each kind of node (integer aside).
var kindBits = [8]uint8{jsontree.Null: tNull, jsontree.True: tBool, jsontree.False: tBool, jsontree.Number: tNumber,
	jsontree.String: tString, jsontree.Array: tArray, jsontree.Object: tObject}

// member validates i against s as a fresh instance, as child does; a
// schema marked leaf (at most a type) needs only the type check.
func (c *checker) member(s *fnode, i int) int {
	if s.leaf {
		return c.typeCheck(s, i)
	}
	if s.scalar {
		return c.scalar(s.target(), i)
	}
	return c.child(s, i)
}

// scalar is validate for a node marked scalar (the target of its pure
// $refs): the type, then the keywords of scalar values.
func (c *checker) scalar(s *fnode, i int) int {
	if r := c.typeCheck(s, i); r != 0 {
		return r
	}
	return c.scalarKeywords(s, i)
}

// object applies the object keywords (required, properties,
// additionalProperties) to object i; with s.flat, those of its $ref target
// too.
func (c *checker) object(s *fnode, i, ev int) int {
	t := c.t
	nd := &t.Nodes[i]
	res := 0
	kt, reqAll := &s.ktab, s.reqAll
	if s.flat != nil {
		kt, reqAll = &s.flat.ktab, s.flat.reqAll
	}
	var found uint64
	// Duplicate keys: encoding/json keeps the last one; leave them to the
	// reference. Each object is checked once per line (objects are
	// validated again by each in-place subschema). A key of the table is
	// a duplicate when its slot is taken already; other keys go through a
	// 64-bit filter and a look back on a hit. A large object is checked in
	// linear time first.
	dup := c.dupUnchecked(i)
	if dup && nd.Len > 32 {
		if c.hasDupKeys(i) {
			return rUnsure
		}
		c.dupDone[i/64] |= 1 << (i % 64)
		dup = false
	}
	var bloom uint64
	var evw uint64      // the evaluated bits of the first 64 members, for c.words[ev]
	var taken [4]uint64 // slots seen, when the table has at most 256
	bySlot := len(kt.slots) <= 256
	pred := c.predictions(kt)
	for k, m := i+1, 0; m < int(nd.Len); m++ {
		v := k + 1
		kn := &t.Nodes[k]
		if kn.Esc && dup {
			// Keys compared unescaped from here: the whole object at
			// once, then no more per key.
			if c.hasDupKeys(i) {
				return rUnsure
			}
			c.dupDone[i/64] |= 1 << (i % 64)
			dup = false
		}
		key := t.Raw[kn.Start:kn.End] // keyAt, inlined
		if kn.Esc {
			key = c.unescapeKey(k, &c.kb)
		}
		var ki keyInfo
		sl, ok := -1, false
		if m < len(pred) {
			// The key of this position last time, if it is the same (a
			// slot holds one key: finding it there is finding it).
			if p := int(pred[m]); p < len(kt.slots) {
				// keySlot.is, inlined.
				if s := &kt.slots[p]; s.used && len(key) == len(s.name) {
					if lo, hi := keyWords(key); lo == s.lo && hi == s.hi && (len(key) <= 16 || s.name == string(key)) {
						ki, sl, ok = s.info, p, true
					}
				}
			}
		}
		if sl < 0 {
			ki, sl, ok = kt.getSlot(key)
			if sl >= 0 && m < len(pred) {
				pred[m] = uint16(sl)
			}
		}
		if dup {
			if sl >= 0 && bySlot {
				if taken[sl/64]&(1<<(sl%64)) != 0 {
					return rUnsure
				}
				taken[sl/64] |= 1 << (sl % 64)
			} else {
				h := uint64(1)
				if n := len(key); n > 0 {
					h <<= (uint(n)*7 + uint(key[0])*3 + uint(key[n-1])) & 63
				}
				if bloom&h != 0 && c.dupBefore(i, k) {
					return rUnsure
				}
				bloom |= h
			}
		}
		if ok {
			found |= ki.bits
			if ki.prop != nil || ki.prop2 != nil {
				if m < 64 {
					evw |= 1 << m
				} else {
					c.words[ev+m/64] |= 1 << (m % 64)
				}
				// A leaf whose type the value has passes without a call
				// (typeCheck's first test).
				vk := kindBits[t.Nodes[v].Kind&7]
				if p := ki.prop; p != nil && (!p.leaf || p.types != 0 && p.types&vk == 0) {
					res |= c.member(p, v)
				}
				if p := ki.prop2; p != nil && (!p.leaf || p.types != 0 && p.types&vk == 0) {
					res |= c.member(p, v)
				}
			}
		}
		if s.addlSet && ki.prop == nil {
			if s.addlNo {
				res |= rBad | rUnknown
				if c.collect {
					c.unknown = append(c.unknown, unknownAt{key: int32(k)})
				}
			} else {
				res |= c.child(s.addl, v)
			}
		}
		k = t.Next(v)
	}
	if evw != 0 {
		c.words[ev] |= evw
	}
	if dup {
		c.dupDone[i/64] |= 1 << (i % 64)
	}
	if found != reqAll {
		res |= rBad | rReal
	}
	if s.addlSet {
		c.setAll(ev, i)
	}
	return res
}

// predicted is the number of member positions of an object whose key
// slots a checker predicts.
const predicted = 32

// predictions returns the predicted slots of kt's keys, by member position
// (nil for a table without an id).
func (c *checker) predictions(kt *keyTable) []uint16 {
	if kt.id == 0 || len(kt.slots) > 1<<16 {
		return nil
	}
	end := (int(kt.id) + 1) * predicted
	if end > len(c.pred) {
		c.pred = slices.Grow(c.pred, end-len(c.pred))[:end]
	}
	return c.pred[end-predicted : end : end]
}

// dupUnchecked reports whether object i is still to be checked for
// duplicate keys on this line.
func (c *checker) dupUnchecked(i int) bool {
	return c.dupDone[i/64]&(1<<(i%64)) == 0
}

// hasDupKeys reports whether object i repeats a key, keys compared
// unescaped as encoding/json decodes them ("a" and "\u0061" are the same
// key). It uses an open addressing set of key nodes, reused from line to
// line.
func (c *checker) hasDupKeys(i int) bool {
	t := c.t
	n := t.Len(i)
	size := 1
	for size < 2*n {
		size <<= 1
	}
	c.set = slices.Grow(c.set[:0], size)[:size]
	clear(c.set)
	defer func() {
		if cap(c.set) > 1<<16 {
			c.set = nil // do not keep a huge object's set
		}
	}()
	mask := uint64(size - 1)
	for k, m := i+1, 0; m < n; m++ {
		key := c.keyAt(k, &c.kb)
		h := maphash.Bytes(dupSeed, key) & mask
		for c.set[h] != 0 {
			if string(c.keyAt(int(c.set[h]-1), &c.kb2)) == string(key) {
				return true
			}
			h = (h + 1) & mask
		}
		c.set[h] = uint32(k + 1)
		k = t.Next(k + 1)
	}
	return false
}

// dupSeed seeds the hash of hasDupKeys (a random seed: whether keys repeat
// does not depend on it, and a file cannot be made to collide).
var dupSeed = maphash.MakeSeed()

// dupBefore reports whether key node k of object i repeats an earlier key.
// Only for keys without escapes (object checks the rest with hasDupKeys).
func (c *checker) dupBefore(i, k int) bool {
	t := c.t
	key := t.RawBytes(k)
	for j := i + 1; j < k; j = t.Next(j + 1) {
		if string(t.RawBytes(j)) == string(key) {
			return true
		}
	}
	return false
}

// isIntLiteral says whether a number literal is an integer: 1 yes, -1 no
// (never: a literal without fraction or exponent is an integer), 0 unsure.
func isIntLiteral(b []byte) int {
	for _, c := range b {
		if c == '.' || c == 'e' || c == 'E' {
			return 0
		}
	}
	return 1
}

// parseInt parses an integer literal of at most 18 digits.
func parseInt(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
