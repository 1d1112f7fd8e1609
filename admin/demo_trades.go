package admin

import "kardan/store"

// A demo trade's kind decides its week, its name, its description and what its reviewers say.
type tradeKind int

const (
	kindCraft     tradeKind = iota // comes to you: plumber, mechanic, cleaner
	kindShop                       // a counter in a street: grocer, clothes, hardware
	kindMedical                    // a doctor's office, a lab, a pharmacy
	kindFood                       // restaurants, cafés, bakeries
	kindLodging                    // hotels and guest houses: reception round the clock
	kindOffice                     // professionals: lawyer, accountant, agency
	kindPublic                     // government offices and banks: mornings, closed Thursday and Friday
	kindReligious                  // mosques, shrines, libraries
	kindSchool                     // schools, institutes, classes
	kindLeisure                    // cinemas, games, parks: afternoons and evenings, every day
	kindStation                    // fuel stations and terminals: round the clock
)

// demoService is a service a trade offers, with its price range in Toman (0..0: no price shown).
type demoService struct {
	title    string
	min, max int64
}

// demoTrade is what the demo data knows of a field of work.
type demoTrade struct {
	kind     tradeKind
	main     [2]int64 // the price range of the category's own service
	services []demoService
}

// demoTrades holds each field (by slug) with its kind, prices and services.
var demoTrades = map[string]demoTrade{
	"building-services": {kindCraft, [2]int64{400_000, 3_000_000}, []demoService{
		{"بازدید و برآورد هزینه در محل", 200_000, 500_000}, {"خدمات فوری در همان روز", 500_000, 1_500_000},
		{"سرویس دوره‌ای", 600_000, 2_000_000}, {"تعویض قطعه با ضمانت", 800_000, 4_000_000}}},
	"appliance-repair": {kindCraft, [2]int64{350_000, 2_500_000}, []demoService{
		{"عیب‌یابی در محل", 250_000, 450_000}, {"تعویض قطعه اصلی با ضمانت", 900_000, 5_000_000},
		{"سرویس و شستشو", 400_000, 1_200_000}}},
	"cleaning-moving": {kindCraft, [2]int64{800_000, 6_000_000}, []demoService{
		{"نظافت هر ساعت", 180_000, 350_000}, {"بسته‌بندی اثاثیه", 1_500_000, 5_000_000},
		{"خدمات آخر هفته", 1_000_000, 3_000_000}}},
	"vehicles": {kindCraft, [2]int64{300_000, 4_000_000}, []demoService{
		{"عیب‌یابی با دستگاه دیاگ", 300_000, 800_000}, {"سرویس دوره‌ای", 1_200_000, 4_000_000},
		{"تحویل و بازگرداندن خودرو", 300_000, 700_000}, {"ضمانت کتبی تعمیرات", 0, 0}}},
	"health-medical": {kindMedical, [2]int64{250_000, 1_500_000}, []demoService{
		{"ویزیت", 250_000, 900_000}, {"مشاوره تلفنی", 150_000, 500_000}, {"پذیرش بیمه تکمیلی", 0, 0},
		{"نوبت‌دهی اینترنتی", 0, 0}}},
	"beauty": {kindShop, [2]int64{300_000, 4_000_000}, []demoService{
		{"مشاوره رایگان", 0, 0}, {"خدمات عروس", 8_000_000, 40_000_000}, {"رنگ و لایت", 2_000_000, 9_000_000},
		{"کوتاهی", 200_000, 900_000}}},
	"legal": {kindOffice, [2]int64{1_000_000, 8_000_000}, []demoService{
		{"مشاوره حضوری یک ساعته", 800_000, 3_000_000}, {"تنظیم قرارداد", 2_000_000, 10_000_000},
		{"مشاوره تلفنی", 400_000, 1_500_000}}},
	"finance-insurance": {kindOffice, [2]int64{800_000, 6_000_000}, []demoService{
		{"مشاوره اولیه", 0, 0}, {"تنظیم اظهارنامه", 2_000_000, 8_000_000}, {"قرارداد سالانه", 20_000_000, 90_000_000}}},
	"education": {kindSchool, [2]int64{300_000, 2_500_000}, []demoService{
		{"جلسه آزمایشی رایگان", 0, 0}, {"دوره ترمی", 3_000_000, 15_000_000}, {"کلاس آنلاین", 250_000, 1_200_000}}},
	"it-digital": {kindOffice, [2]int64{500_000, 15_000_000}, []demoService{
		{"عیب‌یابی رایگان", 0, 0}, {"پشتیبانی ماهانه", 3_000_000, 15_000_000}, {"خدمات در محل", 600_000, 2_000_000}}},
	"construction": {kindCraft, [2]int64{2_000_000, 40_000_000}, []demoService{
		{"بازدید و برآورد هزینه", 500_000, 2_000_000}, {"طراحی و نقشه", 10_000_000, 80_000_000},
		{"اجرا با مصالح", 0, 0}}},
	"real-estate": {kindOffice, [2]int64{0, 0}, []demoService{
		{"مشاوره خرید و فروش", 0, 0}, {"رهن و اجاره", 0, 0}, {"کارشناسی قیمت", 1_000_000, 5_000_000}}},
	"food": {kindFood, [2]int64{250_000, 1_200_000}, []demoService{
		{"سفارش بیرون‌بر", 200_000, 900_000}, {"ارسال با پیک", 50_000, 150_000}, {"پذیرش مراسم", 0, 0},
		{"منوی روز", 180_000, 600_000}}},
	"events": {kindOffice, [2]int64{5_000_000, 60_000_000}, []demoService{
		{"پکیج کامل مراسم", 30_000_000, 250_000_000}, {"مشاوره و بازدید", 0, 0}, {"خدمات نیم‌روز", 4_000_000, 20_000_000}}},
	"tailoring": {kindShop, [2]int64{400_000, 6_000_000}, []demoService{
		{"دوخت سفارشی", 1_500_000, 12_000_000}, {"اصلاح و کوتاه کردن", 150_000, 600_000}, {"تحویل فوری", 300_000, 800_000}}},
	"sports": {kindLeisure, [2]int64{600_000, 3_000_000}, []demoService{
		{"شهریه ماهانه", 800_000, 4_000_000}, {"جلسه آزمایشی", 0, 0}, {"برنامه تمرینی اختصاصی", 500_000, 2_500_000}}},
	"transport": {kindCraft, [2]int64{500_000, 12_000_000}, []demoService{
		{"حمل درون‌شهری", 600_000, 3_000_000}, {"بیمه بار", 0, 0}, {"کارگر بارگیری", 400_000, 1_500_000}}},
	"printing-advertising": {kindShop, [2]int64{300_000, 8_000_000}, []demoService{
		{"طراحی رایگان با سفارش چاپ", 0, 0}, {"چاپ فوری", 400_000, 2_000_000}, {"ارسال به سراسر کشور", 150_000, 400_000}}},
	"industrial": {kindCraft, [2]int64{1_000_000, 20_000_000}, []demoService{
		{"ساخت سفارشی طبق نقشه", 3_000_000, 50_000_000}, {"تعمیر در محل کارگاه", 1_500_000, 8_000_000},
		{"مشاوره فنی", 0, 0}}},
	"agriculture": {kindCraft, [2]int64{500_000, 8_000_000}, []demoService{
		{"بازدید از باغ و زمین", 500_000, 1_500_000}, {"قرارداد نگهداری فصلی", 5_000_000, 30_000_000},
		{"مشاوره تلفنی", 0, 0}}},
	"child-elderly-care": {kindCraft, [2]int64{250_000, 900_000}, []demoService{
		{"مراقبت شبانه‌روزی (روزانه)", 1_500_000, 3_500_000}, {"مراقبت ساعتی", 150_000, 350_000},
		{"قرارداد ماهانه", 25_000_000, 60_000_000}}},
	"pets": {kindShop, [2]int64{300_000, 2_500_000}, []demoService{
		{"ویزیت در منزل", 800_000, 2_000_000}, {"واکسن", 400_000, 1_200_000}, {"ارسال غذا و لوازم", 80_000, 200_000}}},
	"handicrafts": {kindShop, [2]int64{500_000, 15_000_000}, []demoService{
		{"سفارش ساخت", 2_000_000, 30_000_000}, {"کلاس آموزشی", 800_000, 4_000_000}, {"ارسال به سراسر کشور", 150_000, 400_000}}},
	"furniture": {kindShop, [2]int64{1_000_000, 25_000_000}, []demoService{
		{"اندازه‌گیری در محل رایگان", 0, 0}, {"نصب", 500_000, 3_000_000}, {"فروش اقساطی", 0, 0}}},
	"business-services": {kindOffice, [2]int64{500_000, 10_000_000}, []demoService{
		{"جلسه مشاوره", 1_000_000, 5_000_000}, {"قرارداد ماهانه", 10_000_000, 60_000_000}, {"خدمات فوری", 500_000, 2_000_000}}},
	"security": {kindCraft, [2]int64{800_000, 15_000_000}, []demoService{
		{"بازدید و مشاوره رایگان", 0, 0}, {"نصب و راه‌اندازی", 1_500_000, 8_000_000}, {"قرارداد نگهداری سالانه", 5_000_000, 20_000_000}}},
	"hospitals-clinics": {kindMedical, [2]int64{300_000, 2_000_000}, []demoService{
		{"پذیرش بیمه پایه و تکمیلی", 0, 0}, {"ویزیت پزشک عمومی", 250_000, 600_000}, {"خدمات پرستاری", 150_000, 500_000},
		{"آزمایش و تصویربرداری", 400_000, 3_000_000}}},
	"grocery-food-shops": {kindShop, [2]int64{0, 0}, []demoService{
		{"ارسال رایگان در محله", 0, 0}, {"سفارش تلفنی", 0, 0}, {"پرداخت در محل", 0, 0}}},
	"clothing-shops": {kindShop, [2]int64{0, 0}, []demoService{
		{"تعویض تا هفت روز", 0, 0}, {"ارسال به سراسر کشور", 100_000, 250_000}, {"اصلاح رایگان شلوار", 0, 0}}},
	"jewellery-watches": {kindShop, [2]int64{0, 0}, []demoService{
		{"فاکتور رسمی و ضمانت اصالت", 0, 0}, {"تعمیر و سفارش ساخت", 500_000, 5_000_000}, {"خرید طلای کهنه", 0, 0}}},
	"electronics-shops": {kindShop, [2]int64{0, 0}, []demoService{
		{"گارانتی معتبر", 0, 0}, {"فروش اقساطی", 0, 0}, {"نصب رایگان", 0, 0}, {"ارسال در شهر", 100_000, 300_000}}},
	"hardware-shops": {kindShop, [2]int64{0, 0}, []demoService{
		{"فروش عمده و جزئی", 0, 0}, {"ارسال با وانت", 300_000, 1_000_000}, {"مشاوره فنی رایگان", 0, 0}}},
	"other-shops": {kindShop, [2]int64{0, 0}, []demoService{
		{"بسته‌بندی هدیه", 50_000, 200_000}, {"سفارش اینترنتی", 0, 0}, {"ارسال در شهر", 80_000, 200_000}}},
	"hotels-accommodation": {kindLodging, [2]int64{1_500_000, 9_000_000}, []demoService{
		{"اتاق دو تخته (هر شب)", 1_800_000, 8_000_000}, {"صبحانه", 0, 0}, {"ترانسفر فرودگاه", 500_000, 1_500_000},
		{"پارکینگ رایگان", 0, 0}}},
	"banks": {kindPublic, [2]int64{0, 0}, []demoService{
		{"افتتاح حساب", 0, 0}, {"صدور کارت", 0, 0}, {"پرداخت تسهیلات", 0, 0}}},
	"government-offices": {kindPublic, [2]int64{0, 0}, []demoService{
		{"نوبت‌دهی اینترنتی", 0, 0}, {"پاسخ‌گویی تلفنی", 0, 0}, {"پیگیری پرونده", 0, 0}}},
	"religious-cultural": {kindReligious, [2]int64{0, 0}, []demoService{
		{"برگزاری مراسم", 0, 0}, {"کلاس‌های فرهنگی", 0, 0}, {"بازدید گروهی", 0, 0}}},
	"entertainment": {kindLeisure, [2]int64{200_000, 1_500_000}, []demoService{
		{"بلیت هر نفر", 150_000, 900_000}, {"رزرو گروهی", 0, 0}, {"جشن تولد", 3_000_000, 15_000_000}}},
	"fuel-parking": {kindStation, [2]int64{0, 0}, []demoService{
		{"کارت سوخت اضطراری", 0, 0}, {"فروشگاه و سرویس بهداشتی", 0, 0}, {"باد لاستیک", 0, 0}}},
	"machinery-hire": {kindCraft, [2]int64{3_000_000, 25_000_000}, []demoService{
		{"اجاره ساعتی", 1_500_000, 6_000_000}, {"اجاره روزانه با راننده", 10_000_000, 40_000_000},
		{"حمل به محل کار", 2_000_000, 8_000_000}}},
	"schools": {kindSchool, [2]int64{0, 0}, []demoService{
		{"ثبت‌نام سال تحصیلی", 0, 0}, {"سرویس رفت و آمد", 0, 0}, {"کلاس‌های فوق برنامه", 1_000_000, 6_000_000}}},
	"media": {kindOffice, [2]int64{1_000_000, 20_000_000}, []demoService{
		{"پکیج تبلیغاتی", 5_000_000, 40_000_000}, {"جلسه مشاوره", 0, 0}, {"تحویل فوری", 1_000_000, 5_000_000}}},
}

// roundTheClock are the categories (by slug) a business may keep open day and night: a demo name
// says "۲۴ ساعته" only for these, and then its week says so too.
var roundTheClock = map[string]bool{
	"pharmacy": true, "towing": true, "locksmith": true, "drain-septic-services": true, "taxi-service": true,
	"hospital": true, "emergency-clinic": true, "private-ambulance": true, "emergency-vet": true, "petrol-station": true,
	"cng-station": true, "car-park": true, "hotel": true, "apartment-hotel": true, "guest-house": true, "motel": true,
	"fast-food": true, "courier": true, "home-nursing": true, "bus-terminal": true, "maternity-hospital": true,
	"tyres": true, "elderly-caregiver": true, "supermarket": true,
}

// demoHoursFor answers a week that fits the trade, varied a little per business.
func demoHoursFor(kind tradeKind, slug string, pick func(int) int) store.Hours {
	h := store.Hours{}
	week := func(f func(day string) store.DayHours) {
		for _, d := range store.Weekdays {
			h[d] = f(d)
		}
	}
	slots := func(pairs ...int) store.DayHours {
		d := store.DayHours{Time: []store.Slot{}}
		for i := 0; i+1 < len(pairs); i += 2 {
			d.Time = append(d.Time, store.Slot{Open: pairs[i], Close: pairs[i+1]})
		}
		return d
	}
	closed := store.DayHours{Closed: true, Time: []store.Slot{}}
	const hr = 3600
	switch kind {
	case kindLodging, kindStation:
		week(func(string) store.DayHours { return store.DayHours{Boarding: true, Time: []store.Slot{}} })
	case kindCraft:
		open := (7 + pick(3)) * hr
		week(func(d string) store.DayHours {
			switch d {
			case "friday":
				return closed
			case "thursday":
				return slots(open, 14*hr)
			}
			return slots(open, 13*hr, 16*hr, 20*hr)
		})
	case kindShop:
		open := 9*hr + pick(3)*1800
		week(func(d string) store.DayHours {
			if d == "friday" {
				if slug == "supermarket" || slug == "greengrocer" || slug == "bakery" {
					return slots(9*hr, 13*hr)
				}
				return closed
			}
			return slots(open, 13*hr+1800, 16*hr+1800, 21*hr+1800)
		})
	case kindMedical:
		if slug == "pharmacy" || slug == "medical-laboratory" || slug == "radiology" || slug == "clinic" {
			week(func(d string) store.DayHours {
				if d == "friday" {
					return slots(9*hr, 13*hr)
				}
				return slots(8*hr, 22*hr)
			})
			break
		}
		// A doctor's office: afternoons, a morning on some days.
		morning := pick(2) == 0
		week(func(d string) store.DayHours {
			switch d {
			case "friday":
				return closed
			case "thursday":
				return slots(9*hr, 13*hr)
			}
			if morning && (d == "saturday" || d == "monday") {
				return slots(9*hr, 13*hr, 16*hr, 20*hr)
			}
			return slots(16*hr, 21*hr)
		})
	case kindFood:
		switch slug {
		case "bakery", "pastry-shop":
			week(func(string) store.DayHours { return slots(6*hr, 13*hr, 16*hr, 20*hr) })
		case "haleem":
			week(func(string) store.DayHours { return slots(5*hr+1800, 11*hr) })
		case "kebab-house", "liver-kebab":
			week(func(string) store.DayHours { return slots(5*hr, 11*hr, 18*hr, 23*hr) })
		case "cafe", "coffee-roastery", "juice-bar", "cafe-restaurant":
			week(func(string) store.DayHours { return slots(9*hr, 23*hr+1800) })
		case "confectionery":
			week(func(string) store.DayHours { return slots(8*hr, 22*hr) })
		default:
			week(func(string) store.DayHours { return slots(12*hr, 16*hr, 19*hr, 23*hr+1800) })
		}
	case kindOffice:
		week(func(d string) store.DayHours {
			switch d {
			case "friday":
				return closed
			case "thursday":
				return slots(9*hr, 13*hr)
			}
			return slots(8*hr+1800, 17*hr)
		})
	case kindPublic:
		close := 14*hr + 1800
		if slug == "bank-branch" || slug == "post-bank" || slug == "insurance-branch" || slug == "credit-institution" {
			close = 13*hr + 1800
		}
		if slug == "atm" {
			week(func(string) store.DayHours { return store.DayHours{Boarding: true, Time: []store.Slot{}} })
			break
		}
		week(func(d string) store.DayHours {
			if d == "thursday" || d == "friday" {
				return closed
			}
			return slots(7*hr+1800, close)
		})
	case kindReligious:
		week(func(string) store.DayHours { return slots(5*hr, 14*hr, 16*hr, 22*hr) })
	case kindSchool:
		week(func(d string) store.DayHours {
			if d == "friday" {
				return closed
			}
			if d == "thursday" {
				return slots(8*hr, 13*hr)
			}
			return slots(8*hr, 20*hr)
		})
	case kindLeisure:
		week(func(d string) store.DayHours {
			if d == "thursday" || d == "friday" {
				return slots(10*hr, 23*hr+1800)
			}
			return slots(14*hr, 23*hr)
		})
	}
	return h
}

// Names, descriptions and reviews by kind.
var (
	demoDescByKind = map[tradeKind][]string{
		kindCraft: {
			"با بیش از %d سال سابقه، کار تمیز و ضمانت‌دار در کوتاه‌ترین زمان.",
			"مشاوره رایگان، قیمت منصفانه و پاسخ‌گویی سریع؛ %d سال تجربه در این حرفه.",
			"تیم مجرب با %d سال سابقه، بازدید در محل و فاکتور رسمی.",
		},
		kindShop: {
			"%d سال است که با کالای اصل و قیمت مناسب در خدمت همشهریان هستیم.",
			"تنوع بالا، فاکتور رسمی و ارسال در شهر؛ بیش از %d سال سابقه.",
		},
		kindMedical: {
			"پذیرش با نوبت قبلی و بیمه‌های تکمیلی؛ %d سال سابقه درمان.",
			"محیطی آرام و تجهیزات به‌روز، با %d سال تجربه.",
		},
		kindFood: {
			"غذای تازه با مواد اولیه مرغوب، هر روز از %d سال پیش تا امروز.",
			"طعم اصیل و محیطی دنج؛ %d سال پذیرایی از مهمانان.",
		},
		kindLodging: {
			"اتاق‌های تمیز، پذیرش شبانه‌روزی و دسترسی آسان به مراکز دیدنی؛ %d سال میزبانی مسافران.",
			"صبحانه رایگان، پارکینگ و اینترنت؛ %d سال سابقه پذیرایی.",
		},
		kindOffice: {
			"مشاوره تخصصی و پاسخ‌گویی دقیق با %d سال سابقه.",
			"همراه شما از اولین جلسه تا نتیجه؛ %d سال تجربه.",
		},
		kindPublic: {
			"پاسخ‌گویی به مراجعان در ساعات اداری؛ لطفاً مدارک لازم را همراه داشته باشید.",
			"ارائه خدمات با نوبت اینترنتی و حضوری.",
		},
		kindReligious: {
			"برگزاری نماز جماعت، مراسم و کلاس‌های فرهنگی.",
			"پذیرای همه مراجعان در ساعات باز بودن.",
		},
		kindSchool: {
			"کادر مجرب و کلاس‌های کم‌جمعیت؛ %d سال سابقه آموزش.",
			"ثبت‌نام در تمام طول سال با جلسه آزمایشی؛ %d سال تجربه.",
		},
		kindLeisure: {
			"محیطی شاد و امن برای همه سنین؛ %d سال سابقه.",
			"رزرو گروهی و جشن تولد؛ بیش از %d سال در خدمت شما.",
		},
		kindStation: {
			"خدمات شبانه‌روزی در تمام روزهای سال.",
			"دسترسی آسان، فروشگاه و سرویس بهداشتی.",
		},
	}
	// demoReviewsByKind holds review texts per kind by score (index 0 for a score of 1).
	demoReviewsByKind = map[tradeKind][5][]string{
		kindCraft: {
			{"اصلاً راضی نبودم، کار نیمه‌کاره ماند.", "دیر آمدند و کار را درست انجام ندادند."},
			{"قیمت بالا بود و کیفیت کار معمولی.", "برخورد خوب بود ولی کار دوباره خراب شد."},
			{"متوسط بود.", "کار انجام شد ولی کمی دیر آمدند."},
			{"راضی بودم، پیشنهاد می‌کنم.", "قیمت مناسب و برخورد خوب."},
			{"کارشان عالی بود، ممنونم.", "سر وقت آمدند و تمیز کار کردند.", "بسیار حرفه‌ای و دقیق."},
		},
		kindShop: {
			{"جنس را عوض نکردند.", "برخورد فروشنده خوب نبود."},
			{"قیمت‌ها بالاتر از جاهای دیگر بود.", "تنوع کم بود."},
			{"معمولی بود.", "جنسش خوب بود ولی شلوغ بود."},
			{"تنوع خوب و قیمت مناسب.", "فروشنده با حوصله راهنمایی کرد."},
			{"همه چیز عالی بود، باز هم خرید می‌کنم.", "جنس اصل و برخورد محترمانه.", "ارسال سریع بود، ممنون."},
		},
		kindMedical: {
			{"با وجود نوبت، دو ساعت منتظر ماندم.", "وقت کافی برای توضیح نگذاشتند."},
			{"منشی بی‌حوصله بود.", "هزینه بالا بود."},
			{"متوسط بود.", "خوب بود ولی انتظار طولانی بود."},
			{"دکتر با حوصله توضیح دادند.", "محیط تمیز و منظم."},
			{"بسیار دقیق و دلسوز، ممنونم.", "درمانم نتیجه داد، عالی بودند.", "برخورد کادر عالی بود."},
		},
		kindFood: {
			{"غذا سرد بود و دیر رسید.", "کیفیت افت کرده است."},
			{"حجم غذا کم بود.", "قیمت نسبت به کیفیت بالا بود."},
			{"معمولی بود.", "غذا خوب بود ولی سرویس کند بود."},
			{"خوش‌طعم و تازه.", "محیط دلنشین و قیمت مناسب."},
			{"بهترین غذای شهر!", "همه چیز عالی بود، حتماً دوباره می‌آییم.", "پرسنل بسیار مؤدب."},
		},
		kindLodging: {
			{"اتاق تمیز نبود.", "سروصدا زیاد بود و نخوابیدیم."},
			{"قیمت بالا برای این امکانات.", "صبحانه ضعیف بود."},
			{"معمولی بود.", "موقعیت خوب ولی اتاق کوچک."},
			{"تمیز و آرام، پیشنهاد می‌کنم.", "پرسنل پذیرش خوش‌برخورد بودند."},
			{"اقامت عالی بود، ممنونیم.", "تمیز، دلباز و نزدیک به همه جا.", "صبحانه عالی و پرسنل مهربان."},
		},
	}
)
