"""Server benchmark: the served app beside a ceiling measured in the same run on the same machine.

Each figure is a ratio to a limit the machine itself sets, because absolute numbers on shared machines mean little:
- `GET /` and `GET /about` (prerendered pages) against nginx serving the same build folder precompressed;
- `GET /api/health` and `GET /api/jobs` against the same FastAPI app without the Reflex stack (one worker each);
- `GET /api/protected/projects` as a signed-in client (no ceiling: reported);
- `POST /api/contact` against raw psycopg INSERT + COMMIT of the same row; each request comes from an address of its
  own (X-Forwarded-For through one trusted proxy hop), so the per-address limit acts as for real visitors;
- sign-ins per second against raw bcrypt checks per second at the same cost on all cores, and the health check's
  p95 during a burst of 20 concurrent sign-ins against its idle p95 (hashing must run off the event loop).
wrk (Debian's package) drives HTTP at 1, 16 and 64 connections; every run reports requests/s, p50/p95/p99 and errors.

Usage: python tools/bench/bench_server.py [--seconds 10] [--json FILE] [--report docs/performance.md]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
os.environ.setdefault("LOAD_DB_NAME", "app_bench_server")
from tools import server  # noqa: E402
from tools.bench import load as served  # noqa: E402  (the load run's database and clients)

CONNECTIONS = (1, 16, 64)
# Prints what wrk measured as one JSON line (wrk's own summary has no p95).
WRK_REPORT = """
done = function(summary, latency, requests)
  io.write(string.format('{"requests": %d, "seconds": %.3f, "errors": %d, "non2xx": %d, "timeouts": %d, '
    .. '"p50_ms": %.2f, "p95_ms": %.2f, "p99_ms": %.2f}\\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, summary.errors.timeout,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000))
end
"""
# Every request from an address of its own, through one trusted proxy hop.
WRK_FORWARDED = """
counter = 0
request = function()
  counter = counter + 1
  local n = counter + math.random(0, 2^20) * 256
  local addr = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  wrk.headers["X-Forwarded-For"] = addr
  return wrk.format(nil, nil, nil, nil)
end
"""


def say(text: str) -> None:
    sys.stdout.write(f"[{time.strftime('%H:%M:%S')}] {text}\n")
    sys.stdout.flush()


def wrk(
    url: str,
    *,
    connections: int,
    seconds: float,
    script: str = "",
    method: str = "GET",
    body: str | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One wrk run; its figures (requests/s, latency percentiles, errors)."""
    lua = WRK_REPORT + script
    if method != "GET":
        lua += f'\nwrk.method = "{method}"\n'
    if body is not None:
        lua += f"\nwrk.body = {json.dumps(body)}\n"
    for name, value in (headers or {}).items():
        lua += f'\nwrk.headers["{name}"] = {json.dumps(value)}\n'
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(lua)
    try:
        threads = min(connections, 2)
        cmd = [
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(connections),
            "-d",
            f"{seconds:.0f}s",
            "--timeout",
            "10s",
            "-s",
            fh.name,
            url,
        ]
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(fh.name)
    figures = json.loads(next(line for line in out.splitlines() if line.startswith("{")))
    figures["rps"] = round(figures["requests"] / figures["seconds"], 1)
    return figures


# ------------------------------------------------------------------------------------------------------- the ceilings


NGINX = """
daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  include /etc/nginx/mime.types;
  sendfile on;
  gzip_static on;
  server {{
    listen 127.0.0.1:{port};
    root {site};
    location / {{ try_files $uri $uri.html $uri/index.html =404; }}
  }}
}}
"""


@contextlib.contextmanager
def static_ceiling(site: Path) -> Iterator[str]:
    """nginx, one worker, serving the build folder's precompressed files: what serving the pages costs at least."""
    if not shutil.which("nginx"):
        sys.exit("nginx is needed for the static ceiling: apt-get install nginx")
    with tempfile.TemporaryDirectory(prefix="bench-nginx-") as root:
        port = server.free_port()
        conf = Path(root) / "nginx.conf"
        conf.write_text(NGINX.format(root=root, port=port, site=site))
        proc = subprocess.Popen(["nginx", "-p", root, "-c", str(conf)], stderr=subprocess.DEVNULL)
        try:
            _wait(f"http://127.0.0.1:{port}/")
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait()


BARE = "from app.api import create_api\napp = create_api()\n"
# Reflex's own static-file server (the class `make run` mounts) alone: what Python serving the same files costs.
BARE_STATIC = (
    "import os\nfrom reflex.utils.precompressed_staticfiles import PrecompressedStaticFiles\n"
    "app = PrecompressedStaticFiles(directory=os.environ['SITE'], html=True, encodings=['brotli', 'gzip'])\n"
)


@contextlib.contextmanager
def api_ceiling(env: dict[str, str], source: str = BARE, probe: str = "/api/health") -> Iterator[str]:
    """An ASGI app alone (by default the same FastAPI app without the Reflex stack) on the server Reflex uses
    (granian), one worker."""
    with tempfile.TemporaryDirectory(prefix="bench-bare-") as folder:
        (Path(folder) / "bare_api.py").write_text(source)
        port = server.free_port()
        env = {**env, "PYTHONPATH": f"{ROOT}:{folder}", "SITE": str(ROOT / ".web" / "build" / "client")}
        cmd = [
            "granian",
            "--interface",
            "asgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "bare_api:app",
        ]
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        try:
            _wait(f"http://127.0.0.1:{port}{probe}")
            yield f"http://127.0.0.1:{port}"
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:  # seen once: a graceful stop waiting on a closed client
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _wait(url: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url, timeout=2).status_code < 500:
                return
        time.sleep(0.25)
    sys.exit(f"{url} did not answer")


def insert_ceiling(database_url: str, *, connections: int, seconds: float) -> dict[str, Any]:
    """Raw psycopg: the contact form's row inserted and committed, one connection per client, no framework."""
    import psycopg

    dsn = database_url.replace("postgresql+psycopg://", "postgresql://")
    done = [0] * connections
    stop = time.monotonic() + seconds

    def work(n: int) -> None:
        with psycopg.connect(dsn) as conn:
            while time.monotonic() < stop:
                conn.execute(
                    "INSERT INTO contact_inquiries (name, email, message, status, priority, newsletter, is_spam, "
                    "created_at, updated_at) VALUES (%s, %s, %s, 'new', 'medium', false, false, now(), now())",
                    ("Bench Visitor", f"bench{n}@example.com", "Ceiling row"),
                )
                conn.commit()
                done[n] += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {"rps": round(sum(done) / seconds, 1)}


def _check(args: tuple[bytes, bytes]) -> bool:
    import bcrypt

    return bcrypt.checkpw(*args)


def bcrypt_ceiling(seconds: float) -> dict[str, Any]:
    """bcrypt checks per second at the app's cost, on every core."""
    import bcrypt

    from app.core import security

    hashed = bcrypt.hashpw(b"Bench-pass-1", bcrypt.gensalt(security.BCRYPT_ROUNDS))
    cores = os.cpu_count() or 1
    with multiprocessing.Pool(cores) as pool:
        started, n = time.monotonic(), 0
        while time.monotonic() - started < seconds:
            n += sum(pool.map(_check, [(b"Bench-pass-1", hashed)] * cores * 2))
        return {"rps": round(n / (time.monotonic() - started), 1), "cost": security.BCRYPT_ROUNDS}


# ------------------------------------------------------------------------------------------------------------ the run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--report", type=Path, help="replace the Server section of this file (docs/performance.md)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers it started when stopped
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    env = {
        **os.environ,
        "APP_ENV": "dev",
        "DATABASE_URL": served.database_url(),
        "DATA_DIR": str(ROOT / ".load-data"),
        "TRUSTED_PROXY_HOPS": "1",  # wrk's requests name their own addresses, as a proxy in front would
    }
    env.pop("REDIS_URL", None)  # one worker, as the ceilings have
    say("preparing the database…")
    username = served.prepare(env, 1)[0]
    say("starting the app…")
    app = server.start(env, ROOT / "bench" / "server-bench.log", timeout_s=900)
    url = app.url
    rows: list[dict[str, Any]] = []

    def pair(name: str, path: str, ceiling_url: str | None, ceiling: str, target: float | None, **kw: Any) -> None:
        for c in CONNECTIONS:
            ours = wrk(url + path, connections=c, seconds=args.seconds, **kw)
            limit = wrk(ceiling_url + path, connections=c, seconds=args.seconds, **kw) if ceiling_url else None
            rows.append(
                {
                    "route": name,
                    "connections": c,
                    "app": ours,
                    "ceiling": limit,
                    "ceiling_name": ceiling,
                    "ratio": round(ours["rps"] / limit["rps"], 2) if limit and limit["rps"] else None,
                    "target": target,
                }
            )
            say(f"{name} c={c}: {ours['rps']} req/s" + (f" vs {limit['rps']} ({rows[-1]['ratio']})" if limit else ""))

    try:
        with httpx.Client(base_url=url, timeout=60) as http:
            for path in ("/", "/about", "/api/jobs"):
                http.get(path)  # warm
            r = http.post("/api/auth/login", json={"identifier": username, "password": served.PASSWORD})
            cookie = f"access_token={r.cookies['access_token']}"
        with static_ceiling(ROOT / ".web" / "build" / "client") as nginx:
            for path in ("/", "/about"):
                pair(
                    f"GET {path}",
                    path,
                    nginx,
                    "nginx, precompressed files",
                    0.5,
                    headers={"Accept-Encoding": "br, gzip"},
                )
        with api_ceiling(env, BARE_STATIC, "/") as python_static:
            pair(
                "GET /",
                "/",
                python_static,
                "Reflex's static files alone (Python)",
                0.5,
                headers={"Accept-Encoding": "br, gzip"},
            )
        with api_ceiling(env) as bare:
            for path in ("/api/health", "/api/jobs"):
                pair(f"GET {path}", path, bare, "FastAPI alone", 0.5)
        pair(
            "GET /api/protected/projects (client)",
            "/api/protected/projects",
            None,
            "",
            None,
            headers={"Cookie": cookie},
        )
        contact = json.dumps({"name": "Bench Visitor", "email": "bench@example.com", "message": "Benchmark inquiry"})
        for c in CONNECTIONS:
            ours = wrk(
                url + "/api/contact",
                connections=c,
                seconds=args.seconds,
                method="POST",
                body=contact,
                headers={"Content-Type": "application/json", "Origin": url},
                script=WRK_FORWARDED,
            )
            limit = insert_ceiling(env["DATABASE_URL"], connections=c, seconds=args.seconds)
            rows.append(
                {
                    "route": "POST /api/contact",
                    "connections": c,
                    "app": ours,
                    "ceiling": limit,
                    "ceiling_name": "psycopg INSERT + COMMIT",
                    "ratio": round(ours["rps"] / limit["rps"], 2),
                    "target": 0.4,
                }
            )
            say(f"POST /api/contact c={c}: {ours['rps']} vs {limit['rps']}")
        login = json.dumps({"identifier": username, "password": served.PASSWORD})
        hashes = bcrypt_ceiling(args.seconds)
        ours = wrk(
            url + "/api/auth/login",
            connections=16,
            seconds=args.seconds,
            method="POST",
            body=login,
            headers={"Content-Type": "application/json", "Origin": url},
            script=WRK_FORWARDED,
        )
        rows.append(
            {
                "route": "POST /api/auth/login",
                "connections": 16,
                "app": ours,
                "ceiling": hashes,
                "ceiling_name": f"bcrypt checks (cost {hashes['cost']}, all cores)",
                "ratio": round(ours["rps"] / hashes["rps"], 2),
                "target": 0.85,
            }
        )
        idle = wrk(url + "/api/health", connections=1, seconds=args.seconds)
        burst: dict[str, Any] = {}
        runner = threading.Thread(
            target=lambda: burst.update(
                wrk(
                    url + "/api/auth/login",
                    connections=20,
                    seconds=args.seconds + 2,
                    method="POST",
                    body=login,
                    headers={"Content-Type": "application/json", "Origin": url},
                    script=WRK_FORWARDED,
                )
            )
        )
        runner.start()
        time.sleep(1)
        during = wrk(url + "/api/health", connections=1, seconds=args.seconds)
        runner.join()
        rows.append(
            {
                "route": "GET /api/health during 20 concurrent sign-ins",
                "connections": 1,
                "app": during,
                "ceiling": idle,
                "ceiling_name": "GET /api/health idle (p95)",
                "ratio": round(during["p95_ms"] / idle["p95_ms"], 2) if idle["p95_ms"] else None,
                "target": 3.0,
            }
        )
    finally:
        app.stop()
    result = {
        "run_at": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip(),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg()),
        "seconds": args.seconds,
        "rows": rows,
    }
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    lines = report_lines(result)
    (ROOT / "bench").mkdir(exist_ok=True)
    (ROOT / "bench" / "server-report.md").write_text("\n".join(lines) + "\n")
    if args.report:
        from torture import replace_section

        replace_section(args.report, "Server (issue 14)", lines)
    say("\n".join(lines))
    return 0


def report_lines(result: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Server (issue 14)",
        "",
        f"`python tools/bench/bench_server.py` at commit `{result['commit']}`, {result['run_at']};",
        f"{result['machine']};",
        f"wrk, {result['seconds']:.0f} s per run, the app as `make run` serves it with one worker (no Redis) and each",
        "ceiling measured right beside it. Ratio: the app's requests/s over the ceiling's (for the health check under",
        "sign-ins: its p95 over its idle p95, lower is better).",
        "",
        "| route | conn. | app req/s | p50 / p95 / p99 ms | errors | ceiling | ceiling req/s | ratio | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in result["rows"]:
        a, c = r["app"], r["ceiling"]
        latency = f"{a['p50_ms']:.1f} / {a['p95_ms']:.1f} / {a['p99_ms']:.1f}"
        errors = a["errors"] + a["non2xx"]
        ceiling = "-" if c is None else (f"p95 {c['p95_ms']:.1f} ms" if "p95" in r["ceiling_name"] else c["rps"])
        target = (
            "-" if r["target"] is None else (f"<= {r['target']}" if "p95" in r["ceiling_name"] else f">= {r['target']}")
        )
        lines.append(
            f"| {r['route']} | {r['connections']} | {a['rps']} | {latency} | {errors} | {r['ceiling_name'] or '-'} |"
            f" {ceiling} | {r['ratio'] if r['ratio'] is not None else '-'} | {target} |"
        )
    return [*lines, ""]


if __name__ == "__main__":
    sys.exit(main())
