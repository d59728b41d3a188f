// Package memo keeps the values derived once per key for as long as what holds the table lives.
package memo

// Table maps keys to the values computed for them on first use. The zero
// value is empty and ready; a Table is not for concurrent use.
type Table struct{ m map[any]any }

// Get returns what compute gives for key, calling compute on the first
// call for that key only.
func (t *Table) Get(key any, compute func() any) any {
	if v, ok := t.m[key]; ok {
		return v
	}
	v := compute()
	if t.m == nil {
		t.m = map[any]any{}
	}
	t.m[key] = v
	return v
}

// Lookup returns the value stored for key, if one was computed.
func (t *Table) Lookup(key any) (any, bool) {
	v, ok := t.m[key]
	return v, ok
}

// Take returns the value stored for key (nil when none) and forgets it.
func (t *Table) Take(key any) any {
	v := t.m[key]
	delete(t.m, key)
	return v
}

// Len is the number of values held.
func (t *Table) Len() int { return len(t.m) }

// Reset lets go of every value.
func (t *Table) Reset() { t.m = nil }
