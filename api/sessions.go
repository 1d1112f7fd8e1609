package api

import (
	"context"
	"net/http"
	"strings"

	"kardan/auth"
	"kardan/store"
)

// sessionKey keys the hash of the request's session token in its context.
type sessionKey struct{}

// withAuth reads "Authorization: Bearer <token>" and, when the token names a live session,
// attaches its user (withUser) and the token's hash. A missing, unknown, expired or revoked token
// leaves a visitor: public routes serve them, and requireUser answers 401 on the others.
func (s *Server) withAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearerToken(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		hash := auth.HashToken(token)
		u, err := s.store.UserBySession(r.Context(), hash)
		if err != nil {
			if store.ErrorCode(err) != store.EUnauthorized {
				writeError(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		ctx := withUser(r.Context(), u)
		ctx = context.WithValue(ctx, sessionKey{}, hash)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// bearerToken answers the token of an Authorization header, if it has the shape of one of ours
// (43 base64url characters), so junk never reaches the database.
func bearerToken(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	if len(token) != 43 {
		return "", false
	}
	for _, c := range token {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", false
		}
	}
	return token, true
}

// sessionHash answers the hash of the request's session token (nil for a visitor).
func sessionHash(r *http.Request) []byte {
	h, _ := r.Context().Value(sessionKey{}).([]byte)
	return h
}
