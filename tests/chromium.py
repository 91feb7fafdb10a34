"""Debian's Chromium as the e2e tests and the benchmark scripts launch it (Playwright's own builds are not used)."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",  # runs as root in the CI container
    "--disable-dev-shm-usage",  # a small /dev/shm in containers crashes tabs
    "--disable-background-networking",  # no calls home during measurements and tests
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
