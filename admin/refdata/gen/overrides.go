package main

// The judgements the sources cannot make, each with its reason. Keys are product slugs (existing
// cities) or "province/name" in Persian (official cities).

// renamed maps an existing city's slug to its current official name, when the place was renamed
// or moved: the official name becomes the display name and the old one a search alias. The
// province given is where the official list files the city (Tabas moved from Yazd to South
// Khorasan with its county in 2013).
var renamed = map[string]struct{ Province, Name, English string }{
	"zaboli": {"سیستان و بلوچستان", "مهرستان", "Mehrestan"},
	"tabas":  {"خراسان جنوبی", "طبس", ""},
}

// sameAs maps an existing city's slug to the official list's spelling when the two differ only
// in writing (a prefix, a letter, a space): the product keeps its usual spelling and the
// official one becomes an alias.
var sameAs = map[string]string{
	// The official list still writes these two by their former names (Gomishan was Gomish Tappeh;
	// Suryan is the town of Bavanat county): the product's current names stay, the others are aliases.
	"gomishan":          "گمیش تپه",
	"suryan":            "بوانات",
	"hashtpar":          "هشتپر تالش",
	"aliabad-e-katul":   "علی آباد",
	"maraveh-tappeh":    "مراوه",
	"qorveh-e-darjazin": "قروه درگزین",
	"kerend-e-gharb":    "کرند",
	"haftkel":           "هفتگل",
	"kut-e-abdollah":    "کوت عبداله",
	"chabahar":          "چاه بهار",
	"sadra":             "شهرصدرا",
}

// point is a position chosen by hand, with the evidence.
type point struct {
	Lat, Long float64
	Why       string
}

// pointFor overrides a city's position where the audit (AUDIT.md, "The 10 worst errors") found
// the product's point wrong and the masterking point is not the better one, or the other way round.
var pointFor = map[string]point{
	// The audit's confirmed errors: two or three independent references agree (A+G+O).
	"rudbar-kerman": {28.0323, 57.9934, "AUDIT.md: A+G+O agree, the old point was 16 km east"},
	"qaleh-khvajeh": {32.2059, 49.4494, "AUDIT.md: A+G agree, the old point was 12 km west"},
	"joghatai":      {36.6379, 57.0737, "AUDIT.md: A+G+O agree; the old point lay in Joveyn county"},
	// A's point for Chaqabol is 98 km off; GeoNames' lies in Rumeshkan county, as the official list files it.
	"chaqabol": {33.2818, 47.5098, "AUDIT.md: GeoNames, inside Rumeshkan county; A is 98 km off"},
	// One reference each, both lying in the right county per the audit.
	"qorveh-e-darjazin": {35.3131, 49.1019, "AUDIT.md: A, inside Dargazin county; the old point lay in Famenin"},
	"gowharan":          {26.5969, 57.8951, "AUDIT.md: A (the only reference), 37 km from the old point"},
	// Meymeh: A's point (32.98, 51.50) is the outskirts of Shahin Shahr; Meymeh is the twin town of
	// Vazvan, 33.44 N 51.17 E (Wikipedia, GeoNames 124763), so the product's point stands.
	"meymeh": {33.4403, 51.1694, "kept: A's point is Shahin Shahr's outskirts; Meymeh lies by Vazvan"},
}

// seatOf names the seat of counties where no source marks one (the audit's 2026 county → seat
// table, AUDIT.md §4), by county name within its province.
var seatOf = map[string]string{
	"تهران/بهارستان":              "گلستان",
	"تهران/شمیرانات":              "تجریش",
	"لرستان/معمولان":              "معمولان",
	"خوزستان/کرخه":                "الوان",
	"آذربایجان غربی/میرآباد":      "میرآباد",
	"خوزستان/دزپارت":              "دهدز",
	"چهارمحال و بختیاری/فلارد":    "مال خلیفه",
	"اردبیل/انگوت":                "تازه کندانگوت",
	"هرمزگان/بشاگرد":              "سردشت",
	"آذربایجان شرقی/لیلان":        "لیلان",
	"آذربایجان غربی/چهاربرج":      "چهاربرج",
	"آذربایجان غربی/باروق":        "باروق",
	"اصفهان/کوهپایه":              "تودشک",
	"اصفهان/جرقویه":               "نیک آباد",
	"ایلام/هلیلان":                "توحید",
	"ایلام/چوار":                  "چوار",
	"خراسان جنوبی/زیرکوه":         "حاجی آباد",
	"خراسان رضوی/زبرخان":          "خرو",
	"خراسان رضوی/میان جلگه":       "عشق آباد",
	"خراسان شمالی/بام و صفی آباد": "صفی آباد",
	"خراسان شمالی/مانه":           "پیش قلعه",
	"خوزستان/صیدون":               "صیدون",
	"سیستان و بلوچستان/هامون":     "محمدآباد",
	"سیستان و بلوچستان/تفتان":     "نوک آباد",
	"سیستان و بلوچستان/سرباز":     "سرباز",
	"سیستان و بلوچستان/گلشن":      "جالق",
	"سیستان و بلوچستان/لاشار":     "اسپکه",
	"سیستان و بلوچستان/زرآباد":    "زرآباد",
	"فارس/سرچهان":                 "حسامی",
	"فارس/کوه چنار":               "قایمیه",
	"فارس/خفر":                    "باب انار",
	"چهارمحال و بختیاری/خانمیرزا": "آلونی",
	"کرمان/ریگان":                 "محمدآباد",
	"کرمان/گنبکی":                 "گنبکی",
	"کرمان/جازموریان":             "زهکلوت",
	// Counties with several cities, none named like the county (Wikipedia's county articles).
	"بوشهر/دیر":                     "بندر دیر",
	"گیلان/طوالش":                   "هشتپر",
	"مازندران/سوادکوه":              "پل سفید",
	"خوزستان/دشت آزادگان":           "سوسنگرد",
	"فارس/سپیدان":                   "اردکان",
	"اصفهان/فریدن":                  "داران",
	"چهارمحال و بختیاری/کوهرنگ":     "چلگرد",
	"چهارمحال و بختیاری/کیار":       "شلمزار",
	"لرستان/دلفان":                  "نورآباد",
	"لرستان/سلسله":                  "الشتر",
	"ایلام/چرداول":                  "سرابله",
	"ایلام/ملکشاهی":                 "ارکواز",
	"کهگیلویه و بویراحمد/کهگیلویه":  "دهدشت",
	"کهگیلویه و بویراحمد/دنا":       "سی‌سخت",
	"کهگیلویه و بویراحمد/بهمیی":     "لیکک",
	"بوشهر/تنگستان":                 "اهرم",
	"بوشهر/دشتستان":                 "برازجان",
	"بوشهر/دشتی":                    "خورموج",
	"زنجان/خدابنده":                 "قیدار",
	"زنجان/ایجرود":                  "زرین‌آباد",
	"زنجان/طارم":                    "آب‌بر",
	"هرمزگان/رودان":                 "دهبارز",
	"اردبیل/کوثر":                   "گیوی",
	"قم/جعفرآباد":                   "جعفریه",
	"قزوین/البرز":                   "الوند",
	"خراسان شمالی/سملقان":           "آشخانه",
	"خراسان شمالی/راز و جرگلان":     "راز",
	"خراسان جنوبی/درمیان":           "اسدیه",
	"خراسان جنوبی/قاینات":           "قائن",
	"البرز/ساوجبلاغ":                "هشتگرد",
	"مرکزی/زرندیه":                  "مأمونیه",
	"مرکزی/فراهان":                  "فرمهین",
	"مازندران/میاندورود":            "سورک",
	"آذربایجان شرقی/خداآفرین":       "خمارلو",
	"آذربایجان غربی/چالدران":        "سیه‌چشمه",
	"آذربایجان غربی/چایپاره":        "قره‌ضیاءالدین",
	"کرمانشاه/ثلاث باباجانی":        "تازه‌آباد",
	"کرمانشاه/دالاهو":               "کرند غرب",
	"خوزستان/اندیکا":                "قلعه خواجه",
	"خوزستان/باوی":                  "ملاثانی",
	"فارس/لارستان":                  "لار",
	"فارس/ممسنی":                    "نورآباد",
	"فارس/خرم بید":                  "صفاشهر",
	"فارس/زرین دشت":                 "حاجی‌آباد",
	"فارس/قیروکارزین":               "قیر",
	"فارس/پاسارگاد":                 "سعادت‌شهر",
	"فارس/رستم":                     "مصیری",
	"فارس/بختگان":                   "آباده طشک",
	"خراسان رضوی/مه ولات":           "فیض‌آباد",
	"خراسان رضوی/طرقبه شاندیز":      "طرقبه",
	"خراسان رضوی/زاوه":              "دولت‌آباد",
	"خراسان رضوی/جوین":              "نقاب",
	"خراسان رضوی/خوشاب":             "سلطان‌آباد",
	"اصفهان/لنجان":                  "زرین‌شهر",
	"اصفهان/شاهین شهرو میمه":        "شاهین‌شهر",
	"اصفهان/تیران وکرون":            "تیران",
	"اصفهان/برخوار":                 "دولت‌آباد",
	"اصفهان/خور و بیابانک":          "خور",
	"سیستان و بلوچستان/هیرمند":      "دوست‌محمد",
	"سیستان و بلوچستان/دلگان":       "گلمورتی",
	"سیستان و بلوچستان/سیب و سوران": "سوران",
	"سیستان و بلوچستان/دشتیاری":     "نگور",
	"همدان/درگزین":                  "قروه درجزین",
	"لرستان/چگنی":                   "سراب دوره",
	"لرستان/رومشکان":                "چقابل",
}

// englishFor corrects English names a source gives wrongly (masterking's for شاهو is its name
// before 2011) and names counties whose seat is named otherwise.
var englishFor = map[string]string{
	"شاهو":   "Shahu",
	"بوانات": "Bavanat",
}
