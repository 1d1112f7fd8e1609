package search

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"kardan/store"
)

// blogDoc is what the index holds of an Accepted blog. Whether it is released yet is decided
// when a query runs (a range on ReleaseAt up to the current time), so a scheduled blog appears by
// itself once its date comes, with no change to the index.
type blogDoc struct {
	Type       string   `json:"type"`
	Text       string   `json:"text"`
	Name       string   `json:"name"`
	En         string   `json:"en"`
	Categories []string `json:"categories"` // ids of its categories and of their fields
	Tags       []string `json:"tags"`       // in store.NormalizeTag's form
	Writer     string   `json:"writer"`
	ReleaseAt  float64  `json:"release_at"`
}

// BleveType names the document's mapping. Bleve finds a struct's type by Go field name, not by
// its JSON name, so without this a blog would be mapped as the default type (profile).
func (blogDoc) BleveType() string { return "blog" }

func blogDocID(id int64) string { return "b" + strconv.FormatInt(id, 10) }

// treeWith answers the category tree, reloaded first when it lacks one of ids.
func (r *refCache) treeWith(ctx context.Context, ids []int64) (*store.Categories, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	missing := r.tree == nil
	for _, id := range ids {
		missing = missing || r.tree.ByID(id) == nil
	}
	if missing {
		if err := r.load(ctx); err != nil {
			return nil, err
		}
	}
	return r.tree, nil
}

// blogDocFor builds the index document of a blog.
func (ix *Index) blogDocFor(ctx context.Context, b *store.Blog) (*blogDoc, error) {
	tree, err := ix.ref.treeWith(ctx, b.CategoryIDs)
	if err != nil {
		return nil, err
	}
	body := store.PlainText(b.Content)
	d := &blogDoc{
		Type:      "blog",
		Name:      IndexText(b.Title),
		Tags:      b.Tags,
		Writer:    strconv.FormatInt(b.WriterID, 10),
		ReleaseAt: float64(b.ReleaseAt),
	}
	text := []string{b.Title, b.Summary, body}
	en := []string{b.Title, b.Summary, body}
	seen := map[string]bool{}
	for _, id := range b.CategoryIDs {
		c := tree.ByID(id)
		if c == nil {
			continue
		}
		for _, n := range []*store.Category{c, tree.ByID(derefOr(c.ParentID, 0))} {
			if n == nil || seen[strconv.FormatInt(n.ID, 10)] {
				continue
			}
			seen[strconv.FormatInt(n.ID, 10)] = true
			d.Categories = append(d.Categories, strconv.FormatInt(n.ID, 10))
			text = append(text, n.FarsiName)
			en = append(en, n.EnglishName)
		}
	}
	text = append(text, b.Tags...)
	en = append(en, b.Tags...)
	d.Text = IndexText(strings.Join(text, " \n "))
	d.En = strings.Join(en, " \n ")
	return d, nil
}

func derefOr(p *int64, def int64) int64 {
	if p == nil {
		return def
	}
	return *p
}

// addBlogs indexes the Accepted ones of ids in b and deletes the others.
func (ix *Index) addBlogs(ctx context.Context, b *bleve.Batch, ids []int64) error {
	blogs, err := ix.st.BlogsByIDs(ctx, ids)
	if err != nil {
		return err
	}
	found := make(map[int64]bool, len(blogs))
	for _, bl := range blogs {
		found[bl.ID] = true
		if bl.Status != store.StatusAccepted {
			b.Delete(blogDocID(bl.ID))
			continue
		}
		d, err := ix.blogDocFor(ctx, bl)
		if err != nil {
			return err
		}
		if err := b.Index(blogDocID(bl.ID), d); err != nil {
			return fmt.Errorf("index blog %d: %w", bl.ID, err)
		}
	}
	for _, id := range ids {
		if !found[id] {
			b.Delete(blogDocID(id))
		}
	}
	return nil
}

// BlogQuery is a blog search (POST /v1/blog/search), validated by the caller.
type BlogQuery struct {
	Text       string
	WriterID   int64
	CategoryID int64 // a category, or a field of work (any of its categories)
	Tag        string
	Skip, Take int
}

// BlogHits are one page of published blogs, newest release first, and the total match count.
type BlogHits struct {
	Blogs []*store.Blog
	Total int
}

// SearchBlogs answers the published blogs matching q, newest release first. Without text it is a
// SQLite listing (the same rows, read straight from the table); with text it asks the index.
func (ix *Index) SearchBlogs(ctx context.Context, q BlogQuery) (*BlogHits, error) {
	tokens := QueryTokens(q.Text)
	if len(tokens) == 0 {
		f := store.BlogFilter{PublishedOnly: true, CategoryID: q.CategoryID, Tag: q.Tag, Offset: q.Skip, Limit: q.Take}
		if q.WriterID > 0 {
			f.WriterID = &q.WriterID
		}
		blogs, total, err := ix.st.Blogs(ctx, f)
		if err != nil {
			return nil, fmt.Errorf("search blogs: %w", err)
		}
		return &BlogHits{Blogs: blogs, Total: total}, nil
	}
	now := ix.st.Now().Unix()
	req := bleve.NewSearchRequestOptions(buildBlogQuery(q, tokens, now), q.Take, q.Skip, false)
	req.SortBy([]string{"-release_at", "-_score"})
	res, err := ix.idx.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("search blogs: %w", err)
	}
	ids := make([]int64, 0, len(res.Hits))
	for _, h := range res.Hits {
		if id, err := strconv.ParseInt(strings.TrimPrefix(h.ID, "b"), 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	blogs, err := ix.st.BlogsByIDs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("search blogs: %w", err)
	}
	// The index can trail the store by a moment: never show what stopped being published.
	out := blogs[:0]
	for _, b := range blogs {
		if b.Published(now) {
			out = append(out, b)
		}
	}
	return &BlogHits{Blogs: out, Total: int(res.Total)}, nil
}

// buildBlogQuery turns q into a Bleve query over blogs released by now.
func buildBlogQuery(q BlogQuery, tokens []string, now int64) query.Query {
	released := float64(now)
	inclusive := true
	rq := bleve.NewNumericRangeInclusiveQuery(nil, &released, nil, &inclusive)
	rq.SetField("release_at")
	must := []query.Query{term("type", "blog"), rq}
	if q.WriterID > 0 {
		must = append(must, term("writer", strconv.FormatInt(q.WriterID, 10)))
	}
	if q.CategoryID > 0 {
		must = append(must, term("categories", strconv.FormatInt(q.CategoryID, 10)))
	}
	if tag := store.NormalizeTag(q.Tag); tag != "" {
		must = append(must, term("tags", tag))
	}
	if tq := textQuery(tokens, "text", "name", "en"); tq != nil {
		must = append(must, tq)
	}
	return bleve.NewConjunctionQuery(must...)
}

// textQuery matches every word, each in any of its forms: exact, with one typo (words of five
// letters or more), as the start of a word (the last word, as people type), or stemmed English.
// Several words also match written together without spaces («لوله کش» finds «لولهکش»). Words
// found in the name weigh more.
func textQuery(tokens []string, textField, nameField, enField string) query.Query {
	if len(tokens) == 0 {
		return nil
	}
	words := make([]query.Query, 0, len(tokens))
	names := make([]query.Query, 0, len(tokens))
	for i, t := range tokens {
		alts := []query.Query{term(textField, t)}
		if utf8.RuneCountInString(t) >= fuzzyMinRunes {
			alts = append(alts, newTypoQuery(t, textField, 1, 0.6))
		}
		if i == len(tokens)-1 && utf8.RuneCountInString(t) >= 3 {
			p := bleve.NewPrefixQuery(t)
			p.SetField(textField)
			p.SetBoost(0.8)
			alts = append(alts, p)
		}
		if enField != "" && isLatin(t) {
			m := bleve.NewMatchQuery(t)
			m.SetField(enField)
			alts = append(alts, m)
		}
		words = append(words, bleve.NewDisjunctionQuery(alts...))
		n := term(nameField, t)
		n.SetBoost(2)
		names = append(names, n)
	}
	var all query.Query = bleve.NewConjunctionQuery(words...)
	if len(tokens) > 1 {
		all = bleve.NewDisjunctionQuery(all, term(textField, strings.Join(tokens, "")))
	}
	b := bleve.NewBooleanQuery()
	b.AddMust(all)
	b.AddShould(names...)
	return b
}
