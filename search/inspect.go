package search

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
)

// ErrNoIndex is answered by Inspect when dir holds no index yet.
var ErrNoIndex = errors.New("no search index yet")

// IndexInfo is what Inspect reads from an index.
type IndexInfo struct {
	// Docs counts the index's documents: visible profiles and Accepted blogs.
	Docs uint64
	// Applied is the last outbox id the index applied.
	Applied int64
	// Version is the index's mapping version; Current tells whether this binary uses it.
	Version string
	Current bool
}

// Inspect reads an index without changing it (kardan doctor). Bleve's lock is exclusive: while a
// server holds the index, Inspect answers ErrLocked after a short wait instead of blocking.
func Inspect(dir string) (IndexInfo, error) {
	if _, err := os.Stat(filepath.Join(dir, "index_meta.json")); err != nil {
		return IndexInfo{}, ErrNoIndex
	}
	cfg := kvConfig()
	cfg["bolt_timeout"] = "2s"
	cfg["read_only"] = true
	idx, err := openWithTimeout(dir, cfg)
	if err != nil {
		return IndexInfo{}, err
	}
	defer idx.Close()
	var info IndexInfo
	if info.Docs, err = idx.DocCount(); err != nil {
		return info, err
	}
	v, err := idx.GetInternal(keyVersion)
	if err != nil {
		return info, err
	}
	info.Version, info.Current = string(v), string(v) == mappingVersion
	p, err := idx.GetInternal(keyOutbox)
	if err != nil {
		return info, err
	}
	if len(p) > 0 {
		if info.Applied, err = strconv.ParseInt(string(p), 10, 64); err != nil {
			return info, err
		}
	}
	return info, nil
}
