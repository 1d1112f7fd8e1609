package api_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// burst sends n requests at once: every goroutine builds its request, then waits on one channel
// whose close releases them together, the way lastbyte.py holds back each request's last byte.
// It answers the statuses in request order (0 when the request itself failed).
func burst(t testing.TB, n int, build func(i int) *http.Request) []int {
	t.Helper()
	codes := make([]int, n)
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	defer client.CloseIdleConnections()
	reqs := make([]*http.Request, n)
	for i := range reqs {
		reqs[i] = build(i)
	}
	for i := 0; i < n; i++ {
		ready.Add(1)
		done.Add(1)
		go func(i int) {
			defer done.Done()
			ready.Done()
			<-start
			res, err := client.Do(reqs[i])
			if err != nil {
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			codes[i] = res.StatusCode
		}(i)
	}
	ready.Wait()
	close(start)
	done.Wait()
	return codes
}

func countCodes(codes []int) map[int]int {
	m := map[int]int{}
	for _, c := range codes {
		m[c]++
	}
	return m
}

// jsonRequest builds a JSON request as a client at address ip (through the trusted proxy).
func (as *accountServer) jsonRequest(method, path, body, token, ip string) *http.Request {
	r, _ := http.NewRequest(method, as.URL+path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if ip != "" {
		r.Header.Set("X-Forwarded-For", ip)
	}
	return r
}

// TestLoginBurstChecksOnlyTheAllowance is audit H1: 100 logins for one number from one address,
// released at once, the right password 61st. Before, every one was verified and the right one
// signed in; now only the allowance is checked and the rest are refused before the hasher.
func TestLoginBurstChecksOnlyTheAllowance(t *testing.T) {
	as := newAccountServer(t)
	as.mustSignUp(t, "09121234567", "correct horse")
	codes := burst(t, 100, func(i int) *http.Request {
		pw := fmt.Sprintf("guess-%04d", i)
		if i == 60 {
			pw = "correct horse"
		}
		return as.jsonRequest("POST", "/v1/user/login", fmt.Sprintf(`{"numberPhone":"09121234567","password":%q}`, pw), "", "198.51.100.23")
	})
	c := countCodes(codes)
	verified := c[400] + c[200]
	t.Logf("H1: 100-request burst: %d passwords verified, %d refused (429); right password -> %d", verified, c[429], codes[60])
	if verified > 5 || c[429]+verified != 100 {
		t.Fatalf("got %v, want at most 5 passwords verified (the number-and-address allowance) and the rest 429", c)
	}
	// Afterwards, the owner from another address is not locked out for the window.
	as.Clock.advance(2 * time.Second)
	if a := as.login(t, "09121234567", "correct horse", "203.0.113.9"); a.Status != 200 {
		t.Fatalf("owner after the burst: %d %s", a.Status, a.Body)
	}
}

// TestLoginBurstAcrossNumbersHoldsTheAddressLimit: 100 logins from one address for 100
// numbers, released at once; at most the address's 20 failures are verified.
func TestLoginBurstAcrossNumbersHoldsTheAddressLimit(t *testing.T) {
	as := newAccountServer(t)
	codes := burst(t, 100, func(i int) *http.Request {
		return as.jsonRequest("POST", "/v1/user/login", fmt.Sprintf(`{"numberPhone":"0919%07d","password":"guess-guess"}`, i), "", "198.51.100.24")
	})
	if c := countCodes(codes); c[400] > 20 || c[400]+c[429] != 100 {
		t.Fatalf("got %v, want at most 20 verified and the rest 429", c)
	}
}

// TestContactBurstHoldsTheLimit is audit L1: 40 contact messages from one account at once, and
// 40 from one anonymous address; the limit is 5 per hour each.
func TestContactBurstHoldsTheLimit(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	codes := burst(t, 40, func(i int) *http.Request {
		return as.jsonRequest("POST", "/v1/critics-and-suggestions/addWithAuth",
			fmt.Sprintf(`{"subject":"race %d","message":"race message %d"}`, i, i), me.Token, "")
	})
	if c := countCodes(codes); c[200] != 5 || c[429] != 35 {
		t.Fatalf("got %v, want exactly 5 accepted and 35 refused", c)
	}
	anon := burst(t, 40, func(i int) *http.Request {
		return as.jsonRequest("POST", "/v1/critics-and-suggestions/add",
			fmt.Sprintf(`{"name":"x","subject":"race %d","message":"race message %d"}`, i, i), "", "198.51.100.40")
	})
	if c := countCodes(anon); c[200] != 5 || c[429] != 35 {
		t.Fatalf("anonymous: got %v, want exactly 5 accepted and 35 refused", c)
	}
}

// TestUploadBurstHoldsTheLimit is audit L1: 150 uploads from one account at once; the limit is
// 100 per hour.
func TestUploadBurstHoldsTheLimit(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	codes := burst(t, 150, func(i int) *http.Request {
		ct, body := multipartUpload("user", pngOf(t, 8+i%40, 8+i/40))
		r, _ := http.NewRequest("POST", as.URL+"/v1/upload-file", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+me.Token)
		return r
	})
	if c := countCodes(codes); c[200] != 100 || c[429] != 50 {
		t.Fatalf("got %v, want exactly 100 accepted and 50 refused", c)
	}
}

// TestSignupIsNoAccountOracle is audit M2: sign-up answered 409 for registered numbers and 400
// for the rest, with no limit, so 1,200 probes found every account. Now registered and
// unregistered numbers get the same status and body (the number aside) from both sign-up
// routes, and the per-address limits apply to both alike.
func TestSignupIsNoAccountOracle(t *testing.T) {
	as := newAccountServer(t)
	const n = 10
	for i := 0; i < n; i++ {
		as.mustSignUp(t, fmt.Sprintf("0935000%04d", i), "long enough")
	}
	as.Clock.advance(time.Hour)
	alike, probes := 0, 0
	same := func(reg, unreg answer, regPhone, unregPhone string) {
		t.Helper()
		probes += 2
		ub := strings.ReplaceAll(unreg.Body, unregPhone, regPhone)
		ub = strings.ReplaceAll(ub, faDigits(unregPhone), faDigits(regPhone))
		if reg.Status != unreg.Status || reg.Body != ub {
			t.Errorf("registered %s: %d %s; unregistered %s: %d %s", regPhone, reg.Status, reg.Body, unregPhone, unreg.Status, unreg.Body)
			return
		}
		alike += 2
	}
	for i := 0; i < n; i++ {
		reg, unreg := fmt.Sprintf("0935000%04d", i), fmt.Sprintf("0936000%04d", i)
		ip := fmt.Sprintf("10.8.0.%d", i)
		same(as.sendCode(t, reg, ip), as.sendCode(t, unreg, ip), reg, unreg)
		create := func(phone string) answer {
			return as.send(t, req{method: "POST", path: "/v1/user/create", ip: ip,
				body: fmt.Sprintf(`{"numberPhone":%q,"name":"x","password":"long enough x","otpCode":"000000"}`, phone)})
		}
		same(create(reg), create(unreg), reg, unreg)
	}
	// One address's sign-up SMS allowance (20 an hour) is used the same way by both kinds.
	for i := 0; i < 10; i++ {
		reg, unreg := fmt.Sprintf("0935000%04d", i), fmt.Sprintf("0937000%04d", i)
		as.Clock.advance(time.Minute)
		same(as.sendCode(t, reg, "10.9.0.1"), as.sendCode(t, unreg, "10.9.0.1"), reg, unreg)
	}
	as.Clock.advance(time.Minute)
	same(as.sendCode(t, "09350000001", "10.9.0.1"), as.sendCode(t, "09380000001", "10.9.0.1"), "09350000001", "09380000001")
	if a := as.sendCode(t, "09350000002", "10.9.0.1"); a.Status != 429 {
		t.Fatalf("21st send from one address: got %d, want 429", a.Status)
	}
	// Code answers are limited per address before anything is looked up.
	codes := burst(t, 120, func(i int) *http.Request {
		return as.jsonRequest("POST", "/v1/user/create",
			fmt.Sprintf(`{"numberPhone":"0935%07d","name":"x","password":"long enough x","otpCode":"000000"}`, i), "", "10.9.0.2")
	})
	if c := countCodes(codes); c[429] != 20 || c[400] != 100 {
		t.Fatalf("120 code answers from one address: got %v, want 100 answered and 20 refused", c)
	}
	t.Logf("M2: %d of %d sign-up probes answered alike for registered and unregistered numbers", alike, probes)
	if alike != probes {
		t.Fatalf("%d of %d probes answered alike", alike, probes)
	}
}

func faDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '۰' + (r - '0')
		}
		return r
	}, s)
}

// TestIPv6ClientsCountByPrefix is audit M3: one IPv6 client picks any address in its /64, so
// per-address limits key on the prefix.
func TestIPv6ClientsCountByPrefix(t *testing.T) {
	as := newAccountServer(t)
	codes := make([]int, 25)
	for i := range codes {
		codes[i] = as.sendCode(t, fmt.Sprintf("0938%07d", i), fmt.Sprintf("2001:db8:9:9::%x", i+1)).Status
	}
	if c := countCodes(codes); c[200] != 20 || c[429] != 5 {
		t.Fatalf("25 sends from one /64: got %v, want 20 sent and 5 refused", c)
	}
	if a := as.sendCode(t, "09389999999", "2001:db8:9:a::1"); a.Status != 200 {
		t.Fatalf("the next /64: %d %s", a.Status, a.Body)
	}
	for i := 0; i < 5; i++ {
		as.send(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: fmt.Sprintf("2001:db8:5:5:%x::1", i),
			body: fmt.Sprintf(`{"name":"x","subject":"subject %d","message":"a message %d"}`, i, i)})
	}
	a := as.send(t, req{method: "POST", path: "/v1/critics-and-suggestions/add", ip: "2001:db8:5:5:ffff::1",
		body: `{"name":"x","subject":"subject","message":"a message"}`})
	if a.Status != 429 {
		t.Fatalf("6th contact message from one /64: got %d, want 429", a.Status)
	}
}

// progressiveJPEG40MP is the audit's M1 upload: 6324×6324 progressive, DC scan only, no end
// marker (the "damaged" variant that was decoded in full and then not counted).
func progressiveJPEG40MP() []byte {
	const w, h = 6324, 6324
	var b bytes.Buffer
	b.Write([]byte{0xFF, 0xD8})
	seg := func(m byte, data []byte) {
		b.Write([]byte{0xFF, m, byte((len(data) + 2) >> 8), byte(len(data) + 2)})
		b.Write(data)
	}
	seg(0xDB, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	seg(0xC2, []byte{8, h >> 8, h & 0xFF, w >> 8, w & 0xFF, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0})
	seg(0xC4, []byte{0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	seg(0xDA, []byte{3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0})
	b.Write(make([]byte, (((w+7)/8)*((h+7)/8)*3+7)/8+16))
	return b.Bytes()
}

// TestCostlyAndDamagedUploadsCount is audit M1 through the API: the progressive 40 MP JPEG is
// refused with its own message before decoding, and refused or damaged uploads count against
// the hourly limit like stored ones.
func TestCostlyAndDamagedUploadsCount(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	bomb := progressiveJPEG40MP()
	checkError(t, as.upload(t, me.Token, "en", "user", bomb), 400, "too much memory")
	checkError(t, as.upload(t, me.Token, "fa", "user", bomb), 400, "حافظه")
	damaged := pngOf(t, 64, 64)
	damaged = damaged[:len(damaged)-20]
	for i := 0; i < 98; i++ {
		if a := as.upload(t, me.Token, "en", "user", damaged); a.Status != 400 {
			t.Fatalf("damaged upload %d: %d %s", i, a.Status, a.Body)
		}
	}
	checkError(t, as.upload(t, me.Token, "en", "user", pngOf(t, 8, 8)), 429, "seconds")
}

// TestDraftFloodIsCapped is audit M4 over HTTP: 150 drafts of 99 KB from one account went
// through in 2.4 s; a burst now gets the hourly allowance and a localized 429 for the rest.
func TestDraftFloodIsCapped(t *testing.T) {
	w := newCommunityWorld(t)
	content := "<p>" + strings.Repeat("lorem ipsum dolor sit amet ", 3700)[:99000] + "</p>"
	codes := burst(t, 30, func(i int) *http.Request {
		return w.jsonRequest("POST", "/v1/blog/add",
			fmt.Sprintf(`{"title":"flood %d","content":%q,"category_list":[101],"isDraft":true}`, i, content), w.owner, "")
	})
	if c := countCodes(codes); c[200] != 20 || c[429] != 10 {
		t.Fatalf("30 drafts at once: got %v, want 20 stored and 10 refused", c)
	}
	w.wantError(t, req{method: "POST", path: "/v1/blog/add", token: w.owner,
		body: fmt.Sprintf(`{"title":"flood x","content":%q,"category_list":[101],"isDraft":true}`, content)},
		429, "در هر ساعت حداکثر ۲۰ مقاله", "at most 20 articles or drafts an hour")
}
