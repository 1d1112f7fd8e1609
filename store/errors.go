package store

import (
	"errors"
	"fmt"
	"strings"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Code is the kind of an application error; the API maps each to one HTTP status.
type Code string

// The application error codes.
const (
	EInvalid      Code = "invalid"
	EUnauthorized Code = "unauthorized"
	EForbidden    Code = "forbidden"
	ENotFound     Code = "not_found"
	EConflict     Code = "conflict"
	ETooMany      Code = "too_many"
	ETooLarge     Code = "too_large"
	EUnavailable  Code = "unavailable" // an outside provider (SMS) failed
	ENotReady     Code = "not_ready"   // the server is still building something it needs (the search index)
	EInternal     Code = "internal"
)

// FieldError is one invalid field: Key is a catalogue key ("enter", "enter_correct", ...) and
// Field names the field, whose label the catalogue also holds ("field.<name>").
type FieldError struct {
	Field string
	Key   string
	Args  map[string]any
}

// Error is Kardan's one application error. Its text for users comes from the message catalogue by
// Key (with Args); Err keeps the cause for the log and is never shown.
// It is every package's error type, not only storage's (api's request checks return it too): it
// lives here because store is the package every other one imports, and it imports none.
type Error struct {
	Code   Code
	Key    string
	Args   map[string]any
	Fields []FieldError
	Err    error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(string(e.Code))
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	for _, f := range e.Fields {
		fmt.Fprintf(&b, " [%s %s]", f.Field, f.Key)
	}
	if e.Err != nil {
		b.WriteString(": " + e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an application error with a catalogue key.
func Errorf(code Code, key string, args map[string]any) *Error {
	return &Error{Code: code, Key: key, Args: args}
}

// NotFound is the "Item not found" error.
func NotFound() *Error { return &Error{Code: ENotFound, Key: "item_not_found"} }

// Forbidden is the generic "not allowed" error.
func Forbidden() *Error { return &Error{Code: EForbidden, Key: "forbidden"} }

// Unauthorized is the "sign in first" error.
func Unauthorized() *Error { return &Error{Code: EUnauthorized, Key: "unauthorized"} }

// Validation collects field errors; Err() answers nil when there are none.
type Validation struct{ fields []FieldError }

// Enter records a missing value ("Enter {des}").
func (v *Validation) Enter(field string) { v.Add(field, "enter", nil) }

// Correct records a wrong value ("Enter correct {des}").
func (v *Validation) Correct(field string) { v.Add(field, "enter_correct", nil) }

// Add records a field error with any catalogue key.
func (v *Validation) Add(field, key string, args map[string]any) {
	v.fields = append(v.fields, FieldError{Field: field, Key: key, Args: args})
}

// Has reports whether field already has an error, so checks stop at the first problem per field.
func (v *Validation) Has(field string) bool {
	for _, f := range v.fields {
		if f.Field == field {
			return true
		}
	}
	return false
}

// Err answers the collected errors as one invalid error, or nil.
func (v *Validation) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &Error{Code: EInvalid, Key: v.fields[0].Key, Fields: v.fields}
}

// ErrorCode answers the code of err: an *Error's own, conflict for a SQLite constraint, and
// internal for anything else.
func ErrorCode(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if isConstraint(err) {
		return EConflict
	}
	return EInternal
}

func isConstraint(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.Code == sqlite3.ErrConstraint || pgConstraint(err)
}
