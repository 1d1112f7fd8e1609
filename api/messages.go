package api

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lang is a supported language.
type Lang string

// The supported languages; fa is the default.
const (
	Fa Lang = "fa"
	En Lang = "en"
)

// catalogue holds every user-facing message, Persian beside English so neither can be forgotten.
// Placeholders in braces ({des}, {seconds}) are filled from the error's arguments; {des} names a
// field whose label is the "field.<name>" entry. Each area of the API keeps its messages in its
// own file; a key defined twice stops the server at start-up (see mergeCatalogues).
var catalogue = mergeCatalogues(coreMessages, pageMessages, profileMessages, seoMessages, accountMessages, communityMessages, recoveryMessages, quotaMessages, ownerMessages, savedMessages, verifyClaimMessages, searchPageMessages)

// mergeCatalogues joins the areas' message maps, refusing a key defined twice.
func mergeCatalogues(parts ...map[string][2]string) map[string][2]string {
	out := map[string][2]string{}
	for _, p := range parts {
		for k, v := range p {
			if _, dup := out[k]; dup {
				panic("message catalogue: key defined twice: " + k)
			}
			out[k] = v
		}
	}
	return out
}

// coreMessages are the spec's catalogue, validation and request messages.
var coreMessages = map[string][2]string{
	// SPEC.md §8, the error catalogue.
	"check_internet":      {"لطفاً اینترنت خود را بررسی کنید", "Please check your internet"},
	"server_error_retry":  {"خطای سرور، دوباره تلاش کنید", "Server error try again"},
	"problem":             {"متأسفیم، مشکلی پیش آمد", "Sorry, there was a problem"},
	"server_error":        {"خطایی در سمت سرور رخ داد", "Server-side error occurred"},
	"item_not_found":      {"موردی یافت نشد!", "Item not found !"},
	"no_items":            {"موردی پیدا نشد", "No items found"},
	"info_not_received":   {"اطلاعات دریافت نشد", "Information not received"},
	"page_not_found":      {"صفحه پیدا نشد", "Page Not Found"},
	"page_not_exist":      {"صفحه درخواستی شما وجود ندارد", "Your requested page does not exist"},
	"categories_missing":  {"دسته‌بندی‌ها دریافت نشد", "Categories not received"},
	"provinces_missing":   {"فهرست استان‌ها دریافت نشد", "The list of provinces was not received"},
	"position_not_found":  {"موقعیت شما پیدا نشد، می‌توانید در این محدوده جستجو کنید", "Your position was not found, you can use search in this range"},
	"try_again":           {"تلاش دوباره", "Try again"},
	"already_commented":   {"شما قبلاً نظر ثبت کرده‌اید", "You have already posted a comment"},
	"login_to_comment":    {"لطفاً برای ثبت نظر ابتدا وارد شوید", "Please log in first to post a comment"},
	"one_profile_per_cat": {"برای هر دسته‌بندی فقط یک پروفایل می‌توانید داشته باشید", "You can have only one profile per category"},

	// SPEC.md §5, validation.
	"enter":          {"{des} را وارد کنید", "Enter {des}"},
	"enter_correct":  {"{des} را درست وارد کنید", "Enter correct {des}"},
	"too_long":       {"{des} حداکثر {max} نویسه می‌تواند باشد", "{des} can be at most {max} characters"},
	"too_short":      {"{des} باید دست‌کم {min} نویسه باشد", "{des} must be at least {min} characters"},
	"out_of_range":   {"{des} باید بین {min} و {max} باشد", "{des} must be between {min} and {max}"},
	"too_many_items": {"{des} حداکثر {max} مورد می‌تواند داشته باشد", "{des} can have at most {max} items"},

	// Requests and access.
	"bad_json":           {"درخواست نامعتبر است: قالب JSON درست نیست", "The request is not valid: malformed JSON"},
	"body_too_large":     {"حجم درخواست بیش از حد مجاز است", "The request is too large"},
	"bad_id":             {"شناسه نامعتبر است", "The id is not valid"},
	"unauthorized":       {"لطفاً ابتدا وارد شوید", "Please sign in first"},
	"forbidden":          {"شما اجازه این کار را ندارید", "You are not allowed to do this"},
	"too_many":           {"درخواست‌های شما بیش از حد مجاز است؛ {seconds} ثانیه دیگر دوباره تلاش کنید", "Too many requests; try again in {seconds} seconds"},
	"conflict":           {"این مورد با اطلاعات موجود تداخل دارد", "This conflicts with existing data"},
	"unavailable":        {"سرویس بیرونی در دسترس نیست، کمی بعد دوباره تلاش کنید", "An outside service is unavailable, try again shortly"},
	"not_ready":          {"سرور هنوز آماده نشده است؛ کمی بعد دوباره تلاش کنید", "The server is still getting ready; try again shortly"},
	"search_building":    {"فهرست جستجو در حال ساخت است؛ تا آن زمان فقط مرور بر اساس دسته، شهر و امتیاز کار می‌کند. {seconds} ثانیه دیگر دوباره تلاش کنید", "The search index is being built; until then only browsing by category, city and score works. Try again in {seconds} seconds"},
	"method_not_allowed": {"این روش برای این نشانی پشتیبانی نمی‌شود", "This method is not supported for this address"},

	// Field labels for {des} shared by several areas.
	"field.id":   {"شناسه", "id"},
	"field.lat":  {"عرض جغرافیایی", "latitude"},
	"field.long": {"طول جغرافیایی", "longitude"},
}

// pageMessages are the page titles and descriptions the server writes into the app's index page.
var pageMessages = map[string][2]string{
	"site_name":                 {"کاردان", "Kardan"},
	"page.home.title":           {"کاردان", "Kardan"},
	"page.home.desc":            {"کاردان: متخصصان و کسب‌وکارهای محلی نزدیک خود را پیدا کنید، نمونه‌کار و امتیازشان را ببینید و مستقیم تماس بگیرید.", "Kardan: find local professionals and businesses near you, see their work and scores, and contact them directly."},
	"page.about.title":          {"درباره ما", "About us"},
	"page.about.desc":           {"کاردان چیست و چه کسانی آن را می‌سازند.", "What Kardan is and who builds it."},
	"page.blog.title":           {"وبلاگ تخصصی", "Specialized blogs"},
	"page.blog.desc":            {"مقاله‌های متخصصان کاردان دربارهٔ کار و حرفه‌شان.", "Articles by Kardan's professionals about their trades."},
	"page.contact.title":        {"تماس با ما", "Contact us"},
	"page.contact.desc":         {"انتقادها و پیشنهادهای خود را برای تیم کاردان بفرستید.", "Send your criticism and suggestions to the Kardan team."},
	"page.login.title":          {"ورود", "Sign in"},
	"page.login.desc":           {"با شماره موبایل و رمز عبور وارد کاردان شوید.", "Sign in to Kardan with your mobile number and password."},
	"page.register.title":       {"ثبت‌نام", "Register"},
	"page.register.desc":        {"ثبت‌نام رایگان در کاردان با شماره موبایل.", "Register for free on Kardan with your mobile number."},
	"page.map.title":            {"جستجو روی نقشه", "Map search"},
	"page.map.desc":             {"متخصصان نزدیک خود را روی نقشه پیدا کنید.", "Find professionals near you on the map."},
	"page.search.title":         {"جستجوی متخصصان", "Find professionals"},
	"page.search.desc":          {"جستجوی متخصصان و کسب‌وکارها بر اساس شهر، استان، دسته‌بندی و امتیاز.", "Search professionals and businesses by city, province, category and score."},
	"page.terms.title":          {"قوانین و مقررات", "Regulation"},
	"page.terms.desc":           {"قوانین استفاده از کاردان.", "The rules for using Kardan."},
	"page.privacy.title":        {"حریم خصوصی", "Privacy"},
	"page.privacy.desc":         {"کاردان با اطلاعات شما چه می‌کند.", "What Kardan does with your information."},
	"page.secure_service.title": {"راهنمای خدمات امن", "Safe service guide"},
	"page.secure_service.desc":  {"چگونه با خیال راحت متخصص انتخاب کنید.", "How to choose a professional safely."},
	"page.prohibited.title":     {"کالاها و فعالیت‌های ممنوع", "Prohibited goods and activities"},
	"page.prohibited.desc":      {"فهرست کالاها و فعالیت‌هایی که در کاردان مجاز نیستند.", "What may not be offered on Kardan."},
	"page.offline.title":        {"آفلاین", "Offline"},
	"page.offline.desc":         {"اتصال اینترنت برقرار نیست.", "There is no internet connection."},
	"page.dashboard.title":      {"میز کار", "Desk"},
	"page.dashboard.desc":       {"پروفایل‌ها، وبلاگ‌ها و حساب کاربری شما.", "Your profiles, blogs and account."},
}

// message answers the catalogue text for key in lang, with args filled in. An unknown key is
// answered in the generic wording rather than leaking the key.
func message(lang Lang, key string, args map[string]any) string {
	pair, ok := catalogue[key]
	if !ok {
		pair = catalogue["problem"]
	}
	text := pair[0]
	if lang == En {
		text = pair[1]
	}
	if len(args) == 0 || !strings.Contains(text, "{") {
		return text
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	repl := make([]string, 0, 2*len(keys))
	for _, k := range keys {
		v := fmt.Sprint(args[k])
		switch k {
		case "des":
			v = label(lang, v)
		case "day", "from", "to":
			// Weekdays and statuses have labels of their own.
			prefix := "day."
			if k != "day" {
				prefix = "status."
			}
			if pair, ok := catalogue[prefix+v]; ok {
				v = pair[0]
				if lang == En {
					v = pair[1]
				}
			}
		}
		if lang == Fa {
			v = persianDigits(v)
		}
		repl = append(repl, "{"+k+"}", v)
	}
	out := strings.NewReplacer(repl...).Replace(text)
	if lang == En && strings.HasPrefix(text, "{") {
		// A label begins the sentence ("{des} must be between …"): labels are written for the
		// middle of one ("Enter page size"), so the sentence gets its capital here.
		out = capitalize(out)
	}
	return out
}

// capitalize answers s with its first letter in upper case.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// label answers a field's label for {des}; a field with no label shows its own name.
func label(lang Lang, field string) string {
	pair, ok := catalogue["field."+field]
	if !ok {
		return field
	}
	if lang == En {
		return pair[1]
	}
	return pair[0]
}

func persianDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '۰' + (r - '0')
		}
		return r
	}, s)
}
