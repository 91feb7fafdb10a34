"""The server's garbage-collector setting: what exists once start-up has settled is frozen out of full collections."""

from __future__ import annotations

import asyncio
import gc

from app.core import memory


def test_the_startup_objects_are_frozen_after_the_delay() -> None:
    gc.unfreeze()
    try:
        before = gc.get_freeze_count()
        alive = [[] for _ in range(1000)]  # tracked containers alive at the freeze: among the frozen
        asyncio.run(memory.freeze_after_startup(delay=0))
        assert gc.get_freeze_count() >= before + len(alive)
    finally:
        gc.unfreeze()  # the rest of the test run collects as usual
