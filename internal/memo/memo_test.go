package memo

import "testing"

func TestTable(t *testing.T) {
	var tb Table
	calls := 0
	f := func() any { calls++; return calls }
	if v := tb.Get("a", f); v != 1 {
		t.Fatalf("first Get = %v, want 1", v)
	}
	if v := tb.Get("a", f); v != 1 || calls != 1 {
		t.Fatalf("second Get = %v after %d calls, want the first value and one call", v, calls)
	}
	if v, ok := tb.Lookup("b"); ok || v != nil {
		t.Fatalf("Lookup of a key never computed = %v, %v", v, ok)
	}
	if tb.Len() != 1 {
		t.Fatalf("Len = %d, want 1", tb.Len())
	}
	tb.Reset()
	if tb.Len() != 0 || tb.Get("a", f) != 2 {
		t.Fatal("Reset kept a value")
	}
}

// TestTake: Take hands a value back once and forgets it; a key never
// computed gives nil.
func TestTake(t *testing.T) {
	var tb Table
	tb.Get("a", func() any { return 1 })
	if v := tb.Take("a"); v != 1 {
		t.Fatalf("Take = %v, want 1", v)
	}
	if v := tb.Take("a"); v != nil || tb.Len() != 0 {
		t.Fatalf("second Take = %v, Len %d", v, tb.Len())
	}
}
