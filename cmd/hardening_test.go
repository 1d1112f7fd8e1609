package cmd_test

import (
	"strings"
	"testing"
)

// TestConsoleSMSRefusedOnHTTPS is audit I1: the console sender writes live codes to the log,
// which must not happen on a public (https) server unless the operator says so.
func TestConsoleSMSRefusedOnHTTPS(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"serve", "--data", dir, "--base-url", "https://kardan.example", "--addr", "127.0.0.1:1"},
		{"serve", "--data", dir, "--base-url", "https://kardan.example", "--sms", "console", "--addr", "127.0.0.1:1"},
	} {
		if _, err := run(t, args...); err == nil || !strings.Contains(err.Error(), "--insecure-sms-console") {
			t.Errorf("%v: got %v, want a refusal naming --insecure-sms-console", args, err)
		}
	}
	if _, err := run(t, "serve", "--data", dir, "--ipv6-prefix", "129"); err == nil || !strings.Contains(err.Error(), "ipv6-prefix") {
		t.Errorf("--ipv6-prefix 129: got %v", err)
	}
}
