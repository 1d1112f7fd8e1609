package search

import (
	"bytes"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

// A profile's Persian text fields are analysed here, in one pass a field, into the terms their
// analyzers (newMapping) make: the words where isSep cuts, lower-cased, and for the two fields
// of starts each word's first letters. Through the analyzers a rebuild spent a fifth of its
// processor time on them: a Token of 80 bytes for every word and every start, a filter pass
// each, a rune slice and a new term for each of the name's starts, and a walk over every term to
// size the field. The index holds the same terms either way (TestPreparedFieldsAsAnalyzers,
// TestProfileDocumentsAsMapped); the mapping keeps the analyzers, which the plain path and
// the English field use.

// preparedKind is how a preparedField cuts its words.
type preparedKind uint8

// The kinds, each named for the analyzer of newMapping it stands for.
const (
	// wholeWords ("kardan"): the words, lower-cased.
	wholeWords preparedKind = iota
	// wordStarts ("kardan_prefix"): each word's first prefixMinRunes to prefixMaxRunes letters,
	// never the word whole.
	wordStarts
	// nameStarts ("kardan_nprefix"): each word's first 1 to prefixMaxRunes letters, the word
	// whole among them.
	nameStarts
)

// preparedFields names the fields analysed here, with how each is cut.
var preparedFields = []struct {
	name string
	kind preparedKind
}{
	{fieldText, wholeWords}, {fieldPrefix, wordStarts}, {fieldName, wholeWords}, {fieldStem, wholeWords},
	{fieldNamePrefix, nameStarts},
}

// preparedOptions answers the indexing options the mapping gives each prepared field, so that
// the two cannot drift apart. Made on first use: the mapping's analyzers need the tokenizer and
// filters this package registers in its init functions.
var preparedOptions = sync.OnceValue(func() map[string]index.FieldIndexingOptions {
	m := newMapping().(*mapping.IndexMappingImpl)
	out := map[string]index.FieldIndexingOptions{}
	for _, f := range preparedFields {
		fm := m.FieldMappingForPath(f.name)
		out[f.name] = fm.Options()
	}
	return out
})

// preparedField is one of a profile's Persian text fields; Bleve calls Analyze on one of its
// analysis workers, as it does a TextField's.
type preparedField struct {
	name    string
	kind    preparedKind
	options index.FieldIndexingOptions
	value   []byte // the field's text, lower-cased in place as Bleve's filter does its copy
	length  int
	freqs   index.TokenFrequencies
	size    int
}

func newPreparedField(name string, kind preparedKind, text string) *preparedField {
	return &preparedField{name: name, kind: kind, options: preparedOptions()[name], value: []byte(text)}
}

// Name implements document.Field.
func (f *preparedField) Name() string { return f.name }

// ArrayPositions implements document.Field: a profile's fields are not arrays.
func (f *preparedField) ArrayPositions() []uint64 { return nil }

// Options implements document.Field.
func (f *preparedField) Options() index.FieldIndexingOptions { return f.options }

// Value implements document.Field.
func (f *preparedField) Value() []byte { return f.value }

// NumPlainTextBytes implements document.Field.
func (f *preparedField) NumPlainTextBytes() uint64 { return uint64(len(f.value)) }

// EncodedFieldType implements document.Field: a text field.
func (f *preparedField) EncodedFieldType() byte { return 't' }

// AnalyzedLength implements document.Field: the terms made, each occurrence counted.
func (f *preparedField) AnalyzedLength() int { return f.length }

// AnalyzedTokenFrequencies implements document.Field.
func (f *preparedField) AnalyzedTokenFrequencies() index.TokenFrequencies { return f.freqs }

// Size implements document.Field: an estimate, which Bleve only adds to its statistics (a
// TextField walks its every term to say it).
func (f *preparedField) Size() int { return f.size }

// Analyze implements document.Field: the value's words, cut as the field's kind says, into
// term frequencies as analysis.TokenFrequency makes them from the analyzer's tokens.
func (f *preparedField) Analyze() {
	count := !f.options.SkipFreqNorm()
	// Sized for about the terms to come, as the words' spaces tell: grown from nothing, a field's
	// map was rehashed four or five times; sized for every token, as Bleve's are, it held
	// mostly empty slots, which the segment's builder walks over twice.
	words := bytes.Count(f.value, []byte{' '}) + 1
	switch f.kind {
	case wholeWords:
		words = words * 3 / 4
	case wordStarts:
		words *= 2
	case nameStarts:
		words *= 4
	}
	freqs := make(index.TokenFrequencies, words)
	terms, termBytes := 0, 0
	add := func(term []byte) {
		terms++
		tf := freqs[string(term)]
		if tf == nil {
			tf = &index.TokenFreq{Term: term}
			freqs[string(term)] = tf
			termBytes += len(term)
		}
		if count {
			tf.SetFrequency(tf.Frequency() + 1)
		}
	}
	v := f.value
	for i := 0; i < len(v); {
		r, size := decodeRune(v[i:])
		if isSep(r) {
			i += size
			continue
		}
		start := i
		for i += size; i < len(v); i += size {
			if r, size = decodeRune(v[i:]); isSep(r) {
				break
			}
		}
		word := lowerTerm(v[start:i:i])
		switch f.kind {
		case wholeWords:
			add(word)
		case nameStarts:
			if !utf8.Valid(word) {
				// Bleve's lowercase filter leaves bytes of the word behind once a letter's lower
				// case is shorter (İ), and its n-grams are made of the word's runes, each
				// invalid byte a U+FFFD: made so here too.
				runes := bytes.Runes(word)
				for n := 1; n <= min(len(runes), prefixMaxRunes); n++ {
					add(analysis.BuildTermFromRunes(runes[:n]))
				}
				continue
			}
			fallthrough
		case wordStarts:
			least := prefixMinRunes
			if f.kind == nameStarts {
				least = 1
			}
			runes := 0
			for j := 1; j <= len(word); j++ {
				if j < len(word) && !utf8.RuneStart(word[j]) {
					continue
				}
				// word[:j] holds the first runes letters; the word whole only for names.
				runes++
				if j == len(word) && f.kind == wordStarts {
					break
				}
				if runes >= least {
					add(word[:j:j])
				}
				if runes == prefixMaxRunes {
					break
				}
			}
		}
	}
	f.length, f.freqs = terms, freqs
	f.size = 64 + len(f.name) + len(f.value) + termBytes + len(freqs)*48
}

// lowerTerm answers term lower-cased exactly as Bleve's lowercase filter answers it (in place
// where the lower case is no longer, as it does), with the filter itself; most terms are
// Persian or lower-case Latin already, and are answered as they are after a look at their
// bytes.
func lowerTerm(term []byte) []byte {
	for i := 0; i < len(term); {
		c := term[i]
		switch {
		case c < utf8.RuneSelf:
			if 'A' <= c && c <= 'Z' {
				return lowerFilter.Filter(analysis.TokenStream{&analysis.Token{Term: term}})[0].Term
			}
			i++
		case c >= 0xd8 && c <= 0xdb: // U+0600..U+06FF, the Arabic block: no case
			i += 2
		default:
			r, size := utf8.DecodeRune(term[i:])
			if unicode.ToLower(r) != r {
				return lowerFilter.Filter(analysis.TokenStream{&analysis.Token{Term: term}})[0].Term
			}
			i += size
		}
	}
	return term
}

// lowerFilter is the lowercase filter of the mapping's analyzers (it holds no state).
var lowerFilter = lowercase.NewLowerCaseFilter()

// profileDocument answers d as the document Bleve indexes under id: the mapping's fields of
// it, and the prepared ones.
func profileDocument(m mapping.IndexMapping, id string, d *profileDoc) (*document.Document, error) {
	doc := document.NewDocument(id)
	if err := m.MapDocument(doc, d.profileMapped); err != nil {
		return nil, err
	}
	for _, f := range preparedFields {
		doc.AddField(newPreparedField(f.name, f.kind, d.prepared(f.name)))
	}
	return doc, nil
}

// prepared answers the text of d's prepared field name.
func (d *profileDoc) prepared(name string) string {
	switch name {
	case fieldText:
		return d.Text
	case fieldPrefix:
		return d.Prefix
	case fieldName:
		return d.Name
	case fieldStem:
		return d.Stem
	case fieldNamePrefix:
		return d.NamePrefix
	}
	return ""
}
