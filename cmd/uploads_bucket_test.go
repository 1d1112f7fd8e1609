package cmd_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kardan/admin"
	"kardan/cmd"
	"kardan/media/s3server"
	"kardan/store"

	"github.com/minio/minio-go/v7"
)

// bucketApp runs a real app whose images live in a bucket of srv.
type bucketApp struct {
	t      *testing.T
	app    *cmd.App
	cancel context.CancelFunc
	done   chan error
	sms    string
}

func openBucketApp(t *testing.T, dir, uploads, publicURL string) *bucketApp {
	t.Helper()
	return openReplica(t, dir, "", uploads, publicURL)
}

// openReplica runs a real app on its own data directory, with the database db ("": the data
// directory's SQLite file) and images in the bucket uploads.
func openReplica(t *testing.T, dir, db, uploads, publicURL string) *bucketApp {
	t.Helper()
	smsFile := filepath.Join(dir, "sms.txt")
	g := &cmd.Globals{DataDir: dir, DB: db, Uploads: uploads, Out: io.Discard, Err: io.Discard}
	app, err := cmd.Open(context.Background(), g, cmd.ServeConfig{Addr: "127.0.0.1:0", Moderation: "pre",
		Timezone: "Asia/Tehran", SMS: "file:" + smsFile, UploadsPublicURL: publicURL})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	b := &bucketApp{t: t, app: app, cancel: cancel, done: make(chan error, 1), sms: smsFile}
	go func() { b.done <- app.Run(ctx) }()
	return b
}

func (b *bucketApp) close() {
	b.cancel()
	<-b.done
	b.app.Close()
}

// signIn creates an account through the API and answers its token.
func (b *bucketApp) signIn(phone string) string {
	t := b.t
	t.Helper()
	post := func(path, body string) map[string]any {
		res, err := http.Post(b.app.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var env map[string]any
		json.NewDecoder(res.Body).Decode(&env)
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %v", path, res.StatusCode, env)
		}
		p, _ := env["payload"].(map[string]any)
		return p
	}
	post("/v1/send-sms/sendSmsForSignUp", `{"numberPhone":"`+phone+`"}`)
	line, _ := os.ReadFile(b.sms)
	lines := strings.Split(strings.TrimSpace(string(line)), "\n")
	_, code, _ := strings.Cut(lines[len(lines)-1], " ")
	post("/v1/user/create", `{"numberPhone":"`+phone+`","password":"correct horse","otpCode":"`+code+`"}`)
	return post("/v1/user/login", `{"numberPhone":"`+phone+`","password":"correct horse"}`)["token"].(string)
}

// upload posts file as an image and answers the status and the envelope.
func (b *bucketApp) upload(token string, file []byte, lang string) (int, map[string]any) {
	b.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("uploadKey", "userTechnical")
	fw, _ := mw.CreateFormFile("file", "a.png")
	fw.Write(file)
	mw.Close()
	r, _ := http.NewRequest("POST", b.app.URL()+"/v1/upload-file", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("Authorization", "Bearer "+token)
	r.Header.Set("Accept-Language", lang)
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	var env map[string]any
	json.NewDecoder(res.Body).Decode(&env)
	return res.StatusCode, env
}

// noisePNG is a w×h image of noise, different for every seed.
func noisePNG(w, h int, seed uint64) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	var buf bytes.Buffer
	png.Encode(&buf, img)
	return buf.Bytes()
}

func get(t *testing.T, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	r, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	cl := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := cl.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

// TestUploadsOnBucket runs the real app with --uploads on a real S3-compatible server: an upload
// lands in the bucket (not the data directory), is streamed with the local files' caching and
// ranges, the media limits still hold, a bucket that goes down is a localized envelope and not
// a 500, --uploads-public-url redirects, and a purge removes unused objects from the bucket.
func TestUploadsOnBucket(t *testing.T) {
	srv := s3server.Start(t)
	srv.MakeBucket("kardan")
	srv.Env(t)
	dir := t.TempDir()
	uploads := strings.Replace(srv.URL("kardan"), "s3://kardan", "s3://kardan/site", 1)
	b := openBucketApp(t, dir, uploads, "")
	token := b.signIn("09121234567")

	code, env := b.upload(token, noisePNG(64, 48, 1), "en")
	if code != 200 {
		t.Fatalf("upload: %d %v", code, env)
	}
	addr := env["payload"].(map[string]any)["address"].(string)
	thumb := env["payload"].(map[string]any)["data"].(map[string]any)["thumb"].(string)
	key := strings.TrimPrefix(addr, "/uploads/")
	ctx := context.Background()
	obj, err := srv.Client().GetObject(ctx, "kardan", "site/"+key, minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := io.ReadAll(obj)
	if err != nil || len(stored) == 0 {
		t.Fatalf("the image is not in the bucket: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "uploads", key)); err == nil {
		t.Fatal("the image was written to the data directory too")
	}

	// Served by Kardan: the bucket's bytes, cached for a year, with ranges and revalidation.
	res, body := get(t, b.app.URL()+addr)
	if res.StatusCode != 200 || !bytes.Equal(body, stored) || res.Header.Get("Content-Type") != "image/"+strings.TrimPrefix(filepath.Ext(key), ".") ||
		res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || res.Header.Get("ETag") == "" {
		t.Fatalf("served: %d %d bytes %v", res.StatusCode, len(body), res.Header)
	}
	etag := res.Header.Get("ETag")
	res, body = get(t, b.app.URL()+addr, "Range", "bytes=10-29")
	if res.StatusCode != http.StatusPartialContent || !bytes.Equal(body, stored[10:30]) {
		t.Fatalf("range: %d %q", res.StatusCode, body)
	}
	if res, _ := get(t, b.app.URL()+addr, "If-None-Match", etag); res.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", res.StatusCode)
	}
	if res, _ := get(t, b.app.URL()+thumb); res.StatusCode != 200 {
		t.Fatalf("thumb: %d", res.StatusCode)
	}
	missing := "/uploads/ab/ab" + strings.Repeat("0", 62) + ".jpg"
	if res, _ := get(t, b.app.URL()+missing); res.StatusCode != 404 {
		t.Fatalf("missing image: %d", res.StatusCode)
	}

	// The pipeline's limits hold on the bucket as on the disk.
	if code, env := b.upload(token, []byte("this is not an image"), "en"); code != 400 {
		t.Fatalf("not an image: %d %v", code, env)
	}
	if code, env := b.upload(token, bytes.Repeat([]byte{0xff}, 11<<20), "en"); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("too large: %d %v", code, env)
	}

	// The bucket goes down: images and uploads answer the envelope with a localized message,
	// never a 500; back up, everything works again.
	srv.Stop()
	for _, lang := range []string{"fa", "en"} {
		res, body := get(t, b.app.URL()+addr, "Accept-Language", lang)
		var e map[string]any
		json.Unmarshal(body, &e)
		msg, _ := e["message"].(string)
		if res.StatusCode != http.StatusBadGateway || msg == "" || strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("%s: image with the bucket down: %d %s %v", lang, res.StatusCode, body, res.Header)
		}
		if lang == "fa" && !strings.Contains(msg, "انبار") || lang == "en" && !strings.Contains(msg, "storage") {
			t.Fatalf("%s: message %q", lang, msg)
		}
		code, env := b.upload(token, noisePNG(64, 48, 2), lang)
		if code != http.StatusBadGateway || env["message"] != msg {
			t.Fatalf("%s: upload with the bucket down: %d %v", lang, code, env)
		}
	}
	srv.Restart()
	if res, _ := get(t, b.app.URL()+addr); res.StatusCode != 200 {
		t.Fatalf("after the bucket is back: %d", res.StatusCode)
	}
	code, env = b.upload(token, noisePNG(64, 48, 3), "en")
	if code != 200 {
		t.Fatalf("upload after the bucket is back: %d %v", code, env)
	}
	kept := env["payload"].(map[string]any)["address"].(string)
	b.close()

	// With a public URL, images are redirected to the CDN instead of streamed.
	b = openBucketApp(t, dir, uploads, "https://cdn.example.com/kardan/")
	res, _ = get(t, b.app.URL()+addr)
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "https://cdn.example.com/kardan/"+key {
		t.Fatalf("redirect: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	// The pages let the browser load images from the CDN.
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "img-src 'self' data: blob: https://cdn.example.com") {
		t.Fatalf("CSP: %s", csp)
	}
	if res, _ := get(t, b.app.URL()+"/uploads/ab/notahash.jpg"); res.StatusCode != 404 {
		t.Fatalf("a bad key is redirected: %d", res.StatusCode)
	}
	b.close()

	// A week later, a purge removes the unused image and its thumbnail from the bucket and keeps
	// the one a profile uses.
	st, err := store.Open(ctx, filepath.Join(dir, "kardan.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u, err := st.UserByPhone(ctx, "09121234567")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CreateProfile(ctx, u.ID, &store.ProfileInput{ProfileName: "نجاری", ProvinceID: 1, CityID: 1,
		RangeWorker: 1, CategoryList: []int64{106}, Logo: kept}, false); err != nil {
		t.Fatal(err)
	}
	st.Now = func() time.Time { return time.Now().Add(8 * 24 * time.Hour) }
	g := &cmd.Globals{DataDir: dir, Uploads: uploads}
	storage, err := g.OpenStorage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := admin.Purge(ctx, st, storage)
	if err != nil || rep.Images != 2 {
		t.Fatalf("purge: %+v %v", rep, err)
	}
	for _, a := range []string{addr, thumb} {
		if _, err := srv.Client().StatObject(ctx, "kardan", "site/"+strings.TrimPrefix(a, "/uploads/"), minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != "NoSuchKey" {
			t.Errorf("%s still in the bucket: %v", a, err)
		}
	}
	if _, err := srv.Client().StatObject(ctx, "kardan", "site/"+strings.TrimPrefix(kept, "/uploads/"), minio.StatObjectOptions{}); err != nil {
		t.Errorf("the used image was purged: %v", err)
	}

	// A backup holds the database and says the images are in the bucket.
	archive := filepath.Join(t.TempDir(), "b.tar.gz")
	out, err := run(t, "backup", "--data", dir, "--uploads", uploads, "--out", archive)
	if err != nil || !strings.Contains(out, "images: not in this archive: they are in the bucket") {
		t.Fatalf("backup: %v %s", err, out)
	}

	// doctor checks the bucket and that the newest image is in it.
	doctorLine := func() string {
		out, _ := run(t, "doctor", "--data", dir, "--uploads", uploads)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "images") {
				return l
			}
		}
		t.Fatalf("doctor has no images line:\n%s", out)
		return ""
	}
	if l := doctorLine(); !strings.HasPrefix(l, "ok") || !strings.Contains(l, "newest image is there") {
		t.Fatalf("doctor: %s", l)
	}
	if err := srv.Client().RemoveObject(ctx, "kardan", "site/"+strings.TrimPrefix(kept, "/uploads/"), minio.RemoveObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if l := doctorLine(); !strings.HasPrefix(l, "FAIL") || !strings.Contains(l, "is not in") {
		t.Fatalf("doctor with the image gone: %s", l)
	}
	t.Setenv("KARDAN_S3_SECRET_KEY", "wrong")
	if l := doctorLine(); !strings.HasPrefix(l, "FAIL") || !strings.Contains(l, "refused the keys") {
		t.Fatalf("doctor with wrong keys: %s", l)
	}
}

// TestServeRefusesABadBucket: a wrong bucket URL or keys stop serve at start with a message
// saying what to fix, never a panic or a server that fails later.
func TestServeRefusesABadBucket(t *testing.T) {
	srv := s3server.Start(t)
	srv.MakeBucket("kardan")
	cases := []struct {
		uploads, access, secret, public, want string
	}{
		{"s3://kardan", srv.AccessKey, srv.SecretKey, "", "endpoint= is required"},
		{"https://kardan", srv.AccessKey, srv.SecretKey, "", "want s3://"},
		{srv.URL("kardan"), "", "", "", "no keys"},
		{srv.URL("kardan"), srv.AccessKey, "not-the-secret", "", "refused the keys"},
		{srv.URL("nosuch"), srv.AccessKey, srv.SecretKey, "", "does not exist"},
		{srv.URL("kardan"), srv.AccessKey, srv.SecretKey, "cdn.example.com", "--uploads-public-url"},
	}
	for _, c := range cases {
		t.Setenv("KARDAN_S3_ACCESS_KEY", c.access)
		t.Setenv("KARDAN_S3_SECRET_KEY", c.secret)
		t.Setenv("AWS_ACCESS_KEY_ID", "")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "")
		args := []string{"serve", "--data", t.TempDir(), "--addr", "127.0.0.1:0", "--uploads", c.uploads}
		if c.public != "" {
			args = append(args, "--uploads-public-url", c.public)
		}
		out, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v (%s), want %q", c.uploads, err, out, c.want)
		}
	}
	// The AWS names work too.
	t.Setenv("KARDAN_S3_ACCESS_KEY", "")
	t.Setenv("KARDAN_S3_SECRET_KEY", "")
	t.Setenv("AWS_ACCESS_KEY_ID", srv.AccessKey)
	t.Setenv("AWS_SECRET_ACCESS_KEY", srv.SecretKey)
	g := &cmd.Globals{DataDir: t.TempDir(), Uploads: srv.URL("kardan")}
	if _, err := g.OpenStorage(context.Background()); err != nil {
		t.Fatal(err)
	}
}
