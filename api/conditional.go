package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// writeConditional writes a 200 answer of body with a validator, or 304 when the client's copy
// is current. The ETag is the body's hash, so it changes exactly when the bytes do and needs no
// invalidation of its own. It is weak: the gzip middleware may send the same entity encoded, and
// a strong tag would then name two different byte sequences. lastMod, when not zero, is also sent
// and honoured for clients that send only If-Modified-Since (RFC 9110 §13.2.2: If-None-Match wins).
func writeConditional(w http.ResponseWriter, r *http.Request, body []byte, lastMod time.Time) {
	sum := sha256.Sum256(body)
	etag := `W/"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	if !lastMod.IsZero() {
		h.Set("Last-Modified", lastMod.UTC().Format(http.TimeFormat))
	}
	if notModified(r, etag, lastMod) {
		h.Del("Content-Type")
		h.Del("Content-Length")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// notModified reads a GET or HEAD's preconditions against the current validators.
func notModified(r *http.Request, etag string, lastMod time.Time) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		for _, t := range strings.Split(inm, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(etag, "W/") {
				return true
			}
		}
		return false
	}
	if ims := r.Header.Get("If-Modified-Since"); ims != "" && !lastMod.IsZero() {
		t, err := http.ParseTime(ims)
		return err == nil && !lastMod.Truncate(time.Second).After(t)
	}
	return false
}
