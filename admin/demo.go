package admin

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

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
}

// DemoCounts says what a demo load made.
type DemoCounts struct {
	Users, Profiles, Comments int
}

var (
	demoFirstFa = []string{"علی", "محمد", "حسین", "رضا", "مهدی", "امیر", "سعید", "مریم", "زهرا", "فاطمه", "سارا", "نرگس",
		"حمید", "مجید", "نیما", "پریسا", "الهام", "کاوه", "بهرام", "شیرین", "یاسمن", "آرش", "بابک", "لیلا", "هادی", "جواد"}
	demoLastFa = []string{"احمدی", "محمدی", "حسینی", "رضایی", "کریمی", "موسوی", "جعفری", "صادقی", "رحیمی", "قاسمی",
		"تهرانی", "شیرازی", "اصفهانی", "تبریزی", "مرادی", "نوروزی", "کاظمی", "یزدانی", "فرهادی", "سلیمانی", "عباسی", "نجفی"}
	demoTagsFa = []string{"", "", "", " پارسیان", " نوین", " ممتاز", " برتر", " ستاره", " امید", " مهر", " ۲۴ ساعته"}
	demoDescFa = []string{
		"با بیش از %d سال سابقه، کار تمیز و ضمانت‌دار در کوتاه‌ترین زمان.",
		"مشاوره رایگان، قیمت منصفانه و پاسخ‌گویی سریع؛ %d سال تجربه در این حرفه.",
		"تیم مجرب با %d سال سابقه، بازدید در محل و فاکتور رسمی.",
		"خدمات تخصصی با ابزار به‌روز و %d سال تجربه؛ رضایت شما اولویت ماست.",
	}
	demoServicesFa = []string{"بازدید و مشاوره در محل", "خدمات فوری", "سرویس دوره‌ای", "نصب و راه‌اندازی", "تعمیر و نگهداری",
		"پشتیبانی تلفنی", "خدمات اقساطی", "قرارداد سالانه"}
	// demoCommentsFa holds comment texts by score (index 0 for a score of 1), so words and stars agree.
	demoCommentsFa = [5][]string{
		{"اصلاً راضی نبودم، کار نیمه‌کاره ماند.", "دیر آمدند و کار را درست انجام ندادند."},
		{"قیمت بالا بود و کیفیت کار معمولی.", "برخورد خوب بود ولی کار دوباره خراب شد."},
		{"متوسط بود.", "کار انجام شد ولی کمی دیر آمدند."},
		{"راضی بودم، پیشنهاد می‌کنم.", "قیمت مناسب و برخورد خوب.", "کمی دیر آمدند ولی کار خوب بود."},
		{"کارشان عالی بود، ممنونم.", "سر وقت آمدند و تمیز کار کردند.", "بسیار حرفه‌ای و دقیق."},
	}
	demoAreasFa = []string{"شمال شهر", "مرکز شهر", "جنوب شهر", "غرب شهر", "شرق شهر", "حومه"}
)

// SeedDemo fills the store with realistic demo profiles: owners with Persian names, real cities
// weighted towards the large ones with points scattered around their centres, categories,
// services with Toman prices, working hours, contact ways, and comments with scores. Every
// profile is Accepted, so it is searchable once indexed.
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
	// Bigger cities get more professionals: Tehran most, then the provincial capitals.
	weights := make([]float64, len(cities))
	var total float64
	for i, c := range cities {
		w := 1.0
		switch {
		case c.Slag == "tehran":
			w = 400
		case c.Capital:
			w = 40
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
	var seq int // every demo account gets the next number: 099 and eight digits
	if err := st.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM users`).Scan(&seq); err != nil {
		return n, err
	}

	const chunk = 10000
	now := opt.Now.Unix()
	for start := 0; start < opt.Profiles; start += chunk {
		size := min(chunk, opt.Profiles-start)
		users := make([]*store.User, 0, 2*size)
		profiles := make([]*store.Profile, 0, size)
		owners := make([]int, 0, size)
		var comments []store.BulkComment
		newUser := func(name string, at int64) int {
			seq++
			users = append(users, &store.User{NumberPhone: fmt.Sprintf("099%08d", seq), Name: name,
				PasswordHash: opt.PasswordHash, CreateAt: at, UpdateAt: now})
			return len(users) - 1
		}
		for i := 0; i < size; i++ {
			first, last := demoFirstFa[rng.IntN(len(demoFirstFa))], demoLastFa[rng.IntN(len(demoLastFa))]
			owner := users[newUser(first+" "+last, now-int64(rng.IntN(3*365*86400)))]
			owners = append(owners, len(users)-1)
			field := tree.Roots[rng.IntN(len(tree.Roots))]
			cat := field.Children[rng.IntN(len(field.Children))]
			cats := []int64{cat.ID}
			var catRefs = []*store.Category{cat}
			if rng.IntN(3) == 0 && len(field.Children) > 1 {
				other := field.Children[rng.IntN(len(field.Children))]
				if other.ID != cat.ID {
					cats = append(cats, other.ID)
					catRefs = append(catRefs, other)
				}
			}
			city := pickCity()
			prov := provByID[city.ProvinceID]
			name := cat.FarsiName + " " + last + demoTagsFa[rng.IntN(len(demoTagsFa))]
			years := 1 + rng.IntN(30)
			// Points scatter around the centre, about 3 km for a town and 8 km for Tehran.
			spread := 3000.0
			if city.Slag == "tehran" {
				spread = 8000
			}
			lat, long := scatter(rng, city.Lat, city.Long, spread)
			created := now - int64(rng.IntN(2*365*86400))
			slug := uniqueDemoSlug(taken, store.Slugify(name), city.Slag)
			refs := &store.ProfileRefs{Field: field, Categories: catRefs, City: city, Province: prov}
			p := &store.Profile{
				RangeWorkerID: field.ID, ProvinceID: prov.ID, CityID: city.ID, CategoryIDs: cats,
				ProfileName: name, Slug: slug, KeyWord: store.KeyWord(name, refs), WorkHistoryYears: years,
				Descriotion: persianDigits(fmt.Sprintf(demoDescFa[rng.IntN(len(demoDescFa))], years)),
				Address:     city.FarsiName + "، " + demoAreasFa[rng.IntN(len(demoAreasFa))],
				Lat:         lat, Long: long, AccountStatus: store.StatusAccepted, Active: true, Display: true,
				Services: demoServices(rng, cat), HoursOfWork: demoHours(rng),
				SocialNetwork:   []store.SocialLink{{Type: "mobile", Link: owner.NumberPhone}},
				AreaWorking:     []string{demoAreasFa[rng.IntN(len(demoAreasFa))]},
				PortfolioImages: []string{}, Option: []string{}, ListObject: []byte("[]"),
				CreateAt: created, UpdateAt: created,
			}
			if rng.IntN(2) == 0 {
				p.SocialNetwork = append(p.SocialNetwork, store.SocialLink{Type: "Telegram", Link: "@kardan_" + strconv.Itoa(start+i)})
			}
			profiles = append(profiles, p)
			// About a third of profiles have comments, mostly good ones.
			if rng.IntN(3) == 0 {
				for c := 0; c < 1+rng.IntN(8); c++ {
					author := newUser(demoFirstFa[rng.IntN(len(demoFirstFa))], now)
					score := []int{5, 5, 5, 4, 4, 4, 3, 2, 1}[rng.IntN(9)]
					bc := store.BulkComment{Profile: len(profiles) - 1, Author: author, Score: score,
						Description: pick(rng, demoCommentsFa[score-1]), At: created + int64(rng.IntN(300*86400))}
					if rng.IntN(4) == 0 {
						bc.Reply = "از لطف شما سپاسگزاریم."
					}
					comments = append(comments, bc)
				}
			}
		}
		if err := st.BulkLoad(ctx, users, profiles, owners, comments); err != nil {
			return n, err
		}
		n.Users += len(users)
		n.Profiles += len(profiles)
		n.Comments += len(comments)
	}
	return n, nil
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

func demoServices(rng *rand.Rand, cat *store.Category) []store.Service {
	out := []store.Service{{Title: cat.FarsiName, Price: int64(5+rng.IntN(60)) * 50000, Description: "بر اساس نوع کار"}}
	for i := 0; i < 1+rng.IntN(3); i++ {
		price := int64(rng.IntN(40)) * 50000
		if rng.IntN(4) == 0 {
			price = 0
		}
		out = append(out, store.Service{Title: demoServicesFa[rng.IntN(len(demoServicesFa))], Price: price})
	}
	return out
}

func demoHours(rng *rand.Rand) store.Hours {
	h := store.Hours{}
	switch rng.IntN(5) {
	case 0: // round the clock
		for _, d := range store.Weekdays {
			h[d] = store.DayHours{Boarding: true, Time: []store.Slot{}}
		}
	default:
		open := (7 + rng.IntN(3)) * 3600
		for _, d := range store.Weekdays {
			switch {
			case d == "friday":
				h[d] = store.DayHours{Closed: true, Time: []store.Slot{}}
			case d == "thursday":
				h[d] = store.DayHours{Time: []store.Slot{{Open: open, Close: 13 * 3600}}}
			default:
				h[d] = store.DayHours{Time: []store.Slot{{Open: open, Close: 13 * 3600}, {Open: 16 * 3600, Close: 20*3600 + 1800}}}
			}
		}
	}
	return h
}
