"""Several app processes behind nginx on loopback, sharing one PostgreSQL database and one Redis (`make run-cluster`).

    python tools/reliability/cluster.py                  # 2 processes behind http://127.0.0.1:3000, until Ctrl-C
    python tools/reliability/cluster.py --processes 3 --port 3100
    python tools/reliability/cluster.py --bench          # wrk through nginx: the read routes with 1 and 2 processes

The frontend is built once, into its own folder (`.web-cluster`; `make run` and the tests keep `.web`), for the port
nginx listens on. nginx serves the pages and hashed assets itself and passes the API, Reflex's websocket and uploads
to the processes (`reflex run --env prod --backend-only`, one worker each; deploy/nginx/). A tab's state lives in
Redis, so when the process serving a tab dies its websocket reconnects through nginx to another one and carries on.

nginx serves the release that `.web-cluster/releases-<port>/current` points at (tools/reliability/release.py
publishes each build there and keeps older releases' hashed assets). The running cluster is described in
`.web-cluster/cluster.json` (its ports, process ids and nginx), so `make release` can replace its processes one at a
time from another shell.

Needs nginx (Debian package), PostgreSQL (DATABASE_URL; default: a database `app_cluster` on the local server,
created and filled with the demo content) and Redis (REDIS_URL; default: the local server's database 5).
"""

from __future__ import annotations

import argparse
import contextlib
import json
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
STATE_FILE = ROOT / WEB_DIR / "cluster.json"  # the cluster `make run-cluster` runs, for `make release`
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


def _wait_gone(pid: int, proc: subprocess.Popen[bytes] | None, limit: float) -> bool:
    """Wait until process `pid` has exited (and reap it when it is our child); whether it did within `limit`."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if proc is not None:
            if proc.poll() is not None:
                return True
        else:
            with contextlib.suppress(OSError, IndexError):
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    return True  # a zombie of the process that started it: exited
            if not Path(f"/proc/{pid}").exists():
                return True
        time.sleep(0.1)
    return False


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
        backend_ports: list[int] | None = None,
        state_file: Path | None = None,
        releases_dir: Path | None = None,
    ) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.run_dir = run_dir or Path(tempfile.mkdtemp(prefix="cluster-"))
        # One folder per published build, `current` the served one; in the checkout (nginx's workers, which run as
        # another user, read it; the run folder is private), kept from one `make run-cluster` to the next. Per
        # port: a build is made for the address the pages call back to, so a rollback must not pick another's.
        self.releases_dir = releases_dir or ROOT / WEB_DIR / f"releases-{port}"
        self.state_file = state_file or self.run_dir / "cluster.json"
        self.backend_ports = backend_ports or [free_port() for _ in range(processes)]
        self.procs: dict[int, subprocess.Popen[bytes]] = {}
        self.pids: dict[int, int] = {}  # the process (and process group) on each port, also those started elsewhere
        self.in_rotation: list[int] = []  # the processes nginx's upstream names
        self.code_dir = ROOT  # the checkout the processes run (a release may name another)
        self.nginx: subprocess.Popen[bytes] | None = None
        self.overrides = {  # what this cluster sets on top of the environment (kept in the state file)
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "PORT": str(port),
            "PUBLIC_URL": self.url,
            "TRUSTED_PROXY_HOPS": "1",  # nginx appends the client's address; the processes read it from there
            "GRANIAN_WORKERS": "1",  # one worker per process: a process is the unit that fails and that scales
            "REFLEX_WEB_WORKDIR": WEB_DIR,
            # The pages nginx serves, which the processes keep showing the content of now (app/ui/fresh_pages.py).
            "PAGES_DIR": str(self.releases_dir / "current"),
            # The pages reach the websocket and the API at nginx's address ("localhost" means the page's own host).
            "REFLEX_API_URL": f"http://localhost:{port}",
            **(extra_env or {}),
        }
        self.env = {**os.environ, **self.overrides}

    # --- setting up -----------------------------------------------------------------------------------------------

    def prepare(self, *, seed: bool = True) -> None:
        """The database migrated (and the demo content in it) and the frontend built for nginx's port (again only
        when what the build reads changed: tools/frontend.py), published as the first release."""
        from tools.reliability import release  # release.py drives a Cluster; imported here to avoid a cycle

        ensure_database(self.env["DATABASE_URL"])
        self._run([sys.executable, "-m", "app.cli", "migrate"], "migrate")
        if seed:
            self._run([sys.executable, "-m", "app.cli", "seed-demo"], "seed")
        release.build_and_publish(self, log=self.run_dir / "build.log")

    @property
    def root(self) -> Path:
        """What nginx serves: the current release (a symbolic link swapped at once by a release)."""
        return self.releases_dir / "current"

    def _run(self, cmd: list[str], name: str) -> None:
        with (self.run_dir / f"{name}.log").open("wb") as out:
            done = subprocess.run(cmd, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT, check=False)
        if done.returncode:
            raise RuntimeError(f"{name} failed ({done.returncode}); see {self.run_dir / f'{name}.log'}")

    # --- the app processes ----------------------------------------------------------------------------------------

    def start_process(self, index: int) -> None:
        """Start the app on process `index`'s port from `code_dir` and wait until it answers /api/health."""
        port = self.backend_ports[index]
        venv_reflex = self.code_dir / ".venv" / "bin" / "reflex"  # a release's own virtualenv, if it has one
        reflex = str(venv_reflex) if self.code_dir != ROOT and venv_reflex.exists() else "reflex"
        cmd = [reflex, "run", "--env", "prod", "--backend-port", str(port), "--backend-host", "127.0.0.1"]
        env = {**self.env, "REFLEX_BACKEND_ONLY": "true"}  # as --backend-only, and rxconfig.py reads it too
        with (self.run_dir / f"app-{index}.log").open("ab") as out:
            proc = subprocess.Popen(
                cmd, cwd=self.code_dir, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.procs[index] = proc
        self.pids[index] = proc.pid
        self.save_state()
        health = f"http://127.0.0.1:{port}/api/health"
        _wait_until(lambda: httpx.get(health, timeout=2).status_code == 200, f"app process {index}", 180, proc)

    def stop_process(self, index: int, *, limit: float = 30) -> None:
        """Stop process `index` as a shutdown, not a crash: SIGTERM to its group (Granian closes its sockets and
        its workers exit), SIGKILL only if it is still there after `limit` seconds."""
        pid = self.pids.pop(index, None)
        proc = self.procs.pop(index, None)
        self.save_state()
        if pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGTERM)
        if not _wait_gone(pid, proc, limit):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            _wait_gone(pid, proc, 10)

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
        return bool(self.nginx_connections(port))

    def nginx_connections(self, port: int) -> set[str]:
        """The established TCP connections (socket inodes) of nginx's processes to 127.0.0.1:`port` (Linux /proc):
        requests being proxied, idle keep-alive connections and open websockets."""
        master = self.nginx_pid()
        if master is None:
            return set()
        inodes = {inode for pid in _process_tree(master) for inode in _socket_inodes(pid)}
        found = set()
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(OSError), open(table) as rows:
                for row in list(rows)[1:]:
                    fields = row.split()
                    remote_port, state, inode = int(fields[2].rsplit(":", 1)[1], 16), fields[3], fields[9]
                    if remote_port == port and state == "01" and inode in inodes:  # 01: ESTABLISHED
                        found.add(inode)
        return found

    def kill_process(self, index: int) -> None:
        """SIGKILL the process and its workers: a crash, not a shutdown."""
        proc = self.procs.pop(index, None)
        pid = self.pids.pop(index, None)
        self.save_state()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            _wait_gone(pid, proc, 10)

    # --- nginx ----------------------------------------------------------------------------------------------------

    def write_nginx_conf(self, processes: list[int]) -> None:
        """nginx's configuration with the given processes in the upstream."""
        self.in_rotation = list(processes)
        servers = "\n".join(
            f"        server 127.0.0.1:{self.backend_ports[i]} max_fails=1 fail_timeout={FAIL_TIMEOUT_S}s;"
            for i in processes
        )
        snippets = self.run_dir / "snippets"
        snippets.mkdir(exist_ok=True)
        for name in ("app-locations.conf", "app-security-headers.conf"):
            shutil.copyfile(NGINX / name, snippets / name)
        conf = (NGINX / "cluster.conf.in").read_text()
        for key, value in {"run_dir": self.run_dir, "servers": servers, "port": self.port, "root": self.root}.items():
            conf = conf.replace("{" + key + "}", str(value))
        (self.run_dir / "nginx.conf").write_text(conf)
        self.save_state()

    def start_nginx(self, processes: list[int] | None = None) -> None:
        """nginx in front of the given processes (default: all)."""
        self.write_nginx_conf(list(range(len(self.backend_ports))) if processes is None else processes)
        self.stop_nginx()
        with (self.run_dir / "nginx.log").open("ab") as out:
            self.nginx = subprocess.Popen(
                ["nginx", "-p", str(self.run_dir), "-c", str(self.run_dir / "nginx.conf")],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        _wait_until(lambda: httpx.get(self.url + "/api/health", timeout=2).status_code == 200, "nginx", 30, self.nginx)

    def nginx_pid(self) -> int | None:
        """nginx's master process: the one this object started, or the one the pid file names."""
        if self.nginx is not None:
            return self.nginx.pid if self.nginx.poll() is None else None
        with contextlib.suppress(OSError, ValueError):
            pid = int((self.run_dir / "nginx.pid").read_text())
            if Path(f"/proc/{pid}").exists():
                return pid
        return None

    def _nginx_workers(self) -> dict[int, bool]:
        """nginx's worker processes, each with whether it is the old generation finishing its connections."""
        master = self.nginx_pid()
        workers = {}
        for pid in _process_tree(master)[1:] if master else []:
            with contextlib.suppress(OSError):
                title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                if "worker process" in title:
                    workers[pid] = "shutting down" in title
        return workers

    def reload_nginx(self, processes: list[int], *, limit: float = 30) -> None:
        """Put exactly `processes` in nginx's upstream, gracefully: the configuration is checked, the master starts
        new workers with it and the old ones stop accepting but finish what they carry (requests in flight, open
        websockets). Returns once only new workers accept connections."""
        base = ["nginx", "-p", str(self.run_dir), "-c", str(self.run_dir / "nginx.conf")]
        before = set(self._nginx_workers())
        self.write_nginx_conf(processes)
        checked = subprocess.run([*base, "-t", "-q"], capture_output=True, text=True, check=False)
        if checked.returncode:
            raise RuntimeError(f"nginx refused the new configuration: {checked.stderr.strip()}")
        subprocess.run([*base, "-s", "reload"], capture_output=True, check=True)

        def renewed() -> bool:
            accepting = [pid for pid, old in self._nginx_workers().items() if not old]
            return bool(accepting) and not before & set(accepting)

        _wait_until(renewed, "nginx reloading its configuration", limit)

    def stop_nginx(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(timeout=10)
        self.nginx = None

    # --- the state file: the same cluster seen from another process (`make release`) ---------------------------

    def save_state(self) -> None:
        state = {
            "port": self.port,
            "run_dir": str(self.run_dir),
            "backend_ports": self.backend_ports,
            "pids": self.pids,
            "in_rotation": self.in_rotation,
            "code_dir": str(self.code_dir),
            "releases_dir": str(self.releases_dir),
            "overrides": self.overrides,
        }
        self.state_file.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.state_file.with_suffix(".tmp")
        temporary.write_text(json.dumps(state, indent=2))
        temporary.chmod(0o600)  # the database and Redis addresses
        temporary.replace(self.state_file)

    @classmethod
    def attach(cls, state_file: Path) -> Cluster:
        """The cluster a state file describes (started by another process): its processes can be replaced and its
        nginx reloaded from here."""
        state = json.loads(state_file.read_text())
        overrides = dict(state["overrides"])
        cluster = cls(
            port=state["port"],
            database_url=overrides.pop("DATABASE_URL"),
            redis_url=overrides.pop("REDIS_URL"),
            run_dir=Path(state["run_dir"]),
            extra_env=overrides,
            backend_ports=state["backend_ports"],
            state_file=state_file,
            releases_dir=Path(state["releases_dir"]),
        )
        cluster.pids = {int(index): pid for index, pid in state["pids"].items()}
        cluster.in_rotation = state["in_rotation"]
        cluster.code_dir = Path(state["code_dir"])
        return cluster

    def _reload_state(self) -> None:
        """Process ids a release run from another shell wrote (it replaced the processes this object started)."""
        with contextlib.suppress(OSError, ValueError, KeyError):
            state = json.loads(self.state_file.read_text())
            self.pids = {int(index): pid for index, pid in state["pids"].items()}

    # --- the whole ------------------------------------------------------------------------------------------------

    def start(self) -> Cluster:
        for index in range(len(self.backend_ports)):
            self.start_process(index)
        self.start_nginx()
        return self

    def stop(self) -> None:
        self.stop_nginx()
        self._reload_state()
        for index in {*self.procs, *self.pids}:
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


def _interrupt(*_: object) -> None:
    raise KeyboardInterrupt


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
        state_file=None if args.bench else STATE_FILE,
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
        say(f"{len(cluster.procs)} processes behind {cluster.url} (Ctrl-C stops them; `make release` replaces them)")
        signal.signal(signal.SIGTERM, _interrupt)  # `kill` (a supervisor, CI) stops it as Ctrl-C does
        # Until nginx stops or Ctrl-C: a process that dies is nginx's to route around, and `make release` (another
        # shell) replaces processes with ones this script did not start; the state file names them for the stop.
        with contextlib.suppress(KeyboardInterrupt):
            while cluster.nginx is not None and cluster.nginx.poll() is None:
                time.sleep(1)
    STATE_FILE.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
