package media_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"kardan/media"
	"kardan/media/s3server"

	"github.com/minio/minio-go/v7"
)

func TestParseBucketURL(t *testing.T) {
	c, err := media.ParseBucketURL("s3://pics/kardan/prod?endpoint=s3.ir-thr-at1.arvanstorage.ir&region=ir-thr-at1")
	if err != nil {
		t.Fatal(err)
	}
	if c.Bucket != "pics" || c.Prefix != "kardan/prod/" || c.Endpoint != "s3.ir-thr-at1.arvanstorage.ir" || !c.Secure || c.Region != "ir-thr-at1" {
		t.Fatalf("parsed %+v", c)
	}
	c, err = media.ParseBucketURL("s3://pics?endpoint=http://127.0.0.1:9000")
	if err != nil || c.Secure || c.Endpoint != "127.0.0.1:9000" || c.Prefix != "" {
		t.Fatalf("parsed %+v, %v", c, err)
	}
	for _, bad := range []string{
		"", "pics", "http://pics?endpoint=x", "s3://?endpoint=x", "s3://pics", "s3://pics?endpoint=x&colour=red",
		"s3://key:secret@pics?endpoint=x", "s3://pics/../up?endpoint=x", "s3://pics?endpoint=ftp://x",
		"s3://pics?endpoint=x&secure=maybe", "s3://pics?endpoint=http://x/path",
	} {
		if _, err := media.ParseBucketURL(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
	// The keys never show in a message.
	_, err = media.ParseBucketURL("s3://AKIA:topsecret@pics?endpoint=x")
	if err == nil || strings.Contains(err.Error(), "topsecret") {
		t.Fatalf("error %v", err)
	}
}

// openTestBucket starts a real S3 server with a bucket and opens it under a prefix.
func openTestBucket(t *testing.T) (*s3server.Server, *media.Bucket) {
	t.Helper()
	srv := s3server.Start(t)
	srv.MakeBucket("pics")
	cfg, err := media.ParseBucketURL(strings.Replace(srv.URL("pics"), "s3://pics", "s3://pics/site", 1))
	if err != nil {
		t.Fatal(err)
	}
	cfg.AccessKey, cfg.SecretKey = srv.AccessKey, srv.SecretKey
	b, err := media.OpenBucket(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return srv, b
}

func TestBucketStorage(t *testing.T) {
	srv, b := openTestBucket(t)
	ctx := context.Background()
	data := bytes.Repeat([]byte("kardan-image-bytes-"), 5000)
	key := "ab/abcdef.jpg"
	if err := b.Put(ctx, key, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	// A second put of a content-addressed key is a no-op, even from a reader of unknown size.
	if err := b.Put(ctx, key, io.MultiReader(bytes.NewReader(data))); err != nil {
		t.Fatal(err)
	}
	// The object sits under the prefix, with the type and caching a CDN needs.
	info, err := srv.Client().StatObject(ctx, "pics", "site/"+key, minioStat())
	if err != nil {
		t.Fatal(err)
	}
	if info.Size != int64(len(data)) || info.ContentType != "image/jpeg" || info.Metadata.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("object %d %q %q", info.Size, info.ContentType, info.Metadata.Get("Cache-Control"))
	}
	f, err := b.Open(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read back %d bytes, %v", len(got), err)
	}
	// Seeks: the end answers the size, and a read from the middle is a ranged GET.
	if n, err := f.Seek(0, io.SeekEnd); err != nil || n != int64(len(data)) {
		t.Fatalf("seek end %d %v", n, err)
	}
	if _, err := f.Seek(50000, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	part := make([]byte, 100)
	if _, err := io.ReadFull(f, part); err != nil || !bytes.Equal(part, data[50000:50100]) {
		t.Fatalf("ranged read %q %v", part, err)
	}
	f.Close()
	// Stat and Walk see it; a missing key is fs.ErrNotExist.
	if size, etag, err := b.Stat(ctx, key); err != nil || size != int64(len(data)) || len(etag) != 32 {
		t.Fatalf("stat %d %q %v", size, etag, err)
	}
	var keys []string
	if err := b.Walk(ctx, func(k string, size int64) error { keys = append(keys, k); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 1 || keys[0] != key {
		t.Fatalf("walk %v", keys)
	}
	if _, err := b.Open(ctx, "ab/missing.jpg"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing: %v", err)
	}
	if _, _, err := b.Stat(ctx, "ab/missing.jpg"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing stat: %v", err)
	}
	for _, bad := range []string{"../x.jpg", "/ab/x.jpg", "ab/../../x.jpg", ""} {
		if err := b.Put(ctx, bad, bytes.NewReader(data)); !errors.Is(err, media.ErrBadKey) {
			t.Errorf("put %q: %v", bad, err)
		}
	}
	// Delete removes it, and deleting again is no error.
	if err := b.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("after delete: %v", err)
	}
	// The bucket going down is ErrUnavailable, not a missing image; back up, it works again.
	srv.Stop()
	if _, err := b.Open(ctx, key); !errors.Is(err, media.ErrUnavailable) {
		t.Fatalf("down open: %v", err)
	}
	if err := b.Put(ctx, key, bytes.NewReader(data)); !errors.Is(err, media.ErrUnavailable) {
		t.Fatalf("down put: %v", err)
	}
	srv.Restart()
	if err := b.Put(ctx, key, bytes.NewReader(data)); err != nil {
		t.Fatalf("after restart: %v", err)
	}
}

// TestBucketPipeline runs the whole image pipeline onto the bucket: the same limits hold, and
// the variants land as objects.
func TestBucketPipeline(t *testing.T) {
	_, b := openTestBucket(t)
	p := media.NewProcessor(b, media.Options{})
	im, err := p.Process(context.Background(), encodeJPEG(t, halves(1600, 1000)))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{im.Key, im.ThumbKey} {
		if _, _, err := b.Stat(context.Background(), k); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	if _, err := p.Process(context.Background(), []byte("not an image at all")); !errors.Is(err, media.ErrNotImage) {
		t.Fatalf("not an image: %v", err)
	}
}

func TestOpenBucketRefusals(t *testing.T) {
	srv := s3server.Start(t)
	srv.MakeBucket("pics")
	ctx := context.Background()
	cfg, err := media.ParseBucketURL(srv.URL("pics"))
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		edit func(*media.BucketConfig)
		want string
	}{
		"no keys":      {func(c *media.BucketConfig) {}, "no keys"},
		"wrong secret": {func(c *media.BucketConfig) { c.AccessKey, c.SecretKey = srv.AccessKey, "wrong" }, "refused the keys"},
		"no bucket": {func(c *media.BucketConfig) {
			c.AccessKey, c.SecretKey, c.Bucket = srv.AccessKey, srv.SecretKey, "nosuch"
		}, "does not exist"},
		"nobody there": {func(c *media.BucketConfig) {
			c.AccessKey, c.SecretKey, c.Endpoint = srv.AccessKey, srv.SecretKey, "127.0.0.1:1"
		}, "cannot reach"},
	}
	for name, tc := range cases {
		c := cfg
		tc.edit(&c)
		_, err := media.OpenBucket(ctx, c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), srv.SecretKey) {
			t.Errorf("%s: the secret is in the message", name)
		}
	}
}

func minioStat() minio.StatObjectOptions { return minio.StatObjectOptions{} }
