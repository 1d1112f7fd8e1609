package admin

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"kardan/media"
	"kardan/store"
)

// DemoOptions shape the demo data.
type DemoOptions struct {
	// Profiles is how many profiles to make; each has its own owner.
	Profiles int
	// PasswordHash is stored for every demo account (hashing once keeps 100,000 accounts fast).
	PasswordHash string
	// Seed makes the data reproducible.
	Seed uint64
	// Now is the time the data is made at.
	Now time.Time
	// Media stores each trade's picture; without it the demo profiles have none.
	Media *media.Processor
	// Batch is how many profiles one transaction loads; 0 means 10,000. Each batch is scored with
	// the prior of its own time (store.BulkLoad), so the seed ends with the daily refresh.
	Batch int
}

// DemoCounts says what a demo load made.
type DemoCounts struct {
	Users, Profiles, Comments, Pictures int
}

var (
	demoAreasFa = []string{"شمال شهر", "مرکز شهر", "جنوب شهر", "غرب شهر", "شرق شهر", "بلوار اصلی", "میدان مرکزی",
		"خیابان امام", "خیابان آزادی", "کوی فرهنگیان"}
	demoBanksFa = []string{"ملی", "ملت", "صادرات", "تجارت", "سپه", "کشاورزی", "مسکن", "رفاه", "پاسارگاد", "سامان"}
)

// SeedDemo fills the store with demo profiles a first evaluator believes: owners with Persian
// names; real cities weighted towards the large ones, with points scattered around their centres
// and names that carry the city where a business would; categories with the week, prices,
// services, description and reviews of their kind of trade ("۲۴ ساعته" only on a trade that keeps
// such hours, and then with such hours); every review dated between the profile's creation and
// now; and, when opt.Media is set, a picture per trade (drawn once per category and shared by
// every profile of it, each owner holding an upload row for it so their own edits keep it).
// Every profile is Accepted, so it is searchable once indexed.
func SeedDemo(ctx context.Context, st *store.Store, opt DemoOptions) (DemoCounts, error) {
	var n DemoCounts
	if opt.Profiles <= 0 {
		return n, nil
	}
	if opt.Now.IsZero() {
		opt.Now = time.Now()
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6b617264616e))
	cities, err := st.Cities(ctx, store.CityFilter{})
	if err != nil {
		return n, err
	}
	provinces, err := st.Provinces(ctx)
	if err != nil {
		return n, err
	}
	if len(cities) == 0 {
		return n, fmt.Errorf("seed demo: no reference data: run `kardan seed` first")
	}
	provByID := map[int64]*store.Province{}
	for i := range provinces {
		provByID[provinces[i].ID] = &provinces[i]
	}
	tree, err := st.CategoryTree(ctx)
	if err != nil {
		return n, err
	}
	taken, err := st.SlugsTaken(ctx)
	if err != nil {
		return n, err
	}
	// Bigger cities get more professionals: Tehran most, then the provincial capitals, then the
	// county seats.
	weights := make([]float64, len(cities))
	var total float64
	for i, c := range cities {
		w := 1.0
		switch {
		case c.Slag == "tehran":
			w = 400
		case c.Capital:
			w = 40
		case c.Seat:
			w = 4
		}
		total += w
		weights[i] = total
	}
	pickCity := func() *store.City {
		x := rng.Float64() * total
		lo, hi := 0, len(weights)-1
		for lo < hi {
			mid := (lo + hi) / 2
			if weights[mid] < x {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return &cities[lo]
	}
	pictures := &demoPictures{media: opt.Media, byCat: map[int64]*store.Upload{}}
	var seq int // every demo account gets the next number: 099 and eight digits
	if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&seq); err != nil {
		return n, err
	}

	chunk := opt.Batch
	if chunk <= 0 {
		chunk = 10000
	}
	now := opt.Now.Unix()
	for start := 0; start < opt.Profiles; start += chunk {
		size := min(chunk, opt.Profiles-start)
		users := make([]*store.User, 0, 2*size)
		profiles := make([]*store.Profile, 0, size)
		owners := make([]int, 0, size)
		var comments []store.BulkComment
		var needs []pictureNeed
		newUser := func(name string, at int64) int {
			seq++
			users = append(users, &store.User{NumberPhone: fmt.Sprintf("099%08d", seq), Name: name,
				PasswordHash: opt.PasswordHash, CreateAt: at, UpdateAt: at})
			return len(users) - 1
		}
		for i := 0; i < size; i++ {
			first, last := demoGiven(rng), demoSurname(rng)
			joined := now - int64(rng.IntN(3*365*86400))
			owner := users[newUser(first+" "+last, joined)]
			owners = append(owners, len(users)-1)
			fieldIdx := rng.IntN(len(tree.Roots))
			field := tree.Roots[fieldIdx]
			catIdx := rng.IntN(len(field.Children))
			cat := field.Children[catIdx]
			cats := []int64{cat.ID}
			var catRefs = []*store.Category{cat}
			trade, ok := demoTrades[field.Slag]
			if !ok {
				trade = demoTrade{kind: kindCraft, main: [2]int64{300_000, 3_000_000}}
			}
			if rng.IntN(3) == 0 && len(field.Children) > 1 && trade.kind != kindPublic && trade.kind != kindReligious {
				other := field.Children[rng.IntN(len(field.Children))]
				if other.ID != cat.ID {
					cats = append(cats, other.ID)
					catRefs = append(catRefs, other)
				}
			}
			city := pickCity()
			prov := provByID[city.ProvinceID]
			// A trade whose very name says round the clock keeps such hours; some others may.
			named24 := strings.Contains(cat.FarsiName, "شبانه‌روزی")
			allDay := named24 || roundTheClock[cat.Slag] && rng.IntN(3) == 0
			name := demoName(rng, trade.kind, cat, city, last, allDay && !named24)
			years := 1 + rng.IntN(30)
			// Points scatter around the centre, about 3 km for a town and 8 km for Tehran.
			spread := 3000.0
			if city.Slag == "tehran" {
				spread = 8000
			}
			lat, long := scatter(rng, city.Lat, city.Long, spread)
			// A business joins Kardan after its owner does, and before now.
			created := joined + int64(rng.IntN(int(max(1, now-joined))))
			slug := uniqueDemoSlug(taken, store.Slugify(name), city.Slag)
			refs := &store.ProfileRefs{Field: field, Categories: catRefs, City: city, Province: prov}
			hours := demoHoursFor(trade.kind, cat.Slag, rng.IntN)
			if allDay {
				hours = demoHoursFor(kindStation, cat.Slag, rng.IntN)
			}
			area := demoArea(rng)
			p := &store.Profile{
				RangeWorkerID: field.ID, ProvinceID: prov.ID, CityID: city.ID, CategoryIDs: cats,
				ProfileName: name, Slug: slug, KeyWord: store.KeyWord(name, refs), WorkHistoryYears: years,
				Descriotion: demoRichDescription(rng, trade.kind, trade, field, cat, years),
				Address:     city.FarsiName + "، " + area,
				Lat:         lat, Long: long, AccountStatus: store.StatusAccepted, Active: true, Display: true,
				Services: demoServicesFor(rng, trade, cat), HoursOfWork: hours,
				SocialNetwork:   []store.SocialLink{{Type: "mobile", Link: owner.NumberPhone}},
				AreaWorking:     []string{area},
				PortfolioImages: []string{}, Option: []string{}, ListObject: []byte("[]"),
				CreateAt: created, UpdateAt: created,
			}
			if opt.Media != nil {
				needs = append(needs, pictureNeed{profile: p, field: fieldIdx, index: catIdx, cat: cat})
			}
			if rng.IntN(2) == 0 && trade.kind != kindPublic && trade.kind != kindReligious {
				p.SocialNetwork = append(p.SocialNetwork, store.SocialLink{Type: "Telegram", Link: "@kardan_" + strconv.Itoa(start+i)})
			}
			profiles = append(profiles, p)
			// About a third of profiles have reviews, mostly good ones, all written after the
			// profile appeared and none after now.
			reviews, ok := demoReviewsByKind[trade.kind]
			if !ok {
				reviews = demoReviewsByKind[kindShop]
			}
			if rng.IntN(3) == 0 {
				for c := 0; c < 1+rng.IntN(8); c++ {
					at := created + int64(rng.IntN(int(max(1, now-created))))
					author := newUser(demoGiven(rng), at-int64(rng.IntN(30*86400)))
					score := []int{5, 5, 5, 4, 4, 4, 3, 2, 1}[rng.IntN(9)]
					bc := store.BulkComment{Profile: len(profiles) - 1, Author: author, Score: score,
						Description: pick(rng, reviews[score-1]), At: at}
					if rng.IntN(4) == 0 {
						bc.Reply = "از لطف شما سپاسگزاریم."
					}
					comments = append(comments, bc)
				}
			}
		}
		if err := pictures.give(ctx, needs); err != nil {
			return n, err
		}
		if err := st.BulkLoadWithImages(ctx, users, profiles, owners, comments, pictures.byAddress()); err != nil {
			return n, err
		}
		n.Users += len(users)
		n.Profiles += len(profiles)
		n.Comments += len(comments)
	}
	n.Pictures = len(pictures.byCat)
	// Each batch was scored with the mean of the scores loaded before it, so the earlier ones sit
	// on an older prior: without this the server's first maintenance, a minute after it starts,
	// rewrote and reindexed about half the profiles (a burst that fell in the middle of whatever a
	// benchmark measured then). The same refresh now leaves nothing for it to change.
	if _, err := st.RefreshLevelScores(ctx); err != nil {
		return n, fmt.Errorf("seed demo: %w", err)
	}
	return n, nil
}

// demoName names a business as its kind is named where it is: a craftsman by surname, a shop or
// restaurant by a brand, a doctor's office by the doctor, a hotel or public office by its city.
func demoName(rng *rand.Rand, kind tradeKind, cat *store.Category, city *store.City, last string, allDay bool) string {
	brand := demoBrand(rng)
	var name string
	switch kind {
	case kindMedical:
		switch {
		case strings.HasPrefix(cat.FarsiName, "متخصص") || strings.HasSuffix(cat.FarsiName, "پزشک") ||
			strings.HasPrefix(cat.FarsiName, "جراح") || cat.Slag == "general-practitioner":
			name = "مطب دکتر " + last + "، " + cat.FarsiName
		case cat.Slag == "pharmacy":
			name = "داروخانه دکتر " + last
		default:
			name = cat.FarsiName + " " + brand
		}
	case kindLodging:
		name = cat.FarsiName + " " + brand + " " + city.FarsiName
	case kindPublic:
		switch cat.Slag {
		case "bank-branch", "atm":
			name = "بانک " + demoBanksFa[rng.IntN(len(demoBanksFa))] + " شعبه " + demoAreasFa[rng.IntN(len(demoAreasFa))] + " " + city.FarsiName
		default:
			name = cat.FarsiName + " " + city.FarsiName + " (" + demoAreasFa[rng.IntN(len(demoAreasFa))] + ")"
		}
	case kindReligious, kindStation:
		name = cat.FarsiName + " " + demoAreasFa[rng.IntN(len(demoAreasFa))] + " " + city.FarsiName
	case kindShop, kindFood, kindLeisure, kindSchool:
		if rng.IntN(3) == 0 {
			name = cat.FarsiName + " " + brand + " " + city.FarsiName
		} else {
			name = cat.FarsiName + " " + brand
		}
	default:
		if rng.IntN(2) == 0 {
			name = cat.FarsiName + " " + last
		} else {
			name = cat.FarsiName + " " + brand
		}
	}
	if allDay {
		name += " (شبانه‌روزی)"
	}
	return name
}

func demoDescription(rng *rand.Rand, kind tradeKind, years int) string {
	ds := demoDescByKind[kind]
	d := ds[rng.IntN(len(ds))]
	if strings.Contains(d, "%d") {
		d = fmt.Sprintf(d, years)
	}
	return persianDigits(d)
}

// demoServicesFor answers the category's own service at the trade's prices, then two or three of
// the trade's services. A range of 0..0 is a service without a price.
func demoServicesFor(rng *rand.Rand, t demoTrade, cat *store.Category) []store.Service {
	price := func(lo, hi int64) int64 {
		if hi <= 0 {
			return 0
		}
		step := int64(50_000)
		if hi >= 10_000_000 {
			step = 500_000
		}
		return lo + int64(rng.IntN(int((hi-lo)/step)+1))*step
	}
	var out []store.Service
	if t.main[1] > 0 {
		out = append(out, store.Service{Title: cat.FarsiName, Price: price(t.main[0], t.main[1]), Description: "بر اساس نوع کار"})
	}
	for _, i := range rng.Perm(len(t.services))[:min(len(t.services), 2+rng.IntN(2))] {
		sv := t.services[i]
		out = append(out, store.Service{Title: sv.title, Price: price(sv.min, sv.max)})
	}
	// Now and then a service named as people search for it (one of the category's other names).
	if len(cat.Synonyms) > 0 && rng.IntN(2) == 0 {
		if syn := cat.Synonyms[rng.IntN(len(cat.Synonyms))]; !isLatinWord(syn) {
			out = append(out, store.Service{Title: syn, Price: price(t.main[0], t.main[1])})
		}
	}
	return out
}

// demoPictures draws and stores one picture per category, the first time a profile needs it.
type demoPictures struct {
	media *media.Processor
	masks emblemMasks
	byCat map[int64]*store.Upload
}

// pictureNeed is a profile waiting for its category's picture.
type pictureNeed struct {
	profile      *store.Profile
	field, index int // the category's place in the tree, which picks its emblem and shade
	cat          *store.Category
}

// give sets each profile's picture, drawing and storing the pictures not made yet several at a
// time: storing one waits for the disk twice (the image and its thumbnail are synced), and a few
// hundred one after another took most of a demo load's time.
func (d *demoPictures) give(ctx context.Context, needs []pictureNeed) error {
	todo := map[int64]pictureNeed{}
	for _, nd := range needs {
		if _, ok := d.byCat[nd.cat.ID]; !ok {
			todo[nd.cat.ID] = nd
		}
	}
	var (
		mu       sync.Mutex
		wg       sync.WaitGroup
		firstErr error
	)
	work := make(chan pictureNeed)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for nd := range work {
				im, err := d.media.Process(ctx, demoPicture(nd.field, nd.index, &d.masks))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("demo picture for %s: %w", nd.cat.Slag, err)
				} else if err == nil {
					d.byCat[nd.cat.ID] = &store.Upload{UploadKey: store.UploadUserTechnical, Address: "/uploads/" + im.Key,
						Thumb: "/uploads/" + im.ThumbKey, SHA256: im.SHA256, Mime: im.Mime, Width: im.Width, Height: im.Height,
						Size: im.Size}
				}
				mu.Unlock()
			}
		}()
	}
	for _, nd := range todo {
		work <- nd
	}
	close(work)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	for _, nd := range needs {
		nd.profile.ProfileImage = d.byCat[nd.cat.ID].Address
	}
	return nil
}

func (d *demoPictures) byAddress() map[string]*store.Upload {
	out := make(map[string]*store.Upload, len(d.byCat))
	for _, u := range d.byCat {
		out[u.Address] = u
	}
	return out
}

// persianDigits writes ASCII digits as Persian ones, as Persian text is written.
func persianDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '۰' + (r - '0')
		}
		return r
	}, s)
}

func pick(rng *rand.Rand, from []string) string { return from[rng.IntN(len(from))] }

func scatter(rng *rand.Rand, lat, long, spread float64) (float64, float64) {
	north := rng.NormFloat64() * spread / 2
	east := rng.NormFloat64() * spread / 2
	dLat := north / store.EarthRadius * 180 / math.Pi
	dLong := east / (store.EarthRadius * math.Cos(lat*math.Pi/180)) * 180 / math.Pi
	la, lo := lat+dLat, long+dLong
	if !store.InIran(la, lo) {
		return lat, long
	}
	return math.Round(la*1e6) / 1e6, math.Round(lo*1e6) / 1e6
}

func uniqueDemoSlug(taken map[string]bool, base, city string) string {
	for _, c := range []string{base, base + "-" + city} {
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
	for i := 2; ; i++ {
		c := base + "-" + city + "-" + strconv.Itoa(i)
		if !taken[c] {
			taken[c] = true
			return c
		}
	}
}
