# The front door: `make run` starts the server, `make test` runs the tests.
SWIFT ?= swift

.PHONY: run test build deps fmt clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build --product feeds

## Installs what is missing, builds, and starts the server on the embedded defaults.
run: build
	$(SWIFT) run --skip-build feeds serve

## Installs what is missing, starts a private PostgreSQL, runs every test, stops it.
test: deps
	$(SWIFT) build --build-tests
	scripts/with-test-postgres.sh $(SWIFT) test --skip-build

fmt:
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

clean:
	rm -rf .build
