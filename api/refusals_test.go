package api

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kardan/store"
)

// refusal is one application error the code can build: its code and catalogue key, and where.
type refusal struct {
	code store.Code
	key  string
	at   string
}

// The only refusals that may sign the spec's client out (see statusOf). Adding one here is a
// decision: a business rule belongs in 400 or 409.
var (
	// unauthorizedKeys: no session, or one that is no longer valid.
	unauthorizedKeys = map[string]bool{"unauthorized": true, "login_to_comment": true}
	// forbiddenKeys: "not yours" and "not an admin".
	forbiddenKeys = map[string]bool{
		"forbidden":         true, // someone else's profile or account, or an admin route
		"blog_not_yours":    true, // someone else's article
		"comment_not_yours": true, // someone else's comment
		"reply_not_owner":   true, // a reply under someone else's profile
	}
)

// dynamicKey stands for a catalogue key built at run time ("quota_hour_" + kind): its status
// still comes from its constant code, but no allowance of 401 or 403 can name it.
const dynamicKey = "<built at run time>"

// sourceRefusals reads the non-test Go files of the module's packages and answers every
// application error they build with a constant code and a literal key: store.Errorf calls,
// store.Error literals (with their field errors) and the Validation methods (always 400).
// Errors built from variables (the envelope's own fallback) are the plumbing, not refusals.
func sourceRefusals(t *testing.T) []refusal {
	t.Helper()
	var out []refusal
	fset := token.NewFileSet()
	for _, dir := range []string{"../api", "../store", "../auth", "../admin", "../media", "../search", "../cmd"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				at := func() string { return fset.Position(n.Pos()).String() }
				switch n := n.(type) {
				case *ast.CallExpr:
					switch name := calleeName(n.Fun); {
					case name == "Errorf" && len(n.Args) == 3 && fromStore(n.Fun):
						code, okCode := errorCode(n.Args[0])
						key, okKey := stringLit(n.Args[1])
						if okCode && !okKey {
							key = dynamicKey
						}
						if okCode {
							out = append(out, refusal{code, key, at()})
						} else if !plumbing(path) {
							t.Errorf("%s: an error whose code or key is not a constant cannot be checked here", at())
						}
					case name == "Enter" && len(n.Args) == 1:
						out = append(out, refusal{store.EInvalid, "enter", at()})
					case name == "Correct" && len(n.Args) == 1:
						out = append(out, refusal{store.EInvalid, "enter_correct", at()})
					case name == "Add" && len(n.Args) == 3:
						// Validation.Add(field, key, args): no other Add the code calls takes three.
						if key, ok := stringLit(n.Args[1]); ok {
							out = append(out, refusal{store.EInvalid, key, at()})
						}
					}
				case *ast.CompositeLit:
					if calleeName(n.Type) != "Error" || !fromStore(n.Type) {
						return true
					}
					var code store.Code
					var okCode bool
					var keys []string
					for _, el := range n.Elts {
						kv, ok := el.(*ast.KeyValueExpr)
						if !ok {
							continue
						}
						switch id, _ := kv.Key.(*ast.Ident); {
						case id == nil:
						case id.Name == "Code":
							code, okCode = errorCode(kv.Value)
						case id.Name == "Key":
							if k, ok := stringLit(kv.Value); ok {
								keys = append(keys, k)
							} else {
								keys = append(keys, dynamicKey)
							}
						case id.Name == "Fields":
							ast.Inspect(kv.Value, func(m ast.Node) bool {
								if fkv, ok := m.(*ast.KeyValueExpr); ok {
									if fid, _ := fkv.Key.(*ast.Ident); fid != nil && fid.Name == "Key" {
										if k, ok := stringLit(fkv.Value); ok {
											keys = append(keys, k)
										}
									}
								}
								return true
							})
						}
					}
					if okCode {
						for _, k := range keys {
							out = append(out, refusal{code, k, at()})
						}
					} else if !plumbing(path) {
						t.Errorf("%s: an error whose code is not a constant cannot be checked here", at())
					}
				}
				return true
			})
		}
	}
	return out
}

// fromStore reports whether e names something of package store: store.X, or a bare X inside
// store itself (fmt.Errorf and json.UnmarshalTypeError are not application errors).
func fromStore(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		return ok && x.Name == "store"
	}
	return false
}

// plumbing reports whether path is where errors are built from variables on purpose: the error
// type's own constructors and the envelope's fallback. Validation keys built at run time
// (codeError(key), kind+"_text_required") are always 400 by construction.
func plumbing(path string) bool {
	return strings.HasSuffix(path, filepath.Join("store", "errors.go")) || strings.HasSuffix(path, filepath.Join("api", "envelope.go"))
}

// calleeName answers the last name of a called function or a type: Errorf for store.Errorf,
// Add for v.Add, Error for &store.Error.
func calleeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return e.Sel.Name
	}
	return ""
}

// errorCode answers the store.Code a constant like store.EInvalid or EInvalid names.
func errorCode(e ast.Expr) (store.Code, bool) {
	codes := map[string]store.Code{
		"EInvalid": store.EInvalid, "EUnauthorized": store.EUnauthorized, "EForbidden": store.EForbidden,
		"ENotFound": store.ENotFound, "EConflict": store.EConflict, "ETooMany": store.ETooMany,
		"ETooLarge": store.ETooLarge, "EUnavailable": store.EUnavailable, "EInternal": store.EInternal,
		"ENotReady": store.ENotReady,
	}
	c, ok := codes[calleeName(e)]
	return c, ok
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// TestEveryRefusalHasItsStatus maps every refusal in the code to the status the envelope answers
// it with, and holds the map to statusOf's rule: 401 only for a missing session, 403 only for
// "not yours" and "not an admin", so no business rule signs the spec's client out. Each refusal
// is also sent through writeError, which must answer that status with its own catalogue text in
// both languages.
func TestEveryRefusalHasItsStatus(t *testing.T) {
	refusals := sourceRefusals(t)
	// The scan must see the code it guards: the two business rules that were once 403s, and a
	// few of each kind.
	seen := map[string]store.Code{}
	for _, r := range refusals {
		seen[r.key] = r.code
	}
	for key, code := range map[string]store.Code{
		"comment_own_profile": store.EInvalid, "blog_field_not_yours": store.EInvalid,
		"already_commented": store.EConflict, "one_profile_per_cat": store.EConflict,
		"blog_not_yours": store.EForbidden, "forbidden": store.EForbidden, "unauthorized": store.EUnauthorized,
		"item_not_found": store.ENotFound, "too_many": store.ETooMany, "enter": store.EInvalid,
	} {
		if seen[key] != code {
			t.Errorf("the scan found %q as %q, want %q: is the scanner still reading the code?", key, seen[key], code)
		}
	}
	if len(refusals) < 100 {
		t.Fatalf("the scan found only %d refusals", len(refusals))
	}

	table := map[string]int{}
	for _, r := range refusals {
		status, ok := statusOf[r.code]
		if !ok {
			t.Errorf("%s: code %q has no status in statusOf", r.at, r.code)
			continue
		}
		switch status {
		case http.StatusUnauthorized:
			if !unauthorizedKeys[r.key] {
				t.Errorf("%s: %q answers 401, which signs the user out: only a missing session may", r.at, r.key)
			}
		case http.StatusForbidden:
			if !forbiddenKeys[r.key] {
				t.Errorf("%s: %q answers 403, which signs the user out: a business rule is 400 or 409", r.at, r.key)
			}
		}
		if r.key == dynamicKey {
			continue // its status is checked above; its text cannot be looked up here
		}
		if _, ok := catalogue[r.key]; !ok {
			t.Errorf("%s: %q has no catalogue text", r.at, r.key)
		}
		table[string(r.code)+" "+r.key] = status
	}

	keys := make([]string, 0, len(table))
	for k := range table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		code, key, _ := strings.Cut(k, " ")
		want := table[k]
		for _, lang := range []string{"fa", "en"} {
			req := httptest.NewRequest("GET", "/v1/x", nil)
			req.Header.Set("Accept-Language", lang)
			rec := httptest.NewRecorder()
			args := map[string]any{"des": "title", "min": 1, "max": 9, "day": "monday", "seconds": 5,
				"category": "x", "type": "Email", "days": 3, "from": "Pending", "to": "Accepted", "phone": "09120000000"}
			writeError(rec, req, &store.Error{Code: store.Code(code), Key: key, Args: args})
			if rec.Code != want {
				t.Errorf("%s in %s: status %d, want %d", k, lang, rec.Code, want)
			}
			var env struct{ Message string }
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
				t.Errorf("%s: not the envelope: %s", k, rec.Body)
				continue
			}
			if code != string(store.EInternal) && env.Message != message(Lang(lang), key, args) {
				t.Errorf("%s in %s: message %q, want the key's own text", k, lang, env.Message)
			}
		}
	}
	if testing.Verbose() {
		for _, k := range keys {
			t.Logf("%d %s", table[k], k)
		}
	}
	t.Logf("%d refusals in the code, %d distinct, every one mapped", len(refusals), len(table))
}

// TestNoStatusOutsideTheMap keeps 401 and 403 out of handlers: they come from statusOf only.
func TestNoStatusOutsideTheMap(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || path == "envelope.go" {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"http.StatusForbidden", "http.StatusUnauthorized"} {
			if strings.Contains(string(src), name) {
				t.Errorf("%s uses %s: refusals get their status from statusOf in envelope.go", path, name)
			}
		}
	}
}
