package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"math/big"
	"time"
)

// SessionTTL is how long a session lasts: the spec's cookie life.
const SessionTTL = 3 * 24 * time.Hour

// NewToken answers a random session token (32 bytes, base64url: 43 characters) and the hash to
// store: a stolen database then holds no usable token.
func NewToken() (token string, hash []byte, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", nil, fmt.Errorf("new token: %w", err)
	}
	token = base64.RawURLEncoding.EncodeToString(b[:])
	return token, HashToken(token), nil
}

// HashToken answers the stored form of a session token.
func HashToken(token string) []byte {
	sum := sha256.Sum256([]byte(token))
	return sum[:]
}

// One-time code rules.
const (
	CodeDigits = 6
	CodeTTL    = 2 * time.Minute
	// CodeMaxTries wrong answers burn a code.
	CodeMaxTries = 5
)

// NewCode answers a uniformly random 6-digit code.
func NewCode() (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		return "", fmt.Errorf("new code: %w", err)
	}
	return fmt.Sprintf("%06d", n.Int64()), nil
}

// HashCode answers the stored form of a code sent to phone; the number is mixed in so one table
// of a million hashes does not unlock every row.
func HashCode(phone, code string) []byte {
	sum := sha256.Sum256([]byte("kardan-otp\x00" + phone + "\x00" + code))
	return sum[:]
}

// SameHash compares two stored hashes in constant time.
func SameHash(a, b []byte) bool { return subtle.ConstantTimeCompare(a, b) == 1 }

// RandomPassword answers a new random password for `kardan user reset-password`: 16 characters
// from an alphabet without look-alikes.
func RandomPassword() (string, error) {
	const alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	b := make([]byte, 16)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			return "", fmt.Errorf("random password: %w", err)
		}
		b[i] = alphabet[n.Int64()]
	}
	return string(b), nil
}
