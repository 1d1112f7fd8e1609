package search

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"
)

// docIDs turns the document numbers of hits into profile ids. Bleve's way, ExternalID, reads each
// hit's stored _id: for a broad query of 200,000 hits that cost more than finding them. A segment
// of the index never changes once written, so the ids of each segment's documents are read once,
// in one pass, and kept while the segment is in use.
type docIDs struct {
	mu   sync.Mutex
	segs map[uint64]*segmentIDs // by scorch's segment id, unique while the index is open
	// misses counts the views of readers that were not scorch snapshots (see FastPathMisses).
	misses atomic.Uint64
}

// segmentIDs are the profile ids of one segment's documents, by their number in the segment; -1
// for a document that is not a profile (a blog).
type segmentIDs struct {
	once sync.Once
	ids  []int64
	err  error
	// top holds the numbers of the segment's documents whose profiles are in facts.top, read at
	// one topVersion (topDocs).
	top atomic.Pointer[segmentTop]
}

// segmentTop is segmentIDs.top: a bitmap of document numbers and the facts' topVersion it was
// read at.
type segmentTop struct {
	version uint64
	docs    *roaring.Bitmap
}

// topDocs answers the numbers of the segment's documents whose profiles are in top, a set read at
// version: made again from the segment's ids whenever version is another (a profile joined or
// left top, or the facts were loaded again), 1.4 ms for a segment of a million. The caller holds
// the facts' read lock, so top cannot change meanwhile. Two searches may make it at once; each
// makes the same set. TestSuggestTopEqualPlain holds the pages cut with it to the plain walk,
// also after profiles joined and left top.
func (s *segmentIDs) topDocs(top idSet, version uint64) *roaring.Bitmap {
	if t := s.top.Load(); t != nil && t.version == version {
		return t.docs
	}
	docs := roaring.New()
	for num, id := range s.ids {
		if top.has(id) {
			docs.Add(uint32(num))
		}
	}
	docs.RunOptimize()
	s.top.Store(&segmentTop{version, docs})
	return docs
}

// docView resolves the document numbers of one snapshot of the index.
type docView struct {
	r index.IndexReader
	// starts are the first document number of each segment, as scorch numbers them: the segments'
	// full sizes (deleted documents included) added up in order.
	starts []uint64
	segs   []*segmentIDs
	last   int // the segment of the last number resolved: hits come in rising order
}

// view answers the resolver of r's document numbers. A reader that is not a scorch snapshot is
// resolved document by document through ExternalID, and counted as a miss.
func (d *docIDs) view(r index.IndexReader) *docView {
	v := &docView{r: r}
	snap, ok := r.(*scorch.IndexSnapshot)
	if !ok {
		miss(&d.misses, "document ids")
		return v
	}
	segs := snap.Segments()
	v.starts = make([]uint64, len(segs))
	v.segs = make([]*segmentIDs, len(segs))
	d.mu.Lock()
	if d.segs == nil {
		d.segs = make(map[uint64]*segmentIDs)
	}
	var next uint64
	for i, ss := range segs {
		v.starts[i] = next
		next += ss.Segment().Count()
		s := d.segs[ss.Id()]
		if s == nil {
			s = &segmentIDs{}
			d.segs[ss.Id()] = s
		}
		v.segs[i] = s
	}
	// Merges retire segments; forget them once the map holds many more than a snapshot uses.
	// A search still reading a retired segment keeps its own pointer.
	if len(d.segs) > 2*len(segs)+16 {
		live := make(map[uint64]bool, len(segs))
		for _, ss := range segs {
			live[ss.Id()] = true
		}
		for id := range d.segs {
			if !live[id] {
				delete(d.segs, id)
			}
		}
	}
	d.mu.Unlock()
	for i, ss := range segs {
		v.segs[i].once.Do(func() { v.segs[i].ids, v.segs[i].err = readSegmentIDs(ss) })
	}
	return v
}

// warmDocIDs reads the document ids of the index's segments now (a quarter of a second at a
// million profiles), so that the first searches do not wait for it. Segments written later, by
// the indexer or by a merge, are read by the first search that meets them, and the indexer warms
// its own after each batch.
func (ix *Index) warmDocIDs() {
	r, err := ix.reader()
	if err != nil {
		return // the first search reports it
	}
	defer r.Close()
	ix.docs.view(r)
}

// readSegmentIDs reads the profile id of every document of a segment.
func readSegmentIDs(ss *scorch.SegmentSnapshot) ([]int64, error) {
	n := ss.Segment().Count()
	ids := make([]int64, n)
	for num := uint64(0); num < n; num++ {
		ext, err := ss.DocID(num)
		if err != nil {
			return nil, fmt.Errorf("read document ids: %w", err)
		}
		ids[num] = profileIDOf(string(ext))
	}
	return ids, nil
}

// profileIDOf answers the profile id of an index document id, or -1 for another document.
func profileIDOf(ext string) int64 {
	if !strings.HasPrefix(ext, "p") {
		return -1
	}
	id, err := strconv.ParseInt(ext[1:], 10, 64)
	if err != nil {
		return -1
	}
	return id
}

// profileID answers the profile id of a hit, or -1 for a document that is not a profile.
func (v *docView) profileID(d *bsearch.DocumentMatch) (int64, error) {
	return v.profileIDOfNumber(d.IndexInternalID.Value())
}

// profileIDOfNumber answers the profile id of document number num, or -1 for another document.
func (v *docView) profileIDOfNumber(num uint64) (int64, error) {
	if v.segs == nil {
		ext, err := v.r.ExternalID(index.NewIndexInternalID(nil, num))
		if err != nil {
			return -1, err
		}
		return profileIDOf(ext), nil
	}
	if len(v.starts) == 0 {
		return -1, fmt.Errorf("document number %d in an empty index", num)
	}
	lo := v.segmentOf(num)
	s := v.segs[lo]
	if s.err != nil {
		return -1, s.err
	}
	local := num - v.starts[lo]
	if local >= uint64(len(s.ids)) {
		return -1, fmt.Errorf("document number %d is past its segment", num)
	}
	return s.ids[local], nil
}

// segmentOf answers the index of the last segment that starts at or before num: most often the
// last hit's, as hits come in rising order.
func (v *docView) segmentOf(num uint64) int {
	if i := v.last; num >= v.starts[i] && (i+1 == len(v.starts) || num < v.starts[i+1]) {
		return i
	}
	lo, hi := 0, len(v.starts)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if v.starts[mid] <= num {
			lo = mid
		} else {
			hi = mid
		}
	}
	v.last = lo
	return lo
}

// segIDs answers the profile ids of each segment's documents by number (as segmentIDs).
func (v *docView) segIDs() ([][]int64, error) {
	ids := make([][]int64, len(v.segs))
	for i, s := range v.segs {
		if s.err != nil {
			return nil, s.err
		}
		ids[i] = s.ids
	}
	return ids, nil
}
