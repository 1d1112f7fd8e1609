package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestAccountPictureKeepsOnlyThePath is audit L4: an account picture sent as a URL around one's
// own upload (another host, a tracking query, another scheme) was stored and served verbatim.
func TestAccountPictureKeepsOnlyThePath(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	up := decodePayload[uploadAnswer](t, as.upload(t, me.Token, "", "user", pngOf(t, 32, 32)))
	for _, sent := range []string{
		"https://evil.example" + up.Address + "?track=1",
		"javascript://evil.example" + up.Address,
		up.Address + "#x",
		up.Address,
	} {
		a := as.send(t, req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: fmt.Sprintf(`{"profileImage":%q}`, sent)})
		if a.Status != 200 || !strings.Contains(string(a.Payload), `"profileImage":"`+up.Address+`"`) {
			t.Fatalf("%s: got %d %s, want the stored path %s", sent, a.Status, a.Body, up.Address)
		}
		if got := decodePayload[struct {
			ProfileImage string `json:"profileImage"`
		}](t, as.send(t, req{method: "GET", path: "/v1/user", token: me.Token})).ProfileImage; got != up.Address {
			t.Fatalf("%s: stored %q", sent, got)
		}
	}
	// Someone else's upload is still refused.
	other := as.mustSignUp(t, "09127654321", "another horse")
	if a := as.send(t, req{method: "PUT", path: "/v1/user/edit", token: other.Token, body: fmt.Sprintf(`{"profileImage":%q}`, up.Address)}); a.Status != 400 {
		t.Fatalf("another's upload: got %d", a.Status)
	}
}

// TestCommonPasswordsRefused is audit L8 through the API: "12345678" and "aaaaaaaa" were taken
// as new passwords.
func TestCommonPasswordsRefused(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	for _, pw := range []string{"12345678", "aaaaaaaa", "Password1", "QWERTYUIOP"} {
		as.wantError(t, req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: fmt.Sprintf(`{"password":%q}`, pw)},
			400, "رایج‌ترین", "one of the most common")
	}
	as.sendCode(t, "09127654321", "")
	as.wantError(t, req{method: "POST", path: "/v1/user/create",
		body: fmt.Sprintf(`{"numberPhone":"09127654321","name":"x","password":"iloveyou","otpCode":%q}`, as.SMS.code("09127654321"))},
		400, "رایج‌ترین", "one of the most common")
}
