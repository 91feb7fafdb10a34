"""Serve the whole site from an existing frontend build: the backend in production mode with the built pages mounted,
nothing compiled or built (issue 27, point 1).

    python tools/serve.py                          # http://127.0.0.1:$PORT (3000), the build of `make build`
    python tools/serve.py --host 0.0.0.0 --port 3000

This is what `reflex run --env prod --single-port` ends with, without the compile and the Vite build before it: the
same backend (Granian, the app's workers), the same static mount of `.web/build/client` with its precompressed files.
It refuses to start without a build, and says so when the build is older than the code (it still serves it: a
deliberate `make serve` of an older build is how a rollback runs).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a file: the app and tools packages are at the checkout's root
from tools import frontend  # noqa: E402
from tools.frontend import say  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    ap.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    args = ap.parse_args()
    os.environ["PORT"] = str(args.port)  # the settings (PUBLIC_URL's default) and the build's key read it
    env = frontend.build_env(os.environ)
    if not (frontend.built_root(env) / "index.html").is_file():
        say("No frontend build to serve: `make build` makes it (`make run` builds when needed).", err=True)
        return 1
    if not frontend.is_current(env):
        say("Note: the frontend build is older than the code or was made for another port; `make build` renews it.")
    os.chdir(ROOT)

    from reflex import constants
    from reflex.utils import exec as reflex_exec
    from reflex_base.environment import environment

    # Production mode, the compile skipped (the build holds its output), the built pages mounted on the backend.
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    environment.REFLEX_SKIP_COMPILE.set(True)
    reflex_exec.notify_app_running()
    reflex_exec.notify_frontend(f"http://{args.host}:{args.port}", backend_present=True)
    reflex_exec.run_backend_prod(args.host, args.port, constants.LogLevel.WARNING, mount_frontend_compiled_app=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
