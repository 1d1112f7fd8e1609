package api

// communityMessages are the messages of comments and scores, blogs and the contact form.
var communityMessages = map[string][2]string{
	"comment_own_profile":   {"نمی‌توانید برای پروفایل خودتان نظر ثبت کنید", "You cannot comment on your own profile"},
	"comment_not_yours":     {"فقط نویسندهٔ نظر می‌تواند آن را ویرایش کند", "Only the author of a comment can edit it"},
	"reply_not_owner":       {"فقط صاحب پروفایل می‌تواند به نظرهای آن پاسخ دهد", "Only the profile's owner can reply to its comments"},
	"comment_text_required": {"متن نظر خود را وارد کنید", "Enter the text of your comment"},
	"comment_text_length":   {"متن نظر باید بین {min} تا {max} نویسه باشد", "A comment must be between {min} and {max} characters"},
	"reply_text_required":   {"متن پاسخ را وارد کنید", "Enter the text of your reply"},
	"reply_text_length":     {"متن پاسخ باید بین {min} تا {max} نویسه باشد", "A reply must be between {min} and {max} characters"},
	"comment_saved":         {"نظر شما ثبت شد", "Your comment was saved"},
	"reply_saved":           {"پاسخ شما ثبت شد", "Your reply was saved"},

	"blog_not_yours":       {"فقط نویسندهٔ این مقاله یا مدیر سایت می‌تواند این کار را انجام دهد", "Only the writer of this article or an admin can do this"},
	"blog_field_not_yours": {"فقط در حوزه‌های کاری پروفایل‌های تأییدشدهٔ خود می‌توانید مقاله بنویسید؛ «{category}» از آن‌ها نیست", "You can write only in the fields of work of your accepted profiles; \"{category}\" is not one of them"},
	"blog_deleted":         {"مقاله حذف شد", "The article was deleted"},

	"critic_received": {"پیام شما دریافت شد؛ از همراهی شما سپاسگزاریم", "Your message was received; thank you"},

	"field.user_technical_id": {"پروفایل", "profile"},
	"field.score":             {"امتیاز", "score"},
	"field.sort":              {"ترتیب نظرها", "order of the comments"},
	"field.with_photos":       {"فیلتر نظرهای عکس‌دار", "with-photos filter of the comments"},
	"field.category":          {"دسته‌بندی", "category"},
	"field.title":             {"عنوان", "title"},
	"field.content":           {"متن مقاله", "article text"},
	"field.summary":           {"خلاصه", "summary"},
	"field.image_url":         {"تصویر مقاله", "article image"},
	"field.tag":               {"برچسب‌ها", "tags"},
	"field.release_at":        {"تاریخ انتشار", "release date"},
	"field.writer_id":         {"نویسنده", "writer"},
	"field.category_id":       {"دسته‌بندی", "category"},
	"field.email":             {"ایمیل", "e-mail"},
	"field.number_phone":      {"شماره تماس", "phone number"},
	"field.subject":           {"موضوع", "subject"},
	"field.message":           {"متن پیام", "message"},
	"field.read":              {"وضعیت خوانده‌شدن", "read flag"},
}

// quotaMessages are the refusals of the per-account caps (store.Quotas).
var quotaMessages = map[string][2]string{
	"quota_hour_blog":    {"در هر ساعت حداکثر {max} مقاله یا پیش‌نویس می‌توانید بسازید؛ {seconds} ثانیه دیگر دوباره تلاش کنید", "You can create at most {max} articles or drafts an hour; try again in {seconds} seconds"},
	"quota_hour_profile": {"در هر ساعت حداکثر {max} پروفایل می‌توانید بسازید؛ {seconds} ثانیه دیگر دوباره تلاش کنید", "You can create at most {max} profiles an hour; try again in {seconds} seconds"},
	"quota_hour_comment": {"در هر ساعت حداکثر {max} نظر می‌توانید ثبت کنید؛ {seconds} ثانیه دیگر دوباره تلاش کنید", "You can post at most {max} reviews an hour; try again in {seconds} seconds"},
	"quota_blogs":        {"حداکثر {max} مقاله می‌توانید داشته باشید؛ ابتدا چند مقاله را حذف کنید", "You can keep at most {max} articles; delete some first"},
	"quota_drafts":       {"حداکثر {max} پیش‌نویس می‌توانید داشته باشید؛ ابتدا چند پیش‌نویس را منتشر یا حذف کنید", "You can keep at most {max} drafts; publish or delete some first"},
	"quota_blog_bytes":   {"متن همهٔ مقاله‌های شما روی هم حداکثر {max} مگابایت می‌تواند باشد؛ ابتدا چند مقاله را کوتاه یا حذف کنید", "Your articles can hold at most {max} MB of text together; shorten or delete some first"},
	"quota_profiles":     {"حداکثر {max} پروفایل می‌توانید داشته باشید", "You can have at most {max} profiles"},
	"quota_comments":     {"حداکثر {max} نظر می‌توانید داشته باشید", "You can keep at most {max} reviews"},
}
