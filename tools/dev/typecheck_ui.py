"""Type-check the Reflex UI (app/ui) against a committed baseline that may only shrink.

The layers below the UI are checked with no errors allowed (`mypy`, pyproject's [tool.mypy]). The UI is not clean yet:
Reflex state attributes read on the class are Vars at run time but plain Python types to mypy, so most of its errors
are that mismatch (see docs/adr/0006-lint-types-and-import-contracts.md). Rather than switch the check off, every
error known today is listed in tools/dev/mypy_ui_baseline.txt, keyed by file, error code and message (not line
numbers, so unrelated edits do not churn it), with a count. This check fails when
- an error appears that the baseline does not hold, or a known one appears more often (new code must type-check), or
- the baseline holds more than mypy reports (a fix landed: run `python tools/dev/typecheck_ui.py --update` and commit
  the smaller baseline, so it cannot grow back unnoticed).

Usage: python tools/dev/typecheck_ui.py [--update] [--root DIR]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

BASELINE = Path(__file__).with_name("mypy_ui_baseline.txt")
LINE = re.compile(r"^(?P<path>[^:]+):\d+: error: (?P<message>.*?)\s+\[(?P<code>[a-z-]+)\]$")


def say(text: str) -> None:
    sys.stdout.write(text + "\n")


def errors(root: Path) -> Counter[str]:
    """mypy's errors over app/ui under `root`, counted by 'path [code] message'."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--no-pretty", "--show-error-codes", "app/ui"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode not in (0, 1) or run.stderr.strip():
        sys.exit(f"mypy did not run:\n{run.stderr or run.stdout}")
    found: Counter[str] = Counter()
    for line in run.stdout.splitlines():
        m = LINE.match(line)
        if m:
            found[f"{m['path']}\t[{m['code']}] {m['message']}"] += 1
    return found


def read_baseline(path: Path) -> Counter[str]:
    known: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        if line and not line.startswith("#"):
            count, key = line.split("\t", 1)
            known[key] = int(count)
    return known


def write_baseline(path: Path, found: Counter[str]) -> None:
    lines = [f"{n}\t{key}" for key, n in sorted(found.items())]
    header = (
        "# count<TAB>file<TAB>[code] message -- written by tools/dev/typecheck_ui.py --update; it may only shrink\n"
    )
    path.write_text(header + "\n".join(lines) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the current errors as the baseline")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    args = parser.parse_args()
    found = errors(args.root)
    if args.update:
        write_baseline(args.baseline, found)
        say(f"baseline: {sum(found.values())} errors in {len({k.split(chr(9))[0] for k in found})} files")
        return 0
    known = read_baseline(args.baseline)
    new = found - known
    fixed = known - found
    for key, n in sorted(new.items()):
        path, message = key.split("\t", 1)
        say(f"{path}: new type error (x{n}): {message}")
    if new:
        say(f"{sum(new.values())} type error(s) in app/ui that the baseline does not hold: fix them.")
        return 1
    if fixed:
        say(
            f"{sum(fixed.values())} baseline error(s) are gone: run `python tools/dev/typecheck_ui.py --update` "
            "and commit the smaller baseline."
        )
        return 1
    say(f"app/ui: {sum(found.values())} known type errors, none new (baseline {args.baseline.name}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
