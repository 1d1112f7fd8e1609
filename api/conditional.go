package api

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
)

// writeConditional writes a 200 answer of body with a validator, or 304 when the client's copy
// is current. The ETag is the body's hash, so it changes exactly when the bytes do and needs no
// invalidation of its own. It is weak: the gzip middleware may send the same entity encoded, and
// a strong tag would then name two different byte sequences. It is the only validator: no
// Last-Modified (writeIndex and writeXML say why), so If-Modified-Since is not read.
func writeConditional(w http.ResponseWriter, r *http.Request, body []byte) {
	sum := sha256.Sum256(body)
	etag := `W/"` + hex.EncodeToString(sum[:12]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	if notModified(r, etag) {
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

// notModified reads a GET or HEAD's If-None-Match against the current ETag.
func notModified(r *http.Request, etag string) bool {
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
	}
	return false
}
