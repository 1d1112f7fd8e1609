package api

// recoveryMessages are the messages of password reset, sign-in with a code, password changes and
// abuse reports.
var recoveryMessages = map[string][2]string{
	"no_account":            {"حسابی با این شماره موبایل نیست؛ ثبت‌نام کنید", "No account has this mobile number; sign up instead"},
	"wrong_password":        {"رمز عبور فعلی درست نیست", "The current password is wrong"},
	"password_proof_needed": {"برای تغییر رمز عبور، رمز فعلی یا کد تأیید پیامک‌شده را وارد کنید", "To change the password, enter the current password or the code sent by SMS"},
	"deleted_by_admin":      {"این پروفایل را مدیر سایت حذف کرده است و فقط مدیر می‌تواند آن را بازگرداند", "An administrator deleted this profile; only an administrator can restore it"},

	"field.currentPassword": {"رمز عبور فعلی", "current password"},
}
