# Kardan: one binary. `make run` to try it, `make test` to test it.
# No SQLite build tags: the code uses neither FTS5 nor SQL math functions, and every change of
# tags rebuilds go-sqlite3's C code (minutes). Go commands here and by hand then share one cache
# (by hand, with CGO_CFLAGS as below).
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
COMMIT_DATE := $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS := -X kardan/cmd.Version=$(VERSION) -X kardan/cmd.Commit=$(COMMIT) -X kardan/cmd.CommitDate=$(COMMIT_DATE)
DATA    ?= ./data
ADDR    ?= 127.0.0.1:8080
GO      ?= go
# SQLite's query planner stability guarantee, compiled into go-sqlite3's copy of SQLite: without
# it most cached statements are compiled again at every call (store/sqlite_build.go). Go's own
# default flags stay first. A `go build` by hand without it gives a binary that works the same,
# only slower (serve logs it, doctor warns of it); it also compiles SQLite's C code once more.
CGO_CFLAGS ?= -O2 -g
CGO_CFLAGS += -DSQLITE_ENABLE_QPSG
export CGO_CFLAGS

.PHONY: run build web test test-go test-web test-e2e vet clean bench release release-tools licenses s3server check-html

## run: build the web app and the binary, load the reference data, serve on $(ADDR)
run: web build
	./kardan seed --data $(DATA)
	@echo "Kardan: open http://$(ADDR)"
	./kardan serve --data $(DATA) --addr $(ADDR) --base-url http://$(ADDR)

## build: write the binary to ./kardan (embeds whatever webui/dist holds)
build:
	$(GO) build -ldflags "$(LDFLAGS)" -o kardan .

## web: build the web app into webui/dist
web: webui/node_modules/.installed
	cd webui && npm run build
	@# dist/index.html is a committed placeholder that the build replaces: keep git quiet about it.
	-@git update-index --skip-worktree webui/dist/index.html 2>/dev/null

# `npm ci` installs exactly what the committed lockfile pins (it holds every platform's optional
# packages, so the same file serves Linux, macOS and Windows) and never rewrites it.
webui/node_modules/.installed: webui/package.json webui/package-lock.json
	cd webui && npm ci --no-audit --no-fund
	@touch $@

## test: vet, Go tests with the race detector (with the crash test and the hostile-input sweep),
## a short fuzz run, web unit tests and the bundle budget, browser journeys
test: vet test-go fuzz test-web test-e2e

## vet: go vet, and no Go file over 500 lines outside bench/ and tests unless its top says why
## ("... on purpose: ...")
vet:
	$(GO) vet ./...
	@git ls-files '*.go' ':!:*_test.go' ':!:bench/*' | while read -r f; do \
		n=$$(wc -l < "$$f"); \
		if [ "$$n" -gt 500 ] && ! head -12 "$$f" | grep -q 'on purpose'; then \
			echo "$$f has $$n lines: split it by concern, or say at its top why it is long (\"on purpose: ...\")"; exit 1; \
		fi; \
	done

## s3server: the S3-compatible server the bucket tests start (versitygw, an S3 gateway over a
## directory), built once from the Go module proxy into ~/.cache/kardan-ci/bin: about 4 min and
## 80 MB the first time, nothing after. The version is media/s3server's Version.
S3SERVER_VERSION := $(shell sed -n 's/^const Version = "\(.*\)"$$/\1/p' media/s3server/s3server.go)
S3SERVER := $(HOME)/.cache/kardan-ci/bin/versitygw-$(S3SERVER_VERSION)
s3server: $(S3SERVER)
$(S3SERVER):
	mkdir -p $(dir $@)
	GOBIN=$(dir $@) $(GO) install github.com/versity/versitygw/cmd/versitygw@$(S3SERVER_VERSION)
	cp $(dir $@)versitygw $@

## test-go also prints how many of the security audit's attacks were tried and held
## (api TestAuditAttacks writes the line to AUDIT_REPORT).
AUDIT_REPORT := $(or $(TMPDIR),/tmp)/kardan-audit-attacks.txt
test-go: $(S3SERVER)
	@rm -f $(AUDIT_REPORT)
	KARDAN_AUDIT_REPORT=$(AUDIT_REPORT) $(GO) test -race -count=1 ./...
	@cat $(AUDIT_REPORT)
	@# The store and API suites again on PostgreSQL (a private cluster each test binary starts;
	@# skipped loudly without PostgreSQL's binaries, failed under CI=true). No -race: the pass
	@# above already ran the same code under the race detector.
	KARDAN_TEST_DB=postgres $(GO) test -count=1 ./store/... ./api/...
	@# The bench's SQLite FTS5 peer needs go-sqlite3's sqlite_fts5 tag, as make bench builds it; its
	@# test skips without the tag, so it runs here with it (about a minute the first time: SQLite's C
	@# compiled once more with the tag, then cached).
	$(GO) test -count=1 -tags sqlite_fts5 ./bench/

test-web: webui/node_modules/.installed
	@# Strict type-check (app and tests) and the linter (Biome, with the react-hooks rules): both must be clean.
	cd webui && npm run typecheck
	cd webui && npm run lint
	cd webui && npm test
	@# The bundle budget (initial JavaScript under 80 KiB gzip) needs a build: about 10 s.
	cd webui && npm run build && npm run budget
	-@git update-index --skip-worktree webui/dist/index.html 2>/dev/null

## fuzz: each fuzz target for a number of runs, about 3 s of each here (the committed corpora
## also run in every go test). A count, not a duration: with a duration, Go's fuzzing coordinator
## can fail a target with a bare "context deadline exceeded" when a loaded machine's worker misses
## the deadline (no failing input found). FUZZTIME=1m overrides every count for a longer run.
FUZZ_TARGETS := store:FuzzNormalizeMobile:20000 store:FuzzFoldPersian:20000 store:FuzzCleanText:20000 \
	store:FuzzSlugify:20000 store:FuzzHours:20000 search:FuzzQueryTokens:10000 search:FuzzIndexText:10000 \
	media:FuzzUpload:100 api:FuzzSearchUser:5000 api:FuzzAppendString:20000
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; budget=$${FUZZTIME:-$${rest#*:}x}; \
		echo "fuzz $$fn ($$pkg) for $$budget"; \
		$(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $$budget ./$$pkg/ >/tmp/kardan-fuzz.log 2>&1 \
			|| { cat /tmp/kardan-fuzz.log; exit 1; }; \
	done

## soak: the crash test with 100 SIGKILLs and 10,000 writes (make test runs about 10 kills)
soak:
	KARDAN_CRASH_KILLS=100 KARDAN_CRASH_WRITES=10000 $(GO) test -count=1 -timeout 60m \
		-run '^TestCrashSafety$$' -v ./cmd/

## test-e2e: browser journeys (webui/e2e/journeys) against the built binary in Debian Chromium
test-e2e: web build
	cd webui && npm run e2e

## check-html: the Nu HTML checker (npm vnu-jar, with the machine's Java 17: apt-get install
## default-jre-headless) over the main pages the built binary serves with demo data (home, search,
## category in a city, profile, article, 404, and their /en addresses); fails on any error or warning
check-html: web build tools/check-html/node_modules/.installed
	@command -v java >/dev/null || { echo "check-html needs Java 11+ (apt-get install default-jre-headless)"; exit 1; }
	node tools/check-html/check.mjs

# vnu-jar's install script would fetch a Java runtime of its own: the machine's is used instead.
tools/check-html/node_modules/.installed: tools/check-html/package.json tools/check-html/package-lock.json
	cd tools/check-html && npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

## bench: seed BENCH_N demo profiles and measure Kardan beside PostgreSQL, a bare in-process
## harness and a bare net/http ceiling; writes BENCHMARKS.md and bench/results/ (see bench/README.md)
BENCH_N ?= 100000
BENCH_SIZES ?=
## The benchmark alone is built with go-sqlite3's sqlite_fts5 tag, for its SQLite FTS5 peer (the
## product uses no FTS5); the first build compiles SQLite's C once more, then the cache keeps it.
## BENCH_SIZES=10000,100000,1000000 runs the whole benchmark once per N for the scaling curve.
bench: web build
	$(GO) build -tags sqlite_fts5 -o bench/results/kardan-bench ./bench
	@# The benchmark stops its children itself; the trap makes sure an interrupted make does too.
	BENCH_SIZES=$(BENCH_SIZES) bench/results/kardan-bench run --kardan ./kardan --n $(BENCH_N) $(BENCH_FLAGS) & pid=$$!; \
	trap 'kill -TERM $$pid 2>/dev/null; wait $$pid' INT TERM; \
	wait $$pid

## loadtest: 200 clients for 60 s on mixed reads and writes, each asking again as soon as answered
## (the most writes a second the machine takes), then 60 s of the same 200 clients offered a fixed
## 4,200 requests a second in the same mix (about 1,050 writes a second, issue #25's load: the
## writes' latency there, each counted from when it was due); fails on any 5xx or lost write
LOADTEST_RATE ?= 4200
loadtest: build
	$(GO) build -o bench/results/kardan-bench ./bench
	bench/results/kardan-bench mixed --kardan ./kardan --clients 200 --duration 60s
	bench/results/kardan-bench mixed --kardan ./kardan --clients 200 --duration 60s --rate $(LOADTEST_RATE)

## release: linux/amd64 and linux/arm64 binaries with the web app embedded, -trimpath, the version
## and commit stamped; a tarball per platform (binary, README, LICENSE, licenses.md, systemd unit)
## and SHA256SUMS in release/ (tarballs also carry THIRD_PARTY_NOTICES, every licence text);
## then runs the arm64 binary under qemu (version, seed, doctor).
## Needs: gcc, aarch64-linux-gnu-gcc (apt-get install gcc-aarch64-linux-gnu) and
## qemu-aarch64-static (apt-get install qemu-user-static); it checks and installs nothing itself.
## The first run compiles SQLite twice with -trimpath: minutes on a small machine.
RELEASE_DIR   := release
RELEASE_CC_amd64 ?= gcc
RELEASE_CC_arm64 ?= aarch64-linux-gnu-gcc
QEMU_arm64    ?= qemu-aarch64-static
RELEASE_LDFLAGS := -s -w $(LDFLAGS)
release: release-tools web
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)
	$(GO) run ./tools/licenses -notices > $(RELEASE_DIR)/THIRD_PARTY_NOTICES
	@for arch in amd64 arm64; do \
		cc=$(RELEASE_CC_amd64); [ $$arch = arm64 ] && cc=$(RELEASE_CC_arm64); \
		name=kardan-$(VERSION)-linux-$$arch; dir=$(RELEASE_DIR)/$$name; \
		echo "build $$name with CC=$$cc"; \
		mkdir -p $$dir && \
		CGO_ENABLED=1 GOOS=linux GOARCH=$$arch CC=$$cc $(GO) build -trimpath \
			-ldflags "$(RELEASE_LDFLAGS)" -o $$dir/kardan . || exit 1; \
		cp README.md LICENSE $(RELEASE_DIR)/THIRD_PARTY_NOTICES docs/kardan.service docs/licenses.md $$dir/ && \
		tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="$(COMMIT_DATE)" \
			-C $(RELEASE_DIR) -cf - $$name | gzip -9n > $(RELEASE_DIR)/$$name.tar.gz || exit 1; \
		cp $$dir/kardan $(RELEASE_DIR)/kardan-linux-$$arch; \
	done
	cd $(RELEASE_DIR) && sha256sum kardan-linux-* *.tar.gz > SHA256SUMS
	@echo "check the arm64 binary under $(QEMU_arm64)"
	$(QEMU_arm64) -L /usr/aarch64-linux-gnu $(RELEASE_DIR)/kardan-linux-arm64 version
	rm -rf $(RELEASE_DIR)/qemu-data && mkdir -p $(RELEASE_DIR)/qemu-data
	$(QEMU_arm64) -L /usr/aarch64-linux-gnu $(RELEASE_DIR)/kardan-linux-arm64 seed --data $(RELEASE_DIR)/qemu-data
	$(QEMU_arm64) -L /usr/aarch64-linux-gnu $(RELEASE_DIR)/kardan-linux-arm64 doctor --data $(RELEASE_DIR)/qemu-data
	rm -rf $(RELEASE_DIR)/qemu-data
	@ls -l $(RELEASE_DIR) && cat $(RELEASE_DIR)/SHA256SUMS

release-tools:
	@command -v $(RELEASE_CC_amd64) >/dev/null || { echo "make release needs $(RELEASE_CC_amd64) (apt-get install gcc)"; exit 1; }
	@command -v $(RELEASE_CC_arm64) >/dev/null || { echo "make release needs $(RELEASE_CC_arm64) (apt-get install gcc-aarch64-linux-gnu)"; exit 1; }
	@command -v $(QEMU_arm64) >/dev/null || { echo "make release needs $(QEMU_arm64) to check the arm64 binary (apt-get install qemu-user-static)"; exit 1; }
	@[ -d /usr/aarch64-linux-gnu/lib ] || { echo "make release needs the arm64 C library for qemu: /usr/aarch64-linux-gnu (apt-get install libc6-dev-arm64-cross)"; exit 1; }

## licenses: regenerate docs/licenses.md from the Go module graph and webui's production packages
licenses: webui/node_modules/.installed
	$(GO) run ./tools/licenses > docs/licenses.md.new || { rm -f docs/licenses.md.new; exit 1; }
	mv docs/licenses.md.new docs/licenses.md

## clean: remove build output (not ./data)
clean:
	rm -f kardan
	rm -rf $(RELEASE_DIR)
	rm -rf webui/dist/assets webui/node_modules/.installed
