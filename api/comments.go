package api

import (
	"context"
	"net/http"

	"kardan/store"
)

// commentForm is a comment's read form: the author's public name and picture, and the owner's
// reply. Admins also see the moderation note and, in the queue, the profile it is about.
type commentForm struct {
	ID              int64           `json:"id"`
	UserTechnicalID int64           `json:"user_technical_id"`
	CategoryList    []int64         `json:"category_list"`
	Description     string          `json:"description"`
	Score           int             `json:"score"`
	Images          []string        `json:"images"`
	Status          string          `json:"status"`
	CreateAt        string          `json:"create_at"`
	UpdateAt        string          `json:"update_at"`
	User            commentUser     `json:"user"`
	Reply           *commentReply   `json:"reply"`
	RegisterAdmin   *registerAdmin  `json:"register_admin,omitempty"`
	UserTechnical   *commentProfile `json:"user_technical,omitempty"`
}

type commentUser struct {
	ID           int64  `json:"id"`
	Name         string `json:"name"`
	ProfileImage string `json:"profileImage"`
}

type commentReply struct {
	Description string `json:"description"`
	CreateAt    string `json:"create_at"`
}

type commentProfile struct {
	ID          int64  `json:"id"`
	ProfileName string `json:"profile_name"`
	Slug        string `json:"slug"`
}

func commentFormOf(c *store.Comment, viewer *store.User) *commentForm {
	f := &commentForm{
		ID: c.ID, UserTechnicalID: c.ProfileID, CategoryList: c.CategoryList, Description: c.Description,
		Score: c.Score, Images: c.Images, Status: c.Status(), CreateAt: isoTime(c.CreateAt), UpdateAt: isoTime(c.UpdateAt),
		User: commentUser{ID: c.UserID, Name: c.AuthorName, ProfileImage: c.AuthorImage},
	}
	if c.Reply != nil {
		f.Reply = &commentReply{Description: *c.Reply}
		if c.ReplyAt != nil {
			f.Reply.CreateAt = isoTime(*c.ReplyAt)
		}
	}
	if viewer.IsAdmin() {
		f.RegisterAdmin = &registerAdmin{AdminRegisterID: c.AdminID, Description: c.AdminNote}
	}
	return f
}

func commentForms(cs []*store.Comment, viewer *store.User) []*commentForm {
	out := make([]*commentForm, len(cs))
	for i, c := range cs {
		out[i] = commentFormOf(c, viewer)
	}
	return out
}

// bodyPage validates skip and take sent in a JSON body (SPEC.md §9: pages of 20).
func bodyPage(v *store.Validation, skip, take *int) (int, int) {
	s, t := 0, defaultTake
	if take != nil && *take != 0 {
		if *take < 1 || *take > maxTake {
			v.Add("take", "out_of_range", map[string]any{"min": 1, "max": maxTake})
		}
		t = *take
	}
	if skip != nil {
		if *skip < 0 || *skip > maxSkip {
			v.Add("skip", "out_of_range", map[string]any{"min": 0, "max": maxSkip})
		}
		s = *skip
	}
	return s, t
}

// commentedProfile answers the profile a comment request names, when viewer may see it.
func (s *Server) commentedProfile(ctx context.Context, id int64, viewer *store.User) (*store.Profile, error) {
	if id <= 0 {
		v := &store.Validation{}
		v.Enter("user_technical_id")
		return nil, v.Err()
	}
	p, err := s.store.Profile(ctx, id)
	if err != nil {
		return nil, err
	}
	if !canSee(p, viewer) {
		return nil, store.NotFound()
	}
	return p, nil
}

// handleCommentAdd handles "POST /v1/comment/add {category_list, description, score,
// user_technical_id}".
func (s *Server) handleCommentAdd(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r)
	if u == nil {
		return store.Errorf(store.EUnauthorized, "login_to_comment", nil)
	}
	var in store.CommentInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if _, err := s.commentedProfile(r.Context(), in.ProfileID, u); err != nil {
		return err
	}
	c, err := s.store.AddComment(r.Context(), u, &in)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	writeJSON(w, http.StatusOK, commentFormOf(c, u), message(langOf(r), "comment_saved", nil))
	return nil
}

// handleCommentEdit handles "PUT /v1/comment/edit {category_list, description, score, id}": the
// author's change of their own comment.
func (s *Server) handleCommentEdit(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r)
	if u == nil {
		return store.Errorf(store.EUnauthorized, "login_to_comment", nil)
	}
	var in store.CommentInput
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.ID <= 0 {
		v := &store.Validation{}
		v.Enter("id")
		return v.Err()
	}
	c, err := s.store.EditComment(r.Context(), u, &in)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	writeJSON(w, http.StatusOK, commentFormOf(c, u), message(langOf(r), "comment_saved", nil))
	return nil
}

// commentListRequest is the body of comment/get and comment/getCommentRegisterByMe.
// The spec's client sends category "" (or null) when it filters by none.
type commentListRequest struct {
	Category        looseID `json:"category"`
	UserTechnicalID looseID `json:"user_technical_id"`
	Skip            *int    `json:"skip"`
	Take            *int    `json:"take"`
	// Score and sort are our optional additions to comment/get: keep one score (1-5, 0 or absent
	// for all) and order by newest (the default), highest or lowest.
	Score *int   `json:"score"`
	Sort  string `json:"sort"`
	// WithPhotos (our addition too) keeps the reviews that carry a photo; false or absent keeps
	// all. A value that is not a boolean is refused on the field, as any wrong JSON type is.
	WithPhotos bool `json:"with_photos"`
}

// handleCommentGet handles "POST /v1/comment/get {category, user_technical_id, skip, take, score,
// sort, with_photos}": a
// profile's comments, newest first. category, when it names one of the profile's categories,
// keeps the comments about it; a field of work (the web app sends the profile's) keeps all.
// Hidden comments are left out except for admins.
func (s *Server) handleCommentGet(w http.ResponseWriter, r *http.Request) error {
	var in commentListRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	v := &store.Validation{}
	skip, take := bodyPage(v, in.Skip, in.Take)
	score := 0
	if in.Score != nil {
		if score = *in.Score; score < 0 || score > 5 {
			v.Add("score", "out_of_range", map[string]any{"min": 1, "max": 5})
		}
	}
	if !store.ValidCommentSort(in.Sort) {
		v.Correct("sort")
	}
	if err := v.Err(); err != nil {
		return err
	}
	viewer := userFrom(r)
	id := int64(in.UserTechnicalID)
	if id <= 0 {
		v.Enter("user_technical_id")
		return v.Err()
	}
	f := store.CommentFilter{Offset: skip, Limit: take, Score: score, Sort: in.Sort, WithPhotos: in.WithPhotos}
	if in.Category > 0 {
		tree, err := s.categories(r.Context())
		if err != nil {
			return err
		}
		if c := tree.ByID(int64(in.Category)); c != nil && !c.IsField() {
			f.CategoryID = c.ID
		}
	}
	if !viewer.IsAdmin() {
		hidden := false
		f.Hidden = &hidden
	}
	// The profile's visibility is read with the comments: one round trip less than
	// commentedProfile's read of the whole profile, on PostgreSQL.
	list, err := s.store.ProfileComments(r.Context(), id, f, func(visible bool, owner int64) bool {
		return seenBy(visible, owner, viewer)
	})
	if err != nil {
		return err
	}
	// scores (our addition): how many of these comments gave 1, 2, 3, 4 and 5 stars, whatever
	// score the list keeps, so the histogram stays whole while one bar is chosen; and
	// with_photos_count: how many carry a photo, so a client offers that filter only when it
	// keeps something.
	writeCommentList(w, list.Comments, viewer, list.Total, list.Counts)
	return nil
}

// handleCommentMine handles "POST /v1/comment/getCommentRegisterByMe {user_technical_id}": the
// caller's own comment on a profile (hidden or not), answered like comment/get as SPEC.md §7
// says, and also alone as "comment" (null when there is none).
func (s *Server) handleCommentMine(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in commentListRequest
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	p, err := s.commentedProfile(r.Context(), int64(in.UserTechnicalID), u)
	if err != nil {
		return err
	}
	c, err := s.store.CommentOf(r.Context(), u.ID, p.ID)
	if store.ErrorCode(err) == store.ENotFound {
		ok(w, map[string]any{"comments": []*commentForm{}, "count": 0, "comment": nil})
		return nil
	}
	if err != nil {
		return err
	}
	f := commentFormOf(c, u)
	ok(w, map[string]any{"comments": []*commentForm{f}, "count": 1, "comment": f})
	return nil
}

// handleCommentReply handles "POST /v1/comment/reply {id, description}" (our addition): the
// profile owner's reply to a comment; sending it again replaces the reply.
func (s *Server) handleCommentReply(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	var in struct {
		ID          int64  `json:"id"`
		Description string `json:"description"`
	}
	if err := decodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.ID <= 0 {
		v := &store.Validation{}
		v.Enter("id")
		return v.Err()
	}
	c, err := s.store.ReplyComment(r.Context(), u, in.ID, in.Description)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, commentFormOf(c, u), message(langOf(r), "reply_saved", nil))
	return nil
}

// handleAdminComments handles "GET /v1/admin/comment?status=&user_technical_id=&skip=&take=": the
// comment moderation queue of every profile, newest first.
func (s *Server) handleAdminComments(w http.ResponseWriter, r *http.Request) error {
	u, err := requireAdmin(r)
	if err != nil {
		return err
	}
	skip, take, err := paging(r)
	if err != nil {
		return err
	}
	profileID, err := queryInt64(r, "user_technical_id")
	if err != nil {
		return err
	}
	f := store.CommentFilter{Offset: skip, Limit: take}
	switch st := r.URL.Query().Get("status"); st {
	case "":
	case store.CommentHidden, store.CommentVisible:
		hidden := st == store.CommentHidden
		f.Hidden = &hidden
	default:
		v := &store.Validation{}
		v.Correct("status")
		return v.Err()
	}
	if profileID > 0 {
		f.ProfileID = &profileID
	}
	cs, total, err := s.store.Comments(r.Context(), f)
	if err != nil {
		return err
	}
	ids := make([]int64, len(cs))
	for i, c := range cs {
		ids[i] = c.ProfileID
	}
	ps, err := s.store.ProfilesByIDs(r.Context(), ids)
	if err != nil {
		return err
	}
	byID := map[int64]*store.Profile{}
	for _, p := range ps {
		byID[p.ID] = p
	}
	forms := commentForms(cs, u)
	for i, c := range cs {
		if p := byID[c.ProfileID]; p != nil {
			forms[i].UserTechnical = &commentProfile{ID: p.ID, ProfileName: p.ProfileName, Slug: p.Slug}
		}
	}
	ok(w, map[string]any{"comments": forms, "count": total})
	return nil
}

// handleAdminCommentStatus handles "PUT /v1/admin/comment/{id}/status {status, description}":
// hide (Hidden) or show (Visible) a comment; the profile's scores follow and the move is
// recorded in the audit log.
func (s *Server) handleAdminCommentStatus(w http.ResponseWriter, r *http.Request) error {
	u, id, in, err := moderationMove(w, r, nil)
	if err != nil {
		return err
	}
	c, err := s.store.SetCommentStatus(r.Context(), &u.ID, id, in.Status, in.Description)
	if err != nil {
		return err
	}
	s.syncIndex(r.Context())
	ok(w, commentFormOf(c, u))
	return nil
}
