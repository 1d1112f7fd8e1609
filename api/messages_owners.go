package api

// ownerMessages are the notifications' and the leads' messages.
var ownerMessages = map[string][2]string{
	"field.ids":                {"شناسه‌ها", "ids"},
	"field.kind":               {"نوع", "kind"},
	"field.enabled":            {"روشن یا خاموش", "on or off"},
	"field.user_technical_ids": {"متخصص‌ها", "professionals"},
	"field.what":               {"شرح کار", "what you need"},
	"field.when":               {"زمان", "when"},
	"field.photos":             {"عکس‌ها", "photos"},
	"field.price":              {"قیمت", "price"},
	"lead_own_profile":         {"از پروفایل خودتان نمی‌توانید قیمت بخواهید", "You cannot ask your own profile for a price"},
	"lead_one_city":            {"همه متخصص‌ها باید در شهر درخواست باشند", "Every professional must be in the city of the request"},
	"lead_one_category":        {"همه متخصص‌ها باید در دسته‌بندی درخواست باشند", "Every professional must be in the category of the request"},
	"lead_answer_first":        {"برای پاسخ، قیمت و پیام خود را بفرستید", "To answer, send your price and message"},
	"field.leadToken":          {"تأیید شماره", "number confirmation"},
	"lead_pass_expired":        {"تأیید شماره شما منقضی شده یا برای شماره دیگری است؛ کد تازه بگیرید", "Your number's confirmation has expired or is for another number; request a new code"},
	"lead_photos_need_pass":    {"برای افزودن عکس، اول شماره خود را با کد تأیید کنید", "To add photos, first confirm your number with the code"},
	"lead_number_verified":     {"شماره شما تأیید شد؛ حالا می‌توانید عکس هم بیفزایید", "Your number is confirmed; you can now add photos too"},
	"lead_sent":                {"درخواست شما برای {count} متخصص فرستاده شد", "Your request was sent to {count} professionals"},
}

// verifyClaimMessages are the verified badge's and claiming's messages.
var verifyClaimMessages = map[string][2]string{
	"field.verified":           {"تأیید یا لغو", "verified or not"},
	"no_listed_mobile":         {"این کسب‌وکار شماره موبایلی در راه‌های ارتباطی خود ندارد", "This business lists no mobile number among its ways of communication"},
	"not_listed_mobile":        {"این شماره در راه‌های ارتباطی این کسب‌وکار نیست", "This number is not among the business's ways of communication"},
	"no_verification":          {"کدی برای تأیید این کسب‌وکار فرستاده نشده است", "No verification code was sent for this business"},
	"verification_unconfirmed": {"مالک هنوز کد فرستاده‌شده به شماره کسب‌وکار را وارد نکرده است", "The owner has not yet entered the code sent to the business's number"},
	"not_verified":             {"این کسب‌وکار تأییدشده نیست", "This business is not verified"},
	"verification_confirmed":   {"کد تأیید شد؛ مدیر به‌زودی بررسی می‌کند", "The code is confirmed; an administrator will review it soon"},
	"not_claimable":            {"این کسب‌وکار قابل درخواست مالکیت نیست", "This business cannot be claimed"},
	"claim_own":                {"این کسب‌وکار همین حالا مال شماست", "This business is already yours"},
	"claim_waiting":            {"درخواست مالکیت شما برای این کسب‌وکار در انتظار بررسی است", "Your claim of this business is waiting for review"},
	"claim_sent":               {"درخواست مالکیت شما ثبت شد و پس از بررسی مدیر نتیجه را خبر می‌دهیم", "Your claim was recorded; we will tell you once an administrator has reviewed it"},
	"page.preview.title":       {"پیش‌نمایش پروفایل", "Profile preview"},
	"page.preview.desc":        {"پروفایل شما همان‌طور که پس از انتشار دیده می‌شود.", "Your profile as the public will see it once published."},
	"claim_decided":            {"تصمیم ثبت شد", "The decision was recorded"},
}
