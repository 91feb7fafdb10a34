# Two commands for a newcomer: `make run` (serve the site on http://127.0.0.1:3000) and `make test`.
# Everything below is idempotent: stamps skip work already done.
SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= $(shell command -v python3.11 || command -v python3)
PORT ?= 3000
BACKEND_PORT ?= 8000
HOST ?= 127.0.0.1
NODE_VERSION := 22.23.3
BUN_VERSION := 1.4.5

# Project-local Node and bun (when the machine lacks recent ones) and the virtualenv come first on PATH.
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(CURDIR)/.venv/bin:$(PATH)
export PORT
# Reflex must not phone home (telemetry, version checks, network probes) and must use the bun we provide. Its dev
# reloader watches the code only: watching data/ too, SQLite's -wal/-shm files restarted the backend every few seconds.
# `make setup` writes the same variables into .venv/bin/activate, so plain `reflex run` works in the activated venv.
REFLEX_ENV := REFLEX_USE_SYSTEM_BUN=1 REFLEX_TELEMETRY_ENABLED=false REFLEX_CHECK_LATEST_VERSION=0 \
	REFLEX_HTTP_CLIENT_BIND_ADDRESS=0.0.0.0 NPM_CONFIG_REGISTRY=https://registry.npmjs.org \
	REFLEX_HOT_RELOAD_OVERRIDE_PATHS=$(CURDIR)/app:$(CURDIR)/alembic:$(CURDIR)/assets:$(CURDIR)/rxconfig.py
$(foreach var,$(REFLEX_ENV),$(eval export $(var)))

# A checkout that moved keeps a virtualenv whose scripts (#!/old/place/.venv/bin/python) and activate script point at
# the old place: it is made afresh (pip's cache has the hashed wheels). A .venv linked to another checkout's is fine.
VENV_MADE_AT := $(shell sed -n 's/^VIRTUAL_ENV="\(.*\)"$$/\1/p' .venv/bin/activate 2>/dev/null)
ifneq ($(VENV_MADE_AT),)
ifneq ($(VENV_MADE_AT),$(realpath .venv))
$(info The virtualenv was made for $(VENV_MADE_AT), this checkout is $(CURDIR): making it afresh.)
$(shell rm -rf .venv)
endif
endif

PIP := .venv/bin/python -m pip --disable-pip-version-check
# Both lock files are compiled for Python 3.11 on any platform, every distribution of every package hashed.
LOCK := uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock"

.PHONY: run build serve run-cluster release release-check dev preview test test-fast lint format lock setup migrate migration seed clean screenshots bench bench-admin bench-ws bench-startup bench-pages torture faults radix-css

# Installed from the hashed lock files only: pip refuses any package, or any file, whose hash is not in the lock.
# The locks hold the whole tree, so pip installs them as they are (--no-deps) and `pip check` proves nothing is
# missing: left to resolve, pip 23 answers a dependency's extra (reflex's `granian[reload]`) with the newest release
# on PyPI, which hash mode then refuses as unpinned.
.venv/.installed: requirements.lock
	test -x .venv/bin/python || $(PYTHON) -m venv .venv
	$(PIP) install --quiet --require-hashes --no-deps -r requirements.lock
	$(PIP) check
	touch $@

.venv/.installed-dev: .venv/.installed requirements-dev.lock
	$(PIP) install --quiet --require-hashes --no-deps -r requirements-dev.lock
	$(PIP) check
	touch $@

# The activated virtualenv gets the toolchain and switches above (between markers, replaced when this file changes).
.venv/.activate-hook: Makefile .venv/.installed
	sed -i '/^# >>> make setup >>>/,/^# <<< make setup <<</d' .venv/bin/activate
	{ echo '# >>> make setup >>> (see the Makefile: Node 22, bun and switches for a plain `reflex run`)'; \
	  echo 'export PATH="$(CURDIR)/.tools/node_modules/.bin:$$PATH"'; \
	  $(foreach var,$(REFLEX_ENV),echo 'export $(var)';) \
	  echo '# <<< make setup <<<'; } >> .venv/bin/activate
	touch $@

.tools/.ready:
	tools/dev/ensure-node.sh $(NODE_VERSION) $(BUN_VERSION)
	mkdir -p $(@D)  # a machine with its own Node 22 and bun fetches nothing, so .tools/ may not exist yet
	touch $@

# The accessibility checker the end-to-end tests inject into every public page.
.tools/.axe-ready:
	tools/dev/ensure-axe.sh
	mkdir -p $(@D)
	touch $@

setup: .venv/.installed .venv/.activate-hook .tools/.ready

# Radix Themes' sources and Radix's PostCSS steps, pinned by tools/dev/radix_css/package-lock.json: for `make
# radix-css`, and for the test that the committed app/ui/radix_components.css is what they make.
.tools/radix-css/.ready: tools/dev/radix_css/package.json tools/dev/radix_css/package-lock.json .tools/.ready
	mkdir -p $(@D)
	cp tools/dev/radix_css/package.json tools/dev/radix_css/package-lock.json $(@D)/
	cd $(@D) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

## Rebuild app/ui/radix_components.css (the Radix Themes components the pages render) from Radix's sources: after a
## Reflex upgrade that moves @radix-ui/themes (pin the same version in tools/dev/radix_css/package.json), or when a
## page starts rendering another Radix component (add it to the lists in tools/dev/radix_css/build.mjs).
radix-css: .tools/radix-css/.ready
	node tools/dev/radix_css/build.mjs .tools/radix-css/node_modules

## Regenerate requirements.lock and requirements-dev.lock from requirements*.txt (needs PyPI); commit all four.
lock: .venv/.installed-dev
	$(LOCK) requirements.txt -o requirements.lock
	$(LOCK) requirements-dev.txt --constraint requirements.lock -o requirements-dev.lock

migrate: .venv/.installed
	python -m app.cli migrate

## A new migration for a change to app/models/ (NAME="what it does"): Alembic's autogenerate against a fresh SQLite
## database at head, so the file holds only the change. Read and finish it before committing (README: "How to
## change the data model").
migration: .venv/.installed
	@test -n "$(NAME)" || { echo 'Say what the migration does: make migration NAME="add invoice notes"'; exit 2; }
	probe=$$(mktemp -d) && trap 'rm -rf "$$probe"' EXIT && \
	DATABASE_URL="sqlite:///$$probe/head.db" alembic upgrade head && \
	DATABASE_URL="sqlite:///$$probe/head.db" alembic revision --autogenerate -m "$(NAME)"

# Migrations and the demo content in one start of Python (each start imports the whole app).
seed: .venv/.installed
	python -m app.cli seed-demo --migrate

## Serve the whole site in production single-port mode on the embedded SQLite database, with demo content. The
## frontend is built only when what the build reads changed since the last build (tools/frontend.py); a second
## `make run` starts as fast as the backend does.
run: setup seed build
	python tools/serve.py --host $(HOST) --port $(PORT)

## Build the frontend for PORT if its inputs changed (FORCE=1: whatever they are); the build is keyed by a hash of the
## code, the lock files and the settings it bakes in (.web/build-inputs.sha256).
build: setup
	python tools/frontend.py $(if $(FORCE),--force)

## Start the backend in production mode against the existing build, nothing compiled or built (make build first;
## an older build is served with a note: a rollback serves the previous release's build).
serve: setup
	python tools/serve.py --host $(HOST) --port $(PORT)

## Reflex's dev mode, reload on save: pages from Vite on PORT (which forwards /api to the backend), backend on
## BACKEND_PORT. The same as `. .venv/bin/activate && reflex run`.
dev: setup seed
	reflex run --frontend-port $(PORT) --backend-port $(BACKEND_PORT) --backend-host $(HOST)

## Two app processes behind nginx on http://127.0.0.1:PORT, sharing Redis and PostgreSQL
## (tools/reliability/cluster.py; needs nginx and the local PostgreSQL and Redis; PROCESSES=3 for more).
## docs/deploy.md: the same behind TLS.
run-cluster: setup
	tools/dev/ensure-test-services.sh --no-browser
	python tools/reliability/cluster.py --port $(PORT) $(if $(PROCESSES),--processes $(PROCESSES))

## A rolling release of this checkout to the cluster `make run-cluster` runs (from another shell): migrate, build the
## frontend once, replace the processes one at a time behind nginx (out of the upstream, drained, stopped, started,
## healthy, back), then switch the pages, older releases' hashed assets kept. ROLLBACK=1: the same to the previous
## release. tools/reliability/release.py; docs/deploy.md, "Rolling release".
release: setup
	python tools/reliability/release.py $(if $(ROLLBACK),--rollback)

## The release under load, measured: a cluster of its own, pages, API and websocket tabs in a loop through a release
## and a rollback; prints the figures for docs/reliability.md ("Rolling release"). 2 to 4 minutes on 2 cores.
release-check: setup .venv/.installed-dev
	tools/dev/ensure-test-services.sh
	RELEASE_CHECK=1 python -m pytest tests/e2e/test_release.py -m e2e -x -q -s $(ARGS)

## Reload on save, one port, the production-like bundle rebuilt at each reload (slower than dev).
preview: setup seed
	reflex run --env preview --frontend-port $(PORT) --backend-port $(PORT) --backend-host $(HOST)

## Formatting, lint, the import contracts (layers) and spelling.
lint: .venv/.installed-dev
	ruff format --check .
	ruff check .
	lint-imports
	mypy
	python tools/dev/typecheck_ui.py
	bandit -q -r app -ll
	typos

format: .venv/.installed-dev
	ruff format .
	ruff check --fix .

## Lint, then every test (PostgreSQL on 127.0.0.1:5432, Chromium and axe-core are made sure of first).
test: setup .venv/.installed-dev .tools/.axe-ready .tools/radix-css/.ready lint
	tools/dev/ensure-test-services.sh
	python -m pytest

## Lint, then every test but the browser ones. Pytest's cache is on: `make test-fast ARGS=--lf` reruns the failures.
test-fast: .venv/.installed-dev .tools/radix-css/.ready lint
	tools/dev/ensure-test-services.sh --no-browser
	python -m pytest -m "not e2e" $(ARGS)

## Full-page screenshots at 1280 and 390 px into screenshots/ (git-ignored): every public page, and signed in (the
## demo accounts) every staff section and tab as the admin and as HR, every portal tab and the account pages as the
## demo client. Each is checked like the browser crawler checks pages (tools/dev/page_checks.py): no sideways scroll,
## no 404 page, no raw codes (users:read, auth.login, in_progress, ISO times, None); fails when one has a problem.
## Starts its own server on a free port over the local database with demo content (URL=http://... to shoot a running
## one with the demo accounts; ONLY=public|admin|staff|client for one set).
screenshots: setup .venv/.installed-dev seed
	python tools/dev/screenshots.py $(if $(URL),--url $(URL)) $(if $(ONLY),--only $(ONLY))

## The long runs of the suites that try to break the product (deep schemathesis and property runs, uploads, sessions,
## brute force, backups), the load run and the fault run; writes docs/reliability.md. About 45 minutes on 2 cores.
torture: setup .venv/.installed-dev .tools/.axe-ready
	tools/dev/ensure-test-services.sh
	python tools/reliability/torture.py

## Only the fault run (PostgreSQL, the app, Redis, SMTP, the scheduling service and the upload disk failing one at a
## time under load; nothing acknowledged may be lost): its section of docs/reliability.md. About 10 minutes; root.
faults: setup .venv/.installed-dev
	tools/dev/ensure-test-services.sh
	python tools/reliability/torture.py --only-faults

## Benchmark of every staff section and portal tab over a large data set (100k inquiries, 20k invoices, ...), against
## the targets first rows < 1 s, websocket frame < 100 KB, state < 1 MB: bench/report.md (git-ignored). Needs
## PostgreSQL and Redis on 127.0.0.1; creates and drops its own database. SCALE=0.05 for a quick run, ARGS for more.
## Then the websocket and start-up benchmarks below add their sections to the same report.
bench: bench-admin bench-ws bench-startup

bench-admin: setup .venv/.installed-dev
	tools/dev/ensure-test-services.sh
	python tools/bench/bench_admin.py $(if $(SCALE),--scale $(SCALE)) $(ARGS)

## 200 tabs on one worker (3 headless Chromium, the rest socket.io clients), an event a second each: round trip
## p50/p95 and server memory per tab against p95 < 50 ms and < 200 KB per tab (tools/bench/bench_ws.py; about 4 minutes
## a run; its own database). WS_ARGS for more, e.g. WS_ARGS="--runs 3".
bench-ws: setup .venv/.installed-dev
	tools/dev/ensure-test-services.sh
	python tools/bench/bench_ws.py $(WS_ARGS)

## Time from `make run` to the first 200 on `/`: 3 runs on this checkout and one on a fresh clone (virtualenv,
## Node and bun, first build; needs PyPI and the npm registry) (tools/bench/bench_startup.py). STARTUP_ARGS for more.
bench-startup: setup
	python tools/bench/bench_startup.py $(STARTUP_ARGS)

## Lighthouse 12.8 (mobile, simulated throttling) on every public page, the sign-in page and, signed in, the portal and
## the staff dashboard: medians of 3 runs against the targets of issue 14 (tools/bench/bench_pages.py; reports in
## bench/pages/; about 6 minutes). Serves the site like `make run` on a free port (tools/server.py); URL=http://...
## measures a running one.
bench-pages: setup .venv/.installed-dev seed
	python tools/bench/bench_pages.py $(if $(URL),--url $(URL)) $(PAGES_ARGS)

clean:
	rm -rf .web .web-cluster .states .tools .venv
