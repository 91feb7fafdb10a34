"""Lighthouse on every public page, the sign-in page and, signed in, the portal and the staff dashboard (issue 14).

    python tools/bench/bench_pages.py                    # serves the site like `make run` on a free port, then stops it
    python tools/bench/bench_pages.py --url URL          # measures a server that is already running
    python tools/bench/bench_pages.py --runs 3 --out bench/pages

Lighthouse 12.8.2 (mobile, default simulated throttling, the performance issue's measurement) with Debian's chromium;
installed under ~/.cache/lighthouse-12.8 on first use (npm registry). Each page is measured `--runs` times, the table
gives the median of each figure, and the exit status is 0 only when every public page meets the targets. Signed-in
pages get the session cookies of a form sign-in as demo accounts (`make seed`), sent as a request header.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))  # run as a file: the app, tests and tools packages are at the checkout's root
from tools import server  # noqa: E402
from tools.dev.signed_in import access_token  # noqa: E402

LH_HOME = Path(os.environ.get("LH_HOME", Path.home() / ".cache" / "lighthouse-12.8"))
LIGHTHOUSE = LH_HOME / "node_modules" / ".bin" / "lighthouse"
PUBLIC = [
    "/",
    "/about/",
    "/services/",
    "/portfolio/",
    "/contact/",
    "/careers/",
    "/book-meeting/",
    "/privacy/",
    "/terms/",
]
# noindex pages: SEO is not held there (they keep a meta description).
NOINDEX = ["/client-portal/", "/register/", "/admin/login/"]
SIGNED_IN = {"/client-portal/": "democlient", "/admin/dashboard/": "admin"}
TARGETS = {"perf": 95, "a11y": 100, "bp": 100, "seo": 100, "lcp": 1600, "tbt": 100, "cls": 0.02, "js": 150, "css": 30}


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def ensure_lighthouse() -> None:
    if LIGHTHOUSE.exists():
        return
    LH_HOME.mkdir(parents=True, exist_ok=True)
    (LH_HOME / "package.json").write_text('{"name":"lh","private":true}')
    subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "lighthouse@12.8.2"], cwd=LH_HOME, check=True
    )


def start_server() -> server.Server:
    """The site as `make run` serves it (prod, one port, the local database with demo content)."""
    env = dict(os.environ)
    server.app_cli(env, "migrate", "seed-demo")
    return server.start(env, ROOT / "bench" / "pages-server.log")


def session_cookie(user: str) -> str:
    """A session of `user` (tools/dev/signed_in.py: staff pass a second factor at sign-in, and a tool has no phone)."""
    return f"access_token={access_token(user)}"


def lighthouse(url: str, out: Path, cookie: str | None) -> dict[str, Any]:
    cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}"]
    cmd += [
        "--chrome-flags=--headless=new --no-sandbox",
        "--only-categories=performance,accessibility,best-practices,seo",
    ]
    if cookie:
        cmd.append("--extra-headers=" + json.dumps({"Cookie": cookie}))
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium")}
    subprocess.run(cmd, env=env, check=False, capture_output=True, timeout=300)
    return figures(json.loads(out.read_text()))


def figures(report: dict[str, Any]) -> dict[str, float]:
    cats, audits = report["categories"], report["audits"]
    items = audits["resource-summary"]["details"]["items"]

    def kb(kind: str) -> float:
        return round(next((i["transferSize"] for i in items if i["resourceType"] == kind), 0) / 1024, 1)

    return {
        "perf": round((cats["performance"]["score"] or 0) * 100),
        "a11y": round((cats["accessibility"]["score"] or 0) * 100),
        "bp": round((cats["best-practices"]["score"] or 0) * 100),
        "seo": round((cats["seo"]["score"] or 0) * 100),
        "lcp": round(audits["largest-contentful-paint"]["numericValue"]),
        "tbt": round(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "js": kb("script"),
        "css": kb("stylesheet"),
    }


def misses(path: str, f: dict[str, float]) -> list[str]:
    low = [k for k in ("perf", "a11y", "bp", "seo") if f[k] < TARGETS[k] and not (k == "seo" and path in NOINDEX)]
    high = [k for k in ("lcp", "tbt", "cls", "js", "css") if f[k] > TARGETS[k]]
    return low + high


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", help="a running server (default: start one like `make run`)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "pages")
    ap.add_argument("--only", action="append", help="a path to measure (repeatable)")
    args = ap.parse_args()
    ensure_lighthouse()
    args.out.mkdir(parents=True, exist_ok=True)
    app = None
    url = args.url
    if not url:
        app = start_server()
        url = app.url
    try:
        pages = [(p, None) for p in [*PUBLIC, *NOINDEX]] + [(p, SIGNED_IN[p]) for p in SIGNED_IN]
        if args.only:
            pages = [(p, who) for p, who in pages if p in args.only]
        rows = []
        for path, who in pages:
            runs = []
            for n in range(args.runs):
                cookie = session_cookie(who) if who else None
                name = ("signed-in-" if who else "") + (path.strip("/").replace("/", "_") or "home")
                runs.append(lighthouse(url + path, args.out / f"{name}-{n + 1}.json", cookie))
            median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            label = path + (" (signed in)" if who else "")
            rows.append((label, median))
            short = misses(path, median) if not who else []
            say(
                f"{label:32} perf {median['perf']:>3} a11y {median['a11y']:>3} bp {median['bp']:>3}"
                f" seo {median['seo']:>3}"
                f" | LCP {median['lcp']:>5} TBT {median['tbt']:>4} CLS {median['cls']:.3f}"
                f" | JS {median['js']:>6} KB CSS {median['css']:>5} KB"
                + (f"  short: {','.join(short)}" if short else "")
            )
        (args.out / "summary.json").write_text(json.dumps(rows, indent=1))
        public_short = [label for label, m in rows if "signed in" not in label and misses(label, m)]
        return 1 if public_short else 0
    finally:
        if app is not None:
            app.stop(timeout_s=30)


if __name__ == "__main__":
    raise SystemExit(main())
