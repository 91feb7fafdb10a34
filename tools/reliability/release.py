"""A rolling release behind nginx with no failed request (`make release`; issue 27 point 3, ADR 0097).

    python tools/reliability/release.py                 # release the checkout to the cluster `make run-cluster` runs
    python tools/reliability/release.py --rollback      # back to the release served before the current one
    python tools/reliability/release.py --code-dir /srv/app/releases/abc123   # the new code lives elsewhere

The steps, in this order (docs/deploy.md, "Rolling release"):

1. **Migrate** (`python -m app.cli migrate`, the new code's migrations) before any process is replaced. Migrations are
   expand-only: the old code, still serving, must run on the migrated schema (tests/test_migration_rules.py).
2. **Build the frontend once** (tools/frontend.py: only when what it reads changed) and publish it as a release folder
   `<releases>/<commit>-<inputs hash>/`, not yet served.
3. **Replace the app processes one at a time**: take one out of nginx's upstream (the configuration re-rendered,
   `nginx -s reload`: new workers take new connections, old ones finish theirs), wait until its proxied requests have
   finished (drain), stop it (SIGTERM), start the new code on the same port, wait for its /api/health, put it back
   (reload), then the next. A tab whose websocket was on the stopped process reconnects through nginx to another one;
   its state is in Redis.
4. **Switch the pages**: the symbolic link `<releases>/current`, which nginx serves, is swapped at once (rename) to the
   new release, whose `assets/` also holds the hashed assets of the last KEEP releases, so tabs opened on an earlier
   release keep loading their chunks. Older release folders are removed.

A rollback runs steps 3 and 4 to the previous release (its code folder and its build); it does not migrate down: the
schema stays expanded, which the previous code runs on by the rule above.

The cluster is the one tools/reliability/cluster.py runs, seen through its state file (`.web-cluster/cluster.json`
for `make run-cluster`): ports, process ids, nginx's run folder.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools.reliability.cluster import STATE_FILE, Cluster, say  # noqa: E402

KEEP = 3  # releases whose folders, and whose hashed assets, are kept: tabs opened on any of them keep working
DRAIN_QUIET_S = 2.0  # a process is drained when nginx's connections to it stopped changing for this long
DRAIN_LIMIT_S = 60.0  # nginx's proxy_read_timeout: no proxied request outlives it
INFO = "release.json"


# --- release folders -------------------------------------------------------------------------------------------------


def _python(code_dir: Path) -> str:
    """The Python a code folder runs with: its own virtualenv when it has one, else this one."""
    own = code_dir / ".venv" / "bin" / "python"
    return str(own) if code_dir.resolve() != ROOT and own.exists() else sys.executable


def git_commit(code_dir: Path) -> str:
    done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=code_dir, capture_output=True, text=True, check=False)
    return done.stdout.strip() if done.returncode == 0 else "unknown"


def info(releases_dir: Path, release_id: str) -> dict[str, Any]:
    """A release's note (release.json): id, commit, code folder, when it was published, its own hashed assets."""
    return json.loads((releases_dir / release_id / INFO).read_text())


def history(releases_dir: Path) -> list[str]:
    """The releases in the order they were served, the current one last."""
    log = releases_dir / "history"
    return log.read_text().split() if log.exists() else []


def current(releases_dir: Path) -> str | None:
    link = releases_dir / "current"
    return os.readlink(link) if link.is_symlink() else None


def publish(build_root: Path, releases_dir: Path, release_id: str, *, code_dir: Path) -> Path:
    """Copy a finished build into its release folder (once: an id already published is kept as it is), with a note of
    what it is: the commit and code folder it was built from, and its own hashed assets (the names its pages load)."""
    target = releases_dir / release_id
    if (target / INFO).exists():
        return target
    releases_dir.mkdir(parents=True, exist_ok=True)
    partial = releases_dir / f".{release_id}.partial"  # a copy cut short is never taken for a release
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(build_root, partial)
    note = {
        "id": release_id,
        "commit": git_commit(code_dir),
        "code_dir": str(code_dir),
        "published": f"{dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M:%S} UTC",
        "assets": sorted(p.name for p in (partial / "assets").iterdir()),
    }
    (partial / INFO).write_text(json.dumps(note, indent=2))
    partial.rename(target)
    return target


def _kept(releases_dir: Path, release_id: str, keep: int) -> list[str]:
    """`release_id` and the releases served most recently before it, `keep` in all, newest first."""
    kept = [release_id]
    for earlier in reversed(history(releases_dir)):
        if len(kept) >= keep:
            break
        if earlier not in kept and (releases_dir / earlier / INFO).exists():
            kept.append(earlier)
    return kept


def activate(releases_dir: Path, release_id: str, *, keep: int = KEEP) -> None:
    """Serve release `release_id`: its assets folder gets the hashed assets of the releases kept beside it (hard
    links: same name, same content), then the `current` link is swapped in one rename, so a request sees either the
    whole old release or the whole new one. Folders of releases no longer kept are removed."""
    kept = _kept(releases_dir, release_id, keep)
    wanted: dict[str, Path] = {}
    for rid in kept:
        for name in info(releases_dir, rid)["assets"]:
            wanted.setdefault(str(name), releases_dir / rid / "assets" / str(name))
    assets = releases_dir / release_id / "assets"
    for name, source in wanted.items():
        if not (assets / name).exists():
            try:
                os.link(source, assets / name)
            except OSError:  # another file system: a copy does the same
                shutil.copy2(source, assets / name)
    for stale in assets.iterdir():  # assets of releases no longer kept (linked in when this one was served before)
        if stale.name not in wanted:
            stale.unlink()
    swap = releases_dir / ".current.swap"
    swap.unlink(missing_ok=True)
    swap.symlink_to(release_id)  # relative: the releases folder can move
    swap.replace(releases_dir / "current")  # rename(2): atomic
    with (releases_dir / "history").open("a") as log:
        log.write(release_id + "\n")
    for folder in releases_dir.iterdir():
        if folder.is_dir() and not folder.is_symlink() and (folder / INFO).exists() and folder.name not in kept:
            shutil.rmtree(folder)


def previous(releases_dir: Path) -> str:
    """The release served before the current one (the rollback's target)."""
    now = current(releases_dir)
    for earlier in reversed(history(releases_dir)):
        if earlier != now and (releases_dir / earlier / INFO).exists():
            return earlier
    raise SystemExit("No earlier release to roll back to (the releases folder keeps the last few).")


def build_and_publish(cluster: Cluster, *, log: Path, code_dir: Path | None = None, serve: bool = True) -> str:
    """Build the frontend of `code_dir` for the cluster (only if its inputs changed) and publish it as a release;
    `serve`: make it the current one at once (the first release, before any process runs). Returns its id."""
    code_dir = code_dir or cluster.code_dir
    with log.open("ab") as out:
        done = subprocess.run(
            [_python(code_dir), "tools/frontend.py"],
            cwd=code_dir,
            env=cluster.env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if done.returncode:
        raise RuntimeError(f"the frontend build failed ({done.returncode}); see {log}")
    web = code_dir / cluster.env.get("REFLEX_WEB_WORKDIR", ".web")
    key = (web / "build-inputs.sha256").read_text().strip()  # written by tools/frontend.py after a finished build
    release_id = f"{git_commit(code_dir)[:10]}-{key[:10]}"
    publish(web / "build" / "client", cluster.releases_dir, release_id, code_dir=code_dir)
    if serve:
        activate(cluster.releases_dir, release_id)
    return release_id


# --- replacing processes ---------------------------------------------------------------------------------------------


def drain(cluster: Cluster, port: int, *, quiet: float = DRAIN_QUIET_S, limit: float = DRAIN_LIMIT_S) -> int:
    """Wait until nginx's connections to `port` have stopped changing for `quiet` seconds (out of the upstream, nginx
    opens none; the requests in flight finish and their connections close). What is left are open websockets, which
    stay until the process stops. Returns how many were left."""
    deadline = time.monotonic() + limit
    last, since = cluster.nginx_connections(port), time.monotonic()
    while last and time.monotonic() < deadline:
        time.sleep(0.1)
        now = cluster.nginx_connections(port)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            break
    return len(last)


@dataclass
class Step:
    index: int
    port: int
    seconds: float
    left_open: int  # connections (websockets) still open when the process was stopped


@dataclass
class Outcome:
    release_id: str
    rollback: bool
    seconds: float = 0.0
    steps: list[Step] = field(default_factory=list)


def _healthy(port: int) -> bool:
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).status_code == 200
    return False


def replace_process(cluster: Cluster, index: int, *, quiet: float = DRAIN_QUIET_S) -> Step:
    """Replace process `index` with one running `cluster.code_dir`, never leaving nginx without a healthy process."""
    started = time.monotonic()
    port = cluster.backend_ports[index]
    others = [i for i in cluster.in_rotation if i != index]
    if not [i for i in others if _healthy(cluster.backend_ports[i])]:
        raise RuntimeError(f"no other healthy process to serve while process {index} is replaced")
    cluster.reload_nginx(others)
    left_open = drain(cluster, port, quiet=quiet)
    cluster.stop_process(index)
    cluster.start_process(index)  # waits for its /api/health
    cluster.reload_nginx(sorted({*others, index}))
    return Step(index, port, time.monotonic() - started, left_open)


def release(
    cluster: Cluster,
    *,
    rollback: bool = False,
    code_dir: Path | None = None,
    release_id: str | None = None,
    keep: int = KEEP,
    quiet: float = DRAIN_QUIET_S,
    report: Callable[[str], None] = say,
) -> Outcome:
    """A rolling release of `code_dir` (default: the code the cluster runs), or with `rollback` of the previous
    release, to every process of `cluster`; the steps are the module's. `release_id`: serve a build already
    published (tools/reliability/release.py --release-id) instead of building one."""
    started = time.monotonic()
    releases = cluster.releases_dir
    if len(cluster.pids) < 2:
        raise SystemExit("A rolling release needs at least two processes: one serves while the other is replaced.")
    if rollback:
        release_id = previous(releases)
        code_dir = Path(str(info(releases, release_id)["code_dir"]))
        report(f"Rolling back to {release_id} (code in {code_dir}); the schema stays as it is (expand-only)")
    else:
        code_dir = (code_dir or cluster.code_dir).resolve()
        report(f"Migrating with the new code ({code_dir})")
        done = subprocess.run(
            [_python(code_dir), "-m", "app.cli", "migrate"],
            cwd=code_dir,
            env=cluster.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"migrate failed; nothing was replaced:\n{done.stdout.decode()[-2000:]}")
        if release_id is None:
            report("Building the frontend (only if its inputs changed) and publishing it")
            release_id = build_and_publish(cluster, log=cluster.run_dir / "build.log", code_dir=code_dir, serve=False)
        elif not (releases / release_id / INFO).exists():
            raise SystemExit(f"No published release {release_id} in {releases}")
    outcome = Outcome(release_id, rollback)
    cluster.code_dir = code_dir
    for index in sorted(cluster.pids):
        step = replace_process(cluster, index, quiet=quiet)
        outcome.steps.append(step)
        report(
            f"Process {index} (port {step.port}) replaced in {step.seconds:.1f} s"
            f" ({step.left_open} websockets moved to the others)"
        )
    activate(releases, release_id, keep=keep)
    # nginx opens files through the link at each request; the reload drops whatever a configuration with
    # open_file_cache (a real install may have one) would still hold of the previous release.
    cluster.reload_nginx(sorted(cluster.pids))
    outcome.seconds = time.monotonic() - started
    report(f"Serving {release_id}; {'rollback' if rollback else 'release'} done in {outcome.seconds:.1f} s")
    return outcome


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--state", type=Path, default=STATE_FILE, help="the cluster's state file (default: make run-cluster's)"
    )
    ap.add_argument("--rollback", action="store_true", help="go back to the release served before the current one")
    ap.add_argument("--code-dir", type=Path, help="the new release's code (default: the code the cluster runs)")
    ap.add_argument("--release-id", help="serve this already published build instead of building one")
    ap.add_argument("--keep", type=int, default=KEEP, help="releases whose folders and assets are kept")
    args = ap.parse_args()
    if not args.state.exists():
        say(f"No cluster described at {args.state}: start one with `make run-cluster`.")
        return 1
    cluster = Cluster.attach(args.state)
    release(cluster, rollback=args.rollback, code_dir=args.code_dir, release_id=args.release_id, keep=max(2, args.keep))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
