package cmd

import (
	"fmt"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

func newServeCmd(g *Globals) *cobra.Command {
	var cfg ServeConfig
	var proxies, clockStart string
	fromEnv := &envReader{}
	c := &cobra.Command{
		Use:          "serve",
		Short:        "Serve the API, the web app and the uploaded images on one port",
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		PreRunE:      func(*cobra.Command, []string) error { return fromEnv.Err() },
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg.TrustedProxies = strings.Split(proxies, ",")
			if clockStart != "" {
				start, err := time.Parse(time.RFC3339, clockStart)
				if err != nil {
					return fmt.Errorf("--clock: %w", err)
				}
				t0 := time.Now()
				cfg.Clock = func() time.Time { return start.Add(time.Since(t0)) }
			}
			// A line a request: they are written in batches (logbuffer.go).
			logs, err := bufferLogs(g.Err, g.LogLevel)
			if err != nil {
				return err
			}
			defer logs.Flush()
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			app, err := Open(ctx, g, cfg)
			if err != nil {
				return err
			}
			if err := app.Listen(); err != nil {
				app.Close()
				return err
			}
			fmt.Fprintf(g.Out, "Kardan is running at %s\n", app.URL())
			if u := app.MetricsURL(); u != "" {
				fmt.Fprintf(g.Out, "Metrics at %s\n", u)
			}
			app.printFirstRun(g.Out)
			runErr := app.Run(ctx)
			if err := app.Close(); err != nil && runErr == nil {
				runErr = err
			}
			return runErr
		},
	}
	addSharedFlags(c, &cfg, &proxies, fromEnv)
	f := c.Flags()
	f.StringVar(&cfg.Moderation, "moderation", env("MODERATION", "pre"), "pre: new profiles and blogs wait for an admin; off: published at once (env KARDAN_MODERATION)")
	f.StringVar(&cfg.Tiles, "tiles", env("TILES", "https://tile.openstreetmap.org/{z}/{x}/{y}.png"), "map tile URL template (env KARDAN_TILES)")
	f.StringVar(&cfg.SMSNoticeTemplate, "sms-notice-template", env("SMS_NOTICE_TEMPLATE", ""), "Kavenegar template telling a number that asked to sign up that it already has an account (env KARDAN_SMS_NOTICE_TEMPLATE)")
	f.StringVar(&cfg.SMSLeadTemplate, "sms-lead-template", env("SMS_LEAD_TEMPLATE", "new_lead"), "Kavenegar template telling a professional of a new request for a price; tokens: profile name, what (env KARDAN_SMS_LEAD_TEMPLATE)")
	f.StringVar(&cfg.SMSModerationTemplate, "sms-moderation-template", env("SMS_MODERATION_TEMPLATE", "moderation"), "Kavenegar template telling an owner the moderators' decision; tokens: title, status (env KARDAN_SMS_MODERATION_TEMPLATE)")
	f.IntVar(&cfg.SMSPerDay, "sms-per-day", fromEnv.Int("SMS_PER_DAY", 5), "notice SMS (new lead, moderation) one user gets per day at most (env KARDAN_SMS_PER_DAY)")
	f.BoolVar(&cfg.InsecureSMSConsole, "insecure-sms-console", fromEnv.Bool("INSECURE_SMS_CONSOLE", false), "allow --sms console (codes in the log) with an https --base-url (env KARDAN_INSECURE_SMS_CONSOLE)")
	f.IntVar(&cfg.FormCacheMiB, "form-cache-mib", fromEnv.Int("FORM_CACHE_MIB", 96), "memory for the cache of encoded profiles that searches and profile pages answer from, in MiB (env KARDAN_FORM_CACHE_MIB)")
	f.IntVar(&cfg.IPv6Prefix, "ipv6-prefix", fromEnv.Int("IPV6_PREFIX", 64), "leading bits of an IPv6 address that rate limits count as one client (env KARDAN_IPV6_PREFIX)")
	f.DurationVar(&cfg.ShutdownTimeout, "shutdown-timeout", fromEnv.Duration("SHUTDOWN_TIMEOUT", 0), "how long in-flight requests may finish after SIGTERM (default 10s; env KARDAN_SHUTDOWN_TIMEOUT)")
	f.IntVar(&cfg.BackupKeep, "backup-keep", fromEnv.Int("BACKUP_KEEP", 7), "how many scheduled backups to keep (env KARDAN_BACKUP_KEEP)")
	f.Float64Var(&cfg.SearchRate, "search-rate", fromEnv.Float("SEARCH_RATE", 30), "search requests per second allowed to one client address (0: no limit; env KARDAN_SEARCH_RATE)")
	f.IntVar(&cfg.SearchBurst, "search-burst", fromEnv.Int("SEARCH_BURST", 60), "search requests one client address may make at once before --search-rate applies (env KARDAN_SEARCH_BURST)")
	f.BoolVar(&cfg.Metrics, "metrics", fromEnv.Bool("METRICS", false), "serve GET /metrics in Prometheus text format on --metrics-addr (env KARDAN_METRICS)")
	f.StringVar(&cfg.MetricsAddr, "metrics-addr", env("METRICS_ADDR", ""), "address of the metrics listener, apart from --addr (default "+DefaultMetricsAddr+" with --metrics; setting it turns metrics on; env KARDAN_METRICS_ADDR)")
	// Browser journeys fix the browser's clock (a Saturday morning) and the server must agree, since
	// open statuses are the server's: the clock starts at this instant and runs on. Hidden: an
	// operator has no use for it.
	f.StringVar(&clockStart, "clock", "", "for tests: start the server's clock at this RFC 3339 instant")
	_ = f.MarkHidden("clock")
	f.StringVar(&cfg.StatsSecret, "stats-secret", env("STATS_SECRET", ""), "on PostgreSQL, the secret (16+ random characters, the same on every replica) the statistics' daily visitor key derives from, so a visitor counts once across replicas; never stored in the database (env KARDAN_STATS_SECRET)")
	f.IntVar(&cfg.ConnsPerAddr, "conns-per-addr", fromEnv.Int("CONNS_PER_ADDR", 128), "open connections one client address may hold; trusted proxies and loopback are not capped (0: no cap; env KARDAN_CONNS_PER_ADDR)")
	return c
}

// addSharedFlags binds to c the flags doctor shares with serve, with serve's defaults and
// KARDAN_* fallbacks: doctor checks the configuration serve would run with.
func addSharedFlags(c *cobra.Command, cfg *ServeConfig, proxies *string, fromEnv *envReader) {
	f := c.Flags()
	f.StringVar(&cfg.Addr, "addr", env("ADDR", "127.0.0.1:8080"), "address to listen on (env KARDAN_ADDR)")
	f.StringVar(&cfg.BaseURL, "base-url", env("BASE_URL", "http://127.0.0.1:8080"), "public address, for links, sitemaps and HSTS (env KARDAN_BASE_URL)")
	f.StringVar(&cfg.Timezone, "timezone", env("TIMEZONE", "Asia/Tehran"), "time zone for opening hours and release dates (env KARDAN_TIMEZONE)")
	f.StringVar(&cfg.SMS, "sms", env("SMS", "console"), "SMS sender: console, file:PATH or kavenegar (env KARDAN_SMS)")
	f.StringVar(&cfg.SMSKey, "sms-key", env("SMS_KEY", ""), "Kavenegar API key (env KARDAN_SMS_KEY)")
	f.StringVar(&cfg.SMSTemplate, "sms-template", env("SMS_TEMPLATE", ""), "Kavenegar verify-lookup template (env KARDAN_SMS_TEMPLATE)")
	f.StringVar(proxies, "trusted-proxy", env("TRUSTED_PROXY", ""), "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is believed (env KARDAN_TRUSTED_PROXY)")
	f.StringVar(&cfg.UploadsPublicURL, "uploads-public-url", env("UPLOADS_PUBLIC_URL", ""), "redirect GET /uploads/KEY to this URL + /KEY (a CDN in front of the --uploads bucket) instead of streaming images (env KARDAN_UPLOADS_PUBLIC_URL)")
	f.DurationVar(&cfg.BackupEvery, "backup-every", fromEnv.Duration("BACKUP_EVERY", 0), "write a backup into backups/ this often, e.g. 24h (0: off; env KARDAN_BACKUP_EVERY)")
}
