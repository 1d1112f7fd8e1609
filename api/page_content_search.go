package api

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
)

// searchContent renders a search page as the app's results page says it: its heading, the count
// and the first page of results, each a card with the app's texts (name as a link to its profile,
// field and city, the stars' label and figures), in the app's classes, so journey 39 can compare
// the two letter for letter.
func searchContent(r *http.Request, heading string, res *searchResults) string {
	lang := langOf(r)
	b := &contentBuilder{lang: lang}
	b.WriteString(siteHeader(r))
	b.WriteString(`<main id="main" class="ssr"><div class="container search-page"><div class="search-head"><div>`)
	b.el("h1", heading)
	if res != nil {
		key := "content_count"
		if res.Payload.Count == 1 {
			key = "content_count_one"
		}
		b.WriteString(`<p class="muted small result-count">`)
		b.text(message(lang, key, map[string]any{"count": groupThousands(int64(res.Payload.Count), lang)}))
		b.WriteString(`</p>`)
	}
	b.WriteString(`</div></div>`)
	if res != nil && len(res.Payload.Profiles) > 0 {
		b.WriteString(`<div class="results"><div class="results-grid">`)
		for _, p := range res.Payload.Profiles {
			b.WriteString(`<article class="pcard card">`)
			fmt.Fprintf(b, `<a class="pcard-link" href="%s"><div class="pcard-body"><h2 class="pcard-name" dir="auto">`,
				html.EscapeString(sitePath(r, "/profile/"+url.PathEscape(p.Slug))))
			b.text(p.ProfileName)
			b.WriteString(`</h2><p class="pcard-field muted small">`)
			// The field (range of work), as the app's card names it, then the city.
			if p.RangeWorker != nil {
				b.text(pick(lang, p.RangeWorker.FarsiName, p.RangeWorker.EnglishName))
			}
			if p.City != nil {
				b.WriteString(`<span aria-hidden="true"> · </span>`)
				b.text(pick(lang, p.City.FarsiName, p.City.EnglishName))
			}
			b.WriteString(`</p><div class="pcard-meta">`)
			b.stars(p.Score, p.CountScorer)
			b.WriteString(`</div></div></a></article>`)
		}
		b.WriteString(`</div></div>`)
	}
	b.WriteString(`</div></main>`)
	return b.String()
}

// stars writes a rating as the app's Stars does: its spoken label, and the score and count it
// shows ("New" before any).
func (b *contentBuilder) stars(score float64, count int) {
	if count <= 0 {
		fmt.Fprintf(b, `<span class="stars" role="img" aria-label="%s"><span aria-hidden="true">`, html.EscapeString(message(b.lang, "content_no_rating", nil)))
		b.text(message(b.lang, "content_new", nil))
		b.WriteString(`</span></span>`)
		return
	}
	key := "content_rating"
	if count == 1 {
		key = "content_rating_one"
	}
	n := groupThousands(int64(count), b.lang)
	fmt.Fprintf(b, `<span class="stars" role="img" aria-label="%s"><span aria-hidden="true"><strong>`,
		html.EscapeString(message(b.lang, key, map[string]any{"score": scoreText(score, b.lang), "count": n})))
	b.text(scoreText(score, b.lang))
	b.WriteString(`</strong> (`)
	b.text(n)
	b.WriteString(`)</span></span>`)
}
