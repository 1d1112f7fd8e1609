package store

import "testing"

// TestOtherLinksArePlainTextOrWeb is audit I4: an "Ather" link took vbscript:, data: and
// disguised javascript: addresses; only http(s) addresses and scheme-less text are kept now.
func TestOtherLinksArePlainTextOrWeb(t *testing.T) {
	for _, bad := range []string{
		"javascript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
		"java script:alert(1)", "\u200cjavascript:alert(1)", "%6Aavascript:alert(1)", "&#106;avascript:alert(1)",
		"JAVASCRIPT:alert(1)", "\u202ejavascript:alert(1)", "http:no-host", "file:///etc/passwd",
	} {
		if _, ok := normaliseLink(kindAny, bad); ok {
			t.Errorf("%q was accepted", bad)
		}
	}
	for _, good := range []string{"https://example.com/a?b=c", "http://example.com", "@kardan_shop", "بازار تهران، راسته فرش", "شعبه ۲"} {
		if _, ok := normaliseLink(kindAny, good); !ok {
			t.Errorf("%q was refused", good)
		}
	}
}

// TestLinksWithoutScheme is REVIEW #25: "instagram.com/name" as people copy it is a web address,
// stored with https://; a bare handle with a dot stays a handle; nothing else gains a scheme.
func TestLinksWithoutScheme(t *testing.T) {
	for _, c := range []struct {
		kind     linkKind
		in, want string
		ok       bool
	}{
		{kindURLOrHandle, "instagram.com/ahmadi.plumbing", "https://instagram.com/ahmadi.plumbing", true},
		{kindURLOrHandle, "ahmadi.plumbing", "ahmadi.plumbing", true},
		{kindURLOrHandle, "@ahmadi", "@ahmadi", true},
		{kindMessenger, "t.me/omid_plumbing", "https://t.me/omid_plumbing", true},
		{kindMessenger, "09121234567", "09121234567", true},
		{kindSite, "www.example.ir", "https://www.example.ir", true},
		{kindSite, "example.ir/about?x=1", "https://example.ir/about?x=1", true},
		{kindSite, "https://example.ir", "https://example.ir", true},
		{kindSite, "not a site", "", false},
		{kindURLOrHandle, "javascript:alert(1)", "", false},
		{kindSite, "example.ir/<script>", "", false},
	} {
		got, ok := normaliseLink(c.kind, c.in)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("%q: got %q %v, want %q %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
