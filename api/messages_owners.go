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
	"lead_sent":                {"درخواست شما برای {count} متخصص فرستاده شد", "Your request was sent to {count} professionals"},
}
