package admin

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"kardan/store"
)

// The demo data's vocabulary. A directory's text is mostly rare words: owners' surnames, street
// and neighbourhood names, brands, and each business's own way of describing its work; only the
// trades' names are common. With a few dozen names and one sentence per kind of trade, 100,000
// profiles held about 2,100 distinct words and a tenth of the queries matched a fifth of all
// profiles, which flatters bitmap search (issue #25). Here names come from lists of common
// Iranian given names and surnames (and surnames formed the way Iranian surnames are, from a
// root and a suffix: -ی, -زاده, -پور, -نیا, -فر, -راد, -نژاد, -یان), drawn with a long tail
// (a few names are very common, most are rare), and descriptions are composed from a business's
// specialities, features, streets and landmarks.

var (
	demoGivenMale = strings.Fields(`علی محمد حسین رضا مهدی امیر سعید حمید مجید نیما کاوه بهرام آرش بابک هادی جواد
		حسن احمد مصطفی مرتضی محسن مسعود مهران مهرداد فرهاد فرشید فرزاد کامران کیوان پیمان پویا پارسا آرمان آرین
		سینا سجاد صادق عباس عبدالله عرفان عماد فرید قاسم کریم کمال مازیار محمدرضا محمدعلی امیرحسین علیرضا حمیدرضا
		غلامرضا ناصر نادر وحید یاسر یوسف یونس ابراهیم اسماعیل اکبر اصغر بهزاد بهمن بیژن پرویز جمشید داریوش داوود
		رامین رسول روزبه سامان سیاوش شاهین شهرام طاهر عادل عزیز فرامرز فریدون کوروش مرتضی منصور منوچهر میلاد
		نوید هومن هوشنگ یزدان ایمان احسان اشکان افشین امید بردیا بنیامین تیمور جلال حامد خسرو دانیال رحیم سهیل
		شهاب صالح عارف کاظم مجتبی مسلم معین موسی هاشم`)
	demoGivenFemale = strings.Fields(`مریم زهرا فاطمه سارا نرگس پریسا الهام شیرین یاسمن لیلا معصومه زینب سمیه
		مینا مهسا مهناز نازنین نسرین نگار نیلوفر هانیه هستی آزاده آناهیتا آیدا اعظم افسانه الناز بهاره پرستو
		پروانه ترانه رویا ریحانه زری ژاله سپیده ستاره سمانه سوسن سیما شبنم شهلا صدف طاهره عاطفه فرشته فریبا
		فرزانه کبری کتایون گلاره گلناز لادن محبوبه مرضیه منیژه مهتاب مهری میترا نادیا ندا نیوشا هاله هما`)
	// Common Iranian surnames, most common first.
	demoSurnames = strings.Fields(`محمدی حسینی احمدی رضایی موسوی کریمی جعفری صادقی رحیمی قاسمی مرادی نوروزی
		کاظمی حیدری اکبری سلیمانی عباسی نجفی ملکی شریفی یزدانی فرهادی رستمی میرزایی صالحی کرمی اسدی باقری امیری
		هاشمی نظری طاهری قربانی زارعی سلطانی خسروی عزیزی یوسفی بهرامی ابراهیمی فتحی کیانی مختاری نصیری جمالی
		زمانی پاکزاد افشار مشایخی توکلی دهقانی سبحانی مهدوی شجاعی اسماعیلی وحیدی علوی بابایی حیدرزاده رحمانی
		فراهانی خلیلی منصوری نیکخواه سعیدی انصاری قنبری عسگری غفاری پورمحمد حسن‌زاده کاظم‌پور علی‌نژاد
		رضازاده نادری روحانی بیگی طالبی آقایی یگانه مقدم نوری آزادی ستاری فاضلی رنجبر
		آهنگر نجار زرگر بنا عطار خیاط صباغ نقاش`)
	// Roots that Iranian surnames are formed from with a suffix (none names a city).
	demoSurnameRoots = strings.Fields(`حسن حسین علی محمد رضا کریم رحیم جعفر قاسم اکبر اصغر عباس مهدی تقی نقی
		باقر صادق کاظم ابراهیم اسماعیل یوسف موسی یحیی عیسی داوود سلیمان نصر فتح مهر نیک پاک شاد آزاد فرخ
		خرم بهار گل سبز سپید روشن امین ولی شفیع رفیع سمیع حبیب لطف شکر زر سیم آهن دل جان بخت`)
	demoSurnameSuffix = []string{"ی", "‌زاده", "‌پور", "‌نیا", "‌فر", "‌راد", "‌نژاد", "یان", "‌وند", "‌خانی"}

	// Brands and shop names.
	demoBrandWords = strings.Fields(`پارس نوین ممتاز برتر ستاره امید مهر آریا سپهر البرز نگین آفتاب پردیس
		ارغوان بهار سپید کوثر رویال آسمان نیک پیشرو یاس الماس زمرد یاقوت مروارید صدف کیان
		آرتا آوین ایرانیان زاگرس سبلان خلیج کارون هیرمند اروند تیسفون پاسارگاد هخامنش
		کورش سیمرغ ققنوس هما شقایق لاله نرگس نسترن یاسمن سوسن بنفشه اطلس دیبا حریر ترمه بوستان
		باران شبنم نسیم سحر مهتاب افق کهکشان ثریا پروین ناهید ونوس رز بید بلوط نارون
		اقاقیا یکتا یگانه برنا رادین آیریک تارا آرنیکا آرامیس نیلا سانیا رایان دانا توانا کارآفرین
		پیشتاز پویا نوآوران هنرمندان فردا امروز نوبهار`)

	// Streets, neighbourhoods and landmarks of a description or an area.
	demoStreetKinds = []string{"خیابان", "بلوار", "کوچه", "میدان", "چهارراه", "بزرگراه", "بازارچه", "پاساژ"}
	demoStreetNames = strings.Fields(`آزادی انقلاب امام ولیعصر جمهوری فاطمی مطهری طالقانی شریعتی
		بهشتی مدرس نواب سعدی حافظ فردوسی مولوی خیام عطار نظامی جامی رودکی باباطاهر کمال‌الملک ستارخان
		باهنر رجایی چمران همت باکری زینبیه بسیج پاسداران نیروی‌هوایی فرهنگ دانشگاه دانشجو معلم کارگر
		استقلال آزادگان ایثار شهدا بهار گلها لاله نسترن صنعت بازار ساحلی کوهسنگی وکیل‌آباد قدس`)
	demoPlaceKinds = []string{"محله", "شهرک", "کوی", "نزدیک پارک", "روبروی مسجد", "جنب بانک", "نبش کوچه",
		"کنار ایستگاه مترو", "پشت بیمارستان", "جنب مدرسه", "روبروی پاساژ", "نزدیک بازار"}

	// What a business says of itself, beside its trade: a few of these per description.
	demoFeatures = strings.Fields(`پرداخت‌با‌کارتخوان مشاوره‌تلفنی‌رایگان پارکینگ‌اختصاصی ارسال‌به‌سراسر‌کشور
		نوبت‌دهی‌اینترنتی پذیرش‌بیمه فاکتور‌رسمی ضمانت‌کتبی قیمت‌مقطوع تخفیف‌دانشجویی تخفیف‌بازنشستگان
		پشتیبانی‌پس‌از‌فروش خدمات‌اقساطی تحویل‌در‌محل کادر‌خانم کادر‌آقا زبان‌انگلیسی زبان‌ترکی زبان‌کردی
		زبان‌عربی دسترسی‌ویلچر آسانسور فضای‌سبز اتاق‌انتظار اینترنت‌رایگان سالن‌کودک نمازخانه کافی‌شاپ
		تجهیزات‌آلمانی تجهیزات‌ایتالیایی مواد‌اولیه‌ایرانی کالای‌وارداتی تولید‌داخلی محصولات‌ارگانیک
		بسته‌بندی‌بهداشتی کار‌با‌مجوز‌رسمی عضو‌اتحادیه عضو‌نظام‌مهندسی دارای‌پروانه‌کسب کارشناس‌رسمی
		بازدید‌رایگان برآورد‌رایگان پاسخ‌گویی‌شبانه خدمات‌تعطیلات سرویس‌دوره‌ای قرارداد‌سالانه
		آموزش‌رایگان مشاوره‌حضوری نمونه‌کار‌موجود رضایت‌مشتری تحویل‌سریع کیفیت‌تضمینی`)
	demoOpenings = []string{"با %d سال سابقه", "بیش از %d سال تجربه", "از سال‌ها پیش", "کسب‌وکاری خانوادگی",
		"زیر نظر مدیریت جدید", "با کادری مجرب", "تازه افتتاح شده", "با %d سال حضور در این محله",
		"شعبه دوم ما", "با همکاری متخصصان", "با بیش از %d سال فعالیت در شهر"}
	demoClosings = []string{"منتظر تماس شما هستیم.", "برای هماهنگی تماس بگیرید.", "رضایت شما هدف ماست.",
		"به ما اعتماد کنید.", "پاسخ‌گوی سؤالات شما هستیم.", "با ما در ارتباط باشید.", "", ""}
)

// longTail picks an index of a list ordered by how common its items are: the first few often,
// every one sometimes (a power law, as names are spread in a population).
func longTail(rng *rand.Rand, n int) int {
	return min(n-1, int(float64(n)*math.Pow(rng.Float64(), 2.2)))
}

// demoGiven answers a given name, men and women alike.
func demoGiven(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return demoGivenFemale[longTail(rng, len(demoGivenFemale))]
	}
	return demoGivenMale[longTail(rng, len(demoGivenMale))]
}

// demoSurname answers a surname: a common one half the time, otherwise one formed from a root
// and a suffix (rarer, and so the long tail of a real directory's names).
func demoSurname(rng *rand.Rand) string {
	if rng.IntN(2) == 0 {
		return demoSurnames[longTail(rng, len(demoSurnames))]
	}
	root := demoSurnameRoots[rng.IntN(len(demoSurnameRoots))]
	suffix := demoSurnameSuffix[longTail(rng, len(demoSurnameSuffix))]
	if strings.HasSuffix(root, "ی") && suffix == "ی" {
		suffix = "‌زاده"
	}
	return root + suffix
}

// demoBrand answers a brand: one word, sometimes two.
func demoBrand(rng *rand.Rand) string {
	b := demoBrandWords[longTail(rng, len(demoBrandWords))]
	if rng.IntN(4) == 0 {
		b += " " + demoBrandWords[rng.IntN(len(demoBrandWords))]
	}
	return b
}

// demoStreet answers a street, square or arcade ("خیابان شهید رضازاده", "بلوار سعدی").
func demoStreet(rng *rand.Rand) string {
	kind := demoStreetKinds[longTail(rng, len(demoStreetKinds))]
	switch rng.IntN(3) {
	case 0:
		return kind + " شهید " + demoSurname(rng)
	case 1:
		return kind + " " + demoGiven(rng)
	}
	return kind + " " + demoStreetNames[rng.IntN(len(demoStreetNames))]
}

// demoArea answers the part of town a business works in.
func demoArea(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return demoAreasFa[rng.IntN(len(demoAreasFa))]
	}
	place := demoPlaceKinds[rng.IntN(len(demoPlaceKinds))]
	if rng.IntN(2) == 0 {
		return place + " " + demoStreetNames[rng.IntN(len(demoStreetNames))]
	}
	return place + " " + demoBrandWords[rng.IntN(len(demoBrandWords))]
}

// demoSpecialities answers a few things the business does: the category's own other names, its
// neighbours in the field, and the trade's services.
func demoSpecialities(rng *rand.Rand, t demoTrade, field, cat *store.Category) []string {
	var pool []string
	for _, s := range cat.Synonyms {
		if !isLatinWord(s) {
			pool = append(pool, s)
		}
	}
	for _, c := range field.Children {
		if c.ID != cat.ID && rng.IntN(4) == 0 {
			pool = append(pool, c.FarsiName)
		}
	}
	for _, s := range t.services {
		pool = append(pool, s.title)
	}
	if len(pool) == 0 {
		return nil
	}
	n := min(len(pool), 1+rng.IntN(3))
	out := make([]string, 0, n)
	for _, i := range rng.Perm(len(pool))[:n] {
		out = append(out, pool[i])
	}
	return out
}

func isLatinWord(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// demoRichDescription composes a business's own description: an opening, its specialities, a
// few features, where it is, and sometimes a closing line.
func demoRichDescription(rng *rand.Rand, kind tradeKind, t demoTrade, field, cat *store.Category, years int) string {
	var b strings.Builder
	b.WriteString(demoDescription(rng, kind, years))
	if sp := demoSpecialities(rng, t, field, cat); len(sp) > 0 {
		open := demoOpenings[rng.IntN(len(demoOpenings))]
		if strings.Contains(open, "%d") {
			open = strings.Replace(open, "%d", persianDigits(strconv.Itoa(years)), 1)
		}
		b.WriteString(" " + open + "، " + strings.Join(sp, "، ") + ".")
	}
	var feats []string
	for _, i := range rng.Perm(len(demoFeatures))[:1+rng.IntN(3)] {
		feats = append(feats, strings.ReplaceAll(demoFeatures[i], "‌", " "))
	}
	b.WriteString(" " + strings.Join(feats, "، ") + ".")
	if rng.IntN(2) == 0 {
		b.WriteString(" نشانی: " + demoStreet(rng) + "، " + demoArea(rng) + ".")
	}
	if c := demoClosings[rng.IntN(len(demoClosings))]; c != "" {
		b.WriteString(" " + c)
	}
	return b.String()
}
