# Two commands for a newcomer: `make run` (serve the site on http://127.0.0.1:3000) and `make test`.
# Everything below is idempotent: stamps skip work already done.
SHELL := /bin/bash
.DEFAULT_GOAL := run

PYTHON ?= $(shell command -v python3.11 || command -v python3)
PORT ?= 3000
HOST ?= 127.0.0.1
NODE_VERSION := 22.23.3
BUN_VERSION := 1.4.5

# Project-local Node and bun (when the machine lacks recent ones) and the virtualenv come first on PATH.
export PATH := $(CURDIR)/.tools/node_modules/.bin:$(CURDIR)/.venv/bin:$(PATH)
export PORT
# Reflex must not phone home (telemetry, version checks, network probes) and must use the bun we provide.
export REFLEX_USE_SYSTEM_BUN := 1
export REFLEX_TELEMETRY_ENABLED := false
export REFLEX_CHECK_LATEST_VERSION := 0
export REFLEX_HTTP_CLIENT_BIND_ADDRESS := 0.0.0.0
export NPM_CONFIG_REGISTRY := https://registry.npmjs.org

.PHONY: run dev test lint format setup migrate seed clean screenshots

.venv/.installed: requirements.txt
	test -x .venv/bin/python || $(PYTHON) -m venv .venv
	.venv/bin/python -m pip install --quiet --upgrade pip
	.venv/bin/python -m pip install --quiet -r requirements.txt
	touch $@

.venv/.installed-dev: .venv/.installed requirements-dev.txt
	.venv/bin/python -m pip install --quiet -r requirements-dev.txt
	touch $@

.tools/.ready:
	scripts/ensure-node.sh $(NODE_VERSION) $(BUN_VERSION)
	touch $@

# The accessibility checker the end-to-end tests inject into every public page.
.tools/.axe-ready:
	scripts/ensure-axe.sh
	touch $@

setup: .venv/.installed .tools/.ready

migrate: .venv/.installed
	python -m app.cli migrate

seed: migrate
	python -m app.cli seed-demo

## Serve the whole site in production single-port mode on the embedded SQLite database, with demo content.
run: setup seed
	reflex run --env prod --single-port --frontend-port $(PORT) --backend-port $(PORT) --backend-host $(HOST)

## Serve with reload on save.
dev: setup seed
	reflex run --env preview --frontend-port $(PORT) --backend-port $(PORT) --backend-host $(HOST)

lint: .venv/.installed-dev
	ruff format --check .
	ruff check .

format: .venv/.installed-dev
	ruff format .
	ruff check --fix .

## Lint, then every test (PostgreSQL on 127.0.0.1:5432, Chromium and axe-core are made sure of first).
test: setup .venv/.installed-dev .tools/.axe-ready lint
	scripts/ensure-test-services.sh
	python -m pytest

## Full-page screenshots of every public page at 1280 and 390 px into screenshots/ (git-ignored); starts its own
## server on a free port over the local database with demo content (URL=http://... to shoot a running one).
screenshots: setup .venv/.installed-dev seed
	python scripts/screenshots.py $(if $(URL),--url $(URL))

clean:
	rm -rf .web .states .tools .venv
