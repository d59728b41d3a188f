package model

import "testing"

func TestProjectMemo(t *testing.T) {
	p := NewProject("d", "n", true, nil, nil, nil)
	type key struct{}
	calls := 0
	get := func() int {
		return p.Memo(key{}, func() any { calls++; return 42 }).(int)
	}
	first, second := get(), get()
	if first != 42 || second != 42 || calls != 1 {
		t.Fatalf("Memo computed %d times", calls)
	}
	if p.Memo("other", func() any { return nil }) != nil {
		t.Fatal("a nil value is remembered as nil")
	}
}

// TestFileState: State makes a value once per key and file, TakeState
// hands it back and forgets it.
func TestFileState(t *testing.T) {
	var f File
	type key struct{}
	made := 0
	mk := func() any { made++; return &made }
	a, b := f.State(key{}, mk), f.State(key{}, mk)
	if a != b || made != 1 {
		t.Fatalf("State made %d values", made)
	}
	if f.TakeState(key{}) != a || f.TakeState(key{}) != nil {
		t.Error("TakeState did not hand the value back once")
	}
	if f.State(key{}, mk); made != 2 {
		t.Error("State after TakeState did not make a new value")
	}
}
