package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/secret"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// maxQuote is how many characters of an instance value a message quotes.
const maxQuote = 40

// describe turns one leaf validation error into problems.
func (v *Validator) describe(e *jsonschema.ValidationError, root any) []Problem {
	ptr := rfc6901(e.InstanceLocation)
	kw := lastSegment(e.KeywordLocation)
	if kw == "unevaluatedProperties" {
		// Often an echo that dropCascade removes: the message is written
		// by nameUnknown for those kept.
		return []Problem{{Pointer: ptr, Keyword: kw, UnknownField: true, unnamed: true}}
	}
	inst, _ := lookup(root, ptr)
	if s, ok := inst.(string); ok {
		// A message quotes at most maxQuote characters of the value: a
		// secret in it is masked before the cut, read as the rule reads
		// it (after its member's name: "apiErrorStatus": "…").
		name := ""
		if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
			name = unescapeToken(ptr[i+1:])
		}
		inst = secret.Default().MaskValue(name, s)
	}
	field := fieldName(root, ptr)
	sch, _ := v.keywordValue(e.AbsoluteKeywordLocation)
	p := Problem{Pointer: ptr, Keyword: kw}
	switch kw {
	case "additionalProperties":
		// additionalProperties: false reports every extra name at once, on
		// the object; report each one on its own pointer.
		var out []Problem
		for _, name := range extraNames(e.Message) {
			fp := ptr + "/" + escapeToken(name)
			out = append(out, Problem{Pointer: fp, UnknownField: true,
				Message: fmt.Sprintf("unknown field %s", fieldName(root, fp))})
		}
		return out
	case "type":
		p.Message = fmt.Sprintf("%s must be %s, got %s", field, typeList(sch), describeValue(inst))
	case "const":
		p.Message = fmt.Sprintf("%s must be %s, got %s", field, quoteValue(sch), quoteValue(inst))
	case "enum":
		p.Message = fmt.Sprintf("%s must be %s, got %s", field, enumList(sch), quoteValue(inst))
	case "required":
		missing := missingFields(sch, inst)
		if len(missing) == 0 {
			p.Message = fmt.Sprintf("%s lacks a required field", field)
			break
		}
		names := make([]string, len(missing))
		for i, m := range missing {
			names[i] = fieldName(root, ptr+"/"+escapeToken(m))
			p.Missing = append(p.Missing, ptr+"/"+escapeToken(m))
			p.MissingNames = append(p.MissingNames, names[i])
		}
		if len(names) == 1 {
			p.Message = "missing required field " + names[0]
		} else {
			p.Message = "missing required fields " + strings.Join(names, ", ")
		}
	case "format":
		f, _ := sch.(string)
		p.Message = fmt.Sprintf("%s must be %s, got %s", field, formatName(f), quoteValue(inst))
	case "pattern":
		p.Message = fmt.Sprintf("%s must match %s, got %s", field, quoteValue(sch), quoteValue(inst))
	case "minimum":
		p.Message = fmt.Sprintf("%s must be at least %v, got %s", field, number(sch), quoteValue(inst))
	case "exclusiveMinimum":
		p.Message = fmt.Sprintf("%s must be greater than %v, got %s", field, number(sch), quoteValue(inst))
	case "maximum":
		p.Message = fmt.Sprintf("%s must be at most %v, got %s", field, number(sch), quoteValue(inst))
	case "exclusiveMaximum":
		p.Message = fmt.Sprintf("%s must be less than %v, got %s", field, number(sch), quoteValue(inst))
	case "minLength":
		if n := number(sch); n == "1" {
			p.Message = fmt.Sprintf("%s must not be empty", field)
		} else {
			p.Message = fmt.Sprintf("%s must be at least %s characters long, got %s", field, n, quoteValue(inst))
		}
	case "maxLength":
		p.Message = fmt.Sprintf("%s must be at most %s characters long", field, number(sch))
	case "minItems":
		p.Message = fmt.Sprintf("%s must have at least %s items", field, number(sch))
	case "maxItems":
		p.Message = fmt.Sprintf("%s must have at most %s items", field, number(sch))
	case "minProperties", "maxProperties", "uniqueItems", "multipleOf":
		p.Message = fmt.Sprintf("%s is invalid: %s", field, e.Message)
	default:
		if e.Message == "not allowed" {
			p.Message = fmt.Sprintf("%s is not allowed", field)
		} else {
			p.Message = fmt.Sprintf("%s is invalid: %s", field, e.Message)
		}
	}
	return []Problem{p}
}

// nameUnknown writes the message of the unknown-field problems describe
// left without one.
func nameUnknown(probs []Problem, root any) {
	for i := range probs {
		if p := &probs[i]; p.unnamed {
			p.Message = fmt.Sprintf("unknown field %s", fieldName(root, p.Pointer))
			p.unnamed = false
		}
	}
}

// keywordValue resolves an absolute keyword location such as
// "https://ccvet.dev/schemas/defs/envelope.json#/properties/userType/enum"
// to the keyword's value in the raw schema document.
func (v *Validator) keywordValue(abs string) (any, bool) {
	doc, frag, _ := strings.Cut(abs, "#")
	d, err := v.cat.doc(doc)
	if err != nil {
		return nil, false
	}
	if frag == "" {
		return d, true
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	return lookup(d, frag)
}

// rfc6901 turns the library's instance location, whose tokens are
// additionally URL-path-escaped, into a plain RFC 6901 pointer.
func rfc6901(loc string) string {
	if loc == "" || !strings.Contains(loc, "%") {
		return loc
	}
	toks := strings.Split(loc, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}

// escapeToken escapes one reference token (RFC 6901).
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// splitPointer returns the parent pointer and the last (unescaped) token.
func splitPointer(ptr string) (parent, name string) {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return "", ""
	}
	return ptr[:i], unescapeToken(ptr[i+1:])
}

func lastSegment(loc string) string {
	if i := strings.LastIndexByte(loc, '/'); i >= 0 {
		return unescapeToken(loc[i+1:])
	}
	return loc
}

// lookup resolves an RFC 6901 pointer in a decoded JSON value.
func lookup(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// isIdent reports whether a key is written bare in a field name: it
// matches ^[A-Za-z_$][A-Za-z0-9_$-]*$ (TestIsIdent compares them).
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_', c == '$':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// appendField appends one step of a field name to b: an array item's index
// in brackets, a key that is an identifier after a dot (none first), any
// other key quoted in brackets.
func appendField(b []byte, tok string, item bool) []byte {
	switch {
	case item:
		return append(append(append(b, '['), tok...), ']')
	case isIdent(tok):
		if len(b) > 0 {
			b = append(b, '.')
		}
		return append(b, tok...)
	}
	return append(strconv.AppendQuote(append(b, '['), tok), ']')
}

// fieldName renders a pointer as a readable path in backquotes:
// /message/content/2/id -> `message.content[2].id`. Array indexes are
// recognised from the value itself; a key that is not an identifier is
// quoted: `snapshot.trackedFileBackups["src/a.go"]`.
func fieldName(root any, ptr string) string {
	if ptr == "" {
		return "the value"
	}
	var b []byte
	cur := root
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = unescapeToken(tok)
		if arr, ok := cur.([]any); ok {
			b = appendField(b, tok, true)
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(arr) {
				cur = arr[i]
			} else {
				cur = nil
			}
			continue
		}
		b = appendField(b, tok, false)
		if m, ok := cur.(map[string]any); ok {
			cur = m[tok]
		} else {
			cur = nil
		}
	}
	return "`" + string(b) + "`"
}

var typeWords = map[string]string{
	"string":  "a string",
	"integer": "an integer",
	"number":  "a number",
	"boolean": "a boolean",
	"object":  "an object",
	"array":   "an array",
	"null":    "null",
}

// typeList renders the value of a "type" keyword: "a string or null".
func typeList(sch any) string {
	var names []string
	switch t := sch.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				names = append(names, s)
			}
		}
	}
	words := make([]string, 0, len(names))
	for _, n := range names {
		if w, ok := typeWords[n]; ok {
			words = append(words, w)
		} else {
			words = append(words, n)
		}
	}
	return orList(words)
}

// enumList renders the value of an "enum" keyword.
func enumList(sch any) string {
	vals, _ := sch.([]any)
	if len(vals) == 1 {
		return quoteValue(vals[0])
	}
	words := make([]string, len(vals))
	for i, x := range vals {
		words[i] = quoteValue(x)
	}
	return "one of " + strings.Join(words, ", ")
}

func orList(words []string) string {
	switch len(words) {
	case 0:
		return "of another type"
	case 1:
		return words[0]
	case 2:
		return words[0] + " or " + words[1]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// describeValue names the JSON type of v and quotes it briefly:
// `number 12`, `string "x"`, `null`, `an object`.
func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(v)
	case string:
		return "string " + quoteValue(v)
	case json.Number, float64, float32, int, int64:
		return "number " + quoteValue(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return quoteValue(v)
}

// quoteValue renders a JSON value briefly, cutting long text with an ellipsis.
func quoteValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(cut(v))
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return cut(fmt.Sprint(v))
	}
	return cut(string(b))
}

func cut(s string) string {
	if utf8.RuneCountInString(s) <= maxQuote {
		return s
	}
	r := []rune(s)
	return string(r[:maxQuote]) + "…"
}

func number(v any) string {
	switch n := v.(type) {
	case float64:
		return strconv.FormatFloat(n, 'f', -1, 64)
	case json.Number:
		return n.String()
	}
	return fmt.Sprint(v)
}

func formatName(f string) string {
	switch f {
	case "date-time":
		return "an RFC 3339 date-time"
	case "date":
		return "an RFC 3339 date"
	case "uuid":
		return "a UUID"
	}
	return "a valid " + f
}

// missingFields returns the names a "required" keyword lists that the
// object lacks.
func missingFields(sch, inst any) []string {
	req, _ := sch.([]any)
	obj, _ := inst.(map[string]any)
	var out []string
	for _, r := range req {
		name, ok := r.(string)
		if !ok {
			continue
		}
		if _, has := obj[name]; !has {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// quotedName matches one name in the library's "additionalProperties 'a',
// 'b' not allowed" message.
var quotedName = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)

func extraNames(msg string) []string {
	var out []string
	for _, m := range quotedName.FindAllStringSubmatch(msg, -1) {
		s := strings.ReplaceAll(m[1], `\'`, `'`)
		if u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`); err == nil {
			s = u
		}
		out = append(out, s)
	}
	return out
}
