package api

import "net/http"

// The site's logo, square, as the web app ships it (webui/public/images/logo.png).
const (
	siteLogoPath = "/images/logo.png"
	siteLogoSide = 256
)

// blogMeta answers the meta of a published blog's page, with BlogPosting JSON-LD, so a shared
// link shows the article's title, summary and picture; false when no published blog has that
// slug (drafts, scheduled and blocked articles stay unknown to search engines).
func (s *Server) blogMeta(r *http.Request, slug string) (pageMeta, bool) {
	b, err := s.store.BlogBySlug(r.Context(), slug)
	if err != nil || !b.Published(s.store.Now().Unix()) {
		return pageMeta{}, false
	}
	writers, err := s.store.ProfileOwners(r.Context(), []int64{b.WriterID})
	if err != nil {
		return pageMeta{}, false
	}
	// Google's Article documentation recommends author.url: the writer's business page, the
	// one the app's writer card leads to; left out when the writer has no public page.
	writerPage, err := s.writerProfileOf(r.Context(), b)
	if err != nil {
		return pageMeta{}, false
	}
	author := map[string]any{"@type": "Person", "name": writers[b.WriterID].Name}
	if writerPage != nil {
		author["url"] = s.siteURL(r, "/profile/"+writerPage.Slug)
	}
	url := s.siteURL(r, "/blog/"+b.Slug)
	desc := firstRunes(b.Summary, 160)
	ld := map[string]any{
		"@context":         "https://schema.org",
		"@type":            "BlogPosting",
		"@id":              url,
		"url":              url,
		"mainEntityOfPage": url,
		"headline":         firstRunes(b.Title, 110),
		"datePublished":    isoTime(b.ReleaseAt),
		"dateModified":     isoTime(max(b.UpdateAt, b.ReleaseAt)),
		"author":           author,
		"publisher": map[string]any{"@type": "Organization", "name": message(langOf(r), "site_name", nil), "url": s.siteURL(r, "/"),
			"logo": map[string]any{"@type": "ImageObject", "url": s.cfg.BaseURL + siteLogoPath, "width": siteLogoSide, "height": siteLogoSide}},
		// Without a picture of its own the article shows the site's card.
		"image": s.cfg.BaseURL + ogSitePath,
	}
	if desc != "" {
		ld["description"] = desc
	}
	if b.ImageURL != "" {
		ld["image"] = absolute(s.cfg.BaseURL, b.ImageURL)
	}
	if len(b.Tags) > 0 {
		ld["keywords"] = b.Tags
	}
	m := pageMeta{Title: b.Title, Description: desc, Path: "/blog/" + b.Slug, Image: b.ImageURL, Type: "article", JSONLD: ld}
	if s.cards != nil {
		// A shared link shows the article's own card: its title and writer over its picture.
		m.Image, m.ImageWidth, m.ImageHeight = cardURL("blog", b.ID, s.blogCardSpec(b, writers[b.WriterID].Name, langOf(r))), ogWidth, ogHeight
		m.ImageAlt = b.Title
	}
	m.Content = blogContent(r, b, writers[b.WriterID].Name)
	return m, true
}
