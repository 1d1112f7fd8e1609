// Package api is Kardan's HTTP layer: the /v1 JSON API in the spec's envelope, the embedded web
// app with per-page meta, and the uploaded images.
package api

import (
	"context"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/mux"

	"kardan/auth"
	"kardan/media"
	"kardan/search"
	"kardan/sharecard"
	"kardan/stats"
	"kardan/store"
)

// Config is what the HTTP layer needs from the command line.
type Config struct {
	// BaseURL is the public address (https://kardan.example), for canonical links and HSTS.
	BaseURL string
	// Tiles is the map tile URL template the web app uses.
	Tiles string
	// Moderation is "pre" (new profiles and blogs wait for an admin) or "off".
	Moderation string
	// Location is the operator's time zone, for "open now" and release dates.
	Location *time.Location
	// TrustedProxies are the networks whose X-Forwarded-For is believed.
	TrustedProxies []*net.IPNet
	// Web is the built web app (webui/dist).
	Web fs.FS
	// Search is the search index; nil while it is being built (SetSearch): browsing is then
	// answered from the database and other searches with "search_building".
	Search *search.Index
	// SearchBuilding says that Search is nil because serve is building the index, which
	// SetSearch gives once built; /healthz says so (a server without it has no index at all: a
	// test's).
	SearchBuilding bool
	// SMS sends sign-up codes; nil writes them to the log.
	SMS auth.Sender
	// SMSTemplates names the provider's template for each kind of notice SMS (store.SMSKinds);
	// a kind without one uses its own name as the template.
	SMSTemplates map[string]string
	// SMSPerDay is how many notice SMS one user gets per day at most (0: 5).
	SMSPerDay int
	// Uploads stores uploaded images; nil turns uploads off.
	Uploads media.Storage
	// UploadsURL, when set, is where GET /uploads/KEY redirects (UploadsURL + "/" + KEY) instead
	// of streaming the image from Uploads: a CDN in front of the bucket.
	UploadsURL string
	// ShareCards is the directory that keeps the profiles' and articles' drawn share cards (the
	// data directory's cards/); "" leaves them out, and pages share their picture or trade card.
	ShareCards string
	// Metrics serves GET /metrics in Prometheus' text format (serve --metrics).
	Metrics bool
	// SearchRate is how many search requests per second one client address may make, with
	// bursts of SearchBurst; 0 means no limit.
	SearchRate  float64
	SearchBurst int
	// Now is the clock open statuses and open_now read (nil: the system clock); tests set it.
	Now func() time.Time
	// IPv6Prefix is how many leading bits of an IPv6 address per-address limits count as one
	// client (0: 64).
	IPv6Prefix int
	// FormCacheBytes bounds the cache of encoded profile forms (0: formCacheBytes, 96 MiB).
	FormCacheBytes int64
	// StatsSecret is the cluster's secret the statistics' daily visitor key derives from, the
	// same on every replica of one PostgreSQL database; empty: each replica draws its own key
	// (stats.NewCounter).
	StatsSecret []byte
}

// Server serves the API and the web app.
type Server struct {
	cfg     Config
	store   *store.Store
	proxies []*net.IPNet
	web     *webApp
	og      ogCards
	cards   *sharecard.Cache // nil without Config.ShareCards
	handler http.Handler

	catMu   sync.Mutex
	cats    *store.Categories
	catsAt  time.Time
	started time.Time

	refsCache refsCache
	forms     formCache
	// index is Config.Search, or the index SetSearch gave once it was built (nil before).
	index atomic.Pointer[search.Index]

	hasher *auth.Hasher
	sms    auth.Sender
	media  *media.Processor

	metrics     *metrics // nil without --metrics
	searchLimit limiter  // nil without a search rate
	stats       *stats.Counter
	statsLimit  limiter     // statistics beacons per client address
	loginFlight *inFlight   // password checks running per number and per address
	router      *mux.Router // the route table, which the sweep test walks
}

// SetSearch gives the server its search index once it is built (serve builds a large one while
// answering: cmd's App).
func (s *Server) SetSearch(ix *search.Index) { s.index.Store(ix) }

// searchIndex answers the search index, nil while it is being built.
func (s *Server) searchIndex() *search.Index { return s.index.Load() }

// errSearchBuilding answers a search that needs the index while it is being built.
func errSearchBuilding() error {
	return store.Errorf(store.ENotReady, "search_building", map[string]any{"seconds": searchBuildingRetry})
}

// searchBuildingRetry is the Retry-After, in seconds, of a search refused while the index is built.
const searchBuildingRetry = 30

// New builds the server over an open store.
func New(cfg Config, st *store.Store) (*Server, error) {
	if cfg.Location == nil {
		cfg.Location = time.UTC
	}
	if cfg.Moderation == "" {
		cfg.Moderation = "pre"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Server{cfg: cfg, store: st, proxies: cfg.TrustedProxies, started: time.Now()}
	s.index.Store(cfg.Search)
	// Two argon2id hashes at once at most, so a burst of sign-ins cannot starve the server.
	s.hasher = auth.NewHasher(auth.DefaultParams, 2)
	s.sms = cfg.SMS
	if s.sms == nil {
		s.sms = auth.ConsoleSender{}
	}
	s.metrics = newMetrics(s)
	s.loginFlight = newInFlight(loginVerifyInFlight)
	s.searchLimit = newLimiter(st, "search", cfg.SearchRate, cfg.SearchBurst)
	if cfg.FormCacheBytes > 0 {
		s.forms.halfBytes = int(cfg.FormCacheBytes / 2)
	}
	// Statistics days follow the store's clock, which dates every write (tests move it).
	var err error
	if s.stats, err = stats.NewCounter(st, func() time.Time { return st.Now() }, cfg.Location, cfg.StatsSecret); err != nil {
		return nil, fmt.Errorf("--stats-secret: %w", err)
	}
	s.statsLimit = newLimiter(st, "stats_beacon", statsBeaconRate, statsBeaconBurst)
	s.sms = s.metrics.countSMS(s.sms)
	if cfg.Uploads != nil {
		s.media = media.NewProcessor(cfg.Uploads, media.DefaultOptions)
	}
	if cfg.ShareCards != "" {
		cards, err := sharecard.NewCache(cfg.ShareCards)
		if err != nil {
			return nil, err
		}
		s.cards = cards
	}
	web, err := loadWebApp(cfg.Web)
	if err != nil {
		return nil, fmt.Errorf("load web app: %w", err)
	}
	s.web = web
	s.handler = s.routes()
	return s, nil
}

// ServeHTTP serves one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// categoryTTL bounds how stale the cached category tree may be after `kardan seed` changes it.
const categoryTTL = time.Minute

// categories answers the category tree, read from the store at most once a minute.
func (s *Server) categories(ctx context.Context) (*store.Categories, error) {
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.cats != nil && time.Since(s.catsAt) < categoryTTL {
		return s.cats, nil
	}
	t, err := s.store.CategoryTree(ctx)
	if err != nil {
		return nil, err
	}
	s.cats, s.catsAt = t, time.Now()
	return t, nil
}

// now answers the clock's time in the operator's time zone.
func (s *Server) now() time.Time { return s.cfg.Now().In(s.cfg.Location) }
