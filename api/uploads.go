package api

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"kardan/media"
	"kardan/store"
)

// uploadLimit bounds how many images one user may upload per hour.
func uploadLimit(userID int64) store.Limit {
	return store.Limit{Kind: "upload", Key: strconv.FormatInt(userID, 10), Max: 100, Window: time.Hour}
}

// handleUpload handles "POST /v1/upload-file": multipart uploadKey ("user", "userTechnical" or "comment")
// and file, through the media pipeline. Answers {address, data}.
func (s *Server) handleUpload(w http.ResponseWriter, r *http.Request) error {
	u, err := requireUser(r)
	if err != nil {
		return err
	}
	if s.media == nil {
		return store.Errorf(store.EUnavailable, "uploads_unavailable", nil)
	}
	ctx := r.Context()
	// Reserved before the body is read and never given back: a refused or damaged image cost
	// the decoding all the same, so it counts against the hour like a stored one.
	if _, err := s.store.RateReserve(ctx, uploadLimit(u.ID)); err != nil {
		return err
	}
	key, data, err := s.readUpload(w, r)
	if err != nil {
		return err
	}
	return s.storeImage(w, r, data, func(rec *store.Upload) error {
		rec.UserID, rec.UploadKey = u.ID, key
		return s.store.RecordUpload(ctx, rec)
	})
}

// storeImage processes data through the image pipeline, stores it, has record write its row and
// answers the upload's addresses, as upload-file and lead/upload both answer. When record refuses
// (a pass that expired meanwhile, a race for a request's last photo), the files just stored are
// removed unless a row names them: the purge only walks rows, so files without one would stay
// for good, and the same image uploaded by someone else (content-addressed keys) must stay.
func (s *Server) storeImage(w http.ResponseWriter, r *http.Request, data []byte, record func(*store.Upload) error) error {
	ctx := r.Context()
	im, err := s.media.Process(ctx, data)
	if err != nil {
		return storageError(mediaError(err, s.media.Options()))
	}
	rec := &store.Upload{Address: "/uploads/" + im.Key, Thumb: "/uploads/" + im.ThumbKey,
		SHA256: im.SHA256, Mime: im.Mime, Width: im.Width, Height: im.Height, Size: im.Size}
	if err := record(rec); err != nil {
		s.dropUnrecorded(rec.Address, im.Key, im.ThumbKey)
		return err
	}
	ok(w, map[string]any{
		"address": rec.Address,
		"data": map[string]any{
			"location": "uploads/" + im.Key,
			"thumb":    rec.Thumb,
			"width":    im.Width,
			"height":   im.Height,
			"size":     im.Size,
			"mime":     im.Mime,
		},
	})
	return nil
}

// dropUnrecorded deletes the files of an image whose row was refused, unless a row names its
// address. It runs apart from the request's context, which a refusal may have ended.
func (s *Server) dropUnrecorded(address string, keys ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if kept, err := s.store.UploadRecorded(ctx, address); err != nil || kept {
		if err != nil {
			slog.Warn("unrecorded upload kept", "address", address, "err", err)
		}
		return
	}
	for _, k := range keys {
		if err := s.cfg.Uploads.Delete(ctx, k); err != nil {
			slog.Warn("unrecorded upload not deleted", "key", k, "err", err)
		}
	}
}

// readUpload streams the multipart body (never to temporary files) and answers the upload key
// and the file's bytes, refusing a body over the size limit as soon as it passes it.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (string, []byte, error) {
	fields, data, err := s.readMultipart(w, r, "uploadKey")
	if err != nil {
		return "", nil, err
	}
	key := fields["uploadKey"]
	v := &store.Validation{}
	switch key {
	case store.UploadUser, store.UploadUserTechnical, store.UploadComment:
	case "":
		v.Enter("uploadKey")
	default:
		v.Correct("uploadKey")
	}
	if len(data) == 0 {
		v.Enter("file")
	}
	return key, data, v.Err()
}

// readMultipart streams a multipart body (never to temporary files) and answers the named text
// fields (up to 128 bytes each, trimmed; others are skipped) and the file's bytes, refusing a
// body over the image size limit as soon as it passes it. A missing file is answered as empty
// bytes: the caller reports it with its other fields.
func (s *Server) readMultipart(w http.ResponseWriter, r *http.Request, names ...string) (map[string]string, []byte, error) {
	max := s.media.Options().MaxBytes
	tooLarge := mediaError(media.ErrTooLarge, s.media.Options())
	// Room beyond the file for the multipart framing and the text fields.
	r.Body = http.MaxBytesReader(w, r.Body, max+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		v := &store.Validation{}
		v.Enter("file")
		return nil, nil, v.Err()
	}
	fields := map[string]string{}
	var data []byte
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, tooLarge
			}
			return nil, nil, store.Errorf(store.EInvalid, "info_not_received", nil)
		}
		var b []byte
		name := part.FormName()
		switch {
		case name == "file":
			b, err = io.ReadAll(io.LimitReader(part, max+1))
			data = b
			if int64(len(b)) > max {
				return nil, nil, tooLarge
			}
		case slices.Contains(names, name):
			b, err = io.ReadAll(io.LimitReader(part, 128))
			fields[name] = strings.TrimSpace(string(b))
		default:
			_, err = io.Copy(io.Discard, part)
		}
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				return nil, nil, tooLarge
			}
			return nil, nil, store.Errorf(store.EInvalid, "info_not_received", nil)
		}
	}
	return fields, data, nil
}

// mediaError turns the pipeline's refusals into answers with their own messages.
func mediaError(err error, o media.Options) error {
	switch {
	case errors.Is(err, media.ErrTooLarge):
		return &store.Error{Code: store.ETooLarge, Key: "image_too_large", Args: map[string]any{"max": o.MaxBytes >> 20}}
	case errors.Is(err, media.ErrTooManyPixels):
		return &store.Error{Code: store.EInvalid, Key: "image_too_many_pixels", Args: map[string]any{"max": o.MaxPixels / 1_000_000}, Err: err}
	case errors.Is(err, media.ErrTooCostly):
		return &store.Error{Code: store.EInvalid, Key: "image_too_costly", Err: err}
	case errors.Is(err, media.ErrNotImage):
		return &store.Error{Code: store.EInvalid, Key: "not_an_image", Err: err}
	case errors.Is(err, media.ErrCorrupt):
		return &store.Error{Code: store.EInvalid, Key: "image_corrupt", Err: err}
	}
	return err
}

// uploadName is the only shape of a stored image's path: ab/<sha256>[-400].jpg|png.
var uploadName = regexp.MustCompile(`^[0-9a-f]{2}/([0-9a-f]{64})(-[0-9]+)?\.(jpg|png)$`)

// handleUploadFile handles "GET /uploads/{key}": a stored image. Names are content hashes, so
// an answer never changes and may be cached for a year. With a public URL (a CDN in front of the
// bucket) it redirects there instead of streaming.
func (s *Server) handleUploadFile(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.Path, "/uploads/")
	m := uploadName.FindStringSubmatch(key)
	if m == nil || s.media == nil || key[:2] != m[1][:2] {
		writeError(w, r, store.NotFound())
		return
	}
	if s.cfg.UploadsURL != "" {
		// Found, not Moved Permanently: an operator may change CDNs, and a browser keeps a 301
		// for ever. The redirect itself may be cached for a day.
		w.Header().Set("Cache-Control", "public, max-age=86400")
		http.Redirect(w, r, s.cfg.UploadsURL+"/"+key, http.StatusFound)
		return
	}
	etag := `"` + m[1] + m[2] + `"`
	h := w.Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("ETag", etag)
	// A revalidation is answered from the name alone, without asking the storage (a bucket
	// round trip) for bytes the client already has.
	if inm := r.Header.Get("If-None-Match"); inm != "" && (r.Method == http.MethodGet || r.Method == http.MethodHead) && etagListHas(inm, etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	f, err := s.media.Storage().Open(r.Context(), key)
	if errors.Is(err, fs.ErrNotExist) {
		h.Del("Cache-Control")
		h.Del("ETag")
		writeError(w, r, store.NotFound())
		return
	}
	if err != nil {
		h.Del("Cache-Control")
		h.Del("ETag")
		writeError(w, r, storageError(err))
		return
	}
	defer f.Close()
	h.Set("Content-Type", "image/jpeg")
	if m[3] == "png" {
		h.Set("Content-Type", "image/png")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, "", time.Time{}, f)
}

// etagListHas tells whether an If-None-Match header names etag (or is "*").
func etagListHas(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// storageError answers an image storage that could not be reached (the bucket is down) as an
// outside service failing, with its own message, rather than as an internal error.
func storageError(err error) error {
	if errors.Is(err, media.ErrUnavailable) {
		return &store.Error{Code: store.EUnavailable, Key: "storage_unavailable", Err: err}
	}
	return err
}
