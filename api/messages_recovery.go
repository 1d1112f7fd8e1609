package api

// recoveryMessages are the messages of password reset, sign-in with a code, password changes and
// abuse reports.
var recoveryMessages = map[string][2]string{
	"no_account":            {"حسابی با این شماره موبایل نیست؛ ثبت‌نام کنید", "No account has this mobile number; sign up instead"},
	"wrong_password":        {"رمز عبور فعلی درست نیست", "The current password is wrong"},
	"password_proof_needed": {"برای تغییر رمز عبور، رمز فعلی یا کد تأیید پیامک‌شده را وارد کنید", "To change the password, enter the current password or the code sent by SMS"},
	"deleted_by_admin":      {"این پروفایل را مدیر سایت حذف کرده است و فقط مدیر می‌تواند آن را بازگرداند", "An administrator deleted this profile; only an administrator can restore it"},
	"report_received":       {"گزارش شما رسید؛ مدیران سایت آن را بررسی می‌کنند", "Thank you: the administrators will look into your report"},
	"already_reported":      {"شما این مورد را پیش‌تر گزارش کرده‌اید و گزارش در حال بررسی است", "You have already reported this; the report is being reviewed"},
	"reports_resolved":      {"{count} گزارش بسته شد", "{count} reports closed"},

	"field.currentPassword": {"رمز عبور فعلی", "current password"},
	"field.entity":          {"نوع مورد", "kind of item"},
	"field.reason":          {"دلیل گزارش", "reason"},
}
