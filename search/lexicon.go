package search

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"kardan/store"
)

// The lexicon is what the analysis knows of the reference data: the category tree and the cities,
// with their Persian and English names and the categories' search synonyms. It is built from the
// store whenever the index reloads its reference data, and both sides of the analysis use it:
// the stemmer's guards when a profile is indexed, and phrase recognition when a query is read.
//
// A query phrase that names a category («دکتر دندان», "plumbing", «lolekesh») or a city
// («تهران», "tehran") becomes one unit of the query that also matches the profiles of that
// category or city, whatever their own text says (see profileTextQuery).

// entryKind tells what a lexicon entry names.
type entryKind uint8

const (
	entCategory entryKind = iota // a category or a field of work
	entCity
	entWord // a word of a name, known only as a spelling (for Finglish)
)

// lexEntry is a category, a city or a plain word the lexicon knows.
type lexEntry struct {
	kind  entryKind
	slug  string
	field bool // a field of work (the root of the tree), matched on the "field" term
	id    int64
	fa    string // the Persian name, as the reference data writes it
	en    string
	city  int64 // for a city: its province, for answers
	key   string
	// major marks a provincial capital or a favourite category: offered first as suggestions.
	major bool
}

// lexicon is the analysis's dictionary (see above). It is read-only once built.
type lexicon struct {
	// protect are words of the reference data that end like an inflection but name a place or
	// a trade («تهران», «دندان», «ساختمان»); vocab every Persian word of a category name, which
	// the stemmer reads as a trade when it takes -ی.
	protect map[string]bool
	vocab   map[string]bool
	// phrases maps a Persian phrase key (phraseKeys) to what it names; latin the same for
	// English words (englishKey); skel the Finglish skeleton (skeleton) of every Persian name
	// and name word to its entries.
	phrases map[string][]*lexEntry
	latin   map[string][]*lexEntry
	skel    map[string][]*lexEntry
	// entries are every category and city; bySlug the same by kind and slug.
	entries []*lexEntry
	bySlug  map[string]*lexEntry
	// suggest are the names of the entries, and skelSorted their Finglish skeletons, sorted
	// for prefix search (suggest.go).
	suggest    []suggestKey
	skelSorted []suggestKey
}

// maxPhraseWords is the longest phrase the query reader compares with the lexicon.
const maxPhraseWords = 4

// buildLexicon reads the tree and the cities into a lexicon.
func buildLexicon(tree *store.Categories, cities []store.City, provinces []store.Province) *lexicon {
	lx := &lexicon{protect: map[string]bool{}, vocab: map[string]bool{}, phrases: map[string][]*lexEntry{},
		latin: map[string][]*lexEntry{}, skel: map[string][]*lexEntry{}, bySlug: map[string]*lexEntry{}}
	names := map[*lexEntry][]string{}
	// Words first: the stemmer's guards must be complete before any key is stemmed.
	var cats []*store.Category
	if tree != nil {
		for _, r := range tree.Roots {
			cats = append(cats, r)
			cats = append(cats, r.Children...)
		}
	}
	var likePlural []string
	guard := func(name string, place bool) {
		for _, w := range QueryTokens(name) {
			if !isPersianWord(w) {
				continue
			}
			if place {
				lx.protect[w] = true
				continue
			}
			lx.vocab[w] = true
			if endsLikePlural(w) {
				likePlural = append(likePlural, w)
			}
		}
	}
	for _, c := range cats {
		guard(c.FarsiName, false)
		for _, s := range categorySynonyms(c) {
			guard(s, false)
		}
	}
	for _, c := range cities {
		guard(c.FarsiName, true)
	}
	for _, p := range provinces {
		guard(p.FarsiName, true)
	}
	// A trade's word is kept whole when it ends like a plural or a comparative and is not the
	// plural of another of them («دندان», «رستوران», «پرینتر», but not «تعمیرات»): its -ی and
	// -کار are the forms the stemmer is for.
	for _, w := range likePlural {
		if t, ok := cutEnding(w, pluralEndings); !ok || !lx.vocab[t] {
			if t, ok := cutEnding(w, comparativeEndings); !ok || !lx.vocab[t] {
				lx.protect[w] = true
			}
		}
	}
	// Single distinctive words of category names («یخچال», "refrigerator") name the
	// categories they occur in, when at most two categories share them.
	wordCats := map[string][]*lexEntry{}
	for _, c := range cats {
		e := &lexEntry{kind: entCategory, slug: c.Slag, field: c.IsField(), id: c.ID, fa: c.FarsiName, en: c.EnglishName, major: c.Favourite}
		lx.entries = append(lx.entries, e)
		all := append([]string{c.FarsiName, c.EnglishName}, categorySynonyms(c)...)
		names[e] = all
		for _, name := range all {
			lx.addName(e, name)
			// Names that list several trades («کلیدساز و قفل‌ساز») name the category by each.
			for _, part := range splitAnd(name) {
				lx.addName(e, part)
			}
		}
		seen := map[string]bool{}
		for _, name := range []string{c.FarsiName, c.EnglishName} {
			for _, w := range QueryTokens(name) {
				k := lx.wordKey(w)
				if k == "" || seen[k] || commonNameWords[w] || utf8.RuneCountInString(w) < 3 {
					continue
				}
				seen[k] = true
				wordCats[k] = append(wordCats[k], e)
			}
		}
	}
	for k, es := range wordCats {
		if len(es) > 2 {
			continue
		}
		for _, e := range es {
			if isLatin(k) {
				lx.latin[k] = appendEntry(lx.latin[k], e)
			} else {
				lx.phrases[k] = appendEntry(lx.phrases[k], e)
			}
		}
	}
	for _, c := range cities {
		e := &lexEntry{kind: entCity, slug: c.Slag, id: c.ID, fa: c.FarsiName, en: c.EnglishName, city: c.ProvinceID, major: c.Capital}
		lx.entries = append(lx.entries, e)
		names[e] = []string{c.FarsiName, c.EnglishName}
		lx.addName(e, c.FarsiName)
		lx.addName(e, c.EnglishName)
	}
	for _, e := range lx.entries {
		lx.bySlug[string(rune('0'+e.kind))+e.slug] = e
	}
	for e, ns := range names {
		for _, n := range ns {
			names[e] = append(names[e], splitAnd(n)...)
		}
	}
	lx.buildSuggest(names)
	// Every Persian word of a name is a spelling Finglish can reach even where it names
	// nothing by itself («tamir» → «تعمیر»).
	for _, w := range slices.Sorted(maps.Keys(lx.vocab)) {
		e := &lexEntry{kind: entWord, fa: w}
		lx.addSkeleton(w, e)
	}
	for k, es := range lx.skel {
		// A category or city first; finglish orders each kind by the word typed.
		sort.SliceStable(es, func(i, j int) bool { return es[i].kind < es[j].kind })
		lx.skel[k] = es
		if strings.HasPrefix(k, "+") {
			continue
		}
		for _, e := range es {
			if e.kind != entWord {
				lx.skelSorted = append(lx.skelSorted, suggestKey{k, e})
			}
		}
	}
	// Entries under one key in one order whatever order the map above gave them.
	slices.SortFunc(lx.skelSorted, func(a, b suggestKey) int {
		return cmp.Or(strings.Compare(a.key, b.key), cmp.Compare(a.entry.kind, b.entry.kind),
			strings.Compare(a.entry.slug, b.entry.slug), strings.Compare(a.entry.key, b.entry.key))
	})
	return lx
}

// addName files entry e under every key of one of its names.
func (lx *lexicon) addName(e *lexEntry, name string) {
	words := QueryTokens(name)
	words = dropStop(words)
	if len(words) == 0 || len(words) > maxPhraseWords {
		return
	}
	if isLatin(strings.Join(words, "")) {
		for _, k := range englishKeys(words) {
			lx.latin[k] = appendEntry(lx.latin[k], e)
		}
		return
	}
	for _, k := range lx.phraseKeys(words) {
		lx.phrases[k] = appendEntry(lx.phrases[k], e)
	}
	if e.kind != entWord {
		joined := strings.Join(words, "")
		lx.addSkeleton(joined, &lexEntry{kind: e.kind, slug: e.slug, field: e.field,
			id: e.id, fa: e.fa, en: e.en, city: e.city, key: joined})
	}
}

// addSkeleton files e under the Finglish skeletons of the Persian spelling w: the consonant
// skeleton when it has two letters or more, and the full one (keyed "+...") always.
func (lx *lexicon) addSkeleton(w string, e *lexEntry) {
	if sk := skeleton(w); len(sk) >= 2 {
		lx.skel[sk] = appendEntry(lx.skel[sk], e)
	}
	if sk := "+" + fullSkeleton(w); len(sk) >= 3 {
		lx.skel[sk] = appendEntry(lx.skel[sk], e)
	}
}

func appendEntry(es []*lexEntry, e *lexEntry) []*lexEntry {
	for _, x := range es {
		if x.slug == e.slug && x.kind == e.kind && x.key == e.key {
			return es
		}
	}
	return append(es, e)
}

// phraseKeys answers the keys a Persian phrase is filed under and looked up by: its words
// written together, that form stemmed, and its words each stemmed then written together, so
// «لوله کشی», «لوله‌کش» and «لولهکش» meet.
func (lx *lexicon) phraseKeys(words []string) []string {
	joined := strings.Join(words, "")
	keys := []string{joined}
	if s := lx.Stem(joined); s != joined {
		keys = append(keys, s)
	}
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = lx.Stem(w)
	}
	if s := strings.Join(stems, ""); s != joined && s != keys[len(keys)-1] {
		keys = append(keys, s)
	}
	return keys
}

// wordKey answers the key one word of a name is filed under for wordCats.
func (lx *lexicon) wordKey(w string) string {
	if isLatin(w) {
		return englishStem(w)
	}
	return lx.Stem(w)
}

// englishKeys answers the keys of English words: stemmed, with and without spaces ("car wash",
// "carwash").
func englishKeys(words []string) []string {
	stems := make([]string, len(words))
	for i, w := range words {
		stems[i] = englishStem(w)
	}
	spaced := strings.Join(stems, " ")
	if len(words) == 1 {
		return []string{spaced}
	}
	return []string{spaced, englishStem(strings.Join(words, ""))}
}

// lookup answers what the phrase of words names, trying Persian keys, English keys, then the
// Finglish skeleton.
func (lx *lexicon) lookup(words []string) []*lexEntry {
	if lx == nil || len(words) == 0 {
		return nil
	}
	if !isLatin(strings.Join(words, "")) {
		for _, k := range lx.phraseKeys(words) {
			if es := lx.phrases[k]; len(es) > 0 {
				return es
			}
		}
		return nil
	}
	for _, k := range englishKeys(words) {
		if es := lx.latin[k]; len(es) > 0 {
			return es
		}
	}
	return lx.finglish(strings.Join(words, ""), false)
}

// endsLikePlural reports whether w ends like a plural or a comparative.
func endsLikePlural(w string) bool {
	for _, list := range [][]string{pluralEndings, comparativeEndings} {
		for _, e := range list {
			if strings.HasSuffix(w, e) {
				return true
			}
		}
	}
	return false
}

// splitAnd splits a name that lists several trades at «و» / "and" (and at commas).
func splitAnd(name string) []string {
	f := func(r rune) bool { return r == '،' || r == ',' || r == '/' }
	var out []string
	for _, part := range strings.FieldsFunc(name, f) {
		for _, p := range strings.Split(part, " و ") {
			for _, q := range strings.Split(p, " and ") {
				if q = strings.TrimSpace(q); q != "" && q != strings.TrimSpace(name) {
					out = append(out, q)
				}
			}
		}
	}
	return out
}

// dropStop leaves the stop words out of a phrase, unless nothing else is left.
func dropStop(words []string) []string {
	out := words[:0:0]
	for _, w := range words {
		if !stopWords[w] && !englishStop[w] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return words
	}
	return out
}

// englishStop are English words that name nothing in a category name or a query.
var englishStop = map[string]bool{"and": true, "or": true, "the": true, "of": true, "in": true,
	"a": true, "an": true, "for": true, "near": true, "me": true, "to": true, "on": true}

// commonNameWords occur in so many category names that alone they name none of them.
var commonNameWords = map[string]bool{
	"تعمیر": true, "خدمات": true, "اموزش": true, "مشاور": true, "مشاوره": true, "ساختمان": true,
	"دفتر": true, "خودرو": true, "لوازم": true, "متخصص": true, "طراحی": true, "کارشناس": true,
	"repair": true, "services": true, "service": true, "and": true, "car": true, "shop": true,
	"consultant": true, "teacher": true, "design": true, "classes": true, "office": true,
	"agent": true, "home": true, "house": true, "building": true,
}

// categorySynonyms answers the search synonyms of a category: the store's, and this package's
// own table for what people type that the names do not say.
func categorySynonyms(c *store.Category) []string {
	b := builtinSynonyms[c.Slag]
	if len(b) == 0 {
		return c.Synonyms
	}
	return append(append(make([]string, 0, len(c.Synonyms)+len(b)), c.Synonyms...), b...)
}

// builtinSynonyms are this package's own additions to the store's synonyms (the reference data's):
// ways people ask for some categories that their names do not cover, everyday words
// («دکتر دندان»), shop names («سلمانی»), English words ("plumbing"), measured by the relevance
// set. A slug the tree does not have is ignored.
var builtinSynonyms = map[string][]string{
	"plumber":               {"لوله کشی", "لوله کش ساختمان", "تاسیسات", "plumbing", "pipe"},
	"electrician":           {"برقکار", "برق کار", "سیم کشی", "سیم کش", "برق ساختمان", "electrical", "electric", "wiring"},
	"dentist":               {"دکتر دندان", "دندان پزشک", "دندانپزشکی", "جراح دندان", "ارتودنسی", "ایمپلنت", "dental", "teeth", "tooth", "orthodontist"},
	"lawyer":                {"وکیل پایه یک", "وکیل دادگستری", "وکالت", "attorney", "advocate", "law", "legal"},
	"general-practitioner":  {"دکتر", "پزشک", "دکتر عمومی", "doctor", "physician", "gp", "clinic"},
	"refrigerator-repair":   {"تعمیرکار یخچال", "یخچال ساز", "fridge", "freezer"},
	"beauty-salon":          {"آرایشگاه", "سالن زیبایی", "آرایشگر", "آرایشگر زنانه", "hairdresser", "salon", "hair"},
	"barber":                {"آرایشگاه", "سلمانی", "پیرایش", "پیرایشگاه", "آرایشگر مردانه", "barbershop"},
	"car-mechanic":          {"مکانیک", "مکانیکی", "تعمیرگاه", "تعمیرگاه خودرو", "تعمیرکار خودرو", "mechanic", "garage", "auto repair"},
	"carpet-cleaning":       {"فرش شویی", "قالی شویی", "rug cleaning"},
	"movers":                {"اسباب کشی", "اثاث کشی", "باربری", "moving", "removals"},
	"locksmith":             {"کلید سازی", "قفل سازی", "keys", "lock"},
	"house-painter":         {"نقاشی ساختمان", "نقاش", "painter", "painting"},
	"pharmacy":              {"دارو", "chemist", "drugstore"},
	"car-wash":              {"کارواش", "کار واش", "شستشوی خودرو", "car wash"},
	"private-tutor":         {"معلم", "تدریس خصوصی", "کلاس خصوصی", "tutor", "teacher"},
	"psychologist":          {"روانپزشک", "مشاوره روانشناسی", "therapist", "counselling"},
	"veterinarian":          {"دکتر حیوانات", "کلینیک دامپزشکی", "vet"},
	"translation":           {"مترجم", "translator"},
	"accountant":            {"حسابداری", "accounting", "bookkeeping"},
	"real-estate-agent":     {"بنگاه", "بنگاه املاک", "املاک", "realtor", "estate agent"},
	"mobile-repair":         {"تعمیر گوشی", "تعمیرات موبایل", "phone repair"},
	"computer-repair":       {"تعمیر لپ تاپ", "laptop repair"},
	"taxi-service":          {"آژانس", "تاکسی", "تاکسی تلفنی", "taxi", "cab"},
	"gym":                   {"باشگاه", "بدنسازی", "fitness"},
	"restaurant":            {"غذا", "food"},
	"confectionery":         {"شیرینی", "شیرینی فروشی", "pastry"},
	"photographer":          {"عکاسی", "آتلیه", "photography"},
	"tyres":                 {"پنچرگیری", "لاستیک", "tyre", "tire"},
	"drain-septic-services": {"لوله بازکنی", "تخلیه چاه", "چاه بازکنی"},
}
