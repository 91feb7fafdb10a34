"""Several app processes behind nginx on loopback, sharing one PostgreSQL database and one Redis (`make run-cluster`).

    python tools/reliability/cluster.py                  # 2 processes behind http://127.0.0.1:3000, until Ctrl-C
    python tools/reliability/cluster.py --processes 3 --port 3100
    python tools/reliability/cluster.py --bench          # wrk through nginx: the read routes with 1 and 2 processes

The frontend is built once, into its own folder (`.web-cluster`; `make run` and the tests keep `.web`), for the port
nginx listens on. nginx serves the pages and hashed assets itself and passes the API, Reflex's websocket and uploads
to the processes (`reflex run --env prod --backend-only`, one worker each; deploy/nginx/). A tab's state lives in
Redis, so when the process serving a tab dies its websocket reconnects through nginx to another one and carries on.

Needs nginx (Debian package), PostgreSQL (DATABASE_URL; default: a database `app_cluster` on the local server,
created and filled with the demo content) and Redis (REDIS_URL; default: the local server's database 5).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools.server import free_port  # noqa: E402

NGINX = ROOT / "deploy" / "nginx"
WEB_DIR = ".web-cluster"
DEFAULT_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/app_cluster"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
# nginx leaves a process that failed out for this long: one that comes back is used again only after it.
FAIL_TIMEOUT_S = 5


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _wait_until(ok: Callable[[], bool], what: str, limit: float, proc: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what}: the process exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError, OSError):
            if ok():
                return
        time.sleep(0.3)
    raise RuntimeError(f"{what}: not ready within {limit:.0f} s")


def _process_tree(root: int) -> list[int]:
    """`root` and its child processes (nginx: the master and its workers)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == root:  # the field after the name is the ppid
                children.append(int(stat.parent.name))
    return [root, *children]


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                link = os.readlink(fd)
                if link.startswith("socket:["):
                    inodes.add(link[8:-1])
    return inodes


def ensure_database(url: str) -> None:
    """Create the database `url` names on its server if it does not exist yet."""
    import psycopg

    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise SystemExit(f"unexpected database name {name!r}")
    admin = url.rsplit("/", 1)[0].replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')  # type: ignore[arg-type]


class Cluster:
    """`processes` app processes and nginx in front of them; a context manager that stops them all."""

    def __init__(
        self,
        *,
        port: int,
        processes: int = 2,
        database_url: str = DEFAULT_DATABASE,
        redis_url: str = DEFAULT_REDIS,
        run_dir: Path | None = None,
        extra_env: dict[str, str] | None = None,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.run_dir = run_dir or Path(tempfile.mkdtemp(prefix="cluster-"))
        self.backend_ports = [free_port() for _ in range(processes)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.nginx: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "PORT": str(port),
            "PUBLIC_URL": self.url,
            "TRUSTED_PROXY_HOPS": "1",  # nginx appends the client's address; the processes read it from there
            "GRANIAN_WORKERS": "1",  # one worker per process: a process is the unit that fails and that scales
            "REFLEX_WEB_WORKDIR": WEB_DIR,
            # The pages reach the websocket and the API at nginx's address ("localhost" means the page's own host).
            "REFLEX_API_URL": f"http://localhost:{port}",
            **(extra_env or {}),
        }

    # --- setting up -----------------------------------------------------------------------------------------------

    def prepare(self, *, seed: bool = True) -> None:
        """The database migrated (and the demo content in it) and the frontend built for nginx's port."""
        ensure_database(self.env["DATABASE_URL"])
        self._run([sys.executable, "-m", "app.cli", "migrate"], "migrate")
        if seed:
            self._run([sys.executable, "-m", "app.cli", "seed-demo"], "seed")
        self._run(["reflex", "export", "--frontend-only", "--no-zip", "--env", "prod"], "build")
        if not (self.root / "index.html").exists():
            raise RuntimeError(f"the build left no {self.root / 'index.html'}; see {self.run_dir / 'build.log'}")

    @property
    def root(self) -> Path:
        return ROOT / WEB_DIR / "build" / "client"

    def _run(self, cmd: list[str], name: str) -> None:
        with (self.run_dir / f"{name}.log").open("wb") as out:
            done = subprocess.run(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, check=False)
        if done.returncode:
            raise RuntimeError(f"{name} failed ({done.returncode}); see {self.run_dir / f'{name}.log'}")

    # --- the app processes ----------------------------------------------------------------------------------------

    def start_process(self, index: int) -> None:
        port = self.backend_ports[index]
        cmd = ["reflex", "run", "--env", "prod", "--backend-port", str(port), "--backend-host", "127.0.0.1"]
        env = {**self.env, "REFLEX_BACKEND_ONLY": "true"}  # as --backend-only, and rxconfig.py reads it too
        with (self.run_dir / f"app-{index}.log").open("ab") as out:
            proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs[index] = proc
        health = f"http://127.0.0.1:{port}/api/health"
        _wait_until(lambda: httpx.get(health, timeout=2).status_code == 200, f"app process {index}", 180, proc)

    def rejoin(self, index: int, limit: float = 60) -> None:
        """Start process `index` again and wait until nginx has taken it back: nginx leaves a process that failed out
        for FAIL_TIMEOUT_S and only then sends it requests again, so a fixed wait after the start assumes a warm
        machine. The condition is seen, not guessed: nginx holds a connection to the process after passing it one."""
        self.start_process(index)
        port = self.backend_ports[index]

        def taken_back() -> bool:
            httpx.get(self.url + "/api/health", timeout=5)  # requests through nginx, spread over its processes
            return self._nginx_connected_to(port)

        _wait_until(taken_back, f"nginx taking app process {index} back", limit, self.nginx)

    def _nginx_connected_to(self, port: int) -> bool:
        """Whether one of nginx's processes has an established TCP connection to 127.0.0.1:`port` (Linux /proc)."""
        if self.nginx is None:
            return False
        inodes = {inode for pid in _process_tree(self.nginx.pid) for inode in _socket_inodes(pid)}
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(table) as rows:
                for row in list(rows)[1:]:
                    fields = row.split()
                    remote_port, state, inode = int(fields[2].rsplit(":", 1)[1], 16), fields[3], fields[9]
                    if remote_port == port and state == "01" and inode in inodes:  # 01: ESTABLISHED
                        return True
        return False

    def kill_process(self, index: int) -> None:
        """SIGKILL the process and its workers: a crash, not a shutdown."""
        proc = self.procs.pop(index, None)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()

    # --- nginx ----------------------------------------------------------------------------------------------------

    def start_nginx(self, processes: list[int] | None = None) -> None:
        """nginx in front of the given processes (default: all)."""
        chosen = range(len(self.backend_ports)) if processes is None else processes
        servers = "\n".join(
            f"        server 127.0.0.1:{self.backend_ports[i]} max_fails=1 fail_timeout={FAIL_TIMEOUT_S}s;"
            for i in chosen
        )
        snippets = self.run_dir / "snippets"
        snippets.mkdir(exist_ok=True)
        for name in ("app-locations.conf", "app-security-headers.conf"):
            shutil.copyfile(NGINX / name, snippets / name)
        conf = (NGINX / "cluster.conf.in").read_text()
        for key, value in {"run_dir": self.run_dir, "servers": servers, "port": self.port, "root": self.root}.items():
            conf = conf.replace("{" + key + "}", str(value))
        (self.run_dir / "nginx.conf").write_text(conf)
        self.stop_nginx()
        with (self.run_dir / "nginx.log").open("ab") as out:
            self.nginx = subprocess.Popen(
                ["nginx", "-p", str(self.run_dir), "-c", str(self.run_dir / "nginx.conf")],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_until(lambda: httpx.get(self.url + "/api/health", timeout=2).status_code == 200, "nginx", 30, self.nginx)

    def stop_nginx(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(timeout=10)
        self.nginx = None

    # --- the whole ------------------------------------------------------------------------------------------------

    def start(self) -> Cluster:
        for index in range(len(self.backend_ports)):
            self.start_process(index)
        self.start_nginx()
        return self

    def stop(self) -> None:
        self.stop_nginx()
        for index in list(self.procs):
            self.kill_process(index)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


# --- throughput ------------------------------------------------------------------------------------------------------

BENCH_ROUTES = ["/api/health", "/api/jobs"]


def wrk(url: str, *, connections: int = 64, seconds: int = 10) -> float:
    """Requests per second wrk reaches on `url` (non-2xx answers count as a failed run)."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if "Non-2xx" in out or "Socket errors" in out:
        raise RuntimeError(f"errors during the run:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]


def bench(cluster: Cluster, runs: int) -> list[tuple[str, float, float]]:
    """(route, median req/s with one process, with two) through nginx, the runs interleaved."""
    results: dict[tuple[str, int], list[float]] = {}
    for _ in range(runs):
        for count in (1, 2):
            cluster.start_nginx(list(range(count)))
            for route in BENCH_ROUTES:
                wrk(cluster.url + route, seconds=2)  # warm-up
                results.setdefault((route, count), []).append(wrk(cluster.url + route))
    median = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
    return [(r, median(results[(r, 1)]), median(results[(r, 2)])) for r in BENCH_ROUTES]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--bench", action="store_true", help="measure 1 against 2 processes, then stop")
    parser.add_argument("--runs", type=int, default=3, help="runs per figure with --bench (the median is kept)")
    args = parser.parse_args()
    if shutil.which("nginx") is None:
        sys.exit("nginx is not installed: apt-get install nginx")
    cluster = Cluster(
        port=args.port,
        processes=max(2, args.processes) if args.bench else args.processes,
        database_url=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE,
        redis_url=os.environ.get("REDIS_URL") or DEFAULT_REDIS,
    )
    say(f"Setting up (logs in {cluster.run_dir}) ...")
    with cluster:
        cluster.prepare()
        cluster.start()
        if args.bench:
            cores = os.cpu_count()
            say("\n| route | 1 process (req/s) | 2 processes (req/s) | ratio | cores |\n|---|---|---|---|---|")
            for route, one, two in bench(cluster, args.runs):
                say(f"| GET {route} | {one:.0f} | {two:.0f} | {two / one:.2f} | {cores} |")
            return 0
        say(f"{len(cluster.procs)} processes behind {cluster.url} (Ctrl-C stops them)")
        with contextlib.suppress(KeyboardInterrupt):
            while all(p.poll() is None for p in cluster.procs.values()):
                time.sleep(1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
