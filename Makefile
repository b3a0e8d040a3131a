# Casefile: `make demo` and `make test` set up a fresh Debian machine (with the Swift toolchain) and run.
SHELL := /bin/bash
SWIFT ?= swift
# Inbox sizes of the end-to-end run benchmark. 50,000 inputs take about ten minutes and 7.2 GB under $TMPDIR;
# make bench BENCH_SIZES="1000 10000" leaves them out.
BENCH_SIZES ?= 1000 10000 50000
# A release build links the Swift runtime, the standard library and Foundation into each program: every retain, release
# and string call is then direct, and a process starts without binding thousands of symbols. On the 1,000-input bench
# inbox a run took 1.07 -> 1.00 s wall and 1.86 -> 1.75 s of processor, with 6 MB less peak memory
# (Benchmarks/2026-11.md).
# Every module, the dependencies' too, is also compiled for cross-module optimization, so the optimizer may inline and
# specialize a function of one module (GRDB's, swift-crypto's, CasefileCore's) into its callers in another. Over 20
# alternating rounds of the 1,000-input bench inbox, a run took 3.11 -> 2.94 s of processor and 1.74 -> 1.66 s wall
# (medians). A clean build of casefile takes about four minutes.
RELEASE := -c release --static-swift-stdlib -Xswiftc -cross-module-optimization
# jemalloc is the allocator the casefile binary links (Package.swift).
PACKAGES := libarchive-dev libzstd-dev libsqlite3-dev libjemalloc-dev pkg-config
PKGCONFIG_MODULES := libarchive libzstd sqlite3 jemalloc

.PHONY: demo test test-release test-release-casefile deps hostile fuzz build release lint bench bench-symbols bench-symbols-run symbol-tools samples symbols clean

## deps: install the system libraries when missing (as root), or print the command to run.
deps:
	@missing=""; \
	if ! command -v pkg-config >/dev/null 2>&1; then missing="$(PACKAGES)"; \
	else for module in $(PKGCONFIG_MODULES); do \
		pkg-config --exists $$module || missing="$$missing $$module"; done; fi; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = "0" ]; then \
			echo "Installing $(PACKAGES) (missing:$$missing)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(PACKAGES) >/dev/null; \
		else \
			echo "Missing system libraries:$$missing. Run: sudo apt-get update && sudo apt-get install -y $(PACKAGES)"; \
			exit 1; \
		fi; \
	fi
	@if ! command -v cmark-gfm >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then echo "Installing cmark-gfm (the rendered-Markdown tests use it)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmark-gfm >/dev/null; \
		else echo "cmark-gfm is missing (the rendered-Markdown tests use it). Run: sudo apt-get install -y cmark-gfm"; fi; \
	fi

build: deps
	$(SWIFT) build --product casefile
	$(SWIFT) build --product casefile-publish

## demo: run the nightly pipeline over SampleReports/ (exit 1 from quarantined bad samples is expected).
demo: build
	@status=0; $$($(SWIFT) build --show-bin-path)/casefile run Pipelines/nightly.toml || status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi; \
	echo ""; \
	echo "Summaries: out/reports/*.md   Groups: out/groups/*.md   Digest: out/digest.md   Index: out/casefile.sqlite"; \
	if command -v cmark-gfm >/dev/null 2>&1; then Scripts/render-html.sh out >/dev/null && \
		echo "In a browser: out/index.html (the digest, every group page and every summary, rendered)"; \
	else echo "No cmark-gfm: no out/index.html. To get it: apt-get install cmark-gfm, then make demo again."; fi; \
	if ! command -v ffmpeg >/dev/null 2>&1; then \
		echo "No ffmpeg on PATH: summaries show no screen frames. To see them: apt-get install ffmpeg, then make demo again (after rm -rf out)."; \
	else echo "Screen frames at each failure: out/reports/<id>/frame-*.jpg (see out/reports/*.md)"; fi; \
	echo "Try: $$($(SWIFT) build --show-bin-path)/casefile groups   and   $$($(SWIFT) build --show-bin-path)/casefile triage SampleReports/checkout-500.clue.zip"

## release: casefile and casefile-publish, the programs a team installs, as release builds with the Swift runtime
## linked in; the command prints where they are. Foundation's networking, which casefile-publish uses, is then linked
## in too, and it links libcurl: its -dev package is installed when missing (as root).
release: deps
	@if ! pkg-config --exists libcurl; then \
		if [ "$$(id -u)" = "0" ]; then echo "Installing libcurl4-openssl-dev (casefile-publish links libcurl)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >/dev/null; \
		else echo "libcurl's -dev package is missing. Run: sudo apt-get install -y libcurl4-openssl-dev"; exit 1; fi; \
	fi
	$(SWIFT) build $(RELEASE) --product casefile
	$(SWIFT) build $(RELEASE) --product casefile-publish
	@echo "Built: $$($(SWIFT) build $(RELEASE) --show-bin-path)/casefile and casefile-publish"

# The end-to-end tests against the release build's casefile (the suite's other tests are the same code).
RELEASE_E2E = CASEFILE_BIN="$$($(SWIFT) build $(RELEASE) --show-bin-path)/casefile" \
	$(SWIFT) test --skip-build --filter CasefileEndToEndTests

## test-release: the end-to-end tests against make release's casefile and casefile-publish.
test-release: release hostile
	$(SWIFT) build --build-tests
	$(RELEASE_E2E)

## test-release-casefile: casefile alone built as make release builds it, then the end-to-end tests against it but those
## of `casefile publish`, which runs casefile-publish from beside it. CI runs it after make test: the build a team
## installs and make bench measures compiles other code (cross-module optimization of every module), and casefile alone
## needs no package beyond make test's (casefile-publish's release build links libcurl).
test-release-casefile: deps hostile
	$(SWIFT) build $(RELEASE) --product casefile
	$(SWIFT) build --build-tests
	$(RELEASE_E2E) --skip PublishCommandTests

## hostile: the large files of the hostile corpus (SampleReports/Hostile/, not committed), written by a script.
hostile:
	@if ! command -v python3 >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-minimal >/dev/null; \
		else echo "python3 is needed to write the hostile corpus. Run: sudo apt-get install -y python3-minimal"; exit 1; fi; \
	fi
	@[ -f SampleReports/Hostile/million-events.clue.zip ] && [ -f SampleReports/Hostile/many-lines.crash ] || \
		python3 Scripts/make-hostile.py --large

## test: the full suite (unit tests and end-to-end tests of the built binary), then the format lint.
test: deps hostile
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	$(MAKE) lint

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests Fuzz/Package.swift Fuzz/Sources

## fuzz: the libFuzzer harnesses (Fuzz/), FUZZ_SECONDS each (default 600), FUZZ_JOBS at a time (default 2),
## seeded from SampleReports/; findings go to Fuzz/findings/.
FUZZ_SECONDS ?= 600
FUZZ_JOBS ?= 2
fuzz: deps
	@# The harness package keeps the main package's file list in its build description: a source file added since the
	@# last fuzz build is "not in scope" until the description is made again.
	rm -f Fuzz/.build/release/description.json
	cd Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	Scripts/fuzz.sh $(FUZZ_SECONDS) $(FUZZ_JOBS)

## bench: release build, then the figures: triage latency, run throughput, parse rates, symbol look-ups,
## fingerprints, the nightly run against its floor on generated inboxes (with what each of the run's stages costs
## beside the floor, the index rows beside SQLite alone on the same rows, and the run over the same inbox with its
## crash reports cut to their crashed thread, then to its images too), an inbox of 200,000 small inputs that keeps its
## files read twice, the same with a million in one folder (the most a run holds at once), 20,000 small inputs each a
## report of its own (the kept inboxes are copies of one report), and symbolication of a large debug file.
bench: deps symbol-tools
	$(SWIFT) build $(RELEASE) --product casefile
	$(SWIFT) build $(RELEASE) --product casefile-benchmarks
	@bin=$$($(SWIFT) build $(RELEASE) --show-bin-path); out=$$(mktemp); \
	{ Scripts/benchmark.sh "$$bin/casefile" && \
	  "$$bin/casefile-benchmarks" SampleReports && \
	  Scripts/bench-run.sh "$$bin/casefile" "$$bin/casefile-benchmarks" $(BENCH_SIZES) && \
	  Scripts/bench-kept-inbox.sh "$$bin/casefile" && \
	  Scripts/bench-kept-inbox.sh "$$bin/casefile" 1000000 1000000 && \
	  Scripts/bench-kept-inbox.sh "$$bin/casefile" 20000 2000 distinct && \
	  $(MAKE) --no-print-directory bench-symbols-run; } | tee "$$out"; \
	status=$${PIPESTATUS[0]}; python3 Scripts/record-benchmarks.py < "$$out"; rm -f "$$out"; exit $$status

## bench-symbols: symbolication against a generated debug file of 20,000 functions, beside llvm-symbolizer alone.
bench-symbols: deps symbol-tools
	$(SWIFT) build $(RELEASE) --product casefile-benchmarks
	@$(MAKE) --no-print-directory bench-symbols-run

bench-symbols-run:
	@work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; \
	Scripts/make-large-symbols.sh "$$work" 20000 && \
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/casefile-benchmarks" SampleReports large-symbols "$$work"

## samples: regenerate SampleReports/ and Tests/Fixtures/ (needs python3 and bsdtar from libarchive-tools).
samples:
	python3 Scripts/make-samples.py

## symbols: rebuild SampleReports/Symbols/ (a real Mach-O, dSYMs, a fat binary) from C sources.
symbols: symbol-tools
	Scripts/make-symbols.sh

## symbol-tools: the fixture toolchain (Debian's lld-14 and llvm-14), installed when missing (as root).
symbol-tools:
	@if ! command -v ld64.lld-14 >/dev/null 2>&1 || ! command -v dsymutil-14 >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then apt-get update -qq && apt-get install -y -qq lld-14 llvm-14 >/dev/null; \
		else echo "Run: sudo apt-get install -y lld-14 llvm-14"; exit 1; fi; fi

clean:
	rm -rf .build out
