package api

// savedMessages are the messages of saved businesses, short links and review photos.
var savedMessages = map[string][2]string{
	"quota_saved":     {"حداکثر {max} کسب‌وکار می‌توانید ذخیره کنید؛ ابتدا چندتا را از فهرست بردارید", "You can save at most {max} businesses; remove some from your list first"},
	"too_many_images": {"حداکثر {max} عکس می‌توانید بفرستید", "You can attach at most {max} photos"},
	"saved_added":     {"به کسب‌وکارهای ذخیره‌شده افزوده شد", "Added to your saved businesses"},
	"saved_removed":   {"از کسب‌وکارهای ذخیره‌شده برداشته شد", "Removed from your saved businesses"},

	"page.saved.title":  {"ذخیره‌شده‌ها", "Saved"},
	"page.saved.desc":   {"کسب‌وکارهایی که ذخیره کرده‌اید.", "The businesses you saved."},
	"page.poster.title": {"پوستر", "Poster"},
	"page.poster.desc":  {"پوستر چاپی کسب‌وکار با کد QR.", "A printable poster of the business with its QR code."},

	"field.images": {"عکس‌ها", "photos"},
}
