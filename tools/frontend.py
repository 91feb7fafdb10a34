"""Build the frontend once, and again only when what the build reads has changed (issue 27, point 1).

    python tools/frontend.py            # build if the inputs changed since the last build (`make build`, `make run`)
    python tools/frontend.py --force    # build whatever the stamp says
    python tools/frontend.py --check    # exit 1 if the build is missing or older than its inputs; build nothing

Reflex's own `reflex run --env prod` compiles the pages and runs Vite's production build on every start (about 35 s
of a 53 s start). The build is a function of the code and of a few settings, so it is keyed by a hash of them:
the files the compile and Vite read (app/, assets/, rxconfig.py, the lock files that pin Reflex and its JavaScript
packages, the Makefile that pins Node and bun), and the environment that ends up in the bundle (the port and URLs
the pages reach the backend at, and every variable the app's settings read, .env included). The hash is written
beside the build once it succeeded; a failed or interrupted build leaves no stamp, so the next start builds again.

The prerendered public pages also carry the database's content at build time; that is not part of this key: the
server processes render those pages again when the content changes (app/ui/fresh_pages.py, ADR 0098).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# What the compile and the build read from the checkout.
INPUT_DIRS = ("app", "assets")
INPUT_FILES = ("rxconfig.py", "requirements.lock", "reflex.lock/bun.lock", "reflex.lock/package.json", "Makefile")
SKIPPED_PARTS = {"__pycache__", "external"}  # assets/external: Reflex's links to shared assets, made by the compile
SKIPPED_SUFFIXES = {".pyc", ".pyo"}
# Variables the bundle depends on besides the app's settings (Reflex's own switches that shape the build).
BUILD_VARS = ("PORT", "PUBLIC_URL", "REFLEX_API_URL", "REFLEX_DEPLOY_URL", "FRONTEND_PATH", "REFLEX_FRONTEND_PATH")


def say(line: str, *, err: bool = False) -> None:
    stream = sys.stderr if err else sys.stdout
    stream.write(line + "\n")
    stream.flush()


def web_dir(env: Mapping[str, str] | None = None) -> Path:
    """Reflex's work folder (.web unless REFLEX_WEB_WORKDIR names another)."""
    return ROOT / (env or os.environ).get("REFLEX_WEB_WORKDIR", ".web")


def built_root(env: Mapping[str, str] | None = None) -> Path:
    """The folder of built pages the server mounts."""
    return web_dir(env) / "build" / "client"


def stamp_path(env: Mapping[str, str] | None = None) -> Path:
    return web_dir(env) / "build-inputs.sha256"


def _input_files() -> Iterator[Path]:
    for top in INPUT_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT)
            if path.is_file() and not SKIPPED_PARTS & set(rel.parts) and path.suffix not in SKIPPED_SUFFIXES:
                yield path
    for name in INPUT_FILES:
        if (ROOT / name).is_file():
            yield ROOT / name


def _setting_names() -> list[str]:
    """The variables the app's settings read (upper-case field names; pydantic-settings ignores case)."""
    sys.path.insert(0, str(ROOT))
    from app.core.config import Settings

    return sorted(name.upper() for name in Settings.model_fields)


def inputs_hash(env: Mapping[str, str] | None = None) -> str:
    """The build's key: the bytes of every input file (with its path) and the values of the variables it reads."""
    env = os.environ if env is None else env
    digest = hashlib.sha256()
    for path in _input_files():
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    dotenv = ROOT / ".env"
    digest.update(b"env-file\0" + (dotenv.read_bytes() if dotenv.is_file() else b""))
    for name in sorted({*_setting_names(), *BUILD_VARS}):
        digest.update(f"{name}={env.get(name, '')}\0".encode())
    return digest.hexdigest()


def is_current(env: Mapping[str, str] | None = None) -> bool:
    """Whether a complete build of exactly these inputs is there."""
    stamp = stamp_path(env)
    return (
        (built_root(env) / "index.html").is_file() and stamp.is_file() and stamp.read_text().strip() == inputs_hash(env)
    )


def build_env(env: Mapping[str, str]) -> dict[str, str]:
    """The build's environment: the pages reach the backend on the port they are served from ("localhost" is read
    as the page's own host), as `reflex run --env prod --single-port` would have set it."""
    port = env.get("PORT", "3000")
    return {**env, "PORT": port, "REFLEX_API_URL": env.get("REFLEX_API_URL") or f"http://localhost:{port}"}


def build(env: Mapping[str, str] | None = None, *, force: bool = False) -> bool:
    """Build if the inputs changed (or `force`); True when a build ran. Raises when the build fails."""
    env = build_env(os.environ if env is None else env)
    if not force and is_current(env):
        say(f"Frontend build is up to date ({built_root(env).relative_to(ROOT)}; inputs unchanged)")
        return False
    key = inputs_hash(env)
    stamp_path(env).unlink(missing_ok=True)  # an interrupted build must not pass for a finished one
    started = time.monotonic()
    say("Building the frontend (its inputs changed since the last build)")
    subprocess.run(["reflex", "export", "--frontend-only", "--no-zip", "--env", "prod"], cwd=ROOT, env=env, check=True)
    if not (built_root(env) / "index.html").is_file():
        raise RuntimeError(f"the build left no {built_root(env) / 'index.html'}")
    stamp_path(env).write_text(key + "\n")
    say(f"Frontend built in {time.monotonic() - started:.0f} s")
    return True


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--force", action="store_true", help="build even if the inputs are unchanged")
    ap.add_argument("--check", action="store_true", help="only say whether the build is current (exit 1 if not)")
    args = ap.parse_args()
    if args.check:
        current = is_current(build_env(os.environ))
        say("Frontend build is current" if current else "Frontend build is missing or older than its inputs")
        return 0 if current else 1
    try:
        build(force=args.force)
    except (subprocess.CalledProcessError, RuntimeError) as exc:
        say(f"The frontend build failed: {exc}", err=True)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
