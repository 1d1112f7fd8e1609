package api

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"kardan/store"
)

// The limiting mechanism, in two parts (README "Limits"):
//   - store.RateReserve counts and records in one write transaction, before the work, so a
//     synchronised burst cannot slip past a limit the way a check-then-record pair let it;
//   - inFlight caps how many requests per key do expensive work at the same moment, so one
//     client's burst cannot queue everybody else behind it.
// Per-address limits key on addrKeyOf(r): an IPv4 address, or an IPv6 client's whole prefix.

// defaultIPv6Prefix is how many leading bits of an IPv6 address name one client: a home or
// phone line is given a /64 and can pick any address inside it.
const defaultIPv6Prefix = 64

// addrKey answers the rate-limit key of a client address: IPv4 (and IPv4-mapped IPv6) as is,
// IPv6 cut to its first bits bits ("2001:db8:1:2::/64"), anything unparsable as given.
func addrKey(addr string, bits int) string {
	ip := net.ParseIP(addr)
	if ip == nil {
		return addr
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	if bits <= 0 || bits > 128 {
		bits = defaultIPv6Prefix
	}
	return ip.Mask(net.CIDRMask(bits, 128)).String() + "/" + strconv.Itoa(bits)
}

// addrKeyOf answers the rate-limit key of r's client (see addrKey).
func (s *Server) addrKeyOf(r *http.Request) string {
	return addrKey(clientIPOf(r), s.cfg.IPv6Prefix)
}

// inFlight caps concurrent work per key. The zero value is unusable; make one with newInFlight.
type inFlight struct {
	max int
	mu  sync.Mutex
	n   map[string]int
}

func newInFlight(max int) *inFlight { return &inFlight{max: max, n: map[string]int{}} }

// enter takes a place for every key, or none when any key already has max requests running.
// The caller must call leave (once) when ok.
func (f *inFlight) enter(keys ...string) (leave func(), ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range keys {
		if f.n[k] >= f.max {
			return nil, false
		}
	}
	for _, k := range keys {
		f.n[k]++
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			for _, k := range keys {
				if f.n[k]--; f.n[k] <= 0 {
					delete(f.n, k)
				}
			}
		})
	}, true
}

// busy is the 429 for a client that already has its allowance of work running: it may retry
// in a second.
func busy() error { return store.TooMany(1) }

// loginVerifyInFlight is how many password checks one number, or one client address, may have
// running at once; beyond it a login is refused before it waits for the hasher.
const loginVerifyInFlight = 2

// loginLimits are the failed sign-ins allowed (README "Limits"). A failure counts against the
// number from this address, the address, and the number from anywhere; only the last is
// shared with strangers, and it slows down (a growing wait capped at a minute) instead of
// blocking, so failures by someone else never lock the owner out.
func loginLimits(phone, addr string) []store.Limit {
	return []store.Limit{
		{Kind: "login_fail_pair", Key: phone + "|" + addr, Max: 5, Window: 15 * time.Minute, Backoff: 30 * time.Second},
		{Kind: "login_fail_ip", Key: addr, Max: 20, Window: 15 * time.Minute},
		{Kind: "login_fail_phone", Key: phone, Max: 10, Window: 15 * time.Minute, Backoff: time.Second, BackoffMax: time.Minute},
	}
}

// signupTryLimit is how many sign-up code answers (right or wrong) one client address may send
// per hour: a code is tried at most 5 times, and an address is sent at most 20 codes an hour.
func signupTryLimit(addr string) store.Limit {
	return store.Limit{Kind: "signup_try_ip", Key: addr, Max: 100, Window: time.Hour}
}
