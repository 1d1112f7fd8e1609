package cmd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"kardan/api"
	"kardan/auth"
	"kardan/media"
	"kardan/search"
	"kardan/setup"
	"kardan/store"
)

// ServeConfig is everything `kardan serve` is told.
type ServeConfig struct {
	Addr        string
	BaseURL     string
	Moderation  string
	Timezone    string
	Tiles       string
	SMS         string
	SMSKey      string
	SMSTemplate string
	// SMSNoticeTemplate is Kavenegar's template for notices (an account already exists).
	SMSNoticeTemplate string
	// SMSLeadTemplate and SMSModerationTemplate are Kavenegar's templates of the notice SMS
	// (a new lead, a moderation decision); empty uses the kind's name.
	SMSLeadTemplate       string
	SMSModerationTemplate string
	// SMSPerDay bounds the notice SMS one user gets per day.
	SMSPerDay int
	// InsecureSMSConsole lets --sms console run with an https base URL, where it would put
	// live codes in a production log.
	InsecureSMSConsole bool
	// IPv6Prefix is how many leading bits of an IPv6 address count as one client.
	IPv6Prefix int
	// FormCacheMiB bounds the cache of encoded profile forms, in MiB.
	FormCacheMiB   int
	TrustedProxies []string
	// ShutdownTimeout bounds how long in-flight requests may run after a stop signal.
	ShutdownTimeout time.Duration
	// BackupEvery is how often a backup is written into backups/ (0: never); BackupKeep is how
	// many of them are kept.
	BackupEvery time.Duration
	BackupKeep  int
	// Metrics collects Prometheus metrics, served on MetricsAddr (never on Addr).
	Metrics bool
	// MetricsAddr is the metrics listener's address; setting it turns Metrics on.
	MetricsAddr string
	// ConnsPerAddr caps the open connections of one client address (0: no cap); trusted
	// proxies and loopback are not capped.
	ConnsPerAddr int
	// SearchRate and SearchBurst limit search requests per client address (0: no limit).
	SearchRate  float64
	SearchBurst int
	// UploadsPublicURL, when set, is where GET /uploads/KEY redirects (URL + "/" + KEY): a CDN
	// serving the bucket, so image bytes do not pass through Kardan.
	UploadsPublicURL string
	// StatsSecret is the cluster's secret the statistics' daily visitor key derives from on
	// PostgreSQL: the same on every replica, kept in the configuration and never in the database.
	StatsSecret string
	// Clock is the server's clock (nil: time.Now): the store's, the API's (open statuses, open
	// now) and the setup link's; tests move it past the link's hour, journeys start it on a
	// given day (serve --clock).
	Clock func() time.Time
	// IndexWhileServingFrom is how many visible profiles make serve build a missing or outdated
	// search index while it answers, rather than before (0: indexWhileServingFrom; tests lower it).
	IndexWhileServingFrom int
}

// indexWhileServingFrom is IndexWhileServingFrom's default: 20,000 profiles take some 5 s to
// index on two cores, a million four minutes, during which the whole site would be down.
const indexWhileServingFrom = 20_000

// App is a running Kardan: the store, the HTTP server and the background work. `serve` and the
// end-to-end tests both use it.
type App struct {
	g     *Globals
	cfg   ServeConfig
	Store *store.Store
	API   *api.Server
	// Search is the search index, fed from the store's outbox; nil until a large index being
	// built while serving is ready (Run).
	Search *search.Index
	// loc is the operator's time zone, which the index takes once built.
	loc *time.Location
	// Storage is where images are kept: uploads/ or the --uploads bucket.
	Storage media.Storage
	// Handler is what the HTTP server runs: the API, unless a test wraps it.
	Handler http.Handler
	// Setup is the one-time page that creates the first administrator: nil once one exists, or
	// when a loopback address is a trusted proxy (no request could prove it is local).
	Setup      *setup.Page
	setupToken string
	// noAdmin is true when the database had no administrator at start.
	noAdmin  bool
	listener net.Listener
	http     *http.Server
	proxies  []*net.IPNet
	// metricsLn and metricsSrv serve /metrics apart from the public listener.
	metricsLn  net.Listener
	metricsSrv *http.Server
	wg         sync.WaitGroup
}

// Open opens the data directory and builds the server, without listening yet.
func Open(ctx context.Context, g *Globals, cfg ServeConfig) (*App, error) {
	if cfg.Moderation != "pre" && cfg.Moderation != "off" {
		return nil, fmt.Errorf("--moderation %q: use pre or off", cfg.Moderation)
	}
	loc, err := time.LoadLocation(cfg.Timezone)
	if err != nil {
		return nil, fmt.Errorf("--timezone %q: %w", cfg.Timezone, err)
	}
	proxies, err := api.ParseCIDRs(cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	if cfg.MetricsAddr != "" {
		cfg.Metrics = true
	} else if cfg.Metrics {
		cfg.MetricsAddr = DefaultMetricsAddr
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 10 * time.Second
	}
	if (cfg.SMS == "" || cfg.SMS == "console") && strings.HasPrefix(cfg.BaseURL, "https://") && !cfg.InsecureSMSConsole {
		return nil, errors.New("--sms console writes sign-in codes to the log: with an https --base-url choose --sms kavenegar (or file:PATH), or pass --insecure-sms-console")
	}
	if cfg.IPv6Prefix < 0 || cfg.IPv6Prefix > 128 {
		return nil, fmt.Errorf("--ipv6-prefix %d: use 1 to 128 (64 is one home or phone line)", cfg.IPv6Prefix)
	}
	if cfg.FormCacheMiB < 0 || cfg.FormCacheMiB > 1<<16 {
		return nil, fmt.Errorf("--form-cache-mib %d: use 1 to 65536 (0: the default, 96)", cfg.FormCacheMiB)
	}
	sms, err := auth.NewSender(cfg.SMS, cfg.SMSKey, cfg.SMSTemplate, cfg.SMSNoticeTemplate)
	if err != nil {
		return nil, err
	}
	publicURL, err := checkPublicURL(cfg.UploadsPublicURL)
	if err != nil {
		return nil, err
	}
	uploads, err := g.OpenStorage(ctx)
	if err != nil {
		return nil, err
	}
	if err := checkBackupFlags(cfg); err != nil {
		return nil, err
	}
	if g.OnPostgres() && cfg.BackupEvery > 0 {
		return nil, fmt.Errorf("--backup-every: %w", errBackupOnPostgres)
	}
	if !g.OnPostgres() && !store.StablePlans() {
		slog.Warn("this binary's SQLite was built without -DSQLITE_ENABLE_QPSG: it compiles many statements again at every call, so reads are slower; build with make (it sets CGO_CFLAGS)")
	}
	if g.OnPostgres() && cfg.StatsSecret == "" {
		slog.Warn("statistics: no --stats-secret (KARDAN_STATS_SECRET): each replica keeps its own visitor key, so a visitor reaching several replicas may count once on each; give every replica the same secret")
	}
	if err := backupBeforeMigrate(ctx, g); err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, g.DBPath())
	if err != nil {
		return nil, err
	}
	if cfg.Clock != nil {
		st.Now = cfg.Clock
	}
	a := &App{g: g, cfg: cfg, Store: st, Storage: uploads, proxies: proxies}
	// A first start finds an empty database, and an upgrade may bring newer reference data:
	// either way the binary's provinces, cities and categories are applied before anything reads
	// them (the search index included).
	if n, err := applyReference(ctx, st); err != nil {
		st.Close()
		return nil, err
	} else if n.Changed() {
		slog.Info("reference data applied", "provinces", n.Provinces, "counties", n.Counties, "cities", n.Cities,
			"categories", n.Categories, "profiles moved", n.Profiles, "skipped for operators' rows", n.Skipped)
	}
	a.loc = loc
	if a.Search, err = a.openSearch(ctx); err != nil {
		st.Close()
		return nil, err
	}
	a.API, err = api.New(api.Config{
		BaseURL:        strings.TrimSuffix(cfg.BaseURL, "/"),
		Tiles:          cfg.Tiles,
		Moderation:     cfg.Moderation,
		Location:       loc,
		Now:            cfg.Clock,
		TrustedProxies: proxies,
		Web:            g.Web,
		Search:         a.Search,
		SearchBuilding: a.Search == nil,
		SMS:            sms,
		SMSTemplates:   map[string]string{"new_lead": cfg.SMSLeadTemplate, "moderation": cfg.SMSModerationTemplate},
		SMSPerDay:      cfg.SMSPerDay,
		Uploads:        uploads,
		UploadsURL:     publicURL,
		ShareCards:     g.CardsDir(),
		Metrics:        cfg.Metrics,
		SearchRate:     cfg.SearchRate,
		SearchBurst:    cfg.SearchBurst,
		IPv6Prefix:     cfg.IPv6Prefix,
		FormCacheBytes: int64(cfg.FormCacheMiB) << 20,
		StatsSecret:    []byte(cfg.StatsSecret),
	}, st)
	if err != nil {
		a.Close()
		return nil, err
	}
	a.Handler = a.API
	if err := a.openSetup(ctx, proxies); err != nil {
		a.Close()
		return nil, err
	}
	// Opening made its garbage all at once (reading the facts of every profile, checking the
	// index): at a million profiles the runtime kept over 200 MiB of heap it no longer used,
	// handing it back to the system over minutes. Returned now, once.
	debug.FreeOSMemory()
	return a, nil
}

// openSearch opens the search index, building it first when it is missing or outdated and
// small; a large one is left to Run to build while serving (nil here).
func (a *App) openSearch(ctx context.Context) (*search.Index, error) {
	ix, err := search.OpenBuilt(ctx, a.g.IndexDir(), a.Store)
	if errors.Is(err, search.ErrNotBuilt) {
		n, cerr := a.Store.VisibleProfiles(ctx)
		if cerr != nil {
			return nil, cerr
		}
		from := a.cfg.IndexWhileServingFrom
		if from <= 0 {
			from = indexWhileServingFrom
		}
		if n >= from {
			slog.Warn("search index missing or outdated: serving at once and building it meanwhile; until it is ready, "+
				"browsing is answered from the database and other searches with 503", "profiles", n, "why", err)
			return nil, nil
		}
		ix, err = search.Open(ctx, a.g.IndexDir(), a.Store)
	}
	if err != nil {
		return nil, err
	}
	ix.Location = a.loc
	return ix, nil
}

// buildSearch builds the search index while the app serves, hands it to the API and then feeds
// it from the outbox until ctx ends. A failed build is tried again a minute later; a stop
// midway leaves the old index (or none) for the next start, as `kardan reindex` would.
func (a *App) buildSearch(ctx context.Context) {
	for {
		start := time.Now()
		ix, err := search.Open(ctx, a.g.IndexDir(), a.Store)
		if err == nil {
			ix.Location = a.loc
			a.Search = ix
			a.API.SetSearch(ix)
			slog.Info("search index built: every search answers again", "took", time.Since(start).Round(time.Millisecond))
			debug.FreeOSMemory() // the build's garbage, as Open returns its own (see there)
			ix.Run(ctx)
			return
		}
		if ctx.Err() != nil {
			return
		}
		slog.Error("build the search index: trying again in a minute", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Minute):
		}
	}
}

// Listen binds the address; with port 0 the kernel picks a free one (tests).
func (a *App) Listen() error {
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Addr, err)
	}
	a.listener = api.GatherWrites(api.LimitConns(ln, a.cfg.ConnsPerAddr, a.proxies, a.cfg.IPv6Prefix, true))
	if a.cfg.Metrics && a.API.MetricsHandler() != nil {
		mln, err := net.Listen("tcp", a.cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("listen for metrics on %s: %w", a.cfg.MetricsAddr, err)
		}
		a.metricsLn = mln
	}
	return nil
}

// DefaultMetricsAddr is where --metrics serves /metrics without --metrics-addr: the machine
// itself only.
const DefaultMetricsAddr = "127.0.0.1:9464"

// MetricsURL is the metrics listener's /metrics address, or "" without metrics.
func (a *App) MetricsURL() string {
	if a.metricsLn == nil {
		return ""
	}
	return "http://" + a.metricsLn.Addr().String() + "/metrics"
}

// Addr is the address the app listens on.
func (a *App) Addr() string { return a.listener.Addr().String() }

// URL is the app's local address as a URL.
func (a *App) URL() string { return "http://" + a.Addr() }

// Run serves until ctx is cancelled, then lets in-flight requests finish (within the shutdown
// timeout) and stops the background work. It does not close the store: Close does.
func (a *App) Run(ctx context.Context) error {
	if a.listener == nil {
		if err := a.Listen(); err != nil {
			return err
		}
	}
	a.http = &http.Server{
		Handler:           a.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second, // an upload of 10 MiB on a slow phone line
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ConnState:         api.GatheredConnState,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	bgCtx, stopBackground := context.WithCancel(context.Background())
	defer stopBackground()
	a.startBackground(bgCtx)

	errc := make(chan error, 2)
	go func() { errc <- a.http.Serve(a.listener) }()
	if a.metricsLn != nil {
		a.metricsSrv = &http.Server{Handler: a.API.MetricsHandler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second, ErrorLog: a.http.ErrorLog}
		go func() { errc <- a.metricsSrv.Serve(a.metricsLn) }()
	}
	slog.Info("serving", "url", a.URL(), "data", a.g.DataDir, "moderation", a.cfg.Moderation)

	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	slog.Info("shutting down: finishing in-flight requests")
	sctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	err := a.http.Shutdown(sctx)
	if a.metricsSrv != nil {
		a.metricsSrv.Shutdown(sctx)
	}
	stopBackground()
	a.wg.Wait()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// startBackground starts the app's periodic work; each loop stops when ctx is cancelled.
func (a *App) startBackground(ctx context.Context) {
	// On PostgreSQL one replica (the leader) runs the periodic jobs; each replica keeps its own
	// index fed from the shared outbox (Search.Run) and flushes its own counters (RunStats).
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.Store.RunLeadership(ctx, leaderEvery)
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		if a.Search == nil {
			a.buildSearch(ctx)
		} else {
			a.Search.Run(ctx)
		}
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.API.RunStats(ctx)
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.pruneAccounts(ctx)
	}()
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		a.purgeLoop(ctx)
	}()
	if a.cfg.BackupEvery > 0 {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			a.backupLoop(ctx)
		}()
	}
}

// leaderEvery is how often a replica tries for the leadership, and how often the leader checks
// that it still holds it: the longest the periodic jobs go without a leader after one dies.
var leaderEvery = 2 * time.Second

// pruneAccounts deletes ended sessions, old sign-up codes and old rate-limit events every hour,
// so those tables stay small; on PostgreSQL also the idle shared buckets and the statistics'
// marks and keys of past days.
func (a *App) pruneAccounts(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if !a.Store.IsLeader() {
			// another replica prunes
		} else if n, err := a.Store.PruneAccounts(ctx); err != nil && ctx.Err() == nil {
			slog.Error("prune accounts", "err", err)
		} else if n > 0 {
			slog.Info("pruned accounts", "rows", n)
		}
		if !a.Store.IsLeader() {
			// as above
		} else if n, err := a.API.PruneShared(ctx); err != nil && ctx.Err() == nil {
			slog.Error("prune shared limits and statistics marks", "err", err)
		} else if n > 0 {
			slog.Info("pruned shared limits and statistics marks", "rows", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Close closes the search index and the store (checkpointing its WAL).
func (a *App) Close() error {
	var errs []error
	if a.Search != nil {
		errs = append(errs, a.Search.Close())
		a.Search = nil
	}
	if a.Store != nil {
		errs = append(errs, a.Store.Close())
		a.Store = nil
	}
	return errors.Join(errs...)
}
