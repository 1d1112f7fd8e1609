package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gorilla/mux"

	"kardan/store"
)

// maxJSONBody bounds every JSON request body.
const maxJSONBody = 1 << 20

// jsonBodyTimeout bounds the time to read a JSON body once its handler starts.
var jsonBodyTimeout = 10 * time.Second

// envelope is the shape of every /v1 answer.
type envelope struct {
	Payload any `json:"payload"`
	Message any `json:"message"`
}

// writeJSON writes payload in the envelope with status.
func writeJSON(w http.ResponseWriter, status int, payload any, msg any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if msg == nil {
		msg = ""
	}
	if err := json.NewEncoder(w).Encode(envelope{Payload: payload, Message: msg}); err != nil {
		slog.Debug("write answer", "err", err)
	}
}

// ok writes a 200 answer.
func ok(w http.ResponseWriter, payload any) { writeJSON(w, http.StatusOK, payload, "") }

// statusOf is the one mapping from application error codes to HTTP statuses.
//
// The rule for refusals. The spec's client signs the user out on ANY 401 or 403 (SPEC.md §6), so:
//   - EUnauthorized (401) means only "no session, or one that is no longer valid";
//   - EForbidden (403) means only "not yours" (someone else's profile, article or comment) and
//     "not an admin";
//   - a business rule that refuses what a signed-in user asked (commenting on your own profile,
//     an article outside your fields, one profile per category, a deleted profile, a wrong
//     password) is EInvalid (400) on its field, or EConflict (409) when it clashes with what is
//     stored, never EForbidden.
//
// TestEveryRefusalHasItsStatus reads every error the code builds and holds it to this rule: a
// new 401 or 403 must be added to its list there, on purpose.
var statusOf = map[store.Code]int{
	store.EInvalid:      http.StatusBadRequest,
	store.EUnauthorized: http.StatusUnauthorized,
	store.EForbidden:    http.StatusForbidden,
	store.ENotFound:     http.StatusNotFound,
	store.EConflict:     http.StatusConflict,
	store.ETooLarge:     http.StatusRequestEntityTooLarge,
	store.ETooMany:      http.StatusTooManyRequests,
	store.EUnavailable:  http.StatusBadGateway,
	store.ENotReady:     http.StatusServiceUnavailable,
	store.EInternal:     http.StatusInternalServerError,
}

// statusClientClosed is the status logged for a request its client abandoned.
const statusClientClosed = 499

// writeError answers err in the envelope: its status from its code, its message from the
// catalogue in the request's language. Internal errors are logged and never shown.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	lang := langOf(r)
	code := store.ErrorCode(err)
	status := statusOf[code]
	var e *store.Error
	if !errors.As(err, &e) {
		e = &store.Error{Code: code}
		if code == store.EConflict {
			e.Key = "conflict"
		}
	}
	switch code {
	case store.EInternal:
		if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			// The client went away mid-request (a closed tab, a cut connection): nothing failed
			// here, and nobody reads the answer. 499 is the status proxies log for this.
			slog.Debug("client went away", "id", requestID(r), "path", r.URL.Path)
			w.WriteHeader(statusClientClosed)
			return
		}
		slog.Error("internal error", "id", requestID(r), "method", r.Method, "path", r.URL.Path, "err", err)
		writeJSON(w, status, nil, message(lang, "server_error", nil))
		return
	case store.ETooMany, store.ENotReady:
		if s, ok := e.Args["seconds"]; ok {
			w.Header().Set("Retry-After", strconv.Itoa(toInt(s)))
		}
	case store.EUnavailable:
		slog.Warn("outside service failed", "id", requestID(r), "path", r.URL.Path, "err", err)
	}
	if len(e.Fields) > 0 {
		msgs := make([]string, 0, len(e.Fields))
		fields := map[string]string{}
		for _, f := range e.Fields {
			args := map[string]any{"des": f.Field}
			for k, v := range f.Args {
				args[k] = v
			}
			m := message(lang, f.Key, args)
			msgs = append(msgs, m)
			if _, seen := fields[f.Field]; !seen {
				fields[f.Field] = m
			}
		}
		writeJSON(w, status, map[string]any{"fields": fields}, msgs)
		return
	}
	key := e.Key
	if key == "" {
		key = defaultKey[code]
	}
	writeJSON(w, status, nil, message(lang, key, e.Args))
}

var defaultKey = map[store.Code]string{
	store.EInvalid:      "info_not_received",
	store.EUnauthorized: "unauthorized",
	store.EForbidden:    "forbidden",
	store.ENotFound:     "item_not_found",
	store.EConflict:     "conflict",
	store.ETooLarge:     "body_too_large",
	store.ETooMany:      "too_many",
	store.EUnavailable:  "unavailable",
	store.ENotReady:     "not_ready",
}

func toInt(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case int64:
		return int(n)
	case float64:
		return int(n)
	}
	return 1
}

// decodeJSON reads a JSON body of at most maxJSONBody bytes into v. Unknown fields are ignored:
// the spec's client sends some the server derives itself (key_word). Invalid UTF-8 is refused.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	// A JSON body is at most 1 MiB: it gets jsonBodyTimeout, not the minute an upload on a
	// slow line needs, so a client cannot hold a connection open by sending it slowly (audit
	// L3). Servers that cannot set deadlines (tests' recorders) ignore it.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(jsonBodyTimeout))
	r.Body = http.MaxBytesReader(w, r.Body, maxJSONBody)
	buf := jsonBodies.Get().(*bytes.Buffer)
	defer putJSONBody(buf)
	buf.Reset()
	_, err := buf.ReadFrom(r.Body)
	body := buf.Bytes()
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return store.Errorf(store.ETooLarge, "body_too_large", nil)
		}
		return store.Errorf(store.EInvalid, "info_not_received", nil)
	}
	if len(body) == 0 {
		return store.Errorf(store.EInvalid, "info_not_received", nil)
	}
	if !utf8.Valid(body) {
		return store.Errorf(store.EInvalid, "bad_json", nil)
	}
	if err := json.Unmarshal(body, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			v := &store.Validation{}
			v.Correct(typeErr.Field)
			return v.Err()
		}
		return store.Errorf(store.EInvalid, "bad_json", nil)
	}
	return nil
}

// jsonBodies keeps request bodies' buffers between requests: io.ReadAll made a new one of at
// least 512 bytes for each. json.Unmarshal copies what it keeps (strings, raw messages), so a
// buffer is free again once decodeJSON returns.
var jsonBodies = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 1024)) }}

// putJSONBody gives buf back, unless a large body grew it: those are rare (a profile with a long
// description), and keeping them would hold their memory for the small ones.
func putJSONBody(buf *bytes.Buffer) {
	if buf.Cap() <= 64<<10 {
		jsonBodies.Put(buf)
	}
}

// looseID is an optional id in a JSON body that the spec's client may send as a number, a
// numeric string, "" or null; the last two mean none (0). Anything else is an "Enter correct"
// error on its field, as a wrong JSON type is.
type looseID int64

// UnmarshalJSON implements json.Unmarshaler.
func (id *looseID) UnmarshalJSON(b []byte) error {
	raw := strings.TrimSpace(string(b))
	if raw == "null" {
		*id = 0
		return nil
	}
	if unq, err := strconv.Unquote(raw); err == nil && strings.HasPrefix(raw, `"`) {
		raw = strings.TrimSpace(unq)
		if raw == "" || raw == "null" {
			*id = 0
			return nil
		}
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return &json.UnmarshalTypeError{Value: "value " + raw, Type: reflect.TypeOf(int64(0))}
	}
	*id = looseID(n)
	return nil
}

// pathInt64 reads a positive integer path variable; anything else is a 400 "bad id".
func pathInt64(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(mux.Vars(r)[name], 10, 64)
	if err != nil || n <= 0 {
		return 0, store.Errorf(store.EInvalid, "bad_id", nil)
	}
	return n, nil
}

// queryInt64 reads an optional positive integer query parameter: (0, nil) when absent.
func queryInt64(r *http.Request, name string) (int64, error) {
	raw := r.URL.Query().Get(name)
	if raw == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n <= 0 {
		return 0, store.Errorf(store.EInvalid, "bad_id", nil)
	}
	return n, nil
}
