package api_test

import (
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
