package schema

import (
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// errValidatorPanic is a panic of the reference validator, recovered.
type errValidatorPanic struct{ v any }

func (e errValidatorPanic) Error() string { return fmt.Sprint("the schema validator failed: ", e.v) }

// safeValidate is s.Validate with a panic of the validator turned into an
// errValidatorPanic. jsonschema/v5 (v5.3.1) reads numbers as big.Rat and
// does not check that the parse worked: a number whose exponent math/big
// refuses (1e1000001, in a field of "type": "integer") is a nil *big.Rat,
// and the validator dereferences it (found by FuzzSchema).
func safeValidate(s *jsonschema.Schema, value any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errValidatorPanic{r}
		}
	}()
	return s.Validate(value)
}

// unreadableNumbers describes the numbers of value that math/big cannot
// read, at their places: what made the validator fail. None: one problem
// at the root saying that it failed.
func unreadableNumbers(value any, failure error) []Problem {
	var probs []Problem
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case json.Number:
			if _, ok := new(big.Rat).SetString(string(x)); !ok {
				probs = append(probs, Problem{Pointer: ptr, Message: "the number " + cut(string(x)) +
					" is beyond what the schema validator reads (its exponent is too large): not checked against the schema"})
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k], ptr+"/"+escapeToken(k))
			}
		case []any:
			for i, e := range x {
				walk(e, ptr+"/"+strconv.Itoa(i))
			}
		}
	}
	walk(value, "")
	if len(probs) == 0 {
		return []Problem{{Pointer: "", Message: "cannot validate: " + failure.Error()}}
	}
	return probs
}
