package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
)

// Limits of a profile's parts.
const (
	maxProfileName  = 100
	maxDescription  = 5000
	maxAddress      = 300
	maxServices     = 50
	maxSocialLinks  = 30
	maxAreas        = 30
	maxPortfolio    = 30
	maxCategories   = 10
	maxOptions      = 30
	maxListObject   = 16 << 10
	maxWorkYears    = 80
	maxServiceTitle = 100
	maxServiceDesc  = 500
	maxPrice        = 1_000_000_000_000
)

// applyInput validates in and copies it onto p, answering the records it refers to. Image
// addresses must be uploads of the profile's owner (ownerUploads false lets an admin keep them).
// Each part has its own validator; p changes only when every part is valid.
func (s *Store) applyInput(ctx context.Context, tx *sql.Tx, p *Profile, in *ProfileInput, ownerUploads bool) (*ProfileRefs, error) {
	v := &Validation{}
	refs := &ProfileRefs{}
	next := *p

	checkProfileText(v, in, &next)
	tree, err := treeTx(ctx, tx)
	if err != nil {
		return nil, err
	}
	checkFieldOfWork(v, tree, in, &next, refs)
	checkPlace(ctx, tx, v, in, &next, refs)
	checkProfileLists(v, in, &next, s.Now())
	if err := checkImages(ctx, tx, v, in, &next, ownerUploads); err != nil {
		return nil, err
	}
	if err := v.Err(); err != nil {
		return nil, err
	}

	if in.Active != nil {
		next.Active = *in.Active
	}
	if in.Display != nil {
		next.Display = *in.Display
	}
	next.KeyWord = buildKeyWord(next.ProfileName, refs)
	*p = next
	return refs, nil
}

// checkProfileText validates the profile's name, years of work, description and address.
func checkProfileText(v *Validation, in *ProfileInput, p *Profile) {
	name := CleanText(in.ProfileName, false)
	switch {
	case name == "":
		v.Enter("profile_name")
	case RuneLen(name) > maxProfileName:
		v.Add("profile_name", "too_long", map[string]any{"max": maxProfileName})
	}
	if in.WorkHistoryYears < 0 || in.WorkHistoryYears > maxWorkYears {
		v.Add("work_history_years", "out_of_range", map[string]any{"min": 0, "max": maxWorkYears})
	}
	desc := CleanText(in.Descriotion, true)
	if RuneLen(desc) > maxDescription {
		v.Add("descriotion", "too_long", map[string]any{"max": maxDescription})
	}
	address := CleanText(in.Address, false)
	if RuneLen(address) > maxAddress {
		v.Add("address", "too_long", map[string]any{"max": maxAddress})
	}
	p.ProfileName, p.WorkHistoryYears, p.Descriotion, p.Address = name, in.WorkHistoryYears, desc, address
}

// checkFieldOfWork validates the field of work and its categories, which must belong to it.
func checkFieldOfWork(v *Validation, tree *Categories, in *ProfileInput, p *Profile, refs *ProfileRefs) {
	if in.RangeWorker == 0 {
		v.Enter("range_worker")
	} else if f := tree.ByID(in.RangeWorker); f == nil || !f.IsField() {
		v.Correct("range_worker")
	} else {
		refs.Field = f
		p.RangeWorkerID = f.ID
	}
	cats := dedupe(in.CategoryList)
	switch {
	case len(cats) == 0:
		v.Enter("category_list")
	case len(cats) > maxCategories:
		v.Add("category_list", "too_many_items", map[string]any{"max": maxCategories})
	default:
		for _, id := range cats {
			c := tree.ByID(id)
			if c == nil || c.IsField() || (refs.Field != nil && *c.ParentID != refs.Field.ID) {
				v.Add("category_list", "category_not_in_field", nil)
				break
			}
			refs.Categories = append(refs.Categories, c)
		}
	}
	p.CategoryIDs = cats
}

// checkPlace validates the province, the city (which must lie in it) and the pin (which must lie
// in Iran). Without a pin the profile takes its city's centre, so it still shows on the map and
// in radius searches.
func checkPlace(ctx context.Context, tx *sql.Tx, v *Validation, in *ProfileInput, p *Profile, refs *ProfileRefs) {
	if in.ProvinceID == 0 {
		v.Enter("province_id")
	} else {
		var pr Province
		err := tx.QueryRowContext(ctx, `SELECT id, farsi_name, english_name, slug, lat, long FROM provinces WHERE id = ?`, in.ProvinceID).
			Scan(&pr.ID, &pr.FarsiName, &pr.EnglishName, &pr.Slug, &pr.Lat, &pr.Long)
		if err != nil {
			v.Correct("province_id")
		} else {
			refs.Province = &pr
			p.ProvinceID = pr.ID
		}
	}
	if in.CityID == 0 {
		v.Enter("city_id")
	} else {
		c, err := scanCity(tx.QueryRowContext(ctx, citySelect+` WHERE id = ?`, in.CityID))
		switch {
		case err != nil:
			v.Correct("city_id")
		case refs.Province != nil && c.ProvinceID != refs.Province.ID:
			v.Add("city_id", "city_not_in_province", nil)
		default:
			refs.City = &c
			p.CityID = c.ID
		}
	}
	var lat, long float64
	if in.Location != nil && (in.Location.Lat != 0 || in.Location.Long != 0) {
		lat, long = in.Location.Lat, in.Location.Long
		if !InIran(lat, long) {
			v.Add("location", "location_outside_iran", nil)
		}
	} else if refs.City != nil {
		lat, long = refs.City.Lat, refs.City.Long
	}
	p.Lat, p.Long = lat, long
}

// checkProfileLists validates the profile's lists: areas, services, hours, social links, options
// and the free-form list object.
func checkProfileLists(v *Validation, in *ProfileInput, p *Profile, now time.Time) {
	p.AreaWorking = checkAreas(v, in.AreaWorking)
	p.Services = checkServices(v, in.Services)
	hours := in.HoursOfWork
	if hours == nil {
		hours = Hours{}
	}
	hours.validate(v)
	p.HoursOfWork = hours
	if in.SpecialDays != nil {
		p.SpecialDays = checkSpecialDays(v, in.SpecialDays, now)
	}
	if in.OpenOnHolidays != nil {
		p.OpenOnHolidays = *in.OpenOnHolidays
	}
	p.SocialNetwork = checkSocialLinks(v, in.SocialNetwork)
	p.Option = checkOptions(v, in.Option)
	p.ListObject = checkListObject(v, in.ListObject)
}

// checkAreas cleans the areas worked in, keeping at most maxAreas non-empty ones.
func checkAreas(v *Validation, in []string) []string {
	areas := []string{}
	if len(in) > maxAreas {
		v.Add("area_working", "too_many_items", map[string]any{"max": maxAreas})
	}
	for _, a := range in {
		if a = CleanText(a, false); a != "" && len(areas) < maxAreas {
			if RuneLen(a) > 100 {
				v.Add("area_working", "too_long", map[string]any{"max": 100})
				break
			}
			areas = append(areas, a)
		}
	}
	return areas
}

// checkServices cleans the services, stopping at the first bad one.
func checkServices(v *Validation, in []Service) []Service {
	services := []Service{}
	if len(in) > maxServices {
		v.Add("services", "too_many_items", map[string]any{"max": maxServices})
	}
	for _, sv := range in {
		sv.Title = CleanText(sv.Title, false)
		sv.Description = CleanText(sv.Description, true)
		switch {
		case sv.Title == "":
			v.Add("services", "service_title_required", nil)
		case RuneLen(sv.Title) > maxServiceTitle:
			v.Add("services", "too_long", map[string]any{"max": maxServiceTitle})
		case sv.Price < 0 || sv.Price > maxPrice:
			v.Add("services", "service_bad_price", nil)
		case RuneLen(sv.Description) > maxServiceDesc:
			v.Add("services", "too_long", map[string]any{"max": maxServiceDesc})
		}
		if v.Has("services") {
			break
		}
		services = append(services, sv)
	}
	return services
}

// checkSocialLinks answers the links in their canonical form, stopping at the first bad one.
func checkSocialLinks(v *Validation, in []SocialLink) []SocialLink {
	social := []SocialLink{}
	if len(in) > maxSocialLinks {
		v.Add("social_network", "too_many_items", map[string]any{"max": maxSocialLinks})
	}
	for _, l := range in {
		typ, kind, ok := canonicalSocialType(l.Type)
		if !ok {
			v.Add("social_network", "social_bad_type", map[string]any{"type": CleanText(l.Type, false)})
			break
		}
		link, ok := normaliseLink(kind, l.Link)
		if !ok {
			v.Add("social_network", "social_bad_link", map[string]any{"type": typ})
			break
		}
		social = append(social, SocialLink{Type: typ, Link: link})
	}
	return social
}

// checkOptions answers the non-empty options, cleaned.
func checkOptions(v *Validation, in []string) []string {
	options := []string{}
	for _, o := range in {
		if o = CleanText(o, false); o != "" {
			options = append(options, o)
		}
	}
	if len(options) > maxOptions {
		v.Add("option", "too_many_items", map[string]any{"max": maxOptions})
	}
	return options
}

// checkListObject answers the free-form list object re-encoded compactly: [] when absent or
// null, refused when it is not a JSON list or is too large.
func checkListObject(v *Validation, in json.RawMessage) json.RawMessage {
	listObject := json.RawMessage("[]")
	if len(in) > 0 && string(in) != "null" {
		var arr []json.RawMessage
		if len(in) > maxListObject || json.Unmarshal(in, &arr) != nil {
			v.Correct("list_object")
		} else {
			listObject, _ = json.Marshal(arr)
		}
	}
	return listObject
}

// checkImages validates the profile image, logo and portfolio: each is stored as its upload's
// public path (canonicalImage), whoever saves it, so the purge of unused uploads finds it; with
// ownerUploads, each must be an upload of the profile's owner.
func checkImages(ctx context.Context, tx *sql.Tx, v *Validation, in *ProfileInput, p *Profile, ownerUploads bool) error {
	c := in.canonicalImages()
	images := map[string]string{"profile_image": c.ProfileImage, "logo": c.Logo}
	if len(c.PortfolioImages) > maxPortfolio {
		v.Add("portfolio_images", "too_many_items", map[string]any{"max": maxPortfolio})
	}
	for field, addr := range images {
		if addr == "" {
			continue
		}
		if !IsUploadPath(addr) {
			v.Correct(field)
			continue
		}
		if ownerUploads {
			if ok, err := ownsUpload(ctx, tx, p.UserID, addr); err != nil {
				return err
			} else if !ok {
				v.Add(field, "image_not_yours", nil)
			}
		}
	}
	for _, addr := range c.PortfolioImages {
		if !IsUploadPath(addr) {
			v.Correct("portfolio_images")
			break
		}
		if ownerUploads {
			if ok, err := ownsUpload(ctx, tx, p.UserID, addr); err != nil {
				return err
			} else if !ok {
				v.Add("portfolio_images", "image_not_yours", nil)
				break
			}
		}
	}
	p.PortfolioImages = c.PortfolioImages
	p.ProfileImage, p.Logo = c.ProfileImage, c.Logo
	return nil
}

// canonicalImage is an image address as stored: its upload's public path (/uploads/...), from a
// full URL on this site or the upload answer's data.location without its leading slash, which
// the purge of unused uploads would not recognise; ” stays ”.
func canonicalImage(addr string) string {
	if addr = strings.TrimSpace(addr); addr == "" {
		return ""
	}
	return uploadPath(addr)
}

// canonicalImages answers a copy of in with its image addresses as stored (canonicalImage) and
// empty portfolio entries dropped: what a held edit keeps, as a saved profile would.
func (in *ProfileInput) canonicalImages() *ProfileInput {
	c := *in
	c.ProfileImage, c.Logo = canonicalImage(in.ProfileImage), canonicalImage(in.Logo)
	c.PortfolioImages = []string{}
	for _, a := range in.PortfolioImages {
		if a = canonicalImage(a); a != "" {
			c.PortfolioImages = append(c.PortfolioImages, a)
		}
	}
	return &c
}

// buildKeyWord is the spec's key_word: the profile's name with the Persian and English names of
// its city, province, field and categories.
func buildKeyWord(name string, refs *ProfileRefs) string {
	parts := []string{name, refs.City.FarsiName, refs.City.EnglishName, refs.Province.FarsiName, refs.Province.EnglishName,
		refs.Field.FarsiName, refs.Field.EnglishName}
	for _, c := range refs.Categories {
		parts = append(parts, c.FarsiName, c.EnglishName)
	}
	return strings.Join(parts, " ")
}

// checkOnePerCategory enforces one profile per category per user, and the lock a deleted
// profile keeps on its field of work for RetentionDays.
func (s *Store) checkOnePerCategory(ctx context.Context, tx *sql.Tx, p *Profile) error {
	if err := s.checkLiveCategories(ctx, tx, p); err != nil {
		return err
	}
	return s.checkFieldLock(ctx, tx, p)
}

// checkLiveCategories enforces one live profile per category per user.
func (s *Store) checkLiveCategories(ctx context.Context, tx *sql.Tx, p *Profile) error {
	if len(p.CategoryIDs) == 0 { // nothing to clash with, and PostgreSQL refuses an empty IN ()
		return nil
	}
	args := []any{p.UserID, p.ID}
	marks := make([]string, len(p.CategoryIDs))
	for i, c := range p.CategoryIDs {
		marks[i] = "?"
		args = append(args, c)
	}
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM profiles p JOIN profile_categories pc ON pc.profile_id = p.id
		WHERE p.user_id = ? AND p.id != ? AND p.delete_at IS NULL AND pc.category_id IN (`+strings.Join(marks, ",")+`)`, args...).Scan(&n)
	if err != nil {
		return err
	}
	if n > 0 {
		return &Error{Code: EConflict, Key: "one_profile_per_cat",
			Fields: []FieldError{{Field: "category_list", Key: "one_profile_per_cat"}}}
	}
	return nil
}

// checkFieldLock refuses a new profile (or a move) into a field of work in which one of the
// user's profiles was deleted less than RetentionDays ago.
func (s *Store) checkFieldLock(ctx context.Context, tx *sql.Tx, p *Profile) error {
	var deletedAt sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT MAX(delete_at) FROM profiles WHERE user_id = ? AND id != ? AND range_worker_id = ?
		AND delete_at IS NOT NULL AND delete_at > ?`, p.UserID, p.ID, p.RangeWorkerID, s.now()-RetentionDays*86400).Scan(&deletedAt)
	if err != nil {
		return err
	}
	if deletedAt.Valid {
		days := (deletedAt.Int64 + RetentionDays*86400 - s.now() + 86399) / 86400
		args := map[string]any{"days": days}
		return &Error{Code: EConflict, Key: "field_locked", Args: args,
			Fields: []FieldError{{Field: "range_worker", Key: "field_locked", Args: args}}}
	}
	return nil
}

// ownsUpload reports whether address is an upload of userID.
func ownsUpload(ctx context.Context, tx *sql.Tx, userID int64, address string) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM uploads WHERE user_id = ? AND (address = ? OR thumb = ?)`, userID, address, address).Scan(&n)
	return n > 0, err
}

// categoriesTx reads, inside a transaction, the categories ids names (up to most of them; more
// read the whole tree, for the validation to name every unknown one): a tree in which ByID finds
// them and their parents' ids, without reading and parsing all 500-odd categories while holding
// the store's one writer.
func (s *Store) categoriesTx(ctx context.Context, tx *sql.Tx, ids []int64, most int) (*Categories, error) {
	if len(ids) > most {
		return treeTx(ctx, tx)
	}
	if len(ids) == 0 {
		return &Categories{Roots: []*Category{}, byID: map[int64]*Category{}, bySlg: map[string]*Category{}}, nil
	}
	in, args := s.idsIn("id", ids)
	rows, err := tx.QueryContext(ctx, categorySelect+` WHERE `+in, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return buildTree(rows)
}

// treeTx reads the category tree inside a transaction.
func treeTx(ctx context.Context, tx *sql.Tx) (*Categories, error) {
	rows, err := tx.QueryContext(ctx, categorySelect)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return buildTree(rows)
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := []int64{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
