package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"

	"kardan/store"
)

// profileDoc is what the index holds of a visible profile: the fields the mapping analyses,
// and the Persian text fields the index analyses itself (docfields.go), by the names
// preparedFields gives them.
type profileDoc struct {
	profileMapped
	Text       string // p_text
	Prefix     string // p_prefix: the text again, cut into the starts of its words
	Name       string // p_name
	Stem       string // p_stem
	NamePrefix string // p_nprefix: the name again, cut into the starts of its words
}

// profileMapped is the part of a profile's document the mapping analyses.
type profileMapped struct {
	Type       string    `json:"type"`
	En         string    `json:"p_en"`
	City       string    `json:"city"`
	Province   string    `json:"province"`
	Field      string    `json:"field"`
	Categories []string  `json:"categories"`
	Location   []float64 `json:"location"` // [lon, lat], Bleve's array form
}

// docHash fingerprints d, so that a change to a profile that leaves its document as it was (a
// review changes only its scores, which the facts table holds) is not analysed and indexed
// again. Every field counts, each ended by a byte no field holds.
func docHash(d *profileDoc) uint64 {
	h := fnv.New64a()
	for _, s := range []string{d.Type, d.Text, d.Prefix, d.Name, d.Stem, d.NamePrefix, d.En, d.City, d.Province, d.Field} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	for _, c := range d.Categories {
		h.Write([]byte(c))
		h.Write([]byte{1})
	}
	var b [8]byte
	for _, f := range d.Location {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(f))
		h.Write(b[:])
	}
	// 0 means "unknown" in the facts table: no document is taken for it.
	return max(1, h.Sum64())
}

// BleveType names the document's mapping: Bleve reads the type from the Go field name, not the
// JSON one, so the method is what makes the "type" field count.
func (profileMapped) BleveType() string { return "profile" }

func profileDocID(id int64) string { return "p" + strconv.FormatInt(id, 10) }

// refCache keeps the reference data documents need (city slugs, the category tree), reloaded
// when a profile names an id it does not know.
type refCache struct {
	st     *store.Store
	mu     sync.Mutex
	cities map[int64]store.City
	tree   *store.Categories
	lex    *lexicon // built from the two above
	// loadedAt is when they were read; reloading marks a background reload under way.
	loadedAt  time.Time
	reloading atomic.Bool
}

// refMaxAge is how long the reference data (and the lexicon built from it) is used before it is
// read again, so a reseed that renames a category or adds search synonyms reaches queries
// without a restart. Besides, a document naming an id the cache does not know reloads it at once.
// A variable for the tests.
var refMaxAge = 10 * time.Minute

func (r *refCache) load(ctx context.Context) error {
	cs, err := r.st.Cities(ctx, store.CityFilter{})
	if err != nil {
		return err
	}
	tree, err := r.st.CategoryTree(ctx)
	if err != nil {
		return err
	}
	r.cities = make(map[int64]store.City, len(cs))
	for _, c := range cs {
		r.cities[c.ID] = c
	}
	r.tree = tree
	ps, err := r.st.Provinces(ctx)
	if err != nil {
		return err
	}
	r.lex = buildLexicon(tree, cs, ps)
	r.loadedAt = time.Now()
	return nil
}

// lexicon answers the analysis's lexicon (lexicon.go), or nil when the reference data cannot
// be read (the query is then read without it). Its cache key is the reference data; it is built
// again when a document names an id it does not know, and, in the background while queries keep
// the old one, once it is older than refMaxAge (TestLexiconFollowsReferenceData).
func (ix *Index) lexicon(ctx context.Context) *lexicon {
	r := ix.ref
	r.mu.Lock()
	lx, stale := r.lex, time.Since(r.loadedAt) > refMaxAge
	r.mu.Unlock()
	if lx != nil {
		if stale && r.reloading.CompareAndSwap(false, true) {
			go func() {
				defer r.reloading.Store(false)
				r.mu.Lock()
				defer r.mu.Unlock()
				if err := r.load(context.WithoutCancel(ctx)); err != nil {
					slog.Warn("search lexicon: reload", "err", err)
				}
			}()
		}
		return lx
	}
	if _, _, err := r.lookup(ctx, 0, nil, 0); err != nil {
		slog.Warn("search lexicon", "err", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lex
}

func (r *refCache) lookup(ctx context.Context, cityID int64, cats []int64, field int64) (store.City, *store.Categories, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	missing := r.tree == nil
	if !missing {
		_, ok := r.cities[cityID]
		missing = !ok || r.tree.ByID(field) == nil
		for _, c := range cats {
			missing = missing || r.tree.ByID(c) == nil
		}
	}
	if missing {
		if err := r.load(ctx); err != nil {
			return store.City{}, nil, err
		}
	}
	return r.cities[cityID], r.tree, nil
}

// Tree answers the category tree the index knows.
func (ix *Index) Tree(ctx context.Context) (*store.Categories, error) {
	_, t, err := ix.ref.lookup(ctx, 0, nil, 0)
	return t, err
}

// docFor builds the index document of a profile.
func (ix *Index) docFor(ctx context.Context, p *store.Profile) (*profileDoc, error) {
	city, tree, err := ix.ref.lookup(ctx, p.CityID, p.CategoryIDs, p.RangeWorkerID)
	if err != nil {
		return nil, err
	}
	d := &profileDoc{
		profileMapped: profileMapped{Type: "profile", City: city.Slag, Province: strconv.FormatInt(p.ProvinceID, 10),
			Location: []float64{p.Long, p.Lat}},
		Name: IndexText(p.ProfileName),
	}
	en := []string{p.ProfileName}
	if f := tree.ByID(p.RangeWorkerID); f != nil {
		d.Field = f.Slag
		en = append(en, f.EnglishName)
	}
	for _, id := range p.CategoryIDs {
		if c := tree.ByID(id); c != nil {
			d.Categories = append(d.Categories, c.Slag)
			en = append(en, c.EnglishName)
		}
	}
	en = append(en, city.EnglishName)
	text := []string{p.KeyWord, p.Descriotion}
	for _, s := range p.Services {
		text = append(text, s.Title)
		en = append(en, s.Title)
	}
	text = append(text, p.AreaWorking...)
	text = append(text, p.Option...)
	d.Text = IndexText(strings.Join(text, " \n "))
	words := textWords(d.Text)
	d.Prefix = prefixWords(words)
	d.Stem = ix.lexicon(ctx).stemWords(d.Name, words)
	d.NamePrefix = d.Name
	d.En = strings.Join(en, " \n ")
	return d, nil
}

// addProfiles adds the visible ones of ids to b and deletes the others.
// A document b leaves as the index holds it is not put in b: a profile whose only change is its
// scores (a review) then costs the facts table's update and no analysis, segment or merge. The
// answer lists the documents b indexes, for the facts table once b is applied (facts.applied):
// until then the table keeps the fingerprint of what the index holds, so a batch that fails is
// put together again whole.
func (ix *Index) addProfiles(ctx context.Context, b *bleve.Batch, ids []int64) ([]docApplied, error) {
	ps, err := ix.st.ProfilesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []docApplied
	found := make(map[int64]bool, len(ps))
	for _, p := range ps {
		found[p.ID] = true
		ix.facts.set(p)
		if !p.Visible() {
			b.Delete(profileDocID(p.ID))
			continue
		}
		d, err := ix.docFor(ctx, p)
		if err != nil {
			return nil, err
		}
		h := docHash(d)
		if ix.facts.docOf(p.ID) == h {
			continue
		}
		doc, err := profileDocument(ix.idx.Mapping(), profileDocID(p.ID), d)
		if err == nil {
			err = b.IndexAdvanced(doc)
		}
		if err != nil {
			return nil, fmt.Errorf("index profile %d: %w", p.ID, err)
		}
		out = append(out, docApplied{p.ID, h})
	}
	for _, id := range ids {
		if !found[id] {
			ix.facts.forget(id)
			b.Delete(profileDocID(id))
		}
	}
	return out, nil
}

// docApplied is a profile's document put in a batch, by its fingerprint.
type docApplied struct {
	id   int64
	hash uint64
}

// outboxBatch is how many outbox rows one index batch applies.
const outboxBatch = 1000

// Sync applies every outbox row the index has not applied yet. The position is written in the
// same batch as the documents, so a crash between the two loses nothing and repeats nothing
// harmful: applying a row again reads the entity's current state.
func (ix *Index) Sync(ctx context.Context) error {
	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()
	return ix.drain(ctx)
}

// SyncTo returns once the index has applied every outbox row up to id `upTo` (a write the
// caller just committed: store.OutboxCommitted), so the write shows in search when the caller
// answers. It is the index's group commit: while one caller drains the outbox into one Bleve
// batch, the others wait for that batch instead of each applying its own, and a caller whose row
// another's batch already applied returns without touching the store or the index.
func (ix *Index) SyncTo(ctx context.Context, upTo int64) error {
	for {
		if ix.applied.Load() >= upTo {
			return nil
		}
		wait := ix.progressCh()
		if ix.applyMu.TryLock() {
			if ix.applied.Load() >= upTo {
				ix.applyMu.Unlock()
				return nil
			}
			err := ix.drain(ctx)
			ix.applyMu.Unlock()
			if err != nil {
				return err
			}
			continue
		}
		if ix.applied.Load() >= upTo {
			return nil
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// progressCh answers the channel closed at the next progress of a drain.
func (ix *Index) progressCh() chan struct{} {
	ix.progressMu.Lock()
	defer ix.progressMu.Unlock()
	if ix.progress == nil {
		ix.progress = make(chan struct{})
	}
	return ix.progress
}

// advance records that the index has applied the outbox up to id and wakes the waiters.
func (ix *Index) advance(id int64) {
	if id > ix.applied.Load() {
		ix.applied.Store(id) // only the holder of applyMu writes it
	}
	ix.progressMu.Lock()
	if ix.progress != nil {
		close(ix.progress)
	}
	ix.progress = make(chan struct{})
	ix.progressMu.Unlock()
}

// drain applies the outbox until it is empty; the caller holds applyMu.
func (ix *Index) drain(ctx context.Context) error {
	defer ix.advance(0) // waiters retry even when the drain failed or found nothing
	for {
		after, err := ix.Applied()
		if err != nil {
			return err
		}
		if after > ix.applied.Load() {
			ix.applied.Store(after) // a drain of another process's index position, or the first
		}
		rows, err := ix.st.OutboxAfter(ctx, after, outboxBatch)
		if err != nil {
			return err
		}
		if len(rows) == 0 {
			ix.warmDocIDs()
			return nil
		}
		var profiles, blogs []int64
		seen := map[string]bool{}
		for _, r := range rows {
			key := r.Entity + strconv.FormatInt(r.EntityID, 10)
			if seen[key] {
				continue
			}
			seen[key] = true
			switch r.Entity {
			case "profile":
				profiles = append(profiles, r.EntityID)
			case "blog":
				blogs = append(blogs, r.EntityID)
			}
		}
		b := ix.idx.NewBatch()
		docs, err := ix.addProfiles(ctx, b, profiles)
		if err != nil {
			return fmt.Errorf("apply outbox: %w", err)
		}
		if err := ix.addBlogs(ctx, b, blogs); err != nil {
			return fmt.Errorf("apply outbox: %w", err)
		}
		last := rows[len(rows)-1].ID
		b.SetInternal(keyOutbox, []byte(strconv.FormatInt(last, 10)))
		b.SetPersistedCallback(func(err error) {
			if err == nil {
				ix.notePersisted(last)
			}
		})
		if err := ix.idx.Batch(b); err != nil {
			return fmt.Errorf("apply outbox: %w", err)
		}
		ix.facts.applied(docs)
		ix.profileDocs.Add(uint64(len(docs)))
		ix.batches.Add(1)
		ix.advance(last)
	}
}

// Kick asks the running indexer to drain the outbox now instead of at its next poll.
func (ix *Index) Kick() {
	select {
	case ix.kick <- struct{}{}:
	default:
	}
}

// pollEvery is how often the indexer looks for changes made by other processes (the CLI).
const pollEvery = 500 * time.Millisecond

// outboxRetention is how long applied outbox rows are kept, so another index following the same
// store (a replica) can catch up.
const outboxRetention = 7 * 24 * 3600

// Run drains the outbox whenever kicked and at least every pollEvery, until ctx ends.
func (ix *Index) Run(ctx context.Context) {
	t := time.NewTicker(pollEvery)
	defer t.Stop()
	prune := time.NewTicker(time.Hour)
	defer prune.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ix.kick:
		case <-t.C:
		case <-prune.C:
			if applied, err := ix.Applied(); err == nil {
				if _, err := ix.st.PruneOutbox(ctx, applied, outboxRetention); err != nil {
					slog.Warn("prune outbox", "err", err)
				}
			}
		}
		if err := ix.Sync(ctx); err != nil && ctx.Err() == nil {
			slog.Error("search indexer", "err", err)
		}
	}
}
