package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"
)

// Limits of a blog's parts.
const (
	minBlogTitle   = 3
	maxBlogTitle   = 150
	maxBlogSummary = 300
	// autoSummary is the length of a summary made from the content: about what a search engine
	// shows of a page's description.
	autoSummary    = 200
	maxBlogContent = 100_000
	maxBlogTags    = 10
	maxBlogTag     = 40
	maxBlogCats    = 10
)

// The spec's date picker offers years from 110 before to 50 after the current one (SPEC.md §9):
// any date it offers is a release date, and a typo outside them (year 20266) is refused.
const (
	releaseYearsBack  = 110
	releaseYearsAhead = 50
)

// releaseBounds answers the first second of the picker's first year and the first second after
// its last year, around now (years counted in UTC; a day either side does not matter).
func releaseBounds(now time.Time) (minAt, maxAt int64) {
	y := now.UTC().Year()
	return time.Date(y-releaseYearsBack, 1, 1, 0, 0, 0, 0, time.UTC).Unix(),
		time.Date(y+releaseYearsAhead+1, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
}

// TagList is a blog's tags as sent: a list of strings, or one string of comma-separated tags.
type TagList []string

// UnmarshalJSON reads a list of strings, a comma-separated string, or null.
func (t *TagList) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*t = list
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '،' || r == '\n' })
		return nil
	}
	return &json.UnmarshalTypeError{Value: "tag", Type: reflect.TypeOf(*t)}
}

// IDList is a list of ids as sent: numbers, numeric strings, or objects with an id (a read form
// sent back as it came).
type IDList []int64

// UnmarshalJSON reads [1, 2], ["1", "2"] or [{"id": 1}, {"id": 2}].
func (l *IDList) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		if strings.TrimSpace(string(b)) == "null" {
			*l = nil
			return nil
		}
		return &json.UnmarshalTypeError{Value: "ids", Type: reflect.TypeOf(*l)}
	}
	out := make(IDList, 0, len(raw))
	for _, r := range raw {
		var n int64
		var s string
		var obj struct {
			ID int64 `json:"id"`
		}
		switch {
		case json.Unmarshal(r, &n) == nil:
		case json.Unmarshal(r, &s) == nil:
			v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			if err != nil {
				return &json.UnmarshalTypeError{Value: "ids", Type: reflect.TypeOf(*l)}
			}
			n = v
		case json.Unmarshal(r, &obj) == nil:
			n = obj.ID
		default:
			return &json.UnmarshalTypeError{Value: "ids", Type: reflect.TypeOf(*l)}
		}
		out = append(out, n)
	}
	*l = out
	return nil
}

// FlexTime is a date as sent: an RFC 3339 time, a local "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM[:SS]",
// or Unix seconds (milliseconds when that large).
type FlexTime string

// UnmarshalJSON reads a string, a number or null.
func (f *FlexTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = FlexTime(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = FlexTime(n.String())
		return nil
	}
	if strings.TrimSpace(string(b)) == "null" {
		*f = ""
		return nil
	}
	return &json.UnmarshalTypeError{Value: "time", Type: reflect.TypeOf(*f)}
}

// Parse answers the time as Unix seconds; dates without a zone are read in loc.
func (f FlexTime) Parse(loc *time.Location) (int64, bool) {
	s := strings.TrimSpace(ASCIIDigits(string(f)))
	if s == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 100_000_000_000 || n < -100_000_000_000 {
			n /= 1000 // milliseconds: seconds that large are past the year 5000
		}
		return n, true
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.Unix(), true
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.Unix(), true
		}
	}
	return 0, false
}

// BlogInput is a blog "as sent" (SPEC.md §3); ID names the blog on edit.
type BlogInput struct {
	ID           int64    `json:"id"`
	Title        string   `json:"title"`
	Slug         string   `json:"slug"`
	Content      string   `json:"content"`
	Summary      string   `json:"summary"`
	ImageURL     string   `json:"image_url"`
	Tag          TagList  `json:"tag"`
	CategoryList IDList   `json:"category_list"`
	ReleaseAt    FlexTime `json:"release_at"`
	IsDraft      bool     `json:"isDraft"`
}

// BlogOptions are the server's settings a blog save follows.
type BlogOptions struct {
	// Moderated sends a submitted blog to Pending; otherwise it is Accepted at once.
	Moderated bool
	// Location reads release dates written without a time zone.
	Location *time.Location
}

// NormalizeTag is the one form a tag is stored and compared in: cleaned, without a leading #,
// Arabic yeh and kaf written as the Persian letters, Latin letters in lower case.
func NormalizeTag(s string) string {
	s = strings.TrimLeft(CleanText(s, false), "#＃ ")
	s = strings.NewReplacer("ي", "ی", "ى", "ی", "ك", "ک").Replace(s)
	return strings.ToLower(strings.TrimSpace(s))
}

// blogText is an article's texts as stored: cleaned, sanitized, with its plain text and summary.
type blogText struct {
	title, content, text, summary string
}

// cleanBlogText cleans in's texts. It is pure work on the input (the HTML sanitizer is most of
// an article's save), so CreateBlog and UpdateBlog do it before their transaction: inside, it
// held the store's one writer while every other write waited.
func cleanBlogText(in *BlogInput) blogText {
	t := blogText{title: CleanText(in.Title, false), content: SanitizeBlogHTML(in.Content)}
	t.text = PlainText(t.content)
	t.summary = PlainText(in.Summary)
	return t
}

// applyBlogInput validates in (its texts cleaned by cleanBlogText) and copies it onto b,
// choosing b's slug and status.
func (s *Store) applyBlogInput(ctx context.Context, tx *sql.Tx, b *Blog, in *BlogInput, txt blogText, actor *User, opt BlogOptions, isNew bool) error {
	v := &Validation{}
	writerSaves := actor.ID == b.WriterID
	title := txt.title
	switch n := RuneLen(title); {
	case n == 0:
		v.Enter("title")
	case n < minBlogTitle:
		v.Add("title", "too_short", map[string]any{"min": minBlogTitle})
	case n > maxBlogTitle:
		v.Add("title", "too_long", map[string]any{"max": maxBlogTitle})
	}
	content, text := txt.content, txt.text
	switch {
	case RuneLen(content) > maxBlogContent:
		v.Add("content", "too_long", map[string]any{"max": maxBlogContent})
	case text == "" && !in.IsDraft:
		v.Enter("content")
	}
	summary := txt.summary
	if RuneLen(summary) > maxBlogSummary {
		v.Add("summary", "too_long", map[string]any{"max": maxBlogSummary})
	} else if summary == "" {
		summary = Excerpt(text, autoSummary)
	}
	// Stored as the upload's public path, as a full URL on this site or data.location would
	// not be recognised by the purge of unused uploads.
	image := canonicalImage(in.ImageURL)
	if image != "" {
		if !IsUploadPath(image) {
			v.Correct("image_url")
		} else if writerSaves {
			if ok, err := ownsUpload(ctx, tx, b.WriterID, image); err != nil {
				return err
			} else if !ok {
				v.Add("image_url", "image_not_yours", nil)
			}
		}
	}
	tags := []string{}
	seen := map[string]bool{}
	for _, t := range in.Tag {
		t = NormalizeTag(t)
		if t == "" || seen[t] {
			continue
		}
		if RuneLen(t) > maxBlogTag {
			v.Add("tag", "too_long", map[string]any{"max": maxBlogTag})
			break
		}
		seen[t] = true
		tags = append(tags, t)
	}
	if len(tags) > maxBlogTags {
		v.Add("tag", "too_many_items", map[string]any{"max": maxBlogTags})
	}
	cats := dedupe(in.CategoryList)
	tree, err := s.categoriesTx(ctx, tx, cats, maxBlogCats)
	if err != nil {
		return err
	}
	switch {
	case len(cats) > maxBlogCats:
		v.Add("category_list", "too_many_items", map[string]any{"max": maxBlogCats})
	case len(cats) == 0 && !in.IsDraft:
		v.Enter("category_list")
	}
	for _, id := range cats {
		if tree.ByID(id) == nil {
			v.Correct("category_list")
			break
		}
	}
	release := b.ReleaseAt
	if in.ReleaseAt != "" {
		t, ok := in.ReleaseAt.Parse(opt.location())
		minAt, maxAt := releaseBounds(s.Now())
		if !ok || t < minAt || t >= maxAt {
			v.Correct("release_at")
		}
		release = t
	}
	if err := v.Err(); err != nil {
		return err
	}
	// Experts write in their fields (SPEC.md §6): a writer who is not an admin may name only
	// categories of fields in which they have an accepted profile.
	if writerSaves && !actor.IsAdmin() && len(cats) > 0 {
		fields, err := expertFields(ctx, tx, actor.ID)
		if err != nil {
			return err
		}
		for _, id := range cats {
			c := tree.ByID(id)
			field := c.ID
			if !c.IsField() {
				field = *c.ParentID
			}
			if !fields[field] {
				args := map[string]any{"category": c.FarsiName + " / " + c.EnglishName}
				// A business rule, so a 400 on the field (the form shows it there), never a 403:
				// the spec's client signs the user out on any 403.
				v.Add("category_list", "blog_field_not_yours", args)
				return v.Err()
			}
		}
	}

	slugFrom := ""
	switch requested := strings.TrimSpace(in.Slug); {
	case requested != "" && Slugify(requested) != b.Slug:
		slugFrom = requested
	case isNew:
		slugFrom = title
	case b.Status == BlogDraft && title != b.Title && requested == "":
		// A draft has never been public, so its address may still follow its title.
		slugFrom = title
	}
	if slugFrom != "" {
		if isDigits(Slugify(slugFrom)) {
			// /v1/blog/get/{slug or id}: an all-digit slug would read as an id.
			slugFrom = "blog " + slugFrom
		}
		if b.Slug, err = uniqueSlug(ctx, tx, "blogs", slugFrom, "", b.ID); err != nil {
			return err
		}
	}

	if writerSaves {
		b.Status = nextBlogStatus(b.Status, in.IsDraft, opt.Moderated && !actor.IsAdmin(), isNew)
	}
	b.Title, b.Content, b.Summary, b.ImageURL, b.Tags, b.CategoryIDs, b.ReleaseAt = title, content, summary, image, tags, cats, release
	return nil
}

func (o BlogOptions) location() *time.Location {
	if o.Location == nil {
		return time.UTC
	}
	return o.Location
}

// nextBlogStatus is where the writer's save takes a blog (DESIGN.md §3): a draft stays or
// becomes Draft; a submission goes to Pending (Accepted with moderation off, or when an admin
// writes: admins do not review themselves); an Accepted blog stays Accepted; a Blocked one stays
// Blocked whatever its writer does.
func nextBlogStatus(from string, draft, moderated, isNew bool) string {
	switch {
	case from == StatusBlocked && !isNew:
		return StatusBlocked
	case draft:
		return BlogDraft
	case from == StatusAccepted && !isNew:
		return StatusAccepted
	case moderated:
		return StatusPending
	}
	return StatusAccepted
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// expertFields answers the fields of work in which userID has an accepted, not deleted profile.
func expertFields(ctx context.Context, tx *sql.Tx, userID int64) (map[int64]bool, error) {
	ids, err := queryIDs(ctx, tx, `SELECT DISTINCT range_worker_id FROM profiles
		WHERE user_id = ? AND account_status = 'Accepted' AND delete_at IS NULL`, userID)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}
