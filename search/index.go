package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/edgengram"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"

	"kardan/store"
)

// mappingVersion changes whenever the mapping or the documents change shape; an index of another
// version is rebuilt at start-up.
const mappingVersion = "9"

var (
	keyVersion = []byte("kardan.version")
	keyOutbox  = []byte("kardan.outbox")
)

// kvConfig opens the index with the s2 spatial plugin: radius queries then cost a few cells'
// terms instead of a geohash box scan (DESIGN.md §6).
func kvConfig() map[string]interface{} {
	return map[string]interface{}{"spatialPlugin": "s2"}
}

// Index is the search index over one store.
type Index struct {
	dir string
	st  *store.Store
	idx bleve.Index

	applyMu sync.Mutex // one drain of the outbox at a time
	// applied mirrors the outbox position written in the index (keyOutbox), so a request that
	// waits for its write (SyncTo) reads it without the lock; progress is closed and replaced
	// whenever a drain ends or applies a batch, waking the requests waiting on it.
	applied    atomic.Int64
	progressMu sync.Mutex
	progress   chan struct{}
	batches    atomic.Uint64 // index batches the drains applied (a test checks that writers share them)
	// profileDocs counts the profile documents the drains indexed (a test checks that a review,
	// which changes only scores, indexes none).
	profileDocs atomic.Uint64
	// persisted is the outbox position of the newest batch on disk; persistedCh is closed when it
	// moves (both under progressMu).
	persisted   int64
	persistedCh chan struct{}
	closed      bool
	kick        chan struct{}
	ref         *refCache
	facts       *facts     // what search orders compare, by profile id (nil while rebuilding)
	docs        docIDs     // the profile ids of the index's documents, by document number
	counts      termCounts // documents a term is in, for the text query's planning
	// cellMisses counts radius searches that found no s2 plugin (see FastPathMisses).
	cellMisses atomic.Uint64
	// tierMisses counts relevance searches the tiers could not answer (see FastPathMisses).
	tierMisses atomic.Uint64
	// Location is the operator's time zone, for open-now in answers and blog release dates.
	Location *time.Location
}

// ErrLocked is answered when another process holds the index (a running server).
var ErrLocked = errors.New("the search index is in use by a running kardan serve")

func newMapping() mapping.IndexMapping {
	m := bleve.NewIndexMapping()
	if err := m.AddCustomAnalyzer("kardan", map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     wordsTokenizerName,
		"token_filters": []string{lowercase.Name},
	}); err != nil {
		panic(err) // the analyzer is fixed at compile time; failing here is a programming error
	}
	// The word being typed is found through the starts of every word (its first 3 to 15 letters,
	// never the whole word: filters.go) as terms of their own, together with the text field's
	// whole words: two terms' postings instead of a disjunction over every word that starts with
	// it, which for three letters can be hundreds of terms.
	if err := m.AddCustomTokenFilter("kardan_starts", map[string]interface{}{
		"type": startsFilterName, "min": float64(prefixMinRunes), "max": float64(prefixMaxRunes),
	}); err != nil {
		panic(err)
	}
	if err := m.AddCustomAnalyzer("kardan_prefix", map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     wordsTokenizerName,
		"token_filters": []string{lowercase.Name, "kardan_starts"},
	}); err != nil {
		panic(err)
	}
	// Suggestions start from the first letter typed: the name's words cut from one letter.
	if err := m.AddCustomTokenFilter("kardan_edge1", map[string]interface{}{
		"type": edgengram.Name, "min": float64(1), "max": float64(prefixMaxRunes),
	}); err != nil {
		panic(err)
	}
	if err := m.AddCustomAnalyzer("kardan_nprefix", map[string]interface{}{
		"type":          custom.Name,
		"tokenizer":     wordsTokenizerName,
		"token_filters": []string{lowercase.Name, "kardan_edge1"},
	}); err != nil {
		panic(err)
	}
	// English names, stemmed as Bleve's English analyzer does, with their Persian words left out
	// (filters.go).
	if err := m.AddCustomAnalyzer("kardan_en", map[string]interface{}{
		"type":      custom.Name,
		"tokenizer": unicode.Name,
		"token_filters": []string{latinFilterName, en.PossessiveName, lowercase.Name, en.StopName,
			porter.Name},
	}); err != nil {
		panic(err)
	}
	m.DefaultAnalyzer = "kardan"
	m.DefaultType = "profile"
	m.TypeField = "type"

	text := func(analyzer string, store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = analyzer
		f.Store = store
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	keyword := func() *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store = false
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	numeric := func() *mapping.FieldMapping {
		f := bleve.NewNumericFieldMapping()
		f.Store = false
		f.IncludeInAll = false
		f.DocValues = true // sorting reads doc values
		return f
	}

	// A field only profiles hold keeps no term frequency or field length: no profile search asks
	// Bleve to score (relevance is rank.go's, orders are the facts table's), and the two cost
	// about five bytes a posting: at 100,000 profiles the index shrank from 132 to 95 MB. Fields
	// blogs share (type, categories) keep theirs, since a blog search is scored by Bleve.
	lean := func(f *mapping.FieldMapping) *mapping.FieldMapping {
		f.SkipFreqNorm = true
		return f
	}

	// The profile's text fields have names of their own (blogs use text, name and en), so a
	// profile query never needs a filter on the document type.
	profile := bleve.NewDocumentStaticMapping()
	profile.AddFieldMappingsAt(fieldText, lean(text("kardan", false)))
	profile.AddFieldMappingsAt(fieldName, lean(text("kardan", false)))
	profile.AddFieldMappingsAt(fieldPrefix, lean(text("kardan_prefix", false)))
	profile.AddFieldMappingsAt(fieldEn, lean(text("kardan_en", false)))
	profile.AddFieldMappingsAt(fieldStem, lean(text("kardan", false)))
	profile.AddFieldMappingsAt(fieldNamePrefix, lean(text("kardan_nprefix", false)))
	profile.AddFieldMappingsAt("type", keyword())
	profile.AddFieldMappingsAt("city", lean(keyword()))
	profile.AddFieldMappingsAt("province", lean(keyword()))
	profile.AddFieldMappingsAt("field", lean(keyword()))
	profile.AddFieldMappingsAt("categories", keyword())
	// No scores: min_score and minLevel_score sift the hits by the facts table (facts.go), and
	// a new review then changes no document.
	// No query reads the composite _all field: building it cost a tenth of a rebuild.
	profile.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	geo := bleve.NewGeoPointFieldMapping()
	geo.IncludeInAll = false
	// Radius searches test points through doc values and orders read the facts table: nothing
	// reads a stored point, which cost 17 bytes a profile.
	geo.Store = false
	geo.DocValues = true
	profile.AddFieldMappingsAt("location", lean(geo))
	m.AddDocumentMapping("profile", profile)

	blog := bleve.NewDocumentStaticMapping()
	blog.AddFieldMappingsAt("text", text("kardan", false))
	blog.AddFieldMappingsAt("name", text("kardan", false))
	blog.AddFieldMappingsAt("en", text(en.AnalyzerName, false))
	blog.AddFieldMappingsAt("type", keyword())
	blog.AddFieldMappingsAt("categories", keyword())
	blog.AddFieldMappingsAt("tags", keyword())
	blog.AddFieldMappingsAt("writer", keyword())
	blog.AddFieldMappingsAt("release_at", numeric())
	m.AddDocumentMapping("blog", blog)

	m.DefaultMapping = bleve.NewDocumentDisabledMapping()
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// Open opens the index in dir for st, rebuilding it first when it is missing, unreadable or of
// another mapping version, then applies whatever the outbox holds that it has not seen.
func Open(ctx context.Context, dir string, st *store.Store) (*Index, error) {
	ix, err := OpenBuilt(ctx, dir, st)
	if !errors.Is(err, ErrNotBuilt) {
		return ix, err
	}
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		slog.Info("search index missing: building it", "dir", dir)
	} else {
		slog.Warn("search index unusable: rebuilding it", "dir", dir, "err", err)
	}
	if err := Rebuild(ctx, dir, st); err != nil {
		return nil, err
	}
	if ix, err = OpenBuilt(ctx, dir, st); err != nil {
		return nil, fmt.Errorf("open rebuilt index: %w", err)
	}
	return ix, nil
}

// ErrNotBuilt is answered by OpenBuilt when dir holds no index it can use: none, an unreadable
// one or one of another mapping version (the cause is wrapped too).
var ErrNotBuilt = errors.New("no usable search index")

// OpenBuilt opens the index in dir for st as Open does, but answers ErrNotBuilt instead of
// rebuilding it, so the caller may rebuild it (Open) while it does other work.
func OpenBuilt(ctx context.Context, dir string, st *store.Store) (*Index, error) {
	tuneBleve()
	idx, err := openExisting(dir)
	if err != nil {
		if errors.Is(err, ErrLocked) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: %w", ErrNotBuilt, err)
	}
	ix := &Index{dir: dir, st: st, idx: idx, kick: make(chan struct{}, 1), ref: &refCache{st: st}, facts: &facts{},
		Location: time.UTC, progress: make(chan struct{})}
	if on, err := ix.Applied(); err == nil {
		ix.persisted = on // what the index reopened with is on disk
		ix.applied.Store(on)
	}
	if err := ix.facts.load(ctx, st); err != nil {
		idx.Close()
		return nil, err
	}
	if err := ix.Sync(ctx); err != nil {
		idx.Close()
		return nil, err
	}
	ix.warmDocIDs()
	return ix, nil
}

// openExisting opens dir as an index of the current mapping version.
func openExisting(dir string) (bleve.Index, error) {
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return nil, bleve.ErrorIndexPathDoesNotExist
	}
	cfg := kvConfig()
	cfg["bolt_timeout"] = "2s"
	// A batch answers once it is searchable, without waiting for its segment to reach the disk:
	// the index is derived, and the outbox position it records is persisted with the documents
	// it covers, so after a crash it reopens at its last persisted batch and catches up from the
	// outbox (cmd's TestCrashSafety kills the server under writes
	// and compares the index that lived through the kills with a fresh reindex). A write's answer waited for a segment
	// file and two fsyncs before.
	cfg["unsafe_batch"] = true
	// Every write makes a segment of a document or a few. With Bleve's floor of 2,000 documents
	// a whole directory of a few thousand profiles is one tier, so each merge of those small
	// segments rewrote the entire index: two thirds of the server's processor time at 50 writes a
	// second. A floor of 50 merges small segments among themselves; the server's processor time
	// per request went from 3.1 to 1.5 ms in that load test (bench mixed --rate 200).
	cfg["scorchMergePlanOptions"] = map[string]interface{}{"FloorSegmentSize": liveMergeFloor}
	// The persister naps between its rounds (Bleve's advice for unsafe batches), so it writes the
	// batches of a nap as one segment file. Without the nap it persisted nearly every batch on
	// its own, and each persisted segment's introduction queued in the introducer's one goroutine
	// ahead of the writes' batches: under 1,050 writes a second an index batch took 1.9 ms
	// instead of 0.07, and the writes' median answer 18 ms instead of 5 (bench mixed --rate
	// 4200, BENCHMARKS.md, session 29). The nap delays only the disk: a batch is searchable as
	// soon as it is introduced, and Close waits for the disk (waitPersisted).
	cfg["scorchPersisterOptions"] = map[string]interface{}{"PersisterNapTimeMSec": livePersisterNapMS}
	idx, err := openWithTimeout(dir, cfg)
	if err != nil {
		return nil, err
	}
	v, err := idx.GetInternal(keyVersion)
	if err != nil || string(v) != mappingVersion {
		idx.Close()
		return nil, fmt.Errorf("index version %q, want %q", v, mappingVersion)
	}
	return idx, nil
}

// openWithTimeout opens the index, answering ErrLocked when another process holds it (bolt's
// lock on the root file times out instead of waiting forever).
func openWithTimeout(dir string, cfg map[string]interface{}) (bleve.Index, error) {
	idx, err := bleve.OpenUsing(dir, cfg)
	if err != nil {
		if strings.Contains(err.Error(), "timeout") {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("open index: %w", err)
	}
	return idx, nil
}

// Close closes the index; closing it again does nothing. It first waits a while for the
// batches applied so far to reach the disk, so a clean stop need not catch up at the next start.
func (ix *Index) Close() error {
	ix.applyMu.Lock()
	defer ix.applyMu.Unlock()
	if ix.closed {
		return nil
	}
	ix.closed = true
	ix.waitPersisted(ix.applied.Load(), closeWait)
	err := ix.idx.Close()
	ix.facts.release()
	return err
}

// liveMergeFloor is the live index's merge floor, in documents (see openExisting).
const liveMergeFloor = 50

// livePersisterNapMS is how long, in milliseconds, the live index's persister naps between
// rounds (see openExisting).
const livePersisterNapMS = 100

// closeWait bounds how long Close waits for applied batches to be persisted.
const closeWait = 10 * time.Second

// notePersisted records that the index's batches up to outbox id are on disk.
func (ix *Index) notePersisted(id int64) {
	ix.progressMu.Lock()
	defer ix.progressMu.Unlock()
	if id > ix.persisted {
		ix.persisted = id
	}
	if ix.persistedCh != nil {
		close(ix.persistedCh)
		ix.persistedCh = nil
	}
}

// waitPersisted waits at most d for the batches up to outbox id to be persisted.
func (ix *Index) waitPersisted(id int64, d time.Duration) bool {
	deadline := time.After(d)
	for {
		ix.progressMu.Lock()
		if ix.persisted >= id {
			ix.progressMu.Unlock()
			return true
		}
		if ix.persistedCh == nil {
			ix.persistedCh = make(chan struct{})
		}
		ch := ix.persistedCh
		ix.progressMu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return false
		}
	}
}

// Applied answers the last outbox id the index has applied.
func (ix *Index) Applied() (int64, error) {
	v, err := ix.idx.GetInternal(keyOutbox)
	if err != nil {
		return 0, fmt.Errorf("read index position: %w", err)
	}
	if len(v) == 0 {
		return 0, nil
	}
	return strconv.ParseInt(string(v), 10, 64)
}

// DocCount answers how many documents the index holds.
func (ix *Index) DocCount() (uint64, error) { return ix.idx.DocCount() }
