package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/gorilla/mux"

	"kardan/search"
	"kardan/store"
)

// blogForm is a blog's read form (SPEC.md §3). status is Published for a released Accepted
// blog; register_admin is always there, as on profiles, and filled for the writer and admins
// only.
type blogForm struct {
	ID            int64         `json:"id"`
	WriterID      int64         `json:"writer_id"`
	Writer        commentUser   `json:"writer"`
	CategoryList  []categoryRef `json:"category_list"`
	Title         string        `json:"title"`
	Slug          string        `json:"slug"`
	Content       string        `json:"content"`
	Summary       string        `json:"summary"`
	ImageURL      string        `json:"image_url"`
	Tag           []string      `json:"tag"`
	Status        string        `json:"status"`
	IsDraft       bool          `json:"isDraft"`
	ReleaseAt     string        `json:"release_at"`
	CreateAt      string        `json:"create_at"`
	UpdateAt      string        `json:"update_at"`
	RegisterAdmin registerAdmin `json:"register_admin"`
	// PendingEdit is the writer's rewrite of an accepted article waiting for review (or
	// rejected), shown only to the writer and admins.
	PendingEdit *blogEditForm `json:"pending_edit,omitempty"`
	// WriterProfile (our addition, blog/get only) is the writer's public business page, so an
	// article leads its reader to the business that wrote it; absent when there is none.
	WriterProfile *writerProfile `json:"writer_profile,omitempty"`
}

// writerProfile is the business card under an article: the page and the number to call.
type writerProfile struct {
	ID           int64  `json:"id"`
	Slug         string `json:"slug"`
	ProfileName  string `json:"profile_name"`
	ProfileImage string `json:"profile_image"`
	Mobile       string `json:"mobile"`
}

// writerProfileOf answers the writer's first public profile (accepted, active and shown),
// preferring one in the article's field of work; nil when the writer has none.
func (s *Server) writerProfileOf(ctx context.Context, b *store.Blog) (*writerProfile, error) {
	mine, err := s.store.ProfilesOfUser(ctx, b.WriterID)
	if err != nil {
		return nil, err
	}
	ids := []int64{}
	for _, p := range mine {
		if p.AccountStatus == store.StatusAccepted && p.Active {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	ps, err := s.store.ProfilesByIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	var pick *store.Profile
	for _, p := range ps {
		if !p.Display {
			continue
		}
		if pick == nil || (slices.Contains(b.CategoryIDs, p.RangeWorkerID) && !slices.Contains(b.CategoryIDs, pick.RangeWorkerID)) {
			pick = p
		}
	}
	if pick == nil {
		return nil, nil
	}
	card := &writerProfile{ID: pick.ID, Slug: pick.Slug, ProfileName: pick.ProfileName, ProfileImage: pick.ProfileImage}
	for _, l := range pick.SocialNetwork {
		if strings.EqualFold(l.Type, "mobile") || strings.EqualFold(l.Type, "phone") {
			card.Mobile = l.Link
			break
		}
	}
	return card, nil
}

// blogEditForm is a waiting rewrite: its status, the admin's note and the new version.
type blogEditForm struct {
	Status        string        `json:"status"`
	RegisterAdmin registerAdmin `json:"register_admin"`
	CreateAt      string        `json:"create_at"`
	Title         string        `json:"title"`
	Content       string        `json:"content"`
	Summary       string        `json:"summary"`
	ImageURL      string        `json:"image_url"`
	Tag           []string      `json:"tag"`
	CategoryList  []int64       `json:"category_list"`
}

// blogForms answers the read forms of bs for viewer. Public lists leave the content out
// (withContent false): a card shows the summary, and the article is one request away.
func (s *Server) blogForms(ctx context.Context, bs []*store.Blog, viewer *store.User, withContent bool) ([]*blogForm, error) {
	tree, err := s.categories(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(bs))
	for i, b := range bs {
		ids[i] = b.WriterID
	}
	writers, err := s.store.ProfileOwners(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := s.store.Now().Unix()
	out := make([]*blogForm, len(bs))
	for i, b := range bs {
		wr := writers[b.WriterID]
		f := &blogForm{
			ID: b.ID, WriterID: b.WriterID, Writer: commentUser{ID: b.WriterID, Name: wr.Name, ProfileImage: wr.ProfileImage},
			CategoryList: []categoryRef{}, Title: b.Title, Slug: b.Slug, Summary: b.Summary, ImageURL: b.ImageURL,
			Tag: b.Tags, Status: b.ShownStatus(now), IsDraft: b.Status == store.BlogDraft,
			ReleaseAt: isoTime(b.ReleaseAt), CreateAt: isoTime(b.CreateAt), UpdateAt: isoTime(b.UpdateAt),
		}
		if withContent {
			f.Content = b.Content
		}
		for _, id := range b.CategoryIDs {
			if c := tree.ByID(id); c != nil {
				f.CategoryList = append(f.CategoryList, categoryRefOf(c))
			}
		}
		if viewer != nil && (viewer.ID == b.WriterID || viewer.IsAdmin()) {
			f.RegisterAdmin = registerAdmin{AdminRegisterID: b.AdminID, Description: b.AdminNote}
			if b.Status == store.StatusAccepted {
				e, err := s.store.BlogEdit(ctx, b.ID)
				if err != nil {
					return nil, err
				}
				if e != nil {
					f.PendingEdit = &blogEditForm{Status: e.Status, RegisterAdmin: registerAdmin{AdminRegisterID: e.AdminID, Description: e.Note},
						CreateAt: isoTime(e.CreateAt), Title: e.Article.Title, Summary: e.Article.Summary, ImageURL: e.Article.ImageURL,
						Tag: e.Article.Tags, CategoryList: e.Article.CategoryIDs}
					if withContent {
						f.PendingEdit.Content = e.Article.Content
					}
				}
			}
		}
		out[i] = f
	}
	return out, nil
}

func (s *Server) writeBlog(w http.ResponseWriter, r *http.Request, b *store.Blog, viewer *store.User) error {
	fs, err := s.blogForms(r.Context(), []*store.Blog{b}, viewer, true)
	if err != nil {
		return err
	}
	ok(w, fs[0])
	return nil
}

func (s *Server) writeBlogList(w http.ResponseWriter, r *http.Request, bs []*store.Blog, total int, viewer *store.User, withContent bool) error {
	fs, err := s.blogForms(r.Context(), bs, viewer, withContent)
	if err != nil {
		return err
	}
	ok(w, map[string]any{"blogs": fs, "count": total})
	return nil
}

func (s *Server) blogOptions() store.BlogOptions {
	return store.BlogOptions{Moderated: s.moderated(), Location: s.cfg.Location}
}

// canReadBlog reports whether viewer may read b: the public reads published blogs, writers and
// admins read theirs in any state.
func (s *Server) canReadBlog(b *store.Blog, viewer *store.User) bool {
	return b.Published(s.store.Now().Unix()) || (viewer != nil && (viewer.ID == b.WriterID || viewer.IsAdmin()))
}

// handleBlogAdd handles "POST /v1/blog/add" (a blog as sent).
func (s *Server) handleBlogAdd(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in store.BlogInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	b, err := s.store.CreateBlog(r.Context(), u, &in, s.blogOptions())
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeBlog(w, r, b, u)
}

// handleBlogEdit handles "PUT /v1/blog/edit" (a blog as sent, with its id; "/edit/{id}" also
// takes the id from the path).
func (s *Server) handleBlogEdit(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in store.BlogInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if _, inPath := mux.Vars(r)["id"]; inPath {
		if in.ID, err = pathInt64(r, "id"); err != nil {
			return err
		}
	}
	if in.ID <= 0 {
		v := &store.Validation{}
		v.Enter("id")
		return v.Err()
	}
	b, err := s.store.UpdateBlog(r.Context(), u, &in, s.blogOptions())
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	return s.writeBlog(w, r, b, u)
}

// handleBlogGet handles "GET /v1/blog/get/{slug or id}": a published blog for everyone; its
// writer and admins also read it in any state.
func (s *Server) handleBlogGet(w http.ResponseWriter, r *http.Request) error {
	key := strings.TrimSpace(mux.Vars(r)["key"])
	var b *store.Blog
	var err error
	if id, perr := strconv.ParseInt(key, 10, 64); perr == nil && id > 0 {
		b, err = s.store.Blog(r.Context(), id)
	}
	if b == nil {
		// Slugs are never all digits, but an old link might still carry one.
		b, err = s.store.BlogBySlug(r.Context(), key)
	}
	if err != nil {
		return err
	}
	viewer := userFrom(r)
	if !s.canReadBlog(b, viewer) {
		return store.NotFound()
	}
	fs, err := s.blogForms(r.Context(), []*store.Blog{b}, viewer, true)
	if err != nil {
		return err
	}
	if fs[0].WriterProfile, err = s.writerProfileOf(r.Context(), b); err != nil {
		return err
	}
	ok(w, fs[0])
	return nil
}

// handleBlogGetAuth handles "GET /v1/blog/getAuth/{id}": the writer's or an admin's view, in
// any state.
func (s *Server) handleBlogGetAuth(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	b, err := s.store.Blog(r.Context(), id)
	if err != nil {
		return err
	}
	if b.WriterID != u.ID && !u.IsAdmin() {
		// Answered like a missing id, so the route tells nobody which ids exist (audit I5).
		return store.NotFound()
	}
	return s.writeBlog(w, r, b, u)
}

// handleBlogGetAuthAll handles "POST /v1/blog/getAuthAll {skip, take}": the caller's own blogs
// in every state, newest first.
func (s *Server) handleBlogGetAuthAll(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		Skip *int `json:"skip"`
		Take *int `json:"take"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	skip, take := bodyPage(v, in.Skip, in.Take)
	if err := v.Err(); err != nil {
		return err
	}
	bs, total, err := s.store.Blogs(r.Context(), store.BlogFilter{WriterID: &u.ID, Offset: skip, Limit: take})
	if err != nil {
		return err
	}
	return s.writeBlogList(w, r, bs, total, u, true)
}

// blogSearchRequest is the body of blog/search (SPEC.md §7).
type blogSearchRequest struct {
	WriterID   int64  `json:"writer_id"`
	Skip       *int   `json:"skip"`
	Take       *int   `json:"take"`
	CategoryID int64  `json:"category_id"`
	SearchTxt  string `json:"search_txt"`
	Tag        string `json:"tag"`
}

// handleBlogSearch handles "POST /v1/blog/search {writer_id, skip, take, category_id,
// search_txt, tag}": published blogs, newest release first.
func (s *Server) handleBlogSearch(w http.ResponseWriter, r *http.Request) error {
	var in blogSearchRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	q := search.BlogQuery{Text: store.CleanText(in.SearchTxt, false), WriterID: in.WriterID, Tag: in.Tag}
	q.Skip, q.Take = bodyPage(v, in.Skip, in.Take)
	if store.RuneLen(q.Text) > maxSearchText {
		v.Add("search_txt", "too_long", map[string]any{"max": maxSearchText})
	}
	if in.WriterID < 0 {
		v.Correct("writer_id")
	}
	if in.CategoryID != 0 {
		tree, err := s.categories(r.Context())
		if err != nil {
			return err
		}
		if in.CategoryID < 0 || tree.ByID(in.CategoryID) == nil {
			v.Correct("category_id")
		}
		q.CategoryID = in.CategoryID
	}
	if err := v.Err(); err != nil {
		return err
	}
	var hits *search.BlogHits
	ix := s.searchIndex()
	switch {
	case ix != nil:
		h, err := ix.SearchBlogs(r.Context(), q)
		if err != nil {
			return err
		}
		hits = h
	case len(search.QueryTokens(q.Text)) == 0:
		// No index (a test server, or one being built): a listing needs none.
		f := store.BlogFilter{PublishedOnly: true, CategoryID: q.CategoryID, Tag: q.Tag, Offset: q.Skip, Limit: q.Take}
		if q.WriterID > 0 {
			f.WriterID = &q.WriterID
		}
		bs, total, err := s.store.Blogs(r.Context(), f)
		if err != nil {
			return err
		}
		hits = &search.BlogHits{Blogs: bs, Total: total}
	default:
		return errSearchBuilding()
	}
	return s.writeBlogList(w, r, hits.Blogs, hits.Total, userFrom(r), false)
}

// handleBlogDelete handles "DELETE /v1/blog/delete/{id}": the writer or an admin removes a blog
// for good.
func (s *Server) handleBlogDelete(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	id, err := pathInt64(r, "id")
	if err != nil {
		return err
	}
	if err := s.store.DeleteBlog(r.Context(), u, id); err != nil {
		return err
	}
	s.syncIndex(r.Context())
	writeJSON(w, http.StatusOK, map[string]any{"id": id}, message(langOf(r), "blog_deleted", nil))
	return nil
}

// handleAdminBlogs handles "GET /v1/admin/blog?status=&skip=&take=": the blog moderation queue,
// newest first (status may also be Draft or Published).
func (s *Server) handleAdminBlogs(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	f := store.BlogFilter{Offset: skip, Limit: take}
	if st := r.URL.Query().Get("status"); st != "" {
		if !store.ValidBlogStatus(st) && st != store.StatusEdited {
			v := &store.Validation{}
			v.Correct("status")
			return v.Err()
		}
		f.Status = &st
	}
	bs, total, err := s.store.Blogs(r.Context(), f)
	if err != nil {
		return err
	}
	return s.writeBlogList(w, r, bs, total, u, true)
}

// handleAdminBlogStatus handles "PUT /v1/admin/blog/{id}/status {status, description}": a
// moderation move, recorded in the audit log.
func (s *Server) handleAdminBlogStatus(w http.ResponseWriter, r *http.Request) error {
	u, id, in, err := moderationMove(w, r, store.ValidStatus)
	if err != nil {
		return err
	}
	b, err := s.store.SetBlogStatus(r.Context(), &u.ID, id, in.Status, in.Description)
	if err != nil {
		return err
	}
	s.smsNotice(r.Context(), b.WriterID, store.NotifyModeration, b.Title, in.Status)
	s.syncIndex(r.Context())
	return s.writeBlog(w, r, b, u)
}
