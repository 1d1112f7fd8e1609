package api_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// leadUpload sends a signed-out visitor's photo to /v1/lead/upload.
func (w *leadWorld) leadUpload(t *testing.T, phone, token string, file []byte, ip, lang string) answer {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("numberPhone", phone)
	mw.WriteField("leadToken", token)
	if file != nil {
		fw, _ := mw.CreateFormFile("file", "photo.jpg")
		fw.Write(file)
	}
	mw.Close()
	r, _ := http.NewRequest("POST", w.URL+"/v1/lead/upload", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	if ip != "" {
		r.Header.Set("X-Forwarded-For", ip)
	}
	if lang != "" {
		r.Header.Set("Accept-Language", lang)
	}
	return w.roundTrip(t, r)
}

func (w *leadWorld) wantLeadUploadError(t *testing.T, phone, token string, file []byte, ip string, status int, fa, en string) {
	t.Helper()
	checkError(t, w.leadUpload(t, phone, token, file, ip, "fa"), status, fa)
	checkError(t, w.leadUpload(t, phone, token, file, ip, "en"), status, en)
}

// leadPass sends phone a lead code and answers it on lead/verify: the pass's token.
func (w *leadWorld) leadPass(t *testing.T, phone, ip string) string {
	t.Helper()
	w.Clock.advance(61 * time.Second) // the minute between two codes to one number
	w.must(t, req{method: "POST", path: "/v1/send-sms/sendSmsForLead", body: fmt.Sprintf(`{"numberPhone":%q}`, phone), ip: ip})
	a := w.must(t, req{method: "POST", path: "/v1/lead/verify", body: fmt.Sprintf(`{"numberPhone":%q,"otpCode":%q}`, phone, w.SMS.code(phone)), ip: ip})
	return decodePayload[struct {
		LeadToken string `json:"leadToken"`
	}](t, a).LeadToken
}

// TestLeadPhotosSignedOut: a signed-out visitor proves their number, attaches two photos (not a
// third, not with another number or a bad pass) and sends the request, which the owner sees
// with its photos; the pass is then used up, and photos never sent are purged like any unused
// upload.
func TestLeadPhotosSignedOut(t *testing.T) {
	w := newLeadWorld(t)
	visitor, ip := "09130000021", "10.0.0.21"
	w.must(t, req{method: "POST", path: "/v1/send-sms/sendSmsForLead", body: fmt.Sprintf(`{"numberPhone":%q}`, visitor), ip: ip})
	code := w.SMS.code(visitor)
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	verify := func(code string) req {
		return req{method: "POST", path: "/v1/lead/verify", body: fmt.Sprintf(`{"numberPhone":%q,"otpCode":%q}`, visitor, code), ip: ip}
	}
	w.wantError(t, verify(wrong), 400, "کد", "code")
	w.wantError(t, verify(""), 400, "کد", "code")
	a := w.must(t, verify(code))
	if !strings.Contains(a.Body, `"leadToken"`) {
		t.Fatalf("verify: %s", a.Body)
	}
	pass := decodePayload[struct {
		LeadToken string `json:"leadToken"`
	}](t, a).LeadToken
	// The code is used up by the verification.
	w.wantError(t, verify(code), 400, "کد", "code")

	// Photos with the code alone, or nothing to prove the number, are refused.
	one := fmt.Sprintf(`"user_technical_id":%d,"city_id":1,"what":"کاشی حمام ترک خورده"`, w.profile.ID)
	w.wantError(t, req{method: "POST", path: "/v1/lead/add", ip: ip,
		body: fmt.Sprintf(`{%s,"photos":["/uploads/ab/x.jpg"],"numberPhone":%q,"otpCode":"123456"}`, one, visitor)}, 400, "اول شماره", "first confirm your number")

	// A wrong number, a made-up pass, no file: refused, in both languages.
	w.wantLeadUploadError(t, "09130000022", pass, sideways(t, 64, 48, 1), ip, 400, "تأیید شماره", "confirmation")
	w.wantLeadUploadError(t, visitor, strings.Repeat("A", 43), sideways(t, 64, 48, 1), ip, 400, "تأیید شماره", "confirmation")
	w.wantLeadUploadError(t, visitor, "short", sideways(t, 64, 48, 1), ip, 400, "تأیید شماره", "confirmation")
	w.wantLeadUploadError(t, visitor, pass, nil, ip, 400, "فایل", "file")

	var photos []string
	for _, width := range []int{64, 80} {
		a := w.leadUpload(t, visitor, pass, sideways(t, width, 48, 1), ip, "")
		if a.Status != 200 {
			t.Fatalf("upload: %d %s", a.Status, a.Body)
		}
		photos = append(photos, decodePayload[uploadAnswer](t, a).Address)
	}
	// A third is refused.
	w.wantLeadUploadError(t, visitor, pass, sideways(t, 96, 48, 1), ip, 400, "عکس‌ها حداکثر ۲", "at most 2")

	// A photo the pass did not upload is not theirs to send.
	other := w.upload(t, w.commenter, "", "comment", sideways(t, 100, 48, 1))
	if other.Status != 200 {
		t.Fatalf("signed-in upload: %d %s", other.Status, other.Body)
	}
	otherAddr := decodePayload[uploadAnswer](t, other).Address
	withPass := func(phone string, ph []string) req {
		return req{method: "POST", path: "/v1/lead/add", ip: ip, lang: "en",
			body: fmt.Sprintf(`{%s,"photos":["%s"],"numberPhone":%q,"leadToken":%q}`, one, strings.Join(ph, `","`), phone, pass)}
	}
	w.wantError(t, withPass(visitor, []string{photos[0], otherAddr}), 400, "بارگذاری‌های خود", "your own uploads")
	w.wantError(t, withPass("09130000022", photos), 400, "تأیید شماره", "confirmation")

	a = w.must(t, withPass(visitor, photos))
	lead := decodePayload[visitorLeadView](t, a)
	in := decodePayload[struct {
		Leads []struct {
			ID     int64    `json:"id"`
			Photos []string `json:"photos"`
		} `json:"leads"`
	}](t, w.must(t, req{method: "POST", path: "/v1/lead/getForProfile", token: w.owner, body: `{}`}))
	if len(in.Leads) != 1 || in.Leads[0].ID != lead.ID || !slices.Equal(in.Leads[0].Photos, photos) {
		t.Fatalf("the owner's inbox: %+v, want the photos %v", in, photos)
	}
	// The pass is used up: neither another request nor another photo.
	w.wantError(t, withPass(visitor, photos[:1]), 400, "تأیید شماره", "confirmation")
	w.wantLeadUploadError(t, visitor, pass, sideways(t, 96, 48, 1), ip, 400, "تأیید شماره", "confirmation")

	// A pass lasts half an hour.
	late := w.leadPass(t, visitor, ip)
	w.Clock.advance(31 * time.Minute)
	w.wantLeadUploadError(t, visitor, late, sideways(t, 96, 48, 1), ip, 400, "تأیید شماره", "confirmation")

	// A photo uploaded and never sent goes with the purge of unused uploads; the sent ones stay.
	unsent := w.leadPass(t, visitor, ip)
	a = w.leadUpload(t, visitor, unsent, sideways(t, 112, 48, 1), ip, "")
	if a.Status != 200 {
		t.Fatalf("unsent upload: %d %s", a.Status, a.Body)
	}
	unsentAddr := decodePayload[uploadAnswer](t, a).Address
	stale, err := w.Store.StaleUploads(context.Background(), w.Clock.now().Add(time.Hour).Unix(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var gone []string
	for _, s := range stale {
		gone = append(gone, s.Address)
	}
	if !slices.Contains(gone, unsentAddr) || slices.Contains(gone, photos[0]) || slices.Contains(gone, photos[1]) {
		t.Fatalf("purged %v: want %s and not the sent %v", gone, unsentAddr, photos)
	}
}

// TestLeadUploadLimits: per client address (counted before the body is read, refusals too)
// and per number (counted once the pass is checked, damaged images too), an hour.
func TestLeadUploadLimits(t *testing.T) {
	w := newLeadWorld(t)
	for i := 0; i < 20; i++ {
		if a := w.leadUpload(t, "09130000031", strings.Repeat("A", 43), []byte("x"), "10.0.0.31", ""); a.Status != 400 {
			t.Fatalf("try %d: %d %s", i, a.Status, a.Body)
		}
	}
	w.wantLeadUploadError(t, "09130000031", strings.Repeat("A", 43), []byte("x"), "10.0.0.31", 429, "ثانیه", "seconds")

	visitor := "09130000032"
	pass := w.leadPass(t, visitor, "10.0.0.32")
	for i := 0; i < 10; i++ {
		a := w.leadUpload(t, visitor, pass, []byte("not an image"), fmt.Sprintf("10.0.1.%d", i), "")
		if a.Status != 400 {
			t.Fatalf("damaged %d: %d %s", i, a.Status, a.Body)
		}
	}
	w.wantLeadUploadError(t, visitor, pass, sideways(t, 64, 48, 1), "10.0.2.1", 429, "ثانیه", "seconds")
	w.Clock.advance(61 * time.Minute)
	if a := w.leadUpload(t, visitor, w.leadPass(t, visitor, "10.0.0.32"), sideways(t, 64, 48, 1), "10.0.2.1", ""); a.Status != 200 {
		t.Fatalf("an hour later: %d %s", a.Status, a.Body)
	}
}

// TestLeadUploadRaceLeavesNoFiles: with one photo place left on a pass, several different photos
// sent at once all pass the pass's check, are processed and stored, and only one is recorded; the
// others' files are removed, since the purge walks only rows and would never find them.
func TestLeadUploadRaceLeavesNoFiles(t *testing.T) {
	w := newLeadWorld(t)
	visitor, ip := "09130000041", "10.0.0.41"
	pass := w.leadPass(t, visitor, ip)
	if a := w.leadUpload(t, visitor, pass, sideways(t, 64, 48, 1), ip, ""); a.Status != 200 {
		t.Fatalf("first photo: %d %s", a.Status, a.Body)
	}
	const racers = 6
	var wg sync.WaitGroup
	statuses := make([]int, racers)
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = w.leadUpload(t, visitor, pass, sideways(t, 70+8*i, 48, 1), ip, "").Status
		}()
	}
	wg.Wait()
	if n := slices.Index(statuses, 200); n < 0 || slices.Contains(statuses[n+1:], 200) {
		t.Fatalf("statuses %v: want exactly one photo taking the last place", statuses)
	}
	var files []string
	if err := w.Uploads.Walk(context.Background(), func(key string, _ int64) error {
		files = append(files, key)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// Two photos recorded, each a picture and its thumbnail.
	if len(files) != 4 {
		t.Fatalf("files on disk %v: want the 2 recorded photos and their thumbnails", files)
	}
	for _, f := range files {
		if ok, err := w.Store.UploadRecorded(context.Background(), "/uploads/"+strings.Replace(f, "-400.", ".", 1)); err != nil || !ok {
			t.Errorf("%s on disk without a row (%v)", f, err)
		}
	}
}
