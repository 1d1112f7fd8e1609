package search

// The words of the index one or two letters away from a word (a typo's ways of matching, and
// "did you mean"), found by walking each segment's dictionary with an edit-distance automaton
// built as the walk goes.
//
// Bleve's fuzzy dictionary builds the whole automaton first (vellum's Levenshtein DFA): for a
// Persian word two edits away that took 2 ms and 1.6 MB, 0.36 ms one edit away, where a search
// takes a third of a millisecond; a query with a typo built one for its hits and another for
// "did you mean", a tenth of the server's time under the bench's text searches. Here a state is
// the row of edit distances a dictionary path leaves, made when the walk reaches it: only the
// few thousand states the dictionary's words lead to are ever made.
//
// The distance is Bleve's: letters (not bytes) inserted, deleted or replaced, and two
// neighbours swapped, each counting one (the optimal string alignment distance, vellum's
// "transposition" automaton). TestFuzzyWordsAsBleve holds the words found to Bleve's own.

import (
	"context"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	index "github.com/blevesearch/bleve_index_api"
)

// editAutomaton matches the byte strings within k edits of term. It is a segment.Automaton
// (and a vellum.Automaton). State 0 is dead: no word through it can match.
type editAutomaton struct {
	term []rune
	k    uint8
	// rows holds the states' rows of distances, n+1 each (n: len(term)), capped at k+1.
	rows   []uint8
	states []editState
}

// editState is one state: the row of distances from the term's starts to the letters read so
// far, the row before it and the last letter (for a swap of neighbours), and the bytes of a
// letter begun but not yet whole.
type editState struct {
	row, prev int32 // offsets in rows; prev -1: no letter before the last
	last      rune  // the last letter read, -1 for none
	pending   [utf8.UTFMax]byte
	npending  uint8
}

// newEditAutomaton answers the automaton of the words within k edits of term. It may be one a
// walk before gave back (release), its slices kept: a walk over every segment's dictionary
// makes a state a byte, and growing them anew was an eighth of the bytes a text + city search
// allocated.
func newEditAutomaton(term string, k int) *editAutomaton {
	a := editAutomata.Get().(*editAutomaton)
	a.term, a.k = a.term[:0], uint8(k)
	for _, r := range term {
		a.term = append(a.term, r)
	}
	n := len(a.term)
	a.states = append(a.states[:0], editState{}, editState{row: 0, prev: -1, last: -1})
	a.rows = a.rows[:0]
	for i := 0; i <= n; i++ {
		a.rows = append(a.rows, a.capped(i))
	}
	return a
}

// editAutomata keeps the automata of finished walks.
var editAutomata = sync.Pool{New: func() any { return new(editAutomaton) }}

// release gives a back once no iterator reads it; one a large walk grew (a short word two
// letters away in a large dictionary) is left to the collector rather than kept.
func (a *editAutomaton) release() {
	if cap(a.states) <= 1<<14 && cap(a.rows) <= 1<<18 {
		editAutomata.Put(a)
	}
}

func (a *editAutomaton) capped(d int) uint8 { return uint8(min(d, int(a.k)+1)) }

func (a *editAutomaton) row(off int32) []uint8 { return a.rows[off : int(off)+len(a.term)+1] }

// Start is the state before any byte.
func (a *editAutomaton) Start() int { return 1 }

// IsMatch reports whether the bytes read make a word within k edits.
func (a *editAutomaton) IsMatch(s int) bool {
	st := &a.states[s]
	return s != 0 && st.npending == 0 && a.row(st.row)[len(a.term)] <= a.k
}

// CanMatch reports whether some word through s can match: dead states are 0.
func (a *editAutomaton) CanMatch(s int) bool { return s != 0 }

// WillAlwaysMatch is never true: a word grown long enough is always too far.
func (a *editAutomaton) WillAlwaysMatch(int) bool { return false }

// Accept answers the state after byte b, 0 when every row entry is past k.
func (a *editAutomaton) Accept(s int, b byte) int {
	if s == 0 {
		return 0
	}
	st := a.states[s]
	if int(st.npending) >= len(st.pending) {
		return 0
	}
	st.pending[st.npending] = b
	st.npending++
	p := st.pending[:st.npending]
	if !utf8.FullRune(p) {
		a.states = append(a.states, st)
		return len(a.states) - 1
	}
	c, size := utf8.DecodeRune(p)
	if size != len(p) {
		c = utf8.RuneError // an invalid sequence is one letter no term holds
	}
	n := len(a.term)
	at := int32(len(a.rows))
	a.rows = slices.Grow(a.rows, n+1)[:int(at)+n+1]
	r1 := a.row(st.row)
	r := a.rows[at:]
	r[0] = a.capped(int(r1[0]) + 1)
	low := r[0]
	for i := 1; i <= n; i++ {
		cost := uint8(1)
		if a.term[i-1] == c {
			cost = 0
		}
		d := min(r1[i]+1, r[i-1]+1, r1[i-1]+cost)
		if st.prev >= 0 && i >= 2 && a.term[i-1] == st.last && a.term[i-2] == c {
			d = min(d, a.row(st.prev)[i-2]+1)
		}
		r[i] = min(d, a.k+1)
		low = min(low, r[i])
	}
	if low > a.k {
		a.rows = a.rows[:at]
		return 0
	}
	a.states = append(a.states, editState{row: at, prev: st.row, last: c})
	return len(a.states) - 1
}

// fuzzyWords answers the words of field, in the snapshot's segments, within k edits of term:
// sorted, each once (Bleve's fuzzy dictionary's words, without their counts).
func fuzzyWords(segs []*scorch.SegmentSnapshot, field, term string, k int) ([]string, error) {
	a := newEditAutomaton(term, k)
	defer a.release()
	var words []string
	for _, ss := range segs {
		d, err := ss.Segment().Dictionary(field)
		if err != nil {
			return nil, err
		}
		it := d.AutomatonIterator(a, nil, nil)
		for {
			e, err := it.Next()
			if err != nil {
				return nil, err
			}
			if e == nil {
				break
			}
			words = append(words, e.Term)
		}
	}
	slices.Sort(words)
	return slices.Compact(words), nil
}

// editDistance answers the automaton's distance between a and b (see the file's comment).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	rows := [3][]int{make([]int, len(x)+1), make([]int, len(x)+1), make([]int, len(x)+1)}
	for i := range rows[1] {
		rows[1][i] = i
	}
	for j := 1; j <= len(y); j++ {
		r, r1, r2 := rows[(j+1)%3], rows[j%3], rows[(j+2)%3]
		r[0] = j
		for i := 1; i <= len(x); i++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			r[i] = min(r1[i]+1, r[i-1]+1, r1[i-1]+cost)
			if i >= 2 && j >= 2 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				r[i] = min(r[i], r2[i-2]+1)
			}
		}
	}
	return rows[(len(y)+1)%3][len(x)]
}

// typoQuery is Bleve's fuzzy query without a prefix, its words found by fuzzyWords: the same
// searcher over the same words, weighed by the same distances (the article search's typos).
type typoQuery struct {
	query.FuzzyQuery
}

// newTypoQuery answers the query of the words of field within fuzziness edits of term.
func newTypoQuery(term, field string, fuzziness int, boost float64) *typoQuery {
	q := &typoQuery{FuzzyQuery: *query.NewFuzzyQuery(term)}
	q.SetField(field)
	q.SetFuzziness(fuzziness)
	q.SetBoost(boost)
	return q
}

// Searcher is Bleve's fuzzy searcher's (searcher.NewFuzzySearcher) with the words found here.
func (q *typoQuery) Searcher(ctx context.Context, i index.IndexReader, m mapping.IndexMapping, options bsearch.SearcherOptions) (bsearch.Searcher, error) {
	snap, ok := i.(*scorch.IndexSnapshot)
	if !ok || q.FieldVal == "" || q.Prefix != 0 || q.Fuzziness < 1 || q.Fuzziness > 2 {
		return q.FuzzyQuery.Searcher(ctx, i, m, options)
	}
	words, err := fuzzyWords(snap.Segments(), q.FieldVal, q.Term, q.Fuzziness)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 || len(words) == 1 && words[0] == q.Term {
		return searcher.NewTermSearcher(ctx, i, q.Term, q.FieldVal, q.BoostVal.Value(), options)
	}
	dists := make([]uint8, len(words))
	for k, w := range words {
		dists[k] = uint8(editDistance(q.Term, w))
	}
	return searcher.NewMultiTermSearcherBoosted(ctx, i, words, q.FieldVal, q.BoostVal.Value(), dists, options, true)
}
