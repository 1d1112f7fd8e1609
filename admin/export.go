package admin

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"kardan/store"
)

// ExportFormat is the version of the export's shape.
const ExportFormat = 1

// ExportOptions narrow an export.
type ExportOptions struct {
	// Owner is a normalised mobile number: only that user's account, profiles, blogs and
	// comments are exported. Empty exports everything.
	Owner string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ExportCounts says how many records an export wrote.
type ExportCounts struct {
	Users, Profiles, Blogs, Comments int
}

// exportUser is an account in an export: never its password hash.
type exportUser struct {
	ID           int64  `json:"id"`
	NumberPhone  string `json:"numberPhone"`
	Name         string `json:"name"`
	ProfileImage string `json:"profileImage"`
	Role         string `json:"role"`
	CreateAt     int64  `json:"create_at"`
	UpdateAt     int64  `json:"update_at"`
}

// exportProfile is a business profile in an export, with the field names of the spec's profile.
type exportProfile struct {
	ID               int64              `json:"id"`
	UserID           int64              `json:"user_id"`
	ProfileName      string             `json:"profile_name"`
	Slug             string             `json:"slug"`
	KeyWord          string             `json:"key_word"`
	WorkHistoryYears int                `json:"work_history_years"`
	Descriotion      string             `json:"descriotion"`
	RangeWorker      int64              `json:"range_worker"`
	CategoryList     []int64            `json:"category_list"`
	ProvinceID       int64              `json:"province_id"`
	CityID           int64              `json:"city_id"`
	Location         []float64          `json:"location"` // [longitude, latitude], as the spec reads it
	Address          string             `json:"address"`
	AreaWorking      []string           `json:"area_working"`
	Services         []store.Service    `json:"services"`
	HoursOfWork      store.Hours        `json:"hours_of_work"`
	SocialNetwork    []store.SocialLink `json:"social_network"`
	ProfileImage     string             `json:"profile_image"`
	Logo             string             `json:"logo"`
	PortfolioImages  []string           `json:"portfolio_images"`
	Option           []string           `json:"option"`
	ListObject       json.RawMessage    `json:"list_object"`
	AccountStatus    string             `json:"account_status"`
	Active           bool               `json:"active"`
	Display          bool               `json:"display"`
	DeleteAt         *int64             `json:"delete_at"`
	Score            float64            `json:"score"`
	CountScorer      int                `json:"count_scorer"`
	LevelScore       float64            `json:"level_score"`
	CreateAt         int64              `json:"create_at"`
	UpdateAt         int64              `json:"update_at"`
}

func toExportProfile(p *store.Profile) exportProfile {
	e := exportProfile{
		ID: p.ID, UserID: p.UserID, ProfileName: p.ProfileName, Slug: p.Slug, KeyWord: p.KeyWord,
		WorkHistoryYears: p.WorkHistoryYears, Descriotion: p.Descriotion, RangeWorker: p.RangeWorkerID,
		CategoryList: p.CategoryIDs, ProvinceID: p.ProvinceID, CityID: p.CityID, Address: p.Address,
		AreaWorking: p.AreaWorking, Services: p.Services, HoursOfWork: p.HoursOfWork, SocialNetwork: p.SocialNetwork,
		ProfileImage: p.ProfileImage, Logo: p.Logo, PortfolioImages: p.PortfolioImages, Option: p.Option,
		ListObject: p.ListObject, AccountStatus: p.AccountStatus, Active: p.Active, Display: p.Display,
		DeleteAt: p.DeleteAt, Score: p.Score, CountScorer: p.CountScorer, LevelScore: p.LevelScore,
		CreateAt: p.CreateAt, UpdateAt: p.UpdateAt,
	}
	if p.Lat != 0 || p.Long != 0 {
		e.Location = []float64{p.Long, p.Lat}
	}
	if len(e.ListObject) == 0 {
		e.ListObject = json.RawMessage("[]")
	}
	return e
}

// Export writes every account (without password hashes), profile, blog article and comment as
// one JSON document, for moving the data elsewhere; with opt.Owner, only that user's. Records
// are streamed one at a time, so a million profiles need no more memory than one.
func Export(ctx context.Context, st *store.Store, w io.Writer, opt ExportOptions) (ExportCounts, error) {
	var n ExportCounts
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	var f store.ExportFilter
	if opt.Owner != "" {
		u, err := st.UserByPhone(ctx, opt.Owner)
		if err != nil {
			return n, fmt.Errorf("export: owner %s: %w", opt.Owner, err)
		}
		f.UserID = &u.ID
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	ew := &exportWriter{w: bw}
	ew.raw(`{"format":`)
	ew.value(ExportFormat)
	ew.raw(`,"exported_at":`)
	ew.value(now().UTC().Format(time.RFC3339))
	ew.raw(`,"owner":`)
	ew.value(opt.Owner)

	ew.list("users")
	err := st.ExportUsers(ctx, f, func(u *store.User) error {
		n.Users++
		return ew.item(exportUser{ID: u.ID, NumberPhone: u.NumberPhone, Name: u.Name, ProfileImage: u.ProfileImage,
			Role: string(u.Role), CreateAt: u.CreateAt, UpdateAt: u.UpdateAt})
	})
	if err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	ew.list("profiles")
	if err := st.ExportProfiles(ctx, f, func(p *store.Profile) error {
		n.Profiles++
		return ew.item(toExportProfile(p))
	}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	ew.list("blogs")
	if err := st.ExportBlogs(ctx, f, func(b *store.BlogRecord) error {
		n.Blogs++
		return ew.item(b)
	}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	ew.list("comments")
	if err := st.ExportComments(ctx, f, func(c *store.CommentRecord) error {
		n.Comments++
		return ew.item(c)
	}); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	ew.raw("]}\n")
	if ew.err != nil {
		return n, fmt.Errorf("export: %w", ew.err)
	}
	if err := bw.Flush(); err != nil {
		return n, fmt.Errorf("export: %w", err)
	}
	return n, nil
}

// exportWriter writes the export's JSON by hand around json.Marshal'd records, remembering the
// first write error so the callers' code stays linear.
type exportWriter struct {
	w     *bufio.Writer
	err   error
	first bool
	open  bool
}

func (e *exportWriter) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *exportWriter) value(v any) {
	if e.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		e.err = err
		return
	}
	_, e.err = e.w.Write(b)
}

// list closes the list being written, if any, and opens the list named name.
func (e *exportWriter) list(name string) {
	if e.open {
		e.raw("]")
	}
	e.raw(",")
	e.value(name)
	e.raw(":[")
	e.open, e.first = true, true
}

// item writes one record of the open list on its own line.
func (e *exportWriter) item(v any) error {
	if !e.first {
		e.raw(",")
	}
	e.first = false
	e.raw("\n")
	e.value(v)
	return e.err
}
