package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// ErrUnavailable is a storage that could not be reached or refused to answer (a bucket that is
// down, unreachable or that no longer accepts the keys): the request may succeed later.
var ErrUnavailable = errors.New("media: image storage unavailable")

// BucketConfig says where an S3-compatible bucket is and how to sign in to it.
type BucketConfig struct {
	// Bucket is the bucket's name; Prefix, if any, is prepended to every key ("kardan/").
	Bucket string
	Prefix string
	// Endpoint is host[:port] of the S3 API; Secure chooses https.
	Endpoint string
	Secure   bool
	// Region is the bucket's region; empty lets the client discover it.
	Region string
	// AccessKey and SecretKey sign every request (SigV4).
	AccessKey, SecretKey string
}

// ParseBucketURL reads s3://bucket[/prefix]?endpoint=HOST[:PORT]|URL&region=R[&secure=false].
// An endpoint given as a URL takes its scheme as the choice of https; a bare host is https unless
// secure=false. The keys are not part of the URL (they come from the environment).
func ParseBucketURL(raw string) (BucketConfig, error) {
	var c BucketConfig
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" {
		return c, fmt.Errorf("uploads %q: want s3://bucket[/prefix]?endpoint=host&region=name", raw)
	}
	if u.User != nil {
		return c, fmt.Errorf("uploads %q: keys do not go in the URL; set KARDAN_S3_ACCESS_KEY and KARDAN_S3_SECRET_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)", u.Redacted())
	}
	c.Bucket = u.Host
	if p := strings.Trim(u.Path, "/"); p != "" {
		if path.Clean(p) != p || strings.Contains(p, "..") {
			return c, fmt.Errorf("uploads %q: the prefix %q is not a plain path", raw, p)
		}
		c.Prefix = p + "/"
	}
	q := u.Query()
	for k := range q {
		switch k {
		case "endpoint", "region", "secure":
		default:
			return c, fmt.Errorf("uploads %q: unknown parameter %q (endpoint, region, secure)", raw, k)
		}
	}
	c.Region = q.Get("region")
	c.Secure = true
	ep := q.Get("endpoint")
	if ep == "" {
		return c, fmt.Errorf("uploads %q: endpoint= is required (the bucket service's host, e.g. s3.ir-thr-at1.arvanstorage.ir)", raw)
	}
	if strings.Contains(ep, "://") {
		eu, err := url.Parse(ep)
		if err != nil || (eu.Scheme != "http" && eu.Scheme != "https") || eu.Host == "" || strings.Trim(eu.Path, "/") != "" {
			return c, fmt.Errorf("uploads %q: endpoint %q: want host[:port] or http(s)://host[:port]", raw, ep)
		}
		ep, c.Secure = eu.Host, eu.Scheme == "https"
	}
	switch q.Get("secure") {
	case "":
	case "true", "1":
		c.Secure = true
	case "false", "0":
		c.Secure = false
	default:
		return c, fmt.Errorf("uploads %q: secure=%q: want true or false", raw, q.Get("secure"))
	}
	c.Endpoint = ep
	return c, nil
}

// String is the bucket's URL without keys, for logs and messages.
func (c BucketConfig) String() string {
	scheme := "https"
	if !c.Secure {
		scheme = "http"
	}
	return fmt.Sprintf("s3://%s/%s (%s://%s)", c.Bucket, c.Prefix, scheme, c.Endpoint)
}

// Bucket stores images as objects of an S3-compatible bucket (MinIO, ArvanCloud, AWS...).
type Bucket struct {
	cfg    BucketConfig
	client *minio.Client
	core   minio.Core
}

// OpenBucket connects to the bucket and checks, once, that it exists and that the keys may
// read it: a wrong endpoint, bucket or key stops the start with a message saying which.
func OpenBucket(ctx context.Context, cfg BucketConfig) (*Bucket, error) {
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, fmt.Errorf("uploads %s: no keys: set KARDAN_S3_ACCESS_KEY and KARDAN_S3_SECRET_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)", cfg)
	}
	// A bucket that is down must fail a visitor's request in seconds, not after the client's
	// default ten retries and minute-long waits: one retry, short connect and header timeouts.
	tr, err := minio.DefaultTransport(cfg.Secure)
	if err != nil {
		return nil, fmt.Errorf("uploads %s: %w", cfg, err)
	}
	tr.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	tr.ResponseHeaderTimeout = 20 * time.Second
	tr.MaxIdleConnsPerHost = 64
	cl, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:      credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:     cfg.Secure,
		Region:     cfg.Region,
		Transport:  tr,
		MaxRetries: 2,
	})
	if err != nil {
		return nil, fmt.Errorf("uploads %s: %w", cfg, err)
	}
	b := &Bucket{cfg: cfg, client: cl, core: minio.Core{Client: cl}}
	ok, err := cl.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		switch minio.ToErrorResponse(err).Code {
		case "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch":
			return nil, fmt.Errorf("uploads %s: the bucket refused the keys (%s): check KARDAN_S3_ACCESS_KEY and KARDAN_S3_SECRET_KEY", cfg, minio.ToErrorResponse(err).Code)
		}
		return nil, fmt.Errorf("uploads %s: cannot reach the bucket: %w", cfg, err)
	}
	if !ok {
		return nil, fmt.Errorf("uploads %s: bucket %q does not exist: create it first", cfg, cfg.Bucket)
	}
	return b, nil
}

// Config is where the bucket is (without its keys' use elsewhere).
func (b *Bucket) Config() BucketConfig { return b.cfg }

func (b *Bucket) object(key string) (string, error) {
	if !validKey(key) {
		return "", ErrBadKey
	}
	return b.cfg.Prefix + key, nil
}

// validKey is the same rule the local directory applies, so a key is valid on both or neither.
func validKey(key string) bool {
	return key != "" && !strings.Contains(key, "\\") && path.Clean(key) == key && !strings.HasPrefix(key, "/") &&
		key != ".." && !strings.HasPrefix(key, "../") && fs.ValidPath(key)
}

// contentType is what an object is served as: the pipeline only writes JPEG and PNG.
func contentType(key string) string {
	if strings.HasSuffix(key, ".png") {
		return "image/png"
	}
	if strings.HasSuffix(key, ".jpg") {
		return "image/jpeg"
	}
	return "application/octet-stream"
}

// unavailable wraps a failure to talk to the bucket, keeping its text for the log.
func unavailable(op, key string, err error) error {
	return fmt.Errorf("%s %s: %w: %w", op, key, ErrUnavailable, err)
}

// notFound tells whether the bucket answered that the object is not there.
func notFound(err error) bool {
	r := minio.ToErrorResponse(err)
	return r.Code == "NoSuchKey" || r.StatusCode == http.StatusNotFound
}

// Put uploads the object unless one is already under the key: keys are content hashes, so an
// object that exists holds these very bytes. A single PUT is atomic on S3: readers see the old
// state or all of the new object. Objects carry the headers a CDN serving them directly needs.
func (b *Bucket) Put(ctx context.Context, key string, r io.Reader) error {
	obj, err := b.object(key)
	if err != nil {
		return err
	}
	if _, err := b.client.StatObject(ctx, b.cfg.Bucket, obj, minio.StatObjectOptions{}); err == nil {
		return nil
	} else if !notFound(err) {
		return unavailable("put", key, err)
	}
	// A known size lets the client send one PUT instead of buffering a multipart upload; images
	// are small, so reading one of unknown size into memory first is cheap.
	var size int64
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	} else {
		data, err := io.ReadAll(r)
		if err != nil {
			return fmt.Errorf("put %s: %w", key, err)
		}
		size, r = int64(len(data)), bytes.NewReader(data)
	}
	_, err = b.client.PutObject(ctx, b.cfg.Bucket, obj, r, size, minio.PutObjectOptions{
		ContentType:  contentType(key),
		CacheControl: "public, max-age=31536000, immutable",
		// Images are small: one part keeps the ETag an MD5 of the content, which migrate checks.
		PartSize: 16 << 20,
	})
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("put %s: %w", key, ctx.Err())
		}
		return unavailable("put", key, err)
	}
	return nil
}

// Open answers the object as a ReadSeekCloser that streams it: one GET for a whole read, and a
// ranged GET from the new offset after a Seek (http.ServeContent's Range requests).
func (b *Bucket) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	obj, err := b.object(key)
	if err != nil {
		return nil, fs.ErrNotExist
	}
	body, info, _, err := b.core.GetObject(ctx, b.cfg.Bucket, obj, minio.GetObjectOptions{})
	if err != nil {
		if notFound(err) {
			return nil, fs.ErrNotExist
		}
		return nil, unavailable("open", key, err)
	}
	return &bucketReader{ctx: ctx, b: b, obj: obj, size: info.Size, body: body}, nil
}

// Stat answers the object's size and ETag, fs.ErrNotExist when there is none.
func (b *Bucket) Stat(ctx context.Context, key string) (size int64, etag string, err error) {
	obj, err := b.object(key)
	if err != nil {
		return 0, "", err
	}
	info, err := b.client.StatObject(ctx, b.cfg.Bucket, obj, minio.StatObjectOptions{})
	if err != nil {
		if notFound(err) {
			return 0, "", fs.ErrNotExist
		}
		return 0, "", unavailable("stat", key, err)
	}
	return info.Size, strings.Trim(info.ETag, `"`), nil
}

// Delete removes the object; S3 answers success for a missing one too.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	obj, err := b.object(key)
	if err != nil {
		return err
	}
	if err := b.client.RemoveObject(ctx, b.cfg.Bucket, obj, minio.RemoveObjectOptions{}); err != nil && !notFound(err) {
		return unavailable("delete", key, err)
	}
	return nil
}

// Walk calls fn with every key under the bucket's prefix and its size, in key order.
func (b *Bucket) Walk(ctx context.Context, fn func(key string, size int64) error) error {
	// Returning early must stop minio's listing goroutine too.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for o := range b.client.ListObjects(ctx, b.cfg.Bucket, minio.ListObjectsOptions{Prefix: b.cfg.Prefix, Recursive: true}) {
		if o.Err != nil {
			return unavailable("list", b.cfg.Prefix, o.Err)
		}
		if err := fn(strings.TrimPrefix(o.Key, b.cfg.Prefix), o.Size); err != nil {
			return err
		}
	}
	return nil
}

// bucketReader reads an object from its current offset, opening a ranged GET lazily when a Seek
// moved it away from where the open body stands.
type bucketReader struct {
	ctx     context.Context
	b       *Bucket
	obj     string
	size    int64
	off     int64 // the reader's position
	body    io.ReadCloser
	bodyOff int64 // where body's next byte is
}

func (r *bucketReader) Read(p []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	if r.body == nil || r.bodyOff != r.off {
		if r.body != nil {
			r.body.Close()
			r.body = nil
		}
		opts := minio.GetObjectOptions{}
		if r.off > 0 {
			if err := opts.SetRange(r.off, 0); err != nil {
				return 0, err
			}
		}
		body, _, _, err := r.b.core.GetObject(r.ctx, r.b.cfg.Bucket, r.obj, opts)
		if err != nil {
			return 0, unavailable("read", r.obj, err)
		}
		r.body, r.bodyOff = body, r.off
	}
	n, err := r.body.Read(p)
	r.off += int64(n)
	r.bodyOff += int64(n)
	if err == io.EOF && r.off < r.size {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

func (r *bucketReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		offset += r.size
	default:
		return 0, errors.New("media: bad whence")
	}
	if offset < 0 {
		return 0, errors.New("media: seek before the start")
	}
	r.off = offset
	return offset, nil
}

func (r *bucketReader) Close() error {
	if r.body != nil {
		return r.body.Close()
	}
	return nil
}
