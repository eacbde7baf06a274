package metadata

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestQuickJSONAsEncodingJSON: what quickJSON reads it reads as
// encoding/json does, and it reads nothing that encoding/json rejects.
func TestQuickJSONAsEncodingJSON(t *testing.T) {
	for _, s := range []string{
		`{"@type":"NewsArticle","headline":"A \"quoted\" \u00e9t\u00E9 \/ tab\t","n":-1.5e3,"z":0,"a":[1,true,false,null,{},[]]}`,
		` [ {"a" : "b"} , "c" ] `, `"x"`, `12`, `{"a":1,"a":2}`, `{"k\n":"v"}`, `"héllo 日本"`,
		`{"a":1,}`, `[1,]`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`, `{"a":"b`, `{"a" "b"}`,
		`{"a":"\ud83d\ude00"}`, `{"a":"\ud83d"}`, `{"a":"\x"}`, "{\"a\":\"b\nc\"}", "\"\xff\"", `{"a":1e999}`,
		`{"a":tru}`, `{"a":nul}`, `{} {}`, `{}x`, ``, ` `, `{"a":"\u12"}`, `{"a":"\u+123"}`, "\"a\x7f\"", `'a'`,
		`{"a":[1 2]}`, `{"a":{"b":{"c":[[[]]]}}}`, `-0`, `1E+2`, `1e-2`, `{"a":"<b>&amp;</b>"}`,
	} {
		want, wantErr := any(nil), error(nil)
		wantErr = json.Unmarshal([]byte(s), &want)
		got, ok := quickJSON(s)
		if ok && (wantErr != nil || !reflect.DeepEqual(got, want)) {
			t.Errorf("%q: quickJSON %#v, encoding/json %#v (%v)", s, got, want, wantErr)
		}
	}
}
