package search

import (
	"context"
	"fmt"
	"time"
	"weak"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	index "github.com/blevesearch/bleve_index_api"

	"kardan/store"
)

// CheckDocIDs compares the document number map (docids.go) with Bleve's own ExternalID for
// every document of ix, and answers the profile ids it found and the number of segments.
func CheckDocIDs(ctx context.Context, ix *Index) (map[int64]bool, int, error) {
	r, err := ix.reader()
	if err != nil {
		return nil, 0, err
	}
	defer r.Close()
	view := ix.docs.view(r)
	req := bleve.NewSearchRequestOptions(bleve.NewMatchAllQuery(), 10000, 0, false)
	res, err := ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, err
	}
	seen := map[int64]bool{}
	for _, h := range res.Hits {
		internal, err := r.InternalID(h.ID)
		if err != nil || internal == nil {
			return nil, 0, fmt.Errorf("internal id of %s: %v", h.ID, err)
		}
		got, err := view.profileIDOfNumber(internal.Value())
		if err != nil {
			return nil, 0, err
		}
		if want := profileIDOf(h.ID); got != want {
			return nil, 0, fmt.Errorf("document %s: got %d, want %d", h.ID, got, want)
		}
		if got >= 0 {
			seen[got] = true
		}
	}
	return seen, len(view.segs), nil
}

// ReadWaysWithHits makes every way of more than n profiles be read along with the hits (see
// lazyMinPostings) until the test ends.
func ReadWaysWithHits(t interface{ Cleanup(func()) }, n uint64) {
	old := lazyMinPostings
	lazyMinPostings = n
	t.Cleanup(func() { lazyMinPostings = old })
}

// PreAllocCap is the collector preallocation Open sets (fence.go).
const PreAllocCap = preAllocCap

// plainReader hides what kind of reader it wraps, as a Bleve whose reader types changed would:
// only IndexReader's own methods are promoted, not scorch's nor the spatial plugin's.
type plainReader struct{ index.IndexReader }

// MissDocIDs resolves a document number of ix through a reader that is not a scorch snapshot,
// so the document-id map falls back to ExternalID.
func MissDocIDs(ix *Index) error {
	r, err := ix.reader()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = ix.docs.view(plainReader{r}).profileIDOfNumber(0)
	return err
}

// MissCells builds a radius searcher over a reader without the s2 plugin, so the cell query
// falls back to Bleve's distance query.
func MissCells(ctx context.Context, ix *Index, lat, long, radius float64) error {
	r, err := ix.reader()
	if err != nil {
		return err
	}
	defer r.Close()
	q := &cellQuery{lat: lat, long: long, radius: radius, misses: &ix.cellMisses}
	s, err := q.Searcher(ctx, plainReader{r}, ix.idx.Mapping(), bsearch.SearcherOptions{})
	if err != nil {
		return err
	}
	return s.Close()
}

// Stem answers the stem of a folded word with ix's lexicon.
func Stem(ctx context.Context, ix *Index, w string) string { return ix.lexicon(ctx).Stem(w) }

// Finglish answers the Persian spellings the lexicon of ix finds for a Latin word.
func Finglish(ctx context.Context, ix *Index, w string) []string {
	var out []string
	for _, e := range ix.lexicon(ctx).finglish(w, true) {
		out = append(out, e.persianSpelling())
	}
	return out
}

// SetRefMaxAge sets how long the reference data is kept, answering a function that restores it.
func SetRefMaxAge(d time.Duration) func() {
	old := refMaxAge
	refMaxAge = d
	return func() { refMaxAge = old }
}

// IndexedProfiles answers how many profile documents the outbox drains have indexed since ix
// opened.
func IndexedProfiles(ix *Index) uint64 { return ix.profileDocs.Load() }

// SyncBatches answers how many index batches the outbox drains have applied since ix opened.
func SyncBatches(ix *Index) uint64 { return ix.batches.Load() }

// PersisterStats answers how many times the persister of ix has put what it wrote on disk in
// place of segments held in memory, and how many naps it has finished (Bleve's
// TotIntroducePersistEnd and TotPersisterNapPauseCompleted).
func PersisterStats(ix *Index) (rounds, naps uint64) {
	st, _ := ix.idx.StatsMap()["index"].(map[string]interface{})
	rounds, _ = st["TotIntroducePersistEnd"].(uint64)
	naps, _ = st["TotPersisterNapPauseCompleted"].(uint64)
	return rounds, naps
}

// OnDiskPosition opens the closed index in dir and answers the outbox position it holds on disk.
func OnDiskPosition(dir string) (int64, error) {
	idx, err := openExisting(dir)
	if err != nil {
		return 0, err
	}
	defer idx.Close()
	ix := &Index{idx: idx}
	return ix.Applied()
}

// SearchProfilesPlain runs q with relevance pages from the plain path (every hit weighed
// through Bleve, rank.go) instead of the tiers (tiers.go), and other pages with the hits handed
// over by Bleve's searcher instead of from bitmaps (collectBits).
func SearchProfilesPlain(ctx context.Context, ix *Index, q ProfileQuery) (*ProfileHits, error) {
	useTiers, useBits = false, false
	defer func() { useTiers, useBits = true, true }()
	return ix.SearchProfiles(ctx, q)
}

// MissTiers answers the relevance page of text through a reader that is not a scorch snapshot,
// so the tiers give way and count a miss; it answers an error unless they gave way.
func MissTiers(ctx context.Context, ix *Index, text string) error {
	q := ProfileQuery{Text: text, Take: 10}
	pq, tp, err := ix.buildProfileQuery(ctx, q, QueryTokens(text), false)
	if err != nil {
		return err
	}
	r, err := ix.reader()
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = ix.tiersOn(ctx, plainReader{r}, pq, tp.rank, &pageCollector{order: OrderRelevance, k: 10, docs: &ix.docs})
	if err != errNoTiers {
		return fmt.Errorf("tiers on a plain reader: got %v, want errNoTiers", err)
	}
	return nil
}

// RebuildInSegments makes the rebuilds that f runs index batchSize profiles a batch and,
// unless compacted, leave the segments so made.
func RebuildInSegments(batchSize int, compacted bool, f func() error) error {
	defer func(b int, c bool) { rebuildBatch, compactRebuilds = b, c }(rebuildBatch, compactRebuilds)
	rebuildBatch, compactRebuilds = batchSize, compacted
	return f()
}

// Segments answers how many segments the index's current snapshot holds.
func Segments(ix *Index) int {
	a, err := ix.idx.Advanced()
	if err != nil {
		return 0
	}
	return segmentsOf(a)
}

// SuggestPlain answers the suggestions with the profiles collected through Bleve's searcher
// instead of from bitmaps of the postings (collectBits).
func SuggestPlain(ctx context.Context, ix *Index, prefix, city string) (*Suggestions, error) {
	useBits = false
	defer func() { useBits = true }()
	return ix.Suggest(ctx, prefix, city)
}

// CutToTop makes every page in the best order cut its hits to facts.top where the cut holds the
// page (bestOfTop), however few the hits; the answer puts the threshold back.
func CutToTop() (restore func()) {
	old := topWalkMin
	topWalkMin = 0
	return func() { topWalkMin = old }
}

// SuggestCut reports whether the suggestions for prefix are collected from the hits cut to
// facts.top (bestOfTop), as collectBits would decide.
func SuggestCut(ctx context.Context, ix *Index, prefix, city string) (bool, error) {
	r, err := ix.reader()
	if err != nil {
		return false, err
	}
	defer r.Close()
	e, hits, total, err := ix.hitsOf(ctx, r, suggestQuery(QueryTokens(prefix), city))
	if err != nil {
		return false, err
	}
	pc := &pageCollector{order: OrderBest, k: maxSuggest, docs: &ix.docs}
	cut := false
	err = ix.walkHits(e, pc, func([][]int64, *hitWalk) error {
		cut = pc.bestOfTop(e.view, hits, total) != nil
		return nil
	})
	return cut, err
}

// DeletedDocuments answers how many deleted documents the index's current snapshot still holds.
func DeletedDocuments(ix *Index) uint64 {
	r, err := ix.reader()
	if err != nil {
		return 0
	}
	defer r.Close()
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		return 0
	}
	var n uint64
	for _, ss := range snap.Segments() {
		if d := ss.Deleted(); d != nil {
			n += d.GetCardinality()
		}
	}
	return n
}

// SuggestCounts answers how many profiles the suggestions for prefix match, counted from
// bitmaps of the postings (collectBits) and by Bleve's searcher.
func SuggestCounts(ctx context.Context, ix *Index, prefix, city string) (bits, plain int, err error) {
	q := suggestQuery(QueryTokens(prefix), city)
	if bits, err = ix.collectBits(ctx, q, &pageCollector{order: OrderBest, k: maxSuggest, docs: &ix.docs}); err != nil {
		return 0, 0, err
	}
	req := bleve.NewSearchRequestOptions(q, 0, 0, false)
	res, err := ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return 0, 0, err
	}
	return bits, int(res.Total), nil
}

// StartsOf answers which of ids the word t matches as the last word of a query does, whole or as
// the start of a longer word: the union of the text field's and the prefix field's postings.
func StartsOf(ctx context.Context, ix *Index, t string, ids []int64) ([]int64, error) {
	return matchedAmong(ctx, ix, bleve.NewDisjunctionQuery(term(fieldText, t), term(fieldPrefix, t)), ids)
}

// matchedAmong answers which of ids q matches.
func matchedAmong(ctx context.Context, ix *Index, q query.Query, ids []int64) ([]int64, error) {
	var size int64
	for _, id := range ids {
		size = max(size, id+1)
	}
	set, err := ix.collectIDs(ctx, q, size)
	if err != nil {
		return nil, err
	}
	defer idSetPool.Put(&set)
	var out []int64
	for _, id := range ids {
		if set.has(id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// Starts answers the terms the prefix field's filter makes of words, in order.
func Starts(words ...string) []string {
	var in analysis.TokenStream
	for i, w := range words {
		in = append(in, &analysis.Token{Term: []byte(w), Position: i + 1})
	}
	var out []string
	for _, tok := range (startsFilter{min: prefixMinRunes, max: prefixMaxRunes}).Filter(in) {
		out = append(out, string(tok.Term))
	}
	return out
}

// FinglishOfNewLexicon builds a lexicon anew from the reference data of ix and answers a
// function giving, for a Latin word, its Persian spellings and how many entries its skeleton
// holds in all.
func FinglishOfNewLexicon(ctx context.Context, ix *Index) (func(w string) ([]string, int), error) {
	r := &refCache{st: ix.st}
	if err := r.load(ctx); err != nil {
		return nil, err
	}
	return func(w string) ([]string, int) {
		var out []string
		for _, e := range r.lex.finglish(w, true) {
			out = append(out, e.persianSpelling())
		}
		return out, len(r.lex.skel[skeleton(w)])
	}, nil
}

// EnglishText answers what the index's English field is given for p.
func EnglishText(ctx context.Context, ix *Index, p *store.Profile) (string, error) {
	d, err := ix.docFor(ctx, p)
	if err != nil {
		return "", err
	}
	return d.En, nil
}

// EnglishOf answers which of ids a Latin query word matches through the English field.
func EnglishOf(ctx context.Context, ix *Index, w string, ids []int64) ([]int64, error) {
	m := bleve.NewMatchQuery(w)
	m.SetField(fieldEn)
	return matchedAmong(ctx, ix, m, ids)
}

// KeepLatin answers the words the English field's filter keeps, in order.
func KeepLatin(words ...string) []string {
	var in analysis.TokenStream
	for _, w := range words {
		in = append(in, &analysis.Token{Term: []byte(w)})
	}
	var out []string
	for _, tok := range (latinFilter{}).Filter(in) {
		out = append(out, string(tok.Term))
	}
	return out
}

// IsLatin reports whether a query word is searched in the English field.
func IsLatin(s string) bool { return isLatin(s) }

// TermCounts answers, for each term of terms in field, its count through the cache of ix
// (termCounts) and from a term reader, both on the snapshot ix serves now; and, when ix still
// serves that snapshot afterwards (checked), whether the cache then held every term.
func TermCounts(ctx context.Context, ix *Index, field string, terms []string) (cached, plain []uint64, held, checked bool, err error) {
	r, err := ix.reader()
	if err != nil {
		return nil, nil, false, false, err
	}
	defer r.Close()
	for _, t := range terms {
		c, err := ix.termCount(ctx, r, field, t)
		if err != nil {
			return nil, nil, false, false, err
		}
		p, err := readCount(ctx, r, field, t)
		if err != nil {
			return nil, nil, false, false, err
		}
		cached, plain = append(cached, c), append(plain, p)
	}
	ix.counts.mu.Lock()
	defer ix.counts.mu.Unlock()
	snap := r.(*scorch.IndexSnapshot)
	if ix.counts.snap != weak.Make(snap) || !ix.serves(snap) {
		return cached, plain, false, false, nil // a newer snapshot came meanwhile
	}
	held = true
	for _, t := range terms {
		_, ok := ix.counts.counts[fieldTerm{field, t}]
		held = held && ok
	}
	return cached, plain, held, true, nil
}

// SetCellsWorthReading sets the documents from which a circle reads its cells (0: always)
// until the func it answers is called.
func SetCellsWorthReading(n uint64) func() {
	old := cellsWorthReading
	cellsWorthReading = n
	return func() { cellsWorthReading = old }
}

// SetRebuildRead has fn called once a rebuild has read every document, until the func it
// answers is called.
func SetRebuildRead(fn func()) func() {
	rebuildRead = fn
	return func() { rebuildRead = nil }
}

// DocumentsAsMapped builds the document of every visible profile of ix both ways, as the
// mapping alone would (the plain path: Bleve's analyzers on every field, the Persian texts as
// text fields of the mapping's analyzers and options) and as addProfiles builds it
// (profileDocument: the Persian text fields prepared), analyses both, and answers how many
// profiles it compared, or the first difference: a field's name, options, length, terms or
// their frequencies.
func DocumentsAsMapped(ctx context.Context, ix *Index) (int, error) {
	m := ix.idx.Mapping()
	n := 0
	err := ix.st.VisibleProfileIDs(ctx, 500, func(ids []int64) error {
		ps, err := ix.st.ProfilesByIDs(ctx, ids)
		if err != nil {
			return err
		}
		for _, p := range ps {
			d, err := ix.docFor(ctx, p)
			if err != nil {
				return err
			}
			// As the mapping maps a struct's text fields (FieldMapping.processString).
			plain := document.NewDocument(profileDocID(p.ID))
			if err := m.MapDocument(plain, d.profileMapped); err != nil {
				return err
			}
			for _, f := range preparedFields {
				plain.AddField(mappedTextField(m.(*mapping.IndexMappingImpl), f.name, d.prepared(f.name)))
			}
			prepared, err := profileDocument(m, profileDocID(p.ID), d)
			if err != nil {
				return err
			}
			want, got := analysedFields(plain), analysedFields(prepared)
			if len(got) != len(want) {
				return fmt.Errorf("profile %d: %d fields, the mapping's %d", p.ID, len(got), len(want))
			}
			for name, w := range want {
				g, ok := got[name]
				if !ok {
					return fmt.Errorf("profile %d: no field %s", p.ID, name)
				}
				if err := sameAnalysis(w, g); err != nil {
					return fmt.Errorf("profile %d: %w", p.ID, err)
				}
			}
			n++
		}
		return nil
	})
	return n, err
}

// mappedTextField answers text as the mapping m makes the text field name of it: with the
// field's options and analyzer (FieldMapping.processString), the plain path of a prepared field.
func mappedTextField(m *mapping.IndexMappingImpl, name, text string) *document.TextField {
	fm := m.FieldMappingForPath(name)
	return document.NewTextFieldCustom(name, nil, []byte(text), fm.Options(), m.AnalyzerNamed(fm.Analyzer))
}

// analysedFields analyses every field of doc and answers them by name.
func analysedFields(doc *document.Document) map[string]document.Field {
	out := map[string]document.Field{}
	for _, f := range doc.Fields {
		f.Analyze()
		out[f.Name()] = f
	}
	return out
}

// sameAnalysis answers how got's analysis differs from want's, or nil.
func sameAnalysis(want, got document.Field) error {
	switch {
	case got.Name() != want.Name():
		return fmt.Errorf("field %s: named %s", want.Name(), got.Name())
	case got.Options() != want.Options():
		return fmt.Errorf("field %s: options %v, want %v", want.Name(), got.Options(), want.Options())
	case got.EncodedFieldType() != want.EncodedFieldType():
		return fmt.Errorf("field %s: type %c, want %c", want.Name(), got.EncodedFieldType(), want.EncodedFieldType())
	case got.NumPlainTextBytes() != want.NumPlainTextBytes():
		return fmt.Errorf("field %s: %d plain bytes, want %d", want.Name(), got.NumPlainTextBytes(), want.NumPlainTextBytes())
	case got.AnalyzedLength() != want.AnalyzedLength():
		return fmt.Errorf("field %s: length %d, want %d", want.Name(), got.AnalyzedLength(), want.AnalyzedLength())
	}
	wf, gf := want.AnalyzedTokenFrequencies(), got.AnalyzedTokenFrequencies()
	if len(gf) != len(wf) {
		return fmt.Errorf("field %s: %d terms, want %d", want.Name(), len(gf), len(wf))
	}
	for term, w := range wf {
		g := gf[term]
		switch {
		case g == nil:
			return fmt.Errorf("field %s: no term %q", want.Name(), term)
		case string(g.Term) != string(w.Term) || string(g.Term) != term:
			return fmt.Errorf("field %s: term %q holds %q", want.Name(), term, g.Term)
		case g.Frequency() != w.Frequency():
			return fmt.Errorf("field %s: %q %d times, want %d", want.Name(), term, g.Frequency(), w.Frequency())
		case len(g.Locations) != len(w.Locations):
			return fmt.Errorf("field %s: %q at %d places, want %d", want.Name(), term, len(g.Locations), len(w.Locations))
		}
	}
	return nil
}

// FactsLoaded loads a facts table from st in parts ranges of ids at once (0: the whole table in
// the one pass that grows it) and answers each row as text: its facts, its run of prices and its
// schedule, and then the best profiles' level and ids.
func FactsLoaded(ctx context.Context, st *store.Store, parts int) ([]string, error) {
	defer func(f func(int64) int) { factsPartsFor = f }(factsPartsFor)
	factsPartsFor = func(int64) int { return parts }
	fs := &facts{}
	if err := fs.load(ctx, st); err != nil {
		return nil, err
	}
	defer fs.release()
	out := make([]string, 0, len(fs.rows)+1)
	for id, r := range fs.rows {
		var sched any
		if r.sched != 0 {
			sched = *fs.scheds[r.sched]
		}
		out = append(out, fmt.Sprintf("%d: %t %v %v %v %v %d %d %v %#v", id, r.ok, r.score, r.level, r.lat, r.long, r.created,
			r.count, fs.prices[r.price:r.price+uint32(r.nprice)], sched))
	}
	top := []int64{}
	for id := range fs.rows {
		if fs.top.has(int64(id)) {
			top = append(top, int64(id))
		}
	}
	return append(out, fmt.Sprintf("top %v: %v", fs.topLevel, top)), nil
}
