package search

import (
	"context"
	"strconv"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// cellQuery matches the profiles whose location lies in the s2 cells that cover a circle: a
// superset of the circle, which pageCollector then cuts exactly with the facts table. Bleve's
// own distance query makes the same cut by reading each candidate's location from doc values,
// which decompresses a chunk of documents per candidate: a quarter of a radius search's time.
type cellQuery struct {
	lat, long, radius float64        // degrees, metres
	misses            *atomic.Uint64 // counts searches without the plugin (see FastPathMisses)
}

// Searcher implements query.Query.
func (q *cellQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping,
	options bsearch.SearcherOptions) (bsearch.Searcher, error) {
	if sp, ok := i.(index.SpatialIndexPlugin); ok {
		if _, err := sp.GetSpatialAnalyzerPlugin("s2"); err == nil {
			return searcher.NewMultiTermSearcher(ctx, i, circleTerms(q.lat, q.long, q.radius), fieldLocation, 1, options, false)
		}
	}
	// An index without the plugin: Bleve's distance query, cut exactly by Bleve (and again,
	// harmlessly, by the collector).
	miss(q.misses, "radius cells")
	g := bleve.NewGeoDistanceQuery(q.long, q.lat, strconv.FormatFloat(q.radius, 'f', -1, 64)+"m")
	g.SetField(fieldLocation)
	return g.Searcher(ctx, i, m, options)
}

// fieldLocation is the profile's point in the index.
const fieldLocation = "location"
