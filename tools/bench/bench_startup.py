"""Start-up benchmark: from `make run` to the first 200 on `/`, on a built checkout and on a fresh clone (issue 14),
and, in the same run, `make serve` and a backend-only start as the ceiling they are held to (issue 27, point 1).

    python tools/bench/bench_startup.py                  # both: 3 runs on this checkout, 1 on a fresh clone
    python tools/bench/bench_startup.py --only built     # only this checkout (--runs N)
    python tools/bench/bench_startup.py --only fresh     # only a fresh clone
    python tools/bench/bench_startup.py --warm-caches    # the fresh clone may use this machine's pip/npm/bun caches

What it does:
- built: runs `make run PORT=<port>` in this checkout and times from starting the command to the first HTTP 200
  on `/` (the stamps skip setup; migrations and the demo seed run as they always do, the frontend build only if its
  inputs changed: tools/frontend.py), then stops it (its whole process group: make and the server it spawns);
  `--runs` times, the median reported. One free port is chosen for the whole benchmark (a build is made for the
  port its pages call back to). A checkout that is not built yet for it is built first by one untimed `make run`;
- serve: `make serve PORT=<port>` (the backend against the existing build), timed until `/` and `/api/health` both
  answer 200; target 5 s;
- backend-only: `reflex run --env prod --backend-only` on the same database, timed until `/api/health` answers 200:
  the ceiling a second `make run` is held to (within 2x), measured in the same run because the machine is shared;
- fresh: `git clone` of this repository (its committed HEAD) into a temporary folder, then the same timing of
  `make run PORT=<free port>` there: the virtualenv created and installed from the hashed lock files, Node and bun
  made sure of (tools/dev/ensure-node.sh), the database migrated and seeded, the first frontend build. One run. The
  pip, npm and bun caches start empty (folders of the run's own) unless --warm-caches; the machine's pip and npm
  configuration (indexes, mirrors) applies as it does for anyone on this machine. The clone is deleted afterwards.

`make run` gets the environment a newcomer's shell has: no activated virtualenv, none of this project's variables
(the Makefile sets Reflex's switches itself), the project's tool folders off PATH. Each run's output goes to
bench/server-startup-<which>.log with the seconds since the start before every line; the report names the moments
the steps ended (the virtualenv installed, Node and bun ready, the demo seed done and `reflex run` started, Reflex's
compile, its production build, the app running).

Writes the section "Start-up (issue 14)" of bench/report.md (the other sections are kept) and prints it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools.reliability.torture import replace_section  # noqa: E402  (one "## ..." section of a report replaced)
from tools.server import free_port, toolchain_env  # noqa: E402

OUT = ROOT / "bench"
SECTION = "Start-up (issue 14)"
# Lines `make run` prints when a step is done (make echoes each command before running it), in the order they come.
MILESTONES = [
    ("virtualenv installed", "touch .venv/.installed"),
    ("Node and bun ready", "touch .tools/.ready"),
    ("demo seed done, the build checked", "python tools/frontend.py"),
    # Reflex's own progress lines, printed when each step ends (only when the frontend is built).
    ("pages compiled", "Compiling:"),
    ("production build done", "Creating Production Build:"),
    ("server started", "python tools/serve.py"),
    ("app running", "App running at:"),
]
SERVE_TARGET_S = 5.0  # `make serve` answers `/` and `/api/health` within this
RATIO_TARGET = 2.0  # a second `make run` within this many times a backend-only start
# Variables of an activated project shell that a newcomer's shell does not have: `make run` must set what it needs.
# MAKEFLAGS and its kin: under `make bench-startup`, the inner `make run` must not inherit the outer make's options.
PROJECT_VARS = ("VIRTUAL_ENV", "PYTHONPATH", "DATABASE_URL", "REDIS_URL", "PUBLIC_URL", "DATA_DIR", "APP_ENV", "PORT")
MAKE_VARS = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")


def say(text: str = "") -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def newcomer_env(caches: Path | None) -> dict[str, str]:
    """This process's environment without the project's virtualenv, tools and variables; empty caches if given."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PROJECT_VARS + MAKE_VARS and not k.startswith(("REFLEX_", "NPM_CONFIG_", "GRANIAN_"))
    }
    path = [p for p in env.get("PATH", "").split(":") if p and "/.venv/" not in p + "/" and "/.tools/" not in p + "/"]
    env["PATH"] = ":".join(path)
    if caches is not None:
        env["PIP_CACHE_DIR"] = str(caches / "pip")
        env["npm_config_cache"] = str(caches / "npm")
        env["BUN_INSTALL_CACHE_DIR"] = str(caches / "bun")
    return env


@dataclass
class Timing:
    seconds: float | None  # None: no 200 before the limit
    milestones: dict[str, float] = field(default_factory=dict)
    log: Path | None = None
    note: str = ""


def time_make_run(checkout: Path, env: dict[str, str], log: Path, limit_s: float, port: int | None = None) -> Timing:
    """Start `make run PORT=<port>` in the checkout; seconds until `/` first answers 200; stop it."""
    port = port or free_port()
    return time_start(["make", "run", f"PORT={port}"], checkout, env, log, limit_s, [f"http://127.0.0.1:{port}/"])


def time_start(
    cmd: list[str], checkout: Path, env: dict[str, str], log: Path, limit_s: float, urls: list[str]
) -> Timing:
    """Start `cmd` in the checkout; seconds until every one of `urls` has answered 200; stop it."""
    started = time.monotonic()
    proc = subprocess.Popen(
        cmd,
        cwd=checkout,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # make, reflex and its server in one process group, stopped together
    )
    timing = Timing(seconds=None, log=log)

    def copy_output() -> None:  # each line with its time, and the Makefile's steps as they end
        assert proc.stdout is not None
        with log.open("w") as out:
            for raw in proc.stdout:
                at = time.monotonic() - started
                line = raw.decode(errors="replace").rstrip()
                out.write(f"[{at:7.1f}] {line}\n")
                out.flush()
                for name, marker in MILESTONES:
                    if name not in timing.milestones and line.startswith(marker):
                        timing.milestones[name] = at

    reader = threading.Thread(target=copy_output, daemon=True)
    reader.start()
    waiting = list(urls)
    try:
        with httpx.Client(timeout=2) as http:
            while time.monotonic() - started < limit_s:
                if proc.poll() is not None:
                    timing.note = f"`{shlex.join(cmd[:2])}` exited with {proc.returncode} before answering"
                    break
                with contextlib.suppress(httpx.HTTPError):
                    waiting = [u for u in waiting if http.get(u).status_code != 200]
                if not waiting:
                    timing.seconds = time.monotonic() - started
                    break
                time.sleep(0.1)
            else:
                timing.note = f"no 200 within {limit_s:.0f} s"
    finally:
        stop(proc)
        reader.join(timeout=10)
    return timing


def stop(proc: subprocess.Popen[bytes]) -> None:
    """The whole process group: make, reflex and the server it spawned."""
    with_pgid = proc.pid
    try:
        os.killpg(with_pgid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(with_pgid, signal.SIGKILL)
        proc.wait(timeout=30)
    # make may be gone while a child of the group is still shutting down; nothing of the group may outlive the run.
    deadline = time.monotonic() + 30
    while _group_alive(with_pgid) and time.monotonic() < deadline:
        time.sleep(0.5)
    if _group_alive(with_pgid):
        os.killpg(with_pgid, signal.SIGKILL)


def _group_alive(pgid: int) -> bool:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def is_built(checkout: Path, env: dict[str, str], port: int) -> bool:
    """The setup stamps are up to date (`make -q`) and the frontend is built for `port` from the current inputs."""
    stamps = ["-q", ".venv/.installed", ".venv/.activate-hook", ".tools/.ready"]
    fresh = subprocess.run(["make", *stamps], cwd=checkout, env=env, capture_output=True).returncode == 0
    check = [str(checkout / ".venv" / "bin" / "python"), "tools/frontend.py", "--check"]
    current = subprocess.run(check, cwd=checkout, env={**env, "PORT": str(port)}, capture_output=True)
    return fresh and current.returncode == 0


def built_runs(args: argparse.Namespace, port: int) -> tuple[list[Timing], str]:
    env = newcomer_env(None)
    note = ""
    if not is_built(ROOT, env, port):
        say("this checkout is not built yet for the port: one untimed `make run` first…")
        prep = time_make_run(ROOT, env, OUT / "server-startup-prepare.log", args.limit, port)
        if prep.seconds is None:
            raise SystemExit(f"the preparing `make run` failed ({prep.note}); see {prep.log}")
        note = f"built first by one untimed `make run` ({prep.seconds:.0f} s)"
    runs = []
    for n in range(1, args.runs + 1):
        t = time_make_run(ROOT, env, OUT / f"server-startup-built-{n}.log", args.limit, port)
        say(f"built checkout, run {n}: " + (f"{t.seconds:.1f} s" if t.seconds is not None else t.note))
        runs.append(t)
    return runs, note


def serve_runs(args: argparse.Namespace, port: int) -> list[Timing]:
    """`make serve` against the build `built_runs` left for `port`: until `/` and `/api/health` answer."""
    env, base = newcomer_env(None), f"http://127.0.0.1:{port}"
    runs = []
    for n in range(1, args.runs + 1):
        log = OUT / f"server-startup-serve-{n}.log"
        t = time_start(["make", "serve", f"PORT={port}"], ROOT, env, log, 120, [base + "/", base + "/api/health"])
        say(f"make serve, run {n}: " + (f"{t.seconds:.1f} s" if t.seconds is not None else t.note))
        runs.append(t)
    return runs


def backend_runs(args: argparse.Namespace) -> list[Timing]:
    """The backend alone (no frontend to build or mount), on the local database: until `/api/health` answers."""
    runs = []
    for n in range(1, args.runs + 1):
        port = free_port()
        env = toolchain_env({**newcomer_env(None), "REFLEX_BACKEND_ONLY": "true", "PORT": str(port)})
        cmd = [str(ROOT / ".venv" / "bin" / "reflex"), "run", "--env", "prod", "--backend-only"]
        cmd += ["--backend-port", str(port), "--backend-host", "127.0.0.1"]
        log = OUT / f"server-startup-backend-{n}.log"
        t = time_start(cmd, ROOT, env, log, 120, [f"http://127.0.0.1:{port}/api/health"])
        say(f"backend only, run {n}: " + (f"{t.seconds:.1f} s" if t.seconds is not None else t.note))
        runs.append(t)
    return runs


def fresh_run(args: argparse.Namespace) -> tuple[Timing, float, str]:
    folder = Path(tempfile.mkdtemp(prefix="startup-clone-"))
    try:
        clone = folder / "clone"
        started = time.monotonic()
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        clone_s = time.monotonic() - started
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=clone, capture_output=True, text=True)
        env = newcomer_env(None if args.warm_caches else folder / "caches")
        say(f"fresh clone of {head.stdout.strip()} in {clone}; `make run` there…")
        t = time_make_run(clone, env, OUT / "server-startup-fresh.log", args.limit)
        say("fresh clone: " + (f"{t.seconds:.1f} s" if t.seconds is not None else t.note))
        return t, clone_s, head.stdout.strip()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _git(*a: str) -> str:
    return subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip() or "?"


def _machine() -> str:
    mem = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    return f"{os.cpu_count()} cores ({platform.machine()}), {mem} memory"


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _steps(t: Timing) -> str:
    if not t.milestones:
        return "-"
    return ", ".join(f"{name} at {at:.0f} s" for name, at in sorted(t.milestones.items(), key=lambda kv: kv[1]))


def _median(runs: list[Timing]) -> float | None:
    times = [t.seconds for t in runs if t.seconds is not None]
    return statistics.median(times) if len(times) == len(runs) and times else None


def _row(what: str, runs: list[Timing], steps: bool = True) -> str:
    median = _median(runs)
    value = f"{median:.1f} s (median)" if median is not None else "-"
    times = " / ".join(f"{t.seconds:.1f}" if t.seconds is not None else t.note for t in runs)
    return f"| {what} | {value} | {times} | {_steps(runs[-1]) if steps else '-'} |"


def verdicts(built: list[Timing] | None, serve: list[Timing], backend: list[Timing]) -> list[str]:
    """The targets of issue 27, point 1, as lines of the report ("" when not measured)."""
    lines = []
    ceiling = _median(backend)
    if built and ceiling:
        second = _median(built)
        ratio = f"{second / ceiling:.2f}x" if second is not None else "-"
        ok = second is not None and second <= RATIO_TARGET * ceiling
        lines.append(
            f"- A second `make run` (nothing changed) / a backend-only start: {ratio} (target <= {RATIO_TARGET:.0f}x):"
            f" {'pass' if ok else 'FAIL'}"
        )
    if serve:
        worst = max((t.seconds for t in serve if t.seconds is not None), default=None)
        ok = worst is not None and len([t for t in serve if t.seconds]) == len(serve) and worst <= SERVE_TARGET_S
        shown = f"{worst:.1f} s" if worst is not None else "-"
        lines.append(
            f"- `make serve` answers `/` and `/api/health`: slowest of {len(serve)} runs {shown}"
            f" (target <= {SERVE_TARGET_S:.0f} s): {'pass' if ok else 'FAIL'}"
        )
    return lines


def render(
    meta: dict[str, str],
    built: list[Timing] | None,
    built_note: str,
    fresh: Timing | None,
    serve: list[Timing] | None = None,
    backend: list[Timing] | None = None,
) -> list[str]:
    lines = [
        "",
        f"## {SECTION}",
        "",
        f"- When: {meta['when']} (took {meta['duration']}); commit `{meta['commit']}` on `{meta['branch']}`",
        f"- Command: `{meta['command']}`",
        f"- Machine: {meta['machine']}, load average {meta['load_start']} at start, {meta['load_end']} at the end",
        "- Measured: from starting `make run PORT=<free port>` (the shell of a newcomer: no virtualenv activated) "
        "to the first HTTP 200 on `/`.",
        "",
        "| checkout | time to first 200 on `/` | runs | steps of the last run (seconds since `make run`) |",
        "|---|---:|---|---|",
    ]
    if built is not None:
        lines.append(_row("built (this checkout: .venv, .tools and a current build present)", built))
    if serve:
        lines.append(_row("`make serve` (until `/` and `/api/health` answer)", serve, steps=False))
    if backend:
        lines.append(_row("backend only (`reflex run --env prod --backend-only`, `/api/health`)", backend, False))
    if fresh is not None:
        value = f"{fresh.seconds:.1f} s" if fresh.seconds is not None else fresh.note
        lines.append(f"| fresh clone ({meta['fresh_what']}) | {value} | 1 | {_steps(fresh)} |")
    lines.append("")
    if built_note:
        lines += [f"The built checkout was {built_note}.", ""]
    judged = verdicts(built, serve or [], backend or [])
    if judged:
        lines += [*judged, ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=["built", "fresh"], help="measure only one of the two")
    parser.add_argument("--runs", type=int, default=3, help="runs on the built checkout (the median is reported)")
    parser.add_argument("--warm-caches", action="store_true", help="the fresh clone uses the machine's caches")
    parser.add_argument("--limit", type=float, default=2400, help="seconds a `make run` may take to answer")
    parser.add_argument("--report", type=Path, default=OUT / "report.md")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the finally blocks stop `make run` when stopped
    OUT.mkdir(exist_ok=True)
    started = time.monotonic()
    meta = {
        "when": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": _git("rev-parse", "--short", "HEAD"),
        "branch": _git("rev-parse", "--abbrev-ref", "HEAD"),
        "command": shlex.join(["python", "tools/bench/bench_startup.py", *(sys.argv[1:] if argv is None else argv)]),
        "machine": _machine(),
        "load_start": _load(),
    }
    port = free_port()  # one port for the whole run: the build is made for the port its pages call back to
    built, built_note = (None, "") if args.only == "fresh" else built_runs(args, port)
    serve = [] if args.only == "fresh" else serve_runs(args, port)
    backend = [] if args.only == "fresh" else backend_runs(args)
    fresh = None
    if args.only != "built":
        fresh, clone_s, head = fresh_run(args)
        caches = "the machine's pip, npm and bun caches" if args.warm_caches else "empty pip, npm and bun caches"
        meta["fresh_what"] = f"`git clone` of `{head}`, {clone_s:.1f} s, not counted; {caches}"
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    meta["duration"] = f"{minutes} min {seconds} s"
    meta["load_end"] = _load()
    lines = render(meta, built, built_note, fresh, serve, backend)
    replace_section(args.report, SECTION, lines, title="# Benchmarks")
    say("\n".join(lines))
    say(f"written to {args.report}")
    failed = (built is not None and any(t.seconds is None for t in built)) or (fresh is not None and not fresh.seconds)
    return 1 if failed or any(line.endswith("FAIL") for line in verdicts(built, serve, backend)) else 0


if __name__ == "__main__":
    sys.exit(main())
