package api

import (
	"context"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"kardan/auth"
)

// metrics holds the server's Prometheus collectors in a registry of its own, so two servers in
// one process (tests) never share counters. A nil *metrics is valid and records nothing: that
// is the server without --metrics.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	search   *prometheus.HistogramVec
	sms      *prometheus.CounterVec
}

// latencyBuckets span a cached read (a millisecond) to a slow upload (ten seconds).
var latencyBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// searchRoutes are the route templates whose latency is also search latency, by kind.
var searchRoutes = map[string]string{
	"/v1/user-technical/searchUser":     "profiles",
	"/v1/user-technical/searchUserSlag": "profile_slug",
	"/v1/blog/search":                   "blogs",
}

// newMetrics builds the collectors when cfg.Metrics is set, and nil otherwise.
func newMetrics(s *Server) *metrics {
	if !s.cfg.Metrics {
		return nil
	}
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kardan_http_requests_total",
			Help: "HTTP requests answered, by method, route template and status code.",
		}, []string{"method", "route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kardan_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by method and route template.",
			Buckets: latencyBuckets,
		}, []string{"method", "route"}),
		search: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "kardan_search_duration_seconds",
			Help:    "Time to answer a search request (profiles, a profile by slug, blogs), decoding and rendering included.",
			Buckets: latencyBuckets,
		}, []string{"kind"}),
		sms: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kardan_sms_sends_total",
			Help: "Sign-up codes handed to the SMS sender, by result (sent or failed).",
		}, []string{"result"}),
	}
	m.sms.WithLabelValues("sent")
	m.sms.WithLabelValues("failed")
	m.reg.MustRegister(m.requests, m.latency, m.search, m.sms,
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kardan_database_size_bytes",
			Help: "Size of the SQLite database file and its write-ahead log (of the database, on PostgreSQL).",
		}, func() float64 { return s.databaseSize() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kardan_form_cache_hits_total",
			Help: "Profiles of search answers found encoded in the form cache.",
		}, func() float64 { return float64(s.forms.hits.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kardan_form_cache_misses_total",
			Help: "Profiles of search answers read from the database (a change to a profile drops its form).",
		}, func() float64 { return float64(s.forms.misses.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kardan_form_cache_restarts_total",
			Help: "Times the form cache started again empty: new reference data, or outbox rows it could not all read (pruned, or more than 512 at once). Other changes drop only their profiles' forms.",
		}, func() float64 { return float64(s.forms.emptied.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kardan_form_cache_slab_bytes",
			Help: "Memory outside Go's heap that cached forms are kept in: about --form-cache-mib, more while readers hold forms of an older generation.",
		}, func() float64 { return float64(formSlabsLive.Load() * formSlabBytes) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kardan_store_grouped_writes_total",
			Help: "Writes committed in a transaction shared with other writes (the store's group commit, store/commit.go).",
		}, func() float64 { return float64(s.store.GroupedWrites()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kardan_search_outbox_backlog",
			Help: "Changes written to the database that the search index has not applied yet (outbox head minus applied).",
		}, s.outboxBacklog),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "kardan_search_fast_path_misses_total",
			Help: "Searches whose fast path found Bleve's internals changed and fell back to a slower way (search/fence.go); should stay 0.",
		}, func() float64 {
			ix := s.searchIndex()
			if ix == nil {
				return 0
			}
			m := ix.FastPathMisses()
			return float64(m.DocIDs + m.Cells + m.Tiers)
		}),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "kardan_search_index_documents",
			Help: "Documents in the search index.",
		}, func() float64 {
			ix := s.searchIndex()
			if ix == nil {
				return math.NaN()
			}
			n, err := ix.DocCount()
			if err != nil {
				return math.NaN()
			}
			return float64(n)
		}),
	)
	return m
}

// databaseSize answers the database's bytes: PostgreSQL's own figure, or the SQLite file's.
func (s *Server) databaseSize() float64 {
	if s.store.IsPostgres() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second) // a stalled server must not hold scrapes
		defer cancel()
		n, err := s.store.SizeOnServer(ctx)
		if err != nil {
			return math.NaN()
		}
		return float64(n)
	}
	return databaseSize(s.store.Path())
}

// databaseSize answers the bytes of the database file and its WAL; a missing WAL counts zero.
func databaseSize(path string) float64 {
	var total int64
	for _, p := range []string{path, path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			total += fi.Size()
		}
	}
	return float64(total)
}

// outboxBacklog answers how far the index trails the database, NaN when either cannot say.
func (s *Server) outboxBacklog() float64 {
	ix := s.searchIndex()
	if ix == nil {
		return math.NaN()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	head, err := s.store.OutboxHead(ctx)
	if err != nil {
		return math.NaN()
	}
	applied, err := ix.Applied()
	if err != nil {
		return math.NaN()
	}
	return float64(max(head-applied, 0))
}

// handler serves the registry in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// routeSlot is where the router writes the matched route's template for the metrics middleware,
// which runs outside the router and so cannot ask mux itself.
type routeSlot struct{ template string }

type routeSlotKey struct{}

// labelRoute is router middleware: it records the matched route's template ("/v1/blog/get/{key}"),
// never the raw path, so labels stay few whatever clients send.
func labelRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slot, ok := r.Context().Value(routeSlotKey{}).(*routeSlot); ok {
			if cur := mux.CurrentRoute(r); cur != nil {
				if t, err := cur.GetPathTemplate(); err == nil {
					slot.template = t
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// wrap counts and times every request by route template. Unmatched paths share two labels: the
// web app's pages and unknown /v1 paths.
func (m *metrics) wrap(next http.Handler) http.Handler {
	if m == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		slot := &routeSlot{}
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(rec, r.WithContext(context.WithValue(r.Context(), routeSlotKey{}, slot)))
		route := slot.template
		if route == "" {
			route = "web"
			if strings.HasPrefix(r.URL.Path, "/v1/") || r.URL.Path == "/v1" {
				route = "/v1/unknown"
			}
		}
		method := metricMethod(r.Method)
		d := time.Since(start).Seconds()
		m.requests.WithLabelValues(method, route, strconv.Itoa(rec.status)).Inc()
		m.latency.WithLabelValues(method, route).Observe(d)
		if kind, ok := searchRoutes[route]; ok {
			m.search.WithLabelValues(kind).Observe(d)
		}
	})
}

// metricMethod keeps the method label to the methods the API uses.
func metricMethod(m string) string {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return m
	}
	return "other"
}

// MetricsHandler answers GET /metrics in Prometheus' text format, or nil without metrics. It is
// for a listener of its own: the counts, the database size and the process figures are for the
// operator, not the public.
func (s *Server) MetricsHandler() http.Handler {
	if s.metrics == nil {
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.handler())
	return mux
}

// countSMS wraps the SMS sender so every send is counted by result.
func (m *metrics) countSMS(next auth.Sender) auth.Sender {
	if m == nil {
		return next
	}
	return &countingSender{next: next, sms: m.sms}
}

type countingSender struct {
	next auth.Sender
	sms  *prometheus.CounterVec
}

func (c *countingSender) Send(ctx context.Context, phone, code string) error {
	return c.count(c.next.Send(ctx, phone, code))
}

func (c *countingSender) SendNotice(ctx context.Context, phone string, n auth.Notice) error {
	return c.count(auth.SendNotice(ctx, c.next, phone, n))
}

func (c *countingSender) SendTemplate(ctx context.Context, phone, template string, tokens ...string) error {
	sent, err := auth.SendTemplate(ctx, c.next, phone, template, tokens...)
	if !sent && err == nil {
		return nil
	}
	return c.count(err)
}

func (c *countingSender) count(err error) error {
	if err != nil {
		c.sms.WithLabelValues("failed").Inc()
	} else {
		c.sms.WithLabelValues("sent").Inc()
	}
	return err
}
