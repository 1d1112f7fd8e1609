package store

import (
	"html"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"unicode"
)

// SocialLink is a way of communication or a social network link.
type SocialLink struct {
	Type string `json:"type"`
	Link string `json:"link"`
}

// linkKind is what a link of a type must look like.
type linkKind int

const (
	kindURLOrHandle linkKind = iota // a web address or an account name
	kindMessenger                   // an account name, a web address or a phone number
	kindPhone                       // a phone number
	kindMobile                      // an Iranian mobile number
	kindEmail                       // an e-mail address
	kindSite                        // a web address
	kindAny                         // free text ("Ather", the spec's "other")
)

// SocialTypes are the spec's communication types (spellings kept) and what their links must be.
var SocialTypes = map[string]linkKind{
	"Telegram": kindMessenger, "Whatsap": kindMessenger, "Facebook": kindURLOrHandle, "Twitter": kindURLOrHandle,
	"Skype": kindURLOrHandle, "Reddit": kindURLOrHandle, "Youtube": kindURLOrHandle, "Instagram": kindURLOrHandle,
	"Wechat": kindMessenger, "TikTak": kindURLOrHandle, "Pinterest": kindURLOrHandle, "Soroush": kindMessenger,
	"Eitaa": kindMessenger, "Bale": kindMessenger, "Rubika": kindMessenger, "Igap": kindMessenger, "Gap": kindMessenger,
	"Github": kindURLOrHandle, "Gitlab": kindURLOrHandle, "Linkedin": kindURLOrHandle, "Discord": kindURLOrHandle,
	"Site": kindSite, "Email": kindEmail, "Ather": kindAny,
	"phone": kindPhone, "mobile": kindMobile, "fax": kindPhone,
}

var (
	handleRe = regexp.MustCompile(`^@?[A-Za-z0-9][A-Za-z0-9_.\-]{1,63}$`)
	phoneRe  = regexp.MustCompile(`^\+?[0-9]{4,15}$`)
	// hostPathRe is a web address written as people copy it, without https:// ("instagram.com/name",
	// "www.example.ir"): stored with https:// in front (REVIEW #25). A bare "name.plumbing" stays a
	// handle where a handle is allowed, as it is checked first.
	hostPathRe = regexp.MustCompile(`^(?i)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(/[^\s<>"]*)?$`)
)

// canonicalSocialType answers the spec's spelling of a type given in any letter case.
func canonicalSocialType(t string) (string, linkKind, bool) {
	t = strings.TrimSpace(t)
	if k, ok := SocialTypes[t]; ok {
		return t, k, true
	}
	for name, k := range SocialTypes {
		if strings.EqualFold(name, t) {
			return name, k, true
		}
	}
	return "", 0, false
}

// normaliseLink checks a link against its kind and answers it cleaned (digits made ASCII, phone
// separators dropped), or false when it is not of that kind.
func normaliseLink(kind linkKind, link string) (string, bool) {
	link = CleanText(link, false)
	if link == "" || RuneLen(link) > 300 {
		return "", false
	}
	phone := func(s string) string {
		s = ASCIIDigits(s)
		return strings.NewReplacer(" ", "", "-", "", "(", "", ")", "").Replace(s)
	}
	switch kind {
	case kindPhone:
		p := phone(link)
		return p, phoneRe.MatchString(p)
	case kindMobile:
		return NormalizeMobile(link)
	case kindEmail:
		a, err := mail.ParseAddress(link)
		if err != nil || a.Name != "" || !strings.Contains(a.Address, ".") {
			return "", false
		}
		return a.Address, true
	case kindSite:
		if hostPathRe.MatchString(link) {
			link = "https://" + link
		}
		return link, isWebURL(link)
	case kindURLOrHandle:
		if !handleRe.MatchString(link) && hostPathRe.MatchString(link) {
			link = "https://" + link
		}
		return link, isWebURL(link) || handleRe.MatchString(link)
	case kindMessenger:
		if !handleRe.MatchString(link) && hostPathRe.MatchString(link) {
			link = "https://" + link
		}
		if isWebURL(link) || handleRe.MatchString(link) {
			return link, true
		}
		p := phone(link)
		return p, phoneRe.MatchString(p)
	case kindAny:
		// An http(s) address, or plain text with no scheme at all: a lenient client may put
		// anything else in a link (vbscript:, data:, "java script:", %6Aavascript:).
		return link, isWebURL(link) || lenientScheme(link) == ""
	}
	return "", false
}

// schemeRe is a URL scheme at the start of a string.
var schemeRe = regexp.MustCompile(`^([a-z][a-z0-9+.\-]*):`)

// lenientScheme answers the scheme a forgiving browser or client might read at the start of
// s once it has undone percent and HTML escapes and dropped spaces, controls and invisible
// format characters (ZWNJ, bidi marks), lower-cased; "" when s has none.
func lenientScheme(s string) string {
	for i := 0; i < 3; i++ {
		s = html.UnescapeString(s)
		if d, err := url.PathUnescape(s); err == nil {
			s = d
		}
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			continue
		}
		b.WriteRune(unicode.ToLower(r))
	}
	if m := schemeRe.FindStringSubmatch(b.String()); m != nil {
		return m[1]
	}
	return ""
}

// isWebURL reports whether s is an absolute http(s) address with a host.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && !strings.ContainsAny(u.Host, " <>\"")
}
