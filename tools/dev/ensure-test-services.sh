#!/usr/bin/env bash
# What the tests need besides Python packages: PostgreSQL answering on 127.0.0.1:5432, and Debian's Chromium and
# nginx (the two-process test puts nginx in front; the deploy-config tests serve the TLS sample). Chromium not with
# --no-browser: `make test-fast` runs no browser test.
set -euo pipefail
browser=1
[ "${1:-}" = "--no-browser" ] && browser=0

if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  echo "PostgreSQL is not answering on 127.0.0.1:5432; starting it"
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
  pg_isready -h 127.0.0.1 -p 5432 || { echo "PostgreSQL is still down; start it and retry" >&2; exit 1; }
fi

need() {  # need <program path> <Debian package>
  [ -x "$1" ] && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing Debian's $2 for the end-to-end tests"
    apt-get install -y -q "$2" >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q "$2" >/dev/null; }
  else
    echo "The end-to-end tests need Debian's $2 at $1: sudo apt-get install $2" >&2
    exit 1
  fi
}
need /usr/sbin/nginx nginx  # also without a browser: tests/test_deploy_config.py serves the TLS sample with it
need /usr/bin/promtool prometheus  # promtool checks deploy/prometheus (tests/test_prometheus_rules.py)
if [ "$browser" = 1 ]; then
  need /usr/bin/chromium chromium
  need /usr/bin/redis-server redis-server  # a private one per two-process test
fi
