package sharecard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Cache keeps drawn cards as files under a directory (the data directory's cards/), so a card is
// drawn once per version and not on every crawler's visit, and survives restarts.
//
// Key: the subject ("profile/12-fa": what the card is of, in which language) and the version (a
// hash of everything the card draws: texts, picture, colour, and the drawing's own version), one
// file SUBJECT-VERSION.png. Invalidation: a changed profile or article has a new version, so its
// card is drawn again under a new name and the subject's older files are removed then; nothing
// is ever read under an old version. TestCacheKeepsOneVersion, api's TestProfileShareCard
// (the card changes after a review) and TestBlogShareCard (after an accepted title edit) prove it.
type Cache struct {
	dir string

	mu       sync.Mutex
	building map[string]*building // by file name: one drawing per card at a time
}

type building struct {
	done chan struct{}
	card []byte
	err  error
}

// NewCache answers a cache over dir, creating it.
func NewCache(dir string) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("share cards directory: %w", err)
	}
	return &Cache{dir: dir, building: map[string]*building{}}, nil
}

var (
	subjectRe = regexp.MustCompile(`^[a-z]+/[0-9]+-[a-z]{2}$`)
	versionRe = regexp.MustCompile(`^[0-9a-f]{8,64}$`)
)

// ErrBadKey is a subject or version that could name a file outside the cache.
var ErrBadKey = errors.New("sharecard: bad cache key")

// Card answers the PNG of subject at version, from its file, or drawn by draw and written
// (atomically: a temporary file renamed into place) when there is none. Concurrent requests for
// the same card wait for one drawing.
func (c *Cache) Card(subject, version string, draw func() ([]byte, error)) ([]byte, error) {
	if !subjectRe.MatchString(subject) || !versionRe.MatchString(version) {
		return nil, ErrBadKey
	}
	name := filepath.Join(c.dir, filepath.FromSlash(subject)+"-"+version+".png")
	if b, err := os.ReadFile(name); err == nil {
		return b, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	c.mu.Lock()
	if b, ok := c.building[name]; ok {
		c.mu.Unlock()
		<-b.done
		return b.card, b.err
	}
	b := &building{done: make(chan struct{})}
	c.building[name] = b
	c.mu.Unlock()

	b.card, b.err = draw()
	if b.err == nil {
		b.err = c.write(subject, name, b.card)
	}
	c.mu.Lock()
	delete(c.building, name)
	c.mu.Unlock()
	close(b.done)
	return b.card, b.err
}

// write stores a card and removes its subject's other versions.
func (c *Cache) write(subject, name string, card []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".card-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(card)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	base := filepath.Base(filepath.FromSlash(subject))
	old, _ := filepath.Glob(filepath.Join(dir, base+"-*.png"))
	for _, f := range old {
		if f != name && versionRe.MatchString(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), base+"-"), ".png")) {
			os.Remove(f)
		}
	}
	return nil
}

// Versions answers the versions of subject kept on disk (for tests and doctor-like checks).
func (c *Cache) Versions(subject string) []string {
	if !subjectRe.MatchString(subject) {
		return nil
	}
	base := filepath.Join(c.dir, filepath.FromSlash(subject))
	files, _ := filepath.Glob(base + "-*.png")
	var out []string
	for _, f := range files {
		v := strings.TrimSuffix(strings.TrimPrefix(f, base+"-"), ".png")
		if versionRe.MatchString(v) {
			out = append(out, v)
		}
	}
	return out
}
