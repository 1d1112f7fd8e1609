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
