package search

import (
	"errors"
	"testing"
)

// A search whose hits Bleve did not hand to Kardan's handler, or did not end, fails instead of
// answering an empty page.
func TestHandlerUseCheck(t *testing.T) {
	for _, c := range []struct {
		use  handlerUse
		want error
	}{
		{handlerUse{}, errHandlerUnused},
		{handlerUse{made: true}, errHandlerUnused},
		{handlerUse{made: true, ended: true}, nil},
	} {
		if got := c.use.check(); !errors.Is(got, c.want) {
			t.Errorf("%+v: got %v, want %v", c.use, got, c.want)
		}
	}
}
