# The front door: `make run` starts the server, `make test` runs the tests.
SWIFT ?= swift

.PHONY: run test bench soak build deps fmt clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build --product feeds

## Installs what is missing, builds, and starts the server on the embedded defaults.
run: build
	$(SWIFT) run --skip-build feeds serve

## Installs what is missing, starts a private PostgreSQL, a primary with a streaming replica and an S3
## store, runs every test, stops them:
## the Swift tests (scripts/swift-tests.sh: a watchdog, and a short output; the whole is in
## .build/swift-tests.log), Stream's Python SDK against the built server (scripts/sdk-conformance.sh),
## schemathesis against the spec it serves (scripts/schema-fuzz.sh) and the admin console in headless
## Chromium (scripts/admin-browser.sh); all four always run.
test: deps
	@echo "Building the server and its tests (debug; errors and warnings only)"
	$(SWIFT) build --build-tests --quiet
	scripts/with-test-postgres.sh scripts/with-test-replica.sh scripts/with-test-s3.sh sh -c \
	  'status=0; SWIFT=$(SWIFT) scripts/swift-tests.sh || status=$$?; scripts/sdk-conformance.sh || status=1; \
	  scripts/schema-fuzz.sh || status=1; scripts/admin-browser.sh || status=1; exit $$status'

## Release build, then the server against its baselines (pgbench, nginx, vipsthumbnail) in the same run:
## a table of ratios and bench/results.json; fails when a target is missed. First, the 100 MB upload's memory on S3.
bench: deps
	scripts/install-deps.sh bench
	$(SWIFT) build -c release --product feeds
	scripts/with-test-postgres.sh scripts/with-test-s3.sh bench/upload-rss.sh .build/release/feeds s3
	scripts/with-test-postgres.sh scripts/with-test-replica.sh bench/run.sh .build/release/feeds

## Release build, then the mixed load for 10 minutes at c=64, and beside it wrk's contention mix on one
## activity, with the server's RSS sampled every 10 s (bench/soak.sh): fails on any error, any lost
## write, any error of the contention mix, or RSS at the end over 1.10x RSS at minute 2.
soak: deps
	scripts/install-deps.sh bench
	$(SWIFT) build -c release --product feeds
	scripts/with-test-postgres.sh bench/soak.sh .build/release/feeds

fmt:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
