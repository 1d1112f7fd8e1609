// Package auth holds the pieces of signing in that need no database: password hashing
// (argon2id), session tokens, one-time codes and the SMS senders.
package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password length bounds, in characters. The upper bound only stops absurd inputs.
const (
	PasswordMin = 8
	PasswordMax = 128
)

// Params are argon2id's cost parameters; they are stored with every hash, so raising them later
// leaves old hashes verifiable.
type Params struct {
	Memory  uint32 // KiB
	Time    uint32
	Threads uint8
	SaltLen uint32
	KeyLen  uint32
}

// DefaultParams are OWASP's floor for argon2id (19 MiB, 2 passes, 1 lane): well under 100 ms
// here.
var DefaultParams = Params{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// ErrBadHash is a stored hash that cannot be read.
var ErrBadHash = errors.New("password hash: unreadable")

// Hasher hashes and verifies passwords with at most a fixed number of hashes running at once,
// so a burst of sign-ins queues instead of taking every core and 19 MiB each.
type Hasher struct {
	params Params
	sem    chan struct{}
	// dummy is verified against when a number is unknown, so that answer takes as long as a
	// wrong password and does not reveal which numbers are registered. It is made on first use.
	dummy     string
	dummyOnce sync.Once
}

// NewHasher builds a hasher with params and at most concurrent hashes at once.
func NewHasher(params Params, concurrent int) *Hasher {
	if concurrent < 1 {
		concurrent = 1
	}
	return &Hasher{params: params, sem: make(chan struct{}, concurrent)}
}

func (h *Hasher) acquire(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("wait for password hasher: %w", err)
	}
	select {
	case h.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("wait for password hasher: %w", ctx.Err())
	}
}

func (h *Hasher) release() { <-h.sem }

// Hash answers the encoded argon2id hash of password:
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>, base64 without padding.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	salt := make([]byte, h.params.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	key := argon2.IDKey([]byte(password), salt, h.params.Time, h.params.Memory, h.params.Threads, h.params.KeyLen)
	return encode(h.params, salt, key), nil
}

// Verify reports whether password matches the encoded hash, using the parameters stored in it.
func (h *Hasher) Verify(ctx context.Context, encoded, password string) (bool, error) {
	p, salt, key, err := decode(encoded)
	if err != nil {
		return false, err
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// VerifyDummy spends the time of one verification and answers nothing: for unknown numbers.
func (h *Hasher) VerifyDummy(ctx context.Context, password string) {
	h.dummyOnce.Do(func() {
		salt := make([]byte, h.params.SaltLen)
		h.dummy = encode(h.params, salt, argon2.IDKey([]byte("kardan"), salt, h.params.Time, h.params.Memory,
			h.params.Threads, h.params.KeyLen))
	})
	h.Verify(ctx, h.dummy, password)
}

// ValidPasswordLength reports whether password has an acceptable number of characters.
func ValidPasswordLength(password string) (tooShort, tooLong bool) {
	n := utf8.RuneCountInString(password)
	return n < PasswordMin, n > PasswordMax
}

var b64 = base64.RawStdEncoding

func encode(p Params, salt, key []byte) string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, p.Memory, p.Time, p.Threads,
		b64.EncodeToString(salt), b64.EncodeToString(key))
}

// maxMemory bounds the memory a stored hash may ask for, so a tampered row cannot exhaust RAM.
const maxMemory = 1 << 20 // KiB: 1 GiB

func decode(encoded string) (Params, []byte, []byte, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return Params{}, nil, nil, ErrBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return Params{}, nil, nil, ErrBadHash
	}
	var p Params
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &p.Threads); err != nil ||
		p.Memory == 0 || p.Memory > maxMemory || p.Time == 0 || p.Time > 16 || p.Threads == 0 {
		return Params{}, nil, nil, ErrBadHash
	}
	salt, err := b64.DecodeString(parts[4])
	if err != nil || len(salt) < 8 {
		return Params{}, nil, nil, ErrBadHash
	}
	key, err := b64.DecodeString(parts[5])
	if err != nil || len(key) < 16 {
		return Params{}, nil, nil, ErrBadHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}
