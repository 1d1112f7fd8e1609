package api

import (
	"context"
	"net/http"

	"kardan/store"
)

// withUser stores the signed-in user in the request's context (set by the auth middleware).
func withUser(ctx context.Context, u *store.User) context.Context {
	return context.WithValue(ctx, ctxUser, u)
}

// userFrom answers the signed-in user of r, or nil for a visitor.
func userFrom(r *http.Request) *store.User {
	u, _ := r.Context().Value(ctxUser).(*store.User)
	return u
}

// requireUser answers the signed-in user, or the 401 error for a visitor.
func requireUser(r *http.Request) (*store.User, error) {
	if u := userFrom(r); u != nil {
		return u, nil
	}
	return nil, store.Unauthorized()
}

// requireAdmin answers the signed-in admin: 401 for a visitor, 403 for anyone else.
func requireAdmin(r *http.Request) (*store.User, error) {
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if !u.IsAdmin() {
		return nil, store.Forbidden()
	}
	return u, nil
}
