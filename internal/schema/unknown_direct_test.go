package schema

import (
	"testing"
	"unicode/utf8"

	"github.com/ccvet/ccvet/internal/jsontree"
)

func TestFastUnknownDirect(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"a\xffb\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\\ud800\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"a\\u0000\":1,\"é\":2,\"a/~b\":3}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xed\xa0\x80\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xc0\xaf\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\xf4\x90\x80\x80\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\\uDBFF\\uDFFF\":1,\"\\uD800\\u0041\":1}",
		"{\"display\":\"x\",\"timestamp\":1,\"project\":\"/p\",\"pastedContents\":{},\"\u2028\":1,\"\\t\":1,\"\x7f\":1}",
	} {
		var tr jsontree.Tree
		if err := tr.Parse([]byte(line)); err != nil {
			t.Fatal(err)
		}
		val, ok := decodeLine([]byte(line))
		if !ok {
			t.Fatal("decode")
		}
		fv := v.FastHistory(&tr)
		got, gok := v.FastUnknownHistory(&tr)
		ref := v.ValidateHistory(val)
		if d := agreeUnknown(fv, got, gok, ref, !utf8.Valid([]byte(line))); d != "" {
			t.Errorf("%q: %s\n got %#v\n ref %#v", line, d, got, ref)
		}
	}
}
