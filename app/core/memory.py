"""The server process's garbage collector, set up for a long-lived process holding a large, fixed object graph.

Once the app has started, a worker holds some 800,000 tracked objects that live as long as it does (the compiled
pages, state classes, modules). CPython's full collections walk all of them every few seconds and free nearly nothing:
on this machine each took 160-240 ms, during which no websocket event is answered, which made the slowest 5% of
events wait 80 ms and more with 200 open tabs (tools/bench/bench_ws.py; docs/performance.md). Freezing what exists once
start-up has settled moves it out of the collector's reach, so a full collection walks only what the requests made.
"""

from __future__ import annotations

import asyncio
import gc
import logging

log = logging.getLogger(__name__)
SETTLE_S = 30.0  # start-up (imports, compiling the pages, the first requests) is over by then


def freeze_startup_objects() -> int:
    """Collect once, then exempt every object alive now from later collections; returns how many were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


async def freeze_after_startup(delay: float = SETTLE_S) -> None:
    """Lifespan task: freeze the start-up objects once the process has settled."""
    await asyncio.sleep(delay)
    frozen = freeze_startup_objects()
    log.info("garbage collector: %d start-up objects frozen", frozen)
