package api

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"sync"
	"time"

	"kardan/store"
)

// refs is the reference data a profile's read form names, read once a minute at most, with the
// read forms of each category, city and province made once rather than per profile.
type refs struct {
	seq       uint64 // later refs have higher numbers (the form cache keeps forms per refs)
	cities    map[int64]store.City
	citySlags map[string]int64 // slag → id, for a search's or suggestion's city_slag
	provinces map[int64]store.Province
	tree      *store.Categories
	catForms  map[int64]*categoryRef
	cityForms map[int64]*cityRef
	provForms map[int64]*provinceRef
}

type refsCache struct {
	mu  sync.Mutex
	r   *refs
	at  time.Time
	seq uint64
}

func (s *Server) refs(ctx context.Context) (*refs, error) {
	s.refsCache.mu.Lock()
	defer s.refsCache.mu.Unlock()
	if s.refsCache.r != nil && time.Since(s.refsCache.at) < categoryTTL {
		return s.refsCache.r, nil
	}
	tree, err := s.categories(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := s.store.Cities(ctx, store.CityFilter{})
	if err != nil {
		return nil, err
	}
	ps, err := s.store.Provinces(ctx)
	if err != nil {
		return nil, err
	}
	r := &refs{cities: map[int64]store.City{}, citySlags: map[string]int64{}, provinces: map[int64]store.Province{}, tree: tree,
		catForms: map[int64]*categoryRef{}, cityForms: map[int64]*cityRef{}, provForms: map[int64]*provinceRef{}}
	// Each form names a field, categories, a city and a province: they are encoded here once.
	for _, c := range cs {
		r.cities[c.ID] = c
		r.citySlags[c.Slag] = c.ID
		ref := &cityRef{ID: c.ID, FarsiName: c.FarsiName, EnglishName: c.EnglishName, Slag: c.Slag}
		ref.json = appendCityRef(nil, ref)
		r.cityForms[c.ID] = ref
	}
	for _, p := range ps {
		r.provinces[p.ID] = p
		ref := &provinceRef{ID: p.ID, FarsiName: p.FarsiName, EnglishName: p.EnglishName}
		ref.json = appendProvinceRef(nil, ref)
		r.provForms[p.ID] = ref
	}
	for _, root := range tree.Roots {
		for _, c := range append([]*store.Category{root}, root.Children...) {
			ref := categoryRefOf(c)
			ref.json = appendCategoryRef(nil, &ref)
			r.catForms[c.ID] = &ref
		}
	}
	if old := s.refsCache.r; old != nil && reflect.DeepEqual(old.cities, r.cities) &&
		reflect.DeepEqual(old.provinces, r.provinces) && reflect.DeepEqual(old.tree, tree) {
		// Nothing changed (the usual case, checked each minute): the forms cached with the old
		// reference data stay good.
		s.refsCache.at = time.Now()
		return old, nil
	}
	s.refsCache.seq++
	r.seq = s.refsCache.seq
	s.refsCache.r, s.refsCache.at = r, time.Now()
	return r, nil
}

// cityBySlag answers the city of a slag (as stored: lower case), from the reference data read
// once a minute as the category tree is, where store.CityBySlag was one more statement per
// search with a city (a round trip on PostgreSQL). A slag it does not know is asked of the
// store, so a city added in the last minute is not refused.
func (s *Server) cityBySlag(ctx context.Context, slag string) (*store.City, error) {
	r, err := s.refs(ctx)
	if err != nil {
		return nil, err
	}
	if id, ok := r.citySlags[slag]; ok {
		c := r.cities[id]
		return &c, nil
	}
	return s.store.CityBySlag(ctx, slag)
}

// category answers the read form of a category or field, made once per refs.
func (r *refs) category(id int64) *categoryRef {
	if c, ok := r.catForms[id]; ok {
		return c
	}
	c := r.tree.ByID(id)
	if c == nil {
		return nil
	}
	ref := categoryRefOf(c)
	return &ref
}

// isoTime writes Unix seconds as RFC 3339 in UTC, the form the web app's date formatting reads.
func isoTime(sec int64) string { return time.Unix(sec, 0).UTC().Format(time.RFC3339) }

type categoryRef struct {
	ID          int64   `json:"id"`
	FarsiName   string  `json:"farsi_name"`
	EnglishName string  `json:"english_name"`
	Slag        string  `json:"slag"`
	ParentIDs   []int64 `json:"parent_ids"`
	json        []byte  // the encoded form, when refs made it
}

func categoryRefOf(c *store.Category) categoryRef {
	r := categoryRef{ID: c.ID, FarsiName: c.FarsiName, EnglishName: c.EnglishName, Slag: c.Slag, ParentIDs: []int64{}}
	if c.ParentID != nil {
		r.ParentIDs = []int64{*c.ParentID}
	}
	return r
}

// profileForm is a profile's read form (SPEC.md §3), with open_status and, when a point was
// given, distance.
type profileForm struct {
	ID               int64              `json:"id"`
	DeleteAt         *string            `json:"delete_at"`
	Active           bool               `json:"active"`
	Display          bool               `json:"display"`
	Option           []string           `json:"option"`
	RegisterAdmin    registerAdmin      `json:"register_admin"`
	UserID           profileOwnerForm   `json:"user_id"`
	RangeWorker      *categoryRef       `json:"range_worker"`
	CategoryList     []categoryRef      `json:"category_list"`
	ProfileImage     string             `json:"profile_image"`
	ProfileName      string             `json:"profile_name"`
	KeyWord          string             `json:"key_word"`
	WorkHistoryYears int                `json:"work_history_years"`
	Descriotion      string             `json:"descriotion"`
	LevelScore       float64            `json:"level_score"`
	CountScorer      int                `json:"count_scorer"`
	Score            float64            `json:"score"`
	Location         []float64          `json:"location"`
	AreaWorking      []string           `json:"area_working"`
	Address          string             `json:"address"`
	AccountStatus    string             `json:"account_status"`
	PortfolioImages  []string           `json:"portfolio_images"`
	CreateAt         string             `json:"create_at"`
	UpdateAt         string             `json:"update_at"`
	ListObject       json.RawMessage    `json:"list_object"`
	SocialNetwork    []store.SocialLink `json:"social_network"`
	Services         []store.Service    `json:"services"`
	HoursOfWork      store.Hours        `json:"hours_of_work"`
	Logo             string             `json:"logo"`
	Slug             string             `json:"slug"`
	Province         *provinceRef       `json:"province"`
	City             *cityRef           `json:"city"`
	SpecialDays      []store.SpecialDay `json:"special_days"`
	OpenOnHolidays   bool               `json:"open_on_holidays"`
	// Verified and VerifiedAt are the badge (an admin checked the business, store/verification.go);
	// Claimable says the business can still claim this listing an admin made for it.
	Verified   bool          `json:"verified"`
	VerifiedAt *string       `json:"verified_at"`
	Claimable  bool          `json:"claimable"`
	OpenStatus string        `json:"open_status"`
	NextChange *store.Change `json:"next_change"`
	Distance   *int64        `json:"distance,omitempty"`
	// stored, from a public read, is the list columns' stored text, which appendProfileFormHead
	// copies in place of Option, AreaWorking, PortfolioImages, SocialNetwork, Services and
	// HoursOfWork (encoding/json does not see it: such a form is only ever appended).
	stored *store.StoredLists
}

type registerAdmin struct {
	AdminRegisterID *int64 `json:"adminRegisterId"`
	Description     string `json:"description"`
}

type profileOwnerForm struct {
	UserID       int64  `json:"userId"`
	Name         string `json:"name"`
	NumberPhone  string `json:"numberPhone"` // empty in public forms: the number is private, the key stays (SPEC.md §3)
	ProfileImage string `json:"profileImage"`
}

type provinceRef struct {
	ID          int64  `json:"id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	json        []byte // the encoded form, when refs made it
}

type cityRef struct {
	ID          int64  `json:"id"`
	FarsiName   string `json:"farsi_name"`
	EnglishName string `json:"english_name"`
	Slag        string `json:"slag"`
	json        []byte // the encoded form, when refs made it
}

// point is an optional place the distances in answers are measured from.
type point struct {
	ok        bool
	lat, long float64
}

// profileForms answers the read forms of ps for viewer (nil for a visitor). The owner's sign-in
// number and the admin's note are shown only to the owner and admins.
func (s *Server) profileForms(ctx context.Context, ps []*store.Profile, viewer *store.User, from point) ([]*profileForm, error) {
	r, err := s.refs(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ps))
	for i, p := range ps {
		ids[i] = p.UserID
	}
	owners, err := s.store.ProfileOwners(ctx, ids)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := make([]*profileForm, len(ps))
	for i, p := range ps {
		private := viewer != nil && (viewer.ID == p.UserID || viewer.IsAdmin())
		f := r.formOf(p, owners[p.UserID], private)
		f.OpenStatus, f.NextChange = p.Schedule().Status(now)
		if from.ok {
			f.Distance = distanceTo(from, p.Lat, p.Long)
		}
		out[i] = f
	}
	return out, nil
}

// formOf answers p's read form without its open status and distance; private adds the owner's
// sign-in number and the admin's note.
func (r *refs) formOf(p *store.Profile, owner store.ProfileAuthor, private bool) *profileForm {
	f := &profileForm{}
	r.fill(f, p, owner, private)
	return f
}

// fill makes f the read form formOf answers: a form that is only encoded can live on the stack.
func (r *refs) fill(f *profileForm, p *store.Profile, owner store.ProfileAuthor, private bool) {
	*f = profileForm{
		ID: p.ID, Active: p.Active, Display: p.Display, Option: p.Option,
		UserID:       profileOwnerForm{UserID: p.UserID, Name: owner.Name, ProfileImage: owner.ProfileImage},
		CategoryList: []categoryRef{}, ProfileImage: p.ProfileImage, ProfileName: p.ProfileName, KeyWord: p.KeyWord,
		WorkHistoryYears: p.WorkHistoryYears, Descriotion: p.Descriotion, LevelScore: round1(p.LevelScore),
		CountScorer: p.CountScorer, Score: round1(p.Score), Location: []float64{p.Long, p.Lat},
		AreaWorking: p.AreaWorking, Address: p.Address, AccountStatus: p.ShownStatus(),
		PortfolioImages: p.PortfolioImages, CreateAt: isoTime(p.CreateAt), UpdateAt: isoTime(p.UpdateAt),
		ListObject: p.ListObject, SocialNetwork: p.SocialNetwork, Services: p.Services, HoursOfWork: p.HoursOfWork,
		Logo: p.Logo, Slug: p.Slug, stored: p.Stored, SpecialDays: p.SpecialDays, OpenOnHolidays: p.OpenOnHolidays,
	}
	if f.SpecialDays == nil {
		f.SpecialDays = []store.SpecialDay{}
	}
	if p.VerifiedAt != nil {
		v := isoTime(*p.VerifiedAt)
		f.Verified, f.VerifiedAt = true, &v
	}
	f.Claimable = p.Claimable()
	if private {
		f.UserID.NumberPhone = owner.NumberPhone
		f.RegisterAdmin = registerAdmin{AdminRegisterID: p.AdminID, Description: p.AdminNote}
	}
	if p.DeleteAt != nil {
		d := isoTime(*p.DeleteAt)
		f.DeleteAt = &d
	}
	// The shared reference forms are only read, never changed, after refs made them.
	f.RangeWorker = r.category(p.RangeWorkerID)
	for _, id := range p.CategoryIDs {
		if c := r.category(id); c != nil {
			f.CategoryList = append(f.CategoryList, *c)
		}
	}
	f.Province = r.provForms[p.ProvinceID]
	f.City = r.cityForms[p.CityID]
}

// distanceTo answers the distance in whole metres from a point to (lat, long).
func distanceTo(from point, lat, long float64) *int64 {
	d := int64(math.Round(store.Haversine(from.lat, from.long, lat, long)))
	return &d
}

// profileForm answers one profile's read form.
func (s *Server) profileForm(ctx context.Context, p *store.Profile, viewer *store.User) (*profileForm, error) {
	fs, err := s.profileForms(ctx, []*store.Profile{p}, viewer, point{})
	if err != nil {
		return nil, err
	}
	return fs[0], nil
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }
