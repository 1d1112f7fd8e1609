// Package s3server starts a real S3-compatible server (versitygw, an S3 gateway over a local
// directory) for tests, on a free port in a temporary directory: the bucket storage is tested
// against the S3 protocol itself (SigV4, ranged GETs, listings), not a mock.
//
// The binary is $KARDAN_S3_SERVER, else versitygw on the PATH, else
// ~/.cache/kardan-ci/bin/versitygw-<Version> (where `make s3server` installs it). Without one a test is skipped
// with a loud reason, except under CI=true, where it fails: CI must test the bucket.
package s3server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Version is the versitygw release .ci/run installs.
const Version = "v1.8.0"

// Server is a running S3-compatible server.
type Server struct {
	// Endpoint is host:port of the S3 API (plain http).
	Endpoint string
	// AccessKey and SecretKey are its root account's keys.
	AccessKey, SecretKey string
	// Dir is the directory buckets live under.
	Dir  string
	cmd  *exec.Cmd
	port int
	bin  string
	t    testing.TB
}

// Binary answers the server binary's path, or "" when none is installed.
func Binary() string {
	if p := os.Getenv("KARDAN_S3_SERVER"); p != "" {
		return p
	}
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, ".cache", "kardan-ci", "bin", "versitygw-"+Version)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// Start runs a server for the test and stops it at the test's end. Without a binary it skips
// the test (fails it under CI=true).
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary()
	if bin == "" {
		msg := "NO S3-COMPATIBLE SERVER: the bucket tests did not run. Install one with `make s3server` (or set KARDAN_S3_SERVER)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	s := &Server{AccessKey: "kardantestaccess", SecretKey: "kardan-test-secret-key-0123456789", Dir: t.TempDir(), bin: bin, t: t}
	s.port = freePort(t)
	s.Endpoint = "127.0.0.1:" + strconv.Itoa(s.port)
	s.run()
	t.Cleanup(s.Stop)
	return s
}

func freePort(t testing.TB) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// run starts the process and waits until it answers S3 requests.
func (s *Server) run() {
	s.t.Helper()
	cmd := exec.Command(s.bin, "--quiet", "--port", s.Endpoint, "posix", s.Dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+s.AccessKey, "ROOT_SECRET_KEY="+s.SecretKey)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, err := os.Create(filepath.Join(s.t.TempDir(), "versitygw.log"))
	if err != nil {
		s.t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start %s: %v", s.bin, err)
	}
	s.cmd = cmd
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get("http://" + s.Endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return
		}
		if time.Now().After(deadline) {
			logf.Close()
			out, _ := os.ReadFile(logf.Name())
			s.Stop()
			s.t.Fatalf("the S3 server did not answer on %s within 20 s: %v\n%s", s.Endpoint, err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends the server (the bucket goes down); it can be started again with Restart.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
}

// Restart starts a stopped server again on the same port and directory.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	s.run()
}

// Client answers a client for the server's root account.
func (s *Server) Client() *minio.Client {
	s.t.Helper()
	cl, err := minio.New(s.Endpoint, &minio.Options{Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""), Region: "us-east-1"})
	if err != nil {
		s.t.Fatal(err)
	}
	return cl
}

// MakeBucket creates a bucket.
func (s *Server) MakeBucket(name string) {
	s.t.Helper()
	if err := s.Client().MakeBucket(context.Background(), name, minio.MakeBucketOptions{Region: "us-east-1"}); err != nil {
		s.t.Fatalf("make bucket %s: %v", name, err)
	}
}

// URL answers the --uploads URL of a bucket on this server.
func (s *Server) URL(bucket string) string {
	return fmt.Sprintf("s3://%s?endpoint=http://%s&region=us-east-1", bucket, s.Endpoint)
}

// Env sets the keys in the environment the way an operator would, for the test.
func (s *Server) Env(t testing.TB) {
	t.Setenv("KARDAN_S3_ACCESS_KEY", s.AccessKey)
	t.Setenv("KARDAN_S3_SECRET_KEY", s.SecretKey)
}
