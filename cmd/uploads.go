package cmd

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"kardan/media"
)

// bucketKeys answers the S3 keys from the environment: Kardan's own names first, then the AWS
// ones every S3 tool reads.
func bucketKeys() (access, secret string) {
	access, secret = os.Getenv("KARDAN_S3_ACCESS_KEY"), os.Getenv("KARDAN_S3_SECRET_KEY")
	if access == "" && secret == "" {
		access, secret = os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY")
	}
	return access, secret
}

// openBucket parses an s3:// URL, takes the keys from the environment and connects, checking
// the bucket once.
func openBucket(ctx context.Context, raw string) (*media.Bucket, error) {
	cfg, err := media.ParseBucketURL(raw)
	if err != nil {
		return nil, err
	}
	cfg.AccessKey, cfg.SecretKey = bucketKeys()
	return media.OpenBucket(ctx, cfg)
}

// OpenStorage answers where images are kept: the bucket of --uploads when it is set, else the
// data directory's uploads/.
func (g *Globals) OpenStorage(ctx context.Context) (media.Storage, error) {
	if g.Uploads == "" {
		return media.NewLocalDir(g.UploadsDir())
	}
	return openBucket(ctx, g.Uploads)
}

// backupUploadsDir is the directory a backup archives images from: none when they live in a
// bucket, which the operator backs up with the bucket's own tools (versioning, replication).
func (g *Globals) backupUploadsDir() string {
	if g.Uploads != "" {
		return ""
	}
	return g.UploadsDir()
}

// checkPublicURL validates --uploads-public-url: an absolute http(s) URL images are redirected to.
func checkPublicURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--uploads-public-url %q: want an http(s) URL such as https://cdn.example.com/kardan", raw)
	}
	return strings.TrimSuffix(raw, "/"), nil
}
