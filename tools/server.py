"""The site as `make run` serves it (the production build on one port) started on a free port: the one way the
end-to-end tests and the tools (benchmarks, load and fault runs, screenshots) start it, wait for it and stop it.

    with serving(env, log=Path("bench/server.log")) as server:
        httpx.get(server.url)
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT_S = 600  # a cold frontend build plus the first compile on a slow machine
PORT_ATTEMPTS = 3  # a port found free can be taken by another process before the server binds it
# The switches the Makefile gives Reflex (REFLEX_ENV there): no phoning home, the bun of .tools/, the npm registry.
REFLEX_SWITCHES = {
    "REFLEX_USE_SYSTEM_BUN": "1",
    "REFLEX_TELEMETRY_ENABLED": "false",
    "REFLEX_CHECK_LATEST_VERSION": "0",
    "REFLEX_HTTP_CLIENT_BIND_ADDRESS": "0.0.0.0",
    "NPM_CONFIG_REGISTRY": "https://registry.npmjs.org",
}


class ServerFailed(RuntimeError):
    """The server exited, or did not answer in time; the message ends with the tail of its log."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def toolchain_env(env: Mapping[str, str]) -> dict[str, str]:
    """`env` with what `make run` adds, whoever starts the server: the project's Node, bun and virtualenv first on
    PATH and Reflex's switches (those `env` sets itself are kept)."""
    path = f"{ROOT / '.tools' / 'node_modules' / '.bin'}:{Path(sys.executable).parent}:{env.get('PATH', '')}"
    return {**REFLEX_SWITCHES, **env, "PATH": path}


def app_cli(env: Mapping[str, str], *commands: str) -> None:
    """Run `python -m app.cli <command>` for each command (e.g. "migrate", "seed-demo") with `env`."""
    for command in commands:
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", command], cwd=ROOT, env=dict(env), capture_output=True, check=False
        )
        if done.returncode:
            raise ServerFailed(f"app.cli {command} exited with {done.returncode}:\n{done.stderr.decode()[-3000:]}")


@dataclass
class Server:
    url: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path

    def stop(self, timeout_s: float = 60) -> None:
        """Stop the whole process group (reflex and the server it spawned); killed if it has not ended in time."""
        with contextlib.suppress(ProcessLookupError):  # it may have exited on its own
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:  # still draining a backlog
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=timeout_s)


def start(
    env: Mapping[str, str], log: Path, *, port: int | None = None, timeout_s: float = STARTUP_TIMEOUT_S
) -> Server:
    """What `make run` runs after the seed, on loopback with `env` (PORT and PUBLIC_URL set to the port): the frontend
    built for the port unless a build of the same inputs is there (tools/frontend.py), then the backend serving it
    (tools/serve.py); returned once its health check and its home page answer 200. Without `port`, a free one;
    another one when that was taken before the server bound it."""
    log.parent.mkdir(parents=True, exist_ok=True)
    attempt = 1
    while True:
        chosen = port or free_port()
        url = f"http://127.0.0.1:{chosen}"
        build = shlex.join([sys.executable, "tools/frontend.py"])
        serve = shlex.join([sys.executable, "tools/serve.py", "--host", "127.0.0.1", "--port", str(chosen)])
        cmd = ["bash", "-c", f"{build} && exec {serve}"]  # one process group, one log: `make run`'s last two steps
        full_env = toolchain_env({**env, "PORT": str(chosen), "PUBLIC_URL": url})
        with log.open("wb") as out:
            proc = subprocess.Popen(
                cmd, cwd=ROOT, env=full_env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        server = Server(url=url, port=chosen, proc=proc, log=log)
        try:
            _wait_until_up(server, timeout_s)
            return server
        except ServerFailed:
            server.stop(timeout_s=20)
            taken = "already in use" in log.read_text(errors="replace")
            if port is not None or attempt == PORT_ATTEMPTS or not taken:
                raise
        attempt += 1


@contextmanager
def serving(
    env: Mapping[str, str], log: Path, *, port: int | None = None, timeout_s: float = STARTUP_TIMEOUT_S
) -> Iterator[Server]:
    """`start`, and `stop` afterwards whatever happened."""
    server = start(env, log, port=port, timeout_s=timeout_s)
    try:
        yield server
    finally:
        server.stop()


def _wait_until_up(server: Server, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise ServerFailed(f"the server exited with {server.proc.returncode}:\n{_tail(server.log)}")
        with contextlib.suppress(httpx.HTTPError):
            health = httpx.get(f"{server.url}/api/health", timeout=2)
            if health.status_code == 200 and httpx.get(server.url, timeout=5).status_code == 200:
                return
        time.sleep(1)
    raise ServerFailed(f"the server did not answer within {timeout_s:.0f} s:\n{_tail(server.log)}")


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-4000:]
