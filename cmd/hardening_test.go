package cmd_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"kardan/cmd"
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
	for _, mib := range []string{"-1", "65537"} {
		if _, err := run(t, "serve", "--data", dir, "--form-cache-mib", mib); err == nil || !strings.Contains(err.Error(), "form-cache-mib") {
			t.Errorf("--form-cache-mib %s: got %v", mib, err)
		}
	}
}

// TestMetricsOnTheirOwnListener is audit I3: /metrics was served to anyone on the public
// listener. It is now served on --metrics-addr only.
func TestMetricsOnTheirOwnListener(t *testing.T) {
	dir := t.TempDir()
	g := &cmd.Globals{DataDir: dir, Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre", Timezone: "Asia/Tehran",
		MetricsAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- app.Run(ctx) }()
	defer func() { cancel(); <-done }()
	get := func(u string) (int, string) {
		for i := 0; ; i++ {
			res, err := http.Get(u)
			if err != nil {
				if i > 100 {
					t.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond)
				continue
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return res.StatusCode, string(b)
		}
	}
	if code, body := get(app.MetricsURL()); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("metrics listener: %d %.200s", code, body)
	}
	if _, body := get(app.URL() + "/metrics"); strings.Contains(body, "go_goroutines") {
		t.Fatal("the public listener serves the metrics")
	}
}
