"""The release folders of `make release` (tools/reliability/release.py, ADR 0097), the quick part of the release
check that `make test` runs: a build is published once, the served link is swapped by a rename, the hashed assets of
the last releases stay served beside the new one's, older ones go, a rollback finds the release before, and a drain
waits for the requests in flight but not for websockets. The release under load is tests/e2e/test_release.py
(`make release-check`)."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from tools.reliability import release


def _build(tmp: Path, name: str, assets: list[str]) -> Path:
    """A build folder like Reflex's: pages naming their hashed assets."""
    build = tmp / "builds" / name
    (build / "assets").mkdir(parents=True)
    for asset in assets:
        (build / "assets" / asset).write_text(f"/* {asset} */")
    (build / "index.html").write_text("".join(f'<script src="/assets/{a}"></script>' for a in assets))
    return build


def _served(releases: Path) -> set[str]:
    """The asset names nginx finds under the served root."""
    return {p.name for p in (releases / "current" / "assets").iterdir()}


def test_releases_keep_the_last_ones_assets_and_swap_the_pages_at_once(tmp_path: Path) -> None:
    releases = tmp_path / "releases"
    ids = []
    for n in range(5):
        rid = f"r{n}"
        # Each build shares the vendor chunk and has a page chunk of its own (a changed file is a new name).
        release.publish(_build(tmp_path, rid, ["vendor-aaaa.js", f"page-{n}.js"]), releases, rid, code_dir=tmp_path)
        release.activate(releases, rid, keep=3)
        ids.append(rid)
        assert os.readlink(releases / "current") == rid  # a link, renamed over the old one
        assert f"page-{n}.js" in (releases / "current" / "index.html").read_text()
        kept = ids[-3:]
        assert _served(releases) == {"vendor-aaaa.js", *(f"page-{k[1:]}.js" for k in kept)}
        folders = [p.name for p in releases.iterdir() if not p.is_symlink() and (p / release.INFO).exists()]
        assert sorted(folders) == kept
    assert release.previous(releases) == "r3"
    # A linked asset is the same file as its release's own (hard link): no copy per release.
    assert (releases / "r4" / "assets" / "page-3.js").samefile(releases / "r3" / "assets" / "page-3.js")


def test_a_rollback_serves_the_previous_release_with_the_newer_assets_kept(tmp_path: Path) -> None:
    releases = tmp_path / "releases"
    for rid in ("old", "new"):
        release.publish(_build(tmp_path, rid, [f"page-{rid}.js"]), releases, rid, code_dir=tmp_path)
        release.activate(releases, rid)
    back = release.previous(releases)
    assert back == "old"
    release.activate(releases, back)
    assert "page-old.js" in (releases / "current" / "index.html").read_text()
    assert _served(releases) == {"page-old.js", "page-new.js"}  # tabs opened on "new" keep loading their chunks
    assert release.previous(releases) == "new"  # and a roll forward again is the same step


def test_a_published_release_is_not_overwritten_and_a_cut_copy_is_not_a_release(tmp_path: Path) -> None:
    releases = tmp_path / "releases"
    release.publish(_build(tmp_path, "a", ["page-1.js"]), releases, "a", code_dir=tmp_path)
    (tmp_path / "builds" / "a" / "index.html").write_text("changed")
    release.publish(tmp_path / "builds" / "a", releases, "a", code_dir=tmp_path)
    assert "page-1.js" in (releases / "a" / "index.html").read_text()
    (releases / ".b.partial").mkdir()  # what an interrupted copy leaves
    release.activate(releases, "a")
    with pytest.raises(SystemExit, match="No earlier release"):
        release.previous(releases)


class _Nginx:
    """nginx's connections to a process, as /proc shows them one poll after another."""

    def __init__(self, polls: list[set[str]]) -> None:
        self.polls = itertools.chain(polls, itertools.repeat(polls[-1]))

    def nginx_connections(self, port: int) -> set[str]:
        return next(self.polls)


def test_a_drain_waits_for_requests_in_flight_and_leaves_websockets() -> None:
    # Two requests and a websocket; the requests finish one after the other; the websocket stays.
    polls = [{"ws", "r1", "r2"}] * 3 + [{"ws", "r2"}] * 3 + [{"ws"}]
    fake = _Nginx(polls)
    assert release.drain(fake, 8001, quiet=0.3, limit=10) == 1  # type: ignore[arg-type]
    assert next(fake.polls) == {"ws"}  # it did not stop before the last request finished
    assert release.drain(_Nginx([set()]), 8001, quiet=5, limit=10) == 0  # type: ignore[arg-type]
