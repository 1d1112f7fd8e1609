package api

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"kardan/store"
)

// A page's main content, written by the server inside the app's root as plain semantic HTML: a
// crawler that runs no script, and a visitor whose script never arrives, read the profile, the
// article or the results. The app empties the root before it draws (src/main.tsx), so it never
// reuses these nodes. The texts come from the same read forms the API answers with (the profile
// and blog records, the page's first search answer), so the page and the app say the same thing.

// contentBuilder writes escaped HTML.
type contentBuilder struct {
	strings.Builder
	lang Lang
}

func (b *contentBuilder) text(s string) { b.WriteString(html.EscapeString(s)) }

// el writes <tag>text</tag>, escaped; nothing for empty text.
func (b *contentBuilder) el(tag, text string) {
	if text == "" {
		return
	}
	fmt.Fprintf(b, "<%s>", tag)
	b.text(text)
	fmt.Fprintf(b, "</%s>", tag)
}

// digits writes numbers as the page's language writes them.
func (b *contentBuilder) digits(s string) string {
	if b.lang == Fa {
		return persianDigits(s)
	}
	return s
}

// groupThousands writes n with thousands separators.
func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// profileContent renders a profile's page: name, trade, city, rating, services with prices,
// hours and address.
func profileContent(lang Lang, p *store.Profile, trade, city, province string) string {
	b := &contentBuilder{lang: lang}
	b.WriteString(`<main class="ssr"><article>`)
	b.el("h1", p.ProfileName)
	var where []string
	for _, s := range []string{trade, city, province} {
		if s != "" {
			where = append(where, s)
		}
	}
	b.el("p", strings.Join(where, message(lang, "list_sep", nil)))
	if p.CountScorer > 0 {
		b.el("p", message(lang, "content_rating", map[string]any{
			"score": b.digits(strconv.FormatFloat(round1(p.Score), 'f', -1, 64)), "count": b.digits(strconv.Itoa(p.CountScorer))}))
	}
	b.el("p", p.Descriotion)
	if len(p.Services) > 0 {
		b.WriteString("<section>")
		b.el("h2", message(lang, "content_services", nil))
		b.WriteString("<ul>")
		for _, sv := range p.Services {
			b.WriteString("<li>")
			b.text(sv.Title)
			b.WriteString(": ")
			if sv.Price > 0 {
				b.text(message(lang, "content_price", map[string]any{"price": b.digits(groupThousands(sv.Price))}))
			} else {
				b.text(message(lang, "content_free", nil))
			}
			b.WriteString("</li>")
		}
		b.WriteString("</ul></section>")
	}
	if len(p.HoursOfWork) > 0 {
		b.WriteString("<section>")
		b.el("h2", message(lang, "content_hours", nil))
		b.WriteString("<dl>")
		for _, day := range store.Weekdays {
			d, ok := p.HoursOfWork[day]
			if !ok {
				continue
			}
			b.el("dt", message(lang, "day."+day, nil))
			switch {
			case d.Closed || (!d.Boarding && len(d.Time) == 0):
				b.el("dd", message(lang, "content_closed", nil))
			case d.Boarding:
				b.el("dd", message(lang, "content_all_day", nil))
			default:
				for _, sl := range d.Time {
					b.WriteString("<dd>")
					// The datetime attribute keeps the machine-readable time when the text is in Persian digits.
					from, to := clock(sl.Open), clock(min(sl.Close, 86340))
					fmt.Fprintf(b, `<time datetime="%s">%s</time>–<time datetime="%s">%s</time>`, from, b.digits(from), to, b.digits(to))
					b.WriteString("</dd>")
				}
			}
		}
		b.WriteString("</dl></section>")
	}
	b.el("address", p.Address)
	b.WriteString("</article></main>")
	return b.String()
}

// blogContent renders an article's page: its title, date, summary and sanitised body.
func blogContent(lang Lang, b *store.Blog, writer string) string {
	c := &contentBuilder{lang: lang}
	c.WriteString(`<main class="ssr"><article>`)
	c.el("h1", b.Title)
	if writer != "" {
		c.el("p", writer)
	}
	c.el("p", b.Summary)
	// Stored sanitised (store.SanitizeBlogHTML), the same HTML the app shows.
	c.WriteString(b.Content)
	c.WriteString("</article></main>")
	return c.String()
}

// searchContent renders a search page: its title and the first page of results, each a link to
// its profile.
func searchContent(r *http.Request, title string, res *searchResults) string {
	lang := langOf(r)
	b := &contentBuilder{lang: lang}
	b.WriteString(`<main class="ssr">`)
	b.el("h1", title)
	if res != nil {
		b.el("p", message(lang, "content_count", map[string]any{"count": b.digits(strconv.Itoa(res.Payload.Count))}))
		b.WriteString("<ol>")
		for _, p := range res.Payload.Profiles {
			fmt.Fprintf(b, `<li><article><h2><a href="%s">`, html.EscapeString(sitePath(r, "/profile/"+url.PathEscape(p.Slug))))
			b.text(p.ProfileName)
			b.WriteString("</a></h2>")
			var where []string
			if len(p.CategoryList) > 0 {
				where = append(where, pick(lang, p.CategoryList[0].FarsiName, p.CategoryList[0].EnglishName))
			}
			if p.City != nil {
				where = append(where, pick(lang, p.City.FarsiName, p.City.EnglishName))
			}
			b.el("p", strings.Join(where, message(lang, "list_sep", nil)))
			if p.CountScorer > 0 {
				b.el("p", message(lang, "content_rating", map[string]any{
					"score": b.digits(strconv.FormatFloat(round1(p.Score), 'f', -1, 64)), "count": b.digits(strconv.Itoa(p.CountScorer))}))
			}
			b.el("address", p.Address)
			b.WriteString("</article></li>")
		}
		b.WriteString("</ol>")
	}
	b.WriteString("</main>")
	return b.String()
}

// pick answers the name in the page's language (Persian when there is no English one).
func pick(lang Lang, fa, en string) string {
	if lang == En && en != "" {
		return en
	}
	return fa
}
