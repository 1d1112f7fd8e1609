package api_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kardan/api"
	"kardan/store"
)

// sideways is a w×h JPEG, red on the left half and blue on the right, with an EXIF block saying
// orientation o and some camera metadata.
func sideways(t testing.TB, w, h int, o uint16) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.RGBA{230, 10, 10, 255}
			if x >= w/2 {
				c = color.RGBA{10, 10, 230, 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90})
	jpg := buf.Bytes()

	var tiff bytes.Buffer
	tiff.WriteString("II\x2a\x00\x08\x00\x00\x00")
	binary.Write(&tiff, binary.LittleEndian, []uint16{1, 0x0112, 3})
	binary.Write(&tiff, binary.LittleEndian, uint32(1))
	binary.Write(&tiff, binary.LittleEndian, []uint16{o, 0})
	binary.Write(&tiff, binary.LittleEndian, uint32(0))
	tiff.WriteString("GPS 35.6892N 51.3890E")
	payload := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h)))
	return buf.Bytes()
}

// bombPNG is a valid PNG signature and header claiming 100000×100000 pixels.
func bombPNG(t testing.TB) []byte {
	b := pngOf(t, 1, 1)
	out := append([]byte{}, b...)
	binary.BigEndian.PutUint32(out[16:], 100_000)
	binary.BigEndian.PutUint32(out[20:], 100_000)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29])) // IHDR's type and data
	return out
}

// multipartUpload builds an upload body: the key field (unless empty), then the file (unless
// nil).
func multipartUpload(key string, file []byte) (string, *bytes.Buffer) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if key != "" {
		mw.WriteField("uploadKey", key)
	}
	if file != nil {
		fw, _ := mw.CreateFormFile("file", "photo.jpg")
		fw.Write(file)
	}
	mw.Close()
	return mw.FormDataContentType(), &body
}

func (as *accountServer) upload(t testing.TB, token, lang, key string, file []byte) answer {
	t.Helper()
	ct, body := multipartUpload(key, file)
	r, _ := http.NewRequest("POST", as.URL+"/v1/upload-file", body)
	r.Header.Set("Content-Type", ct)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if lang != "" {
		r.Header.Set("Accept-Language", lang)
	}
	return as.roundTrip(t, r)
}

func (as *accountServer) wantUploadError(t testing.TB, token, key string, file []byte, status int, fa, en string) {
	t.Helper()
	checkError(t, as.upload(t, token, "fa", key, file), status, fa)
	checkError(t, as.upload(t, token, "en", key, file), status, en)
}

type uploadAnswer struct {
	Address string `json:"address"`
	Data    struct {
		Location string `json:"location"`
		Thumb    string `json:"thumb"`
		Width    int    `json:"width"`
		Height   int    `json:"height"`
		Size     int64  `json:"size"`
		Mime     string `json:"mime"`
	} `json:"data"`
}

func TestUpload(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	other := as.mustSignUp(t, "09127654321", "another horse")

	a := as.upload(t, me.Token, "", "user", sideways(t, 2400, 1200, 6))
	if a.Status != 200 {
		t.Fatalf("upload: %d %s", a.Status, a.Body)
	}
	up := decodePayload[uploadAnswer](t, a)
	// Orientation 6: stored 2400×1200 on its side, shown 1200×2400; fitted into 1600.
	if up.Data.Width != 800 || up.Data.Height != 1600 || up.Data.Mime != "image/jpeg" {
		t.Fatalf("got %dx%d %s, want 800x1600 image/jpeg", up.Data.Width, up.Data.Height, up.Data.Mime)
	}
	if !strings.HasPrefix(up.Address, "/uploads/") || !strings.HasSuffix(up.Address, ".jpg") ||
		up.Data.Location != strings.TrimPrefix(up.Address, "/") || !strings.HasSuffix(up.Data.Thumb, "-400.jpg") {
		t.Fatalf("got %+v, want the public path and the stored location", up)
	}

	t.Run("Served", func(t *testing.T) {
		for _, path := range []string{up.Address, up.Data.Thumb} {
			res, err := as.Client().Get(as.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			var body bytes.Buffer
			body.ReadFrom(res.Body)
			res.Body.Close()
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != "image/jpeg" ||
				res.Header.Get("X-Content-Type-Options") != "nosniff" ||
				res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("%s: got %d %v", path, res.StatusCode, res.Header)
			}
			img, err := jpeg.Decode(bytes.NewReader(body.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			b := img.Bounds()
			if b.Dy() != 2*b.Dx() {
				t.Fatalf("%s: got %v, want upright (twice as tall as wide)", path, b)
			}
			// Turned clockwise: the red left half is now on top.
			if r, _, bl, _ := img.At(b.Dx()/2, b.Dy()/4).RGBA(); r < 3*bl {
				t.Fatalf("%s: the top is not red", path)
			}
			if bytes.Contains(body.Bytes(), []byte("Exif")) || bytes.Contains(body.Bytes(), []byte("GPS")) {
				t.Fatalf("%s: metadata survived", path)
			}
		}
	})
	t.Run("ConditionalGet", func(t *testing.T) {
		res, _ := as.Client().Get(as.URL + up.Address)
		res.Body.Close()
		r, _ := http.NewRequest("GET", as.URL+up.Address, nil)
		r.Header.Set("If-None-Match", res.Header.Get("ETag"))
		res2, err := as.Client().Do(r)
		if err != nil {
			t.Fatal(err)
		}
		res2.Body.Close()
		if res2.StatusCode != http.StatusNotModified {
			t.Fatalf("got %d, want 304", res2.StatusCode)
		}
	})
	t.Run("ErrNotFound", func(t *testing.T) {
		for _, path := range []string{"/uploads/ab/" + strings.Repeat("ab", 32) + ".jpg", "/uploads/../kardan.db",
			"/uploads/%2e%2e/kardan.db", "/uploads/ab/..%2f..%2fkardan.db", "/uploads/cd/" + strings.Repeat("ab", 32) + ".jpg"} {
			res, err := as.Client().Get(as.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 404 {
				t.Errorf("%s: got %d, want 404", path, res.StatusCode)
			}
		}
	})
	t.Run("ProfileImageOnlyOwn", func(t *testing.T) {
		body := `{"profileImage":"` + up.Address + `"}`
		if a := as.send(t, req{method: "PUT", path: "/v1/user/edit", token: me.Token, body: body}); a.Status != 200 ||
			!strings.Contains(a.Body, up.Address) {
			t.Fatalf("own image: %d %s", a.Status, a.Body)
		}
		as.wantError(t, req{method: "PUT", path: "/v1/user/edit", token: other.Token, body: body}, 400,
			"تصویر پروفایل را درست وارد کنید", "Enter correct profile image")
		ok, err := as.Store.UploadOwnedBy(t.Context(), me.ID, up.Data.Thumb)
		if err != nil || !ok {
			t.Fatalf("UploadOwnedBy(thumb): got %v %v, want true", ok, err)
		}
	})
}

func TestUploadErrors(t *testing.T) {
	as := newAccountServer(t)
	me := as.mustSignUp(t, "09121234567", "correct horse")
	jpg := sideways(t, 300, 200, 1)
	for _, tt := range []struct {
		name   string
		key    string
		file   []byte
		status int
		fa, en string
	}{
		{"ErrText", "user", []byte("not a picture at all"), 400, "فایل تصویر نیست", "The file is not an image"},
		{"ErrSVG", "user", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`), 400, "فایل تصویر نیست", "The file is not an image"},
		{"ErrPolyglotHTMLFirst", "user", append([]byte("<html><script>alert(1)</script>"), pngOf(t, 10, 10)...), 400, "فایل تصویر نیست", "The file is not an image"},
		{"ErrTruncated", "user", jpg[:len(jpg)*2/3], 400, "تصویر خراب یا ناقص است", "The image is damaged or incomplete"},
		{"ErrPixelBomb", "userTechnical", bombPNG(t), 400, "بیش از ۴۰ مگاپیکسل", "more than 40 megapixels"},
		{"ErrTooLarge", "user", append(append([]byte{}, jpg...), make([]byte, 10<<20)...), 413, "بیش از ۱۰ مگابایت", "larger than 10 MB"},
		{"ErrKeyMissing", "", jpg, 400, "نوع بارگذاری را وارد کنید", "Enter upload kind"},
		{"ErrKeyWrong", "avatar", jpg, 400, "نوع بارگذاری را درست وارد کنید", "Enter correct upload kind"},
		{"ErrFileMissing", "user", nil, 400, "فایل را وارد کنید", "Enter file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as.wantUploadError(t, me.Token, tt.key, tt.file, tt.status, tt.fa, tt.en)
		})
	}
	t.Run("ErrNotMultipart", func(t *testing.T) {
		as.wantError(t, req{method: "POST", path: "/v1/upload-file", token: me.Token, body: `{"file":"x"}`}, 400, "فایل را وارد کنید", "Enter file")
	})
	t.Run("ErrBodyFarTooLarge", func(t *testing.T) {
		// 12 MiB in a field before the file: refused while reading, without reading it all.
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormField("padding")
		fw.Write(bytes.Repeat([]byte("x"), 12<<20))
		mw.Close()
		r := httptest.NewRequest("POST", "/v1/upload-file", &body)
		r.Header.Set("Content-Type", mw.FormDataContentType())
		r.Header.Set("Authorization", "Bearer "+me.Token)
		r.Header.Set("Accept-Language", "en")
		w := httptest.NewRecorder()
		as.API.ServeHTTP(w, r)
		if w.Code != 413 || !strings.Contains(w.Body.String(), "larger than 10 MB") {
			t.Fatalf("got %d %s, want 413", w.Code, w.Body)
		}
	})
	t.Run("PolyglotJPEGWithScriptIsCleaned", func(t *testing.T) {
		data := append(append([]byte{}, jpg...), []byte("<script>alert(document.cookie)</script>")...)
		a := as.upload(t, me.Token, "", "user", data)
		if a.Status != 200 {
			t.Fatalf("got %d %s", a.Status, a.Body)
		}
		res, _ := as.Client().Get(as.URL + decodePayload[uploadAnswer](t, a).Address)
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		res.Body.Close()
		if bytes.Contains(b.Bytes(), []byte("<script")) {
			t.Fatal("the script survived")
		}
	})
	t.Run("ErrUploadsOff", func(t *testing.T) {
		srv, err := api.New(api.Config{}, as.Store)
		if err != nil {
			t.Fatal(err)
		}
		ct, body := multipartUpload("user", jpg)
		r := httptest.NewRequest("POST", "/v1/upload-file", body)
		r.Header.Set("Content-Type", ct)
		r.Header.Set("Authorization", "Bearer "+me.Token)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != 502 || !strings.Contains(w.Body.String(), "بارگذاری تصویر در این سرور فعال نیست") {
			t.Fatalf("got %d %s", w.Code, w.Body)
		}
	})
	t.Run("ErrHourlyCap", func(t *testing.T) {
		u := as.mustSignUp(t, "09350000001", "long enough")
		for i := 0; i < 100; i++ {
			if err := as.Store.RateHit(t.Context(), store.Limit{Kind: "upload", Key: fmt.Sprint(u.ID)}); err != nil {
				t.Fatal(err)
			}
		}
		as.wantUploadError(t, u.Token, "user", jpg, 429, "ثانیه", "seconds")
	})
}
