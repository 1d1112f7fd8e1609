package api

// accountMessages are the messages of sign-up, sign-in, the account and uploads.
var accountMessages = map[string][2]string{
	"code_sent":             {"کد تأیید به شماره {phone} فرستاده شد", "The verification code was sent to {phone}"},
	"phone_registered":      {"این شماره موبایل قبلاً ثبت شده است؛ وارد شوید", "This mobile number is already registered; sign in instead"},
	"wrong_code":            {"کد تأیید درست نیست", "The verification code is wrong"},
	"code_expired":          {"کد تأیید منقضی شده است؛ کد تازه بگیرید", "The verification code has expired; request a new one"},
	"code_burned":           {"کد تأیید بیش از حد اشتباه وارد شد؛ کد تازه بگیرید", "The verification code was entered wrong too many times; request a new one"},
	"invalid_credentials":   {"شماره موبایل یا رمز عبور درست نیست", "The mobile number or password is wrong"},
	"password_too_short":    {"رمز عبور باید دست‌کم {min} نویسه باشد", "The password must be at least {min} characters"},
	"sms_failed":            {"ارسال پیامک انجام نشد؛ کمی بعد دوباره تلاش کنید", "The SMS could not be sent; try again shortly"},
	"signed_out":            {"از حساب خود خارج شدید", "You have signed out"},
	"not_an_image":          {"فایل تصویر نیست؛ JPEG، PNG، WebP یا GIF بفرستید", "The file is not an image; send a JPEG, PNG, WebP or GIF"},
	"password_common":       {"این رمز عبور از رایج‌ترین رمزهاست و زود حدس زده می‌شود؛ رمز دیگری انتخاب کنید", "This password is one of the most common ones and is guessed first; choose another"},
	"image_corrupt":         {"تصویر خراب یا ناقص است", "The image is damaged or incomplete"},
	"image_too_large":       {"حجم تصویر بیش از {max} مگابایت است", "The image is larger than {max} MB"},
	"image_too_many_pixels": {"ابعاد تصویر بیش از {max} مگاپیکسل است", "The image has more than {max} megapixels"},
	"image_too_costly":      {"پردازش این تصویر حافظهٔ زیادی می‌خواهد؛ آن را کوچک‌تر یا به‌صورت JPEG معمولی (غیر progressive) ذخیره کنید", "This image needs too much memory to process; save it smaller or as a standard (non-progressive) JPEG"},
	"storage_unavailable":   {"انبار تصویرها در دسترس نیست؛ چند دقیقهٔ دیگر دوباره امتحان کنید", "The image storage cannot be reached; try again in a few minutes"},
	"uploads_unavailable":   {"بارگذاری تصویر در این سرور فعال نیست", "Image uploads are not enabled on this server"},

	"field.numberPhone":  {"شماره موبایل", "mobile number"},
	"field.password":     {"رمز عبور", "password"},
	"field.name":         {"نام", "name"},
	"field.otpCode":      {"کد تأیید", "verification code"},
	"field.profileImage": {"تصویر پروفایل", "profile image"},
	"field.uploadKey":    {"نوع بارگذاری", "upload kind"},
	"field.file":         {"فایل", "file"},
}
