"""`make torture`: the long runs of the suites that try to break the product, and docs/reliability.md from them.

`make test` runs every suite below with few examples; here the generated ones run deep (SCHEMATHESIS_MAX_EXAMPLES,
HYPOTHESIS_EXAMPLES) and each suite's outcome, size and time goes into a table with the command that reproduces it;
then the load run (tools/bench/load.py: 200 visitors and 50 signed-in clients for 5 minutes) adds p50/p95/p99 per
route, the 5xx count and the server's memory at the start and the end, and the fault run (tools/reliability/faults.py:
PostgreSQL, the app, Redis, SMTP, the scheduling service and the upload disk failing one at a time under load) adds
what failed, how fast it recovered and whether any acknowledged write or mail was lost, and the race scripts
(RACE_SCRIPTS) add what parallel payments record on one invoice, the calendar a burst of anonymous bookers leaves,
and the mail a public trigger can send one recipient in a day.
A suite that fails makes the whole command fail (after the report is written, so the failure is on record).

Usage: python tools/reliability/torture.py [--quick] [--out docs/reliability.md]
       [--only-load | --only-faults | --only-races | --only-suites WORD...]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Suite:
    name: str
    proves: str
    paths: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    quick_env: tuple[tuple[str, str], ...] = ()


SUITES = (
    Suite(
        "Schema-driven requests (schemathesis)",
        "every operation of /api/openapi.json as a visitor, a client and an admin: no 5xx, no response breaking the "
        "schema",
        ("tests/api/test_schemathesis.py",),
        (("SCHEMATHESIS_MAX_EXAMPLES", "100"),),
        (("SCHEMATHESIS_MAX_EXAMPLES", "10"),),
    ),
    Suite(
        "Call sequences (schemathesis, stateful)",
        "sequences feeding one answer's ids into the next request (links inferred from the typed answers), as an "
        "admin and a client: no 5xx, no response breaking the schema",
        ("tests/api/test_schemathesis_stateful.py",),
        (("STATEFUL_EXAMPLES", "300"),),
        (("STATEFUL_EXAMPLES", "15"),),
    ),
    Suite(
        "Property tests (hypothesis)",
        "contact, registration, profile, projects, invoice arithmetic, booking slots, any text: a clear 4xx that "
        "changes nothing or a correct stored result; every offered slot keeps every rule, nothing is booked twice",
        ("tests/api/test_properties.py", "tests/services/test_booking_properties.py"),
        (("HYPOTHESIS_EXAMPLES", "1000"),),
        (("HYPOTHESIS_EXAMPLES", "40"),),
    ),
    Suite(
        "Malformed input sweep",
        "NUL, lone surrogates, ids past 2^31, huge pages, wrong JSON types, overflowing money in every operation",
        (
            "tests/api/test_malformed_input.py",
            "tests/api/test_unstorable_text_api.py",
            "tests/api/test_body_types_api.py",
        ),
    ),
    Suite(
        "Reflex events",
        "every handler of every state, signed out and as a client, with malformed payloads and with its id fields "
        "forged to another client's records: nothing revealed, nothing of anyone else's changed",
        ("tests/ui/test_event_fuzz.py",),
    ),
    Suite(
        "Hostile uploads",
        "zip bomb, scripted PDF, path traversal in names, renamed executables, 50 simultaneous uploads",
        ("tests/api/test_upload_attacks.py", "tests/api/test_careers_api.py"),
    ),
    Suite(
        "Sessions and access",
        "stolen, replayed, forged and idle tokens; the permission matrix; limits behind a proxy",
        (
            "tests/api/test_session_attacks.py",
            "tests/api/test_permission_matrix.py",
            "tests/api/test_behind_a_proxy.py",
        ),
    ),
    Suite(
        "Brute force and throttles",
        "50 attackers in two processes get exactly the per-account limit (20 checks per 15 minutes, 80 an hour) and "
        "the owner still signs in; parallel guesses never pass a limit",
        ("tests/services/test_brute_force.py", "tests/services/test_throttle_races.py"),
    ),
    Suite(
        "Backups",
        "a consistent snapshot during writes, restored whole into PostgreSQL and SQLite; damaged backups refused",
        ("tests/services/test_backup.py",),
    ),
    Suite(
        "Served app: headers and origins",
        "security headers on every page, asset and API answer; CORS and the websocket upgrade refused from foreign "
        "origins",
        ("tests/e2e/test_site_shell.py",),
    ),
    Suite(
        "Responses and logs",
        "every operation as a visitor, a client and an admin: security headers, no-store, no stack trace, library, "
        "path or secret in an answer; no password, code or token in the logs of a whole account journey",
        ("tests/api/test_response_hygiene.py",),
    ),
    Suite(
        "Faults answered",
        "a database refusing connections is a fast 503, the pool reconnects; a full disk, an unreachable SMTP "
        "server and a failing scheduling service lose nothing",
        (
            "tests/api/test_database_outage.py",
            "tests/services/test_mail.py",
            "tests/services/test_meeting_types.py",
        ),
    ),
)


@dataclass(frozen=True)
class Result:
    suite: Suite
    tests: int
    failures: int
    seconds: float
    command: str


def run(suite: Suite, *, quick: bool) -> Result:
    env_pairs = suite.quick_env if quick else suite.env
    env = {**os.environ, **dict(env_pairs)}
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", *suite.paths]
        started = time.monotonic()
        subprocess.run(cmd, cwd=ROOT, env=env, check=False)
        seconds = time.monotonic() - started
        if report.exists():
            root = ET.parse(report).getroot()
            node = root if root.tag == "testsuite" else root.find("testsuite")
            assert node is not None
            tests = int(node.get("tests", 0))
            failures = int(node.get("failures", 0)) + int(node.get("errors", 0))
        else:
            tests, failures = 0, 1
    shown = " ".join([*(f"{k}={v}" for k, v in env_pairs), "python -m pytest", *suite.paths])
    return Result(suite, tests, failures, seconds, shown)


def load(*, quick: bool) -> tuple[dict[str, Any] | None, str]:
    """The load run (tools/bench/load.py) and the command that reproduces it."""
    args = ["--visitors", "20", "--clients", "5", "--seconds", "30"] if quick else []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "load.json"
        subprocess.run([sys.executable, "tools/bench/load.py", *args, "--json", str(out)], cwd=ROOT, check=False)
        result = json.loads(out.read_text()) if out.exists() else None
    return result, " ".join(["python tools/bench/load.py", *args])


def load_lines(result: dict[str, Any] | None, command: str) -> list[str]:
    if result is None:
        return ["", "## Load", "", f"The load run did not finish (`{command}`); see bench/load-server.log.", ""]
    lines = [
        "",
        "## Load",
        "",
        f"{result['visitors']} visitors (each from its own loopback address) and {result['clients']} signed-in "
        f"clients for {result['seconds']:.0f} s against the served app (`{command}`): **{result['server_errors']} "
        f"responses 5xx, {result['transport_errors']} failed requests**; the server's memory (RSS of its process "
        f"group) {result['rss_start_mb']} MB at the start, {result['rss_end_mb']} MB at the end. HTTP only: the "
        "websocket's events are not simulated.",
        "",
        "| route | requests | statuses | failed | p50 | p95 | p99 |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["routes"]:
        statuses = ", ".join(f"{code}: {n}" for code, n in r["statuses"].items())
        lines.append(
            f"| {r['route']} | {r['requests']} | {statuses} | {r['errors']} | {r['p50_ms']} ms | {r['p95_ms']} ms "
            f"| {r['p99_ms']} ms |"
        )
    return [*lines, ""]


def machine() -> str:
    memory = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kb = int(meminfo.read_text().split("MemTotal:", 1)[1].split()[0])
        memory = f", {kb / 1024 / 1024:.0f} GiB memory"
    return (
        f"{os.cpu_count()} cores{memory}, {platform.system()} {platform.machine()}, Python {platform.python_version()}"
    )


def commit() -> str:
    run_git = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return run_git.stdout.strip() or "unknown"


def closing_lines() -> list[str]:
    """The report's fixed end: the figures the suites assert, and what is not measured yet."""
    return [
        "",
        "## Figures",
        "",
        "- Password and code checks an attacker gets against one account: **80 per hour** at most (20 per 15-minute",
        "  window, however many addresses and processes attack), target <= 100; the owner signs in from a known",
        "  address during the attack (`tests/services/test_brute_force.py`).",
        "",
        "## Not measured yet",
        "",
        "- Websocket events under load (the load run is HTTP; the fault run drives one browser through the portal).",
        "- A network that drops packets silently (the fault run's relay refuses and resets; the app's connection",
        "  settings for a silent network are checked in `tests/api/test_database_outage.py`).",
        "",
    ]


def write(results: list[Result], loaded: list[str], out: Path, *, quick: bool) -> None:
    lines = [
        "# Reliability",
        "",
        "Written by `make torture` (`tools/reliability/torture.py`); do not edit by hand. Each suite tries to break the"
        " product;",
        "`make test` runs the same suites with few examples, this run with many.",
        "",
        f"- Run: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC at commit `{commit()}`"
        + (" (quick run: the examples of `make test`)" if quick else ""),
        f"- Machine: {machine()}",
        "",
        "| suite | what it proves | tests | failed | time | command |",
        "|---|---|---|---|---|---|",
    ]
    lines += [row(r) for r in results]
    lines += loaded
    lines += closing_lines()
    out.write_text("\n".join(lines))


def row(r: Result) -> str:
    return f"| {r.suite.name} | {r.suite.proves} | {r.tests} | {r.failures} | {r.seconds:.0f} s | `{r.command}` |"


def rerun_suites(out: Path, words: list[str], *, quick: bool) -> int:
    """Run the suites whose names contain one of `words` again and put their rows in place of the old ones (a row
    rerun says when and at which commit); the rest of the report is kept."""
    chosen = [suite for suite in SUITES if any(w.lower() in suite.name.lower() for w in words)]
    text = out.read_text()
    failed = False
    for suite in chosen:
        result = run(suite, quick=quick)
        failed = failed or bool(result.failures or not result.tests)
        stamp = f" (run again {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC at `{commit()}`)"
        new = row(result).replace(f"| {suite.name} |", f"| {suite.name}{stamp} |", 1)
        old = next((line for line in text.splitlines() if line.startswith(f"| {suite.name}")), None)
        text = text.replace(old, new) if old else text
    out.write_text(text)
    return 1 if failed or not chosen else 0


def replace_section(out: Path, name: str, lines: list[str], *, title: str = "# Reliability") -> None:
    """Put `lines` (a "## name" section) into the report in place of the old one, or before "## Figures"; a new
    report starts with `title`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    text = out.read_text() if out.exists() else title + "\n"
    start = text.find(f"\n## {name}\n")
    if start != -1:
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end:] if end != -1 else "\n")
    block = "\n".join(lines).rstrip("\n") + "\n"
    anchor = text.find("\n## Figures\n")
    out.write_text(text[:anchor] + block + text[anchor:] if anchor != -1 else text.rstrip("\n") + "\n" + block)


def rerun_load(out: Path, *, quick: bool) -> int:
    """Replace the Load section of an existing report with a new load run (the other sections are kept)."""
    result, command = load(quick=quick)
    section = load_lines(result, command)
    section.insert(3, f"Run again on its own: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC at commit `{commit()}`.")
    section.insert(4, "")
    replace_section(out, "Load", section)
    ok = result is not None and not result["server_errors"] and not result["transport_errors"]
    return 0 if ok else 1


def faults(out: Path, *, quick: bool) -> bool:
    """The fault run (tools/reliability/faults.py), which writes its own section; whether nothing was lost."""
    args = ["--quick"] if quick else []
    done = subprocess.run(
        [sys.executable, "tools/reliability/faults.py", *args, "--report", str(out)], cwd=ROOT, check=False
    )
    return done.returncode == 0


# Each prints markdown rows "| figure | value | how |": races on money, and what the public can make us spend.
RACE_SCRIPTS = (
    "tools/reliability/measure_money.py",
    "tools/reliability/measure_booking.py",
    "tools/reliability/measure_accounts.py",
)


def races(out: Path) -> bool:
    """The race and public-trigger figures (each script on a database of its own), as the report's Races section."""
    rows, ok = [], True
    for script in RACE_SCRIPTS:
        done = subprocess.run([sys.executable, script], cwd=ROOT, capture_output=True, text=True, check=False)
        ok = ok and done.returncode == 0
        found = [line for line in done.stdout.splitlines() if line.startswith("| ") and not line.startswith("| figure")]
        rows += found or [f"| `{script}` | failed (exit {done.returncode}) | {done.stderr.strip()[-200:]} |"]
    replace_section(
        out,
        "Races and public triggers",
        [
            "## Races and public triggers",
            "",
            f"Run: {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC at commit `{commit()}`"
            " (`python tools/reliability/torture.py"
            " --only-races`). Each figure comes from the real services on a PostgreSQL database of its own.",
            "",
            "| figure | value | how |",
            "|---|---|---|",
            *rows,
            "",
        ],
    )
    # Card payments write their own section (Stripe's events raced by threads; tools/reliability/measure_stripe.py).
    stripe = [sys.executable, "tools/reliability/measure_stripe.py", "--report", str(out)]
    return subprocess.run(stripe, cwd=ROOT, capture_output=True, check=False).returncode == 0 and ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the examples of `make test` (a check of this script)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "reliability.md")
    parser.add_argument(
        "--only-load", action="store_true", help="run the load again and replace only the report's Load section"
    )
    parser.add_argument(
        "--only-faults", action="store_true", help="run the faults again and replace only the report's Faults section"
    )
    parser.add_argument(
        "--only-races", action="store_true", help="measure the races again and replace only the Races section"
    )
    parser.add_argument(
        "--only-suites", nargs="+", metavar="WORD", help="run the suites named by these words again (their rows only)"
    )
    args = parser.parse_args()
    if args.only_suites:
        return rerun_suites(args.out, args.only_suites, quick=args.quick)
    if args.only_races:
        return 0 if races(args.out) else 1
    if args.only_load:
        return rerun_load(args.out, quick=args.quick)
    if args.only_faults:
        return 0 if faults(args.out, quick=args.quick) else 1
    results = [run(suite, quick=args.quick) for suite in SUITES]
    load_result, load_command = load(quick=args.quick)
    write(results, load_lines(load_result, load_command), args.out, quick=args.quick)
    failed = [r.suite.name for r in results if r.failures or not r.tests]
    if load_result is None or load_result["server_errors"] or load_result["transport_errors"]:
        failed.append("Load")
    if not faults(args.out, quick=args.quick):
        failed.append("Faults")
    if not races(args.out):
        failed.append("Races")
    sys.stdout.write(f"{args.out}: {len(results)} suites, failed: {', '.join(failed) or 'none'}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
