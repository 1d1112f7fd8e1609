package main

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// serverLog reads Kardan's request log (one slog line per request with its path and "ms"), so
// the report can give the server's own latencies beside the client's.
type serverLog struct {
	path   string
	offset int64
}

// logSettle is how long the log is given to catch up before it is read: serve writes its
// request lines in batches at most a tenth of a second apart (cmd's logbuffer.go).
const logSettle = 300 * time.Millisecond

// mark remembers the end of the log: timings are read from there on.
func (l *serverLog) mark() {
	time.Sleep(logSettle)
	if fi, err := os.Stat(l.path); err == nil {
		l.offset = fi.Size()
	}
}

// latencies answers the median and 99th percentile in milliseconds of the requests to path
// logged since mark, and how many there were.
func (l *serverLog) latencies(path string) (p50, p99 float64, n int64) {
	time.Sleep(logSettle)
	f, err := os.Open(l.path)
	if err != nil {
		return 0, 0, 0
	}
	defer f.Close()
	if _, err := f.Seek(l.offset, io.SeekStart); err != nil {
		return 0, 0, 0
	}
	h := &histogram{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	want := " path=" + path + " "
	for sc.Scan() {
		line := sc.Text()
		// A request the load generator cut off at the end of a slice is logged as abandoned
		// (499): the clients count neither it nor its time, and neither does this.
		if !strings.Contains(line, "msg=request ") || !strings.Contains(line, want) || strings.Contains(line, " status=499 ") {
			continue
		}
		i := strings.Index(line, " ms=")
		if i < 0 {
			continue
		}
		v := line[i+4:]
		if j := strings.IndexByte(v, ' '); j >= 0 {
			v = v[:j]
		}
		ms, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		h.record(time.Duration(ms * float64(time.Millisecond)))
	}
	if h.n == 0 {
		return 0, 0, 0
	}
	return h.quantile(0.5), h.quantile(0.99), h.n
}
