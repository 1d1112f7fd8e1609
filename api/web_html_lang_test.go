package api

import "testing"

func TestHTMLLang(t *testing.T) {
	for _, c := range []struct {
		head string
		lang Lang
		want string
	}{
		{`<!doctype html><html lang="fa" dir="rtl"><head><title>`, En, `<!doctype html><html lang="en" dir="ltr"><head><title>`},
		{`<!doctype html><html lang="fa" dir="rtl"><head><title>`, Fa, `<!doctype html><html lang="fa" dir="rtl"><head><title>`},
		{`<!DOCTYPE html><HTML class="x" dir='rtl' data-a=b LANG=fa><head>`, En, `<!DOCTYPE html><html lang="en" dir="ltr" class="x" data-a=b><head>`},
		{`<!doctype html><html><head><title>`, En, `<!doctype html><html lang="en" dir="ltr"><head><title>`},
		{`<head><title>`, En, `<head><title>`},
	} {
		if got := htmlLang(c.head, c.lang); got != c.want {
			t.Errorf("htmlLang(%q, %s): got %q, want %q", c.head, c.lang, got, c.want)
		}
	}
}
