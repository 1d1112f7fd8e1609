package store

import (
	"bytes"
	"html"
	"net/url"
	"regexp"
	"strings"
	"unicode"

	"github.com/microcosm-cc/bluemonday"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// uploadPathRe is what an image source in a blog must look like: one of our own uploads, by its
// public path, with no way to climb out of the uploads directory.
var uploadPathRe = regexp.MustCompile(`^/uploads/[A-Za-z0-9_\-]+(/[A-Za-z0-9_\-]+)*\.(jpg|jpeg|png|webp|gif)$`)

// IsUploadPath reports whether p is the public path of an uploaded image.
func IsUploadPath(p string) bool { return uploadPathRe.MatchString(p) && !strings.Contains(p, "..") }

// blogPolicy is bluemonday's UGC policy cut down to what an article needs: headings, paragraphs,
// lists, quotes, code, simple tables, emphasis, links (http, https, mailto, tel, or our own paths)
// and images from our own uploads. No style, no class, no event handler, no script, no frame.
var blogPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "div", "span",
		"ul", "ol", "li", "blockquote", "pre", "code", "strong", "b", "em", "i", "u", "s", "del", "ins",
		"sub", "sup", "small", "mark", "figure", "figcaption",
		"table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption")
	// Persian and English mix in one article: writers may set the direction of a block.
	p.AllowAttrs("dir").Matching(regexp.MustCompile(`^(rtl|ltr|auto)$`)).Globally()
	p.AllowAttrs("colspan", "rowspan").Matching(regexp.MustCompile(`^[0-9]{1,2}$`)).OnElements("td", "th")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto", "tel")
	p.AllowRelativeURLs(true)
	p.RequireParseableURLs(true)
	p.AllowAttrs("src").Matching(uploadPathRe).OnElements("img")
	p.AllowAttrs("alt", "title").OnElements("img")
	p.AllowAttrs("width", "height").Matching(regexp.MustCompile(`^[0-9]{1,4}$`)).OnElements("img")
	p.AllowAttrs("title").OnElements("a", "abbr")
	p.AllowElements("abbr")
	return p
}()

// SanitizeBlogHTML makes an article's HTML safe to store and show: blogPolicy removes everything
// it does not allow, then every link is marked as user content (rel="nofollow ugc"), links to
// other sites open in a new tab without access to ours (target=_blank, noopener noreferrer),
// and images whose source was refused are dropped.
func SanitizeBlogHTML(in string) string {
	clean := blogPolicy.Sanitize(in)
	nodes, err := xhtml.ParseFragment(strings.NewReader(clean), &xhtml.Node{Type: xhtml.ElementNode, Data: "div", DataAtom: atom.Div})
	if err != nil {
		// The policy's output is well-formed HTML; should parsing still fail, keep only the text.
		return html.EscapeString(PlainText(clean))
	}
	var b bytes.Buffer
	for _, n := range nodes {
		fixLinks(n)
		if n.Type == xhtml.ElementNode && n.Data == "img" && attr(n, "src") == "" {
			continue
		}
		if err := xhtml.Render(&b, n); err != nil {
			return html.EscapeString(PlainText(clean))
		}
	}
	return strings.TrimSpace(b.String())
}

// fixLinks sets the rel and target of every link under n and removes images without a source.
func fixLinks(n *xhtml.Node) {
	if n.Type == xhtml.ElementNode && n.Data == "a" {
		href := attr(n, "href")
		var attrs []xhtml.Attribute
		for _, a := range n.Attr {
			if a.Key != "rel" && a.Key != "target" {
				attrs = append(attrs, a)
			}
		}
		if href != "" {
			rel := "nofollow ugc"
			if u, err := url.Parse(href); err == nil && u.Host != "" {
				rel += " noopener noreferrer"
				attrs = append(attrs, xhtml.Attribute{Key: "target", Val: "_blank"})
			}
			attrs = append(attrs, xhtml.Attribute{Key: "rel", Val: rel})
		}
		n.Attr = attrs
	}
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		if c.Type == xhtml.ElementNode && c.Data == "img" && attr(c, "src") == "" {
			n.RemoveChild(c)
		} else {
			fixLinks(c)
		}
		c = next
	}
}

func attr(n *xhtml.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textPolicy keeps no element at all; the text of skipped elements (script, style) is dropped.
var textPolicy = func() *bluemonday.Policy {
	p := bluemonday.StrictPolicy()
	p.AddSpaceWhenStrippingTag(true)
	return p
}()

// PlainText answers the text of an HTML fragment: tags removed, entities decoded, spaces folded.
func PlainText(s string) string {
	return CleanText(html.UnescapeString(textPolicy.Sanitize(s)), false)
}

// Excerpt answers at most max characters of plain text s, cut at a word boundary with an
// ellipsis when it had to be shortened.
func Excerpt(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	cut := max - 1
	for i := cut; i > max/2; i-- {
		if unicode.IsSpace(r[i]) {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(r[:cut]), func(c rune) bool { return unicode.IsSpace(c) || unicode.IsPunct(c) }) + "…"
}
