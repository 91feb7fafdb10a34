"""Log lines: one JSON object per line with the request's id and route, readable text otherwise; request ids kept
only when they look like ids."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from app.core import logs


@pytest.fixture
def captured() -> Iterator[tuple[logging.Logger, io.StringIO, logging.Handler]]:
    """A logger of its own whose lines go, through the app's filter, to a string."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(logs.RequestContext())
    logger = logging.getLogger("tests.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    yield logger, stream, handler
    logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def test_a_json_line_has_the_request_and_its_outcome(
    captured: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, stream, handler = captured
    handler.setFormatter(logs.JsonFormatter())
    rid, route = logs.request_id.set("abcdef0123456789"), logs.route.set("/api/admin/clients/{client_id}")
    try:
        logger.info("GET %s %s", "/api/admin/clients/{client_id}", 200, extra={"status": 200, "duration_ms": 12.5})
    finally:
        logs.request_id.reset(rid)
        logs.route.reset(route)
    (line,) = lines(stream)
    record = json.loads(line)
    assert record["level"] == "info"
    assert record["logger"] == "tests.logs"
    assert record["message"] == "GET /api/admin/clients/{client_id} 200"
    assert record["request_id"] == "abcdef0123456789"
    assert record["route"] == "/api/admin/clients/{client_id}"
    assert record["status"] == 200
    assert record["duration_ms"] == 12.5
    assert record["time"].endswith("+00:00")
    assert "exception" not in record


def test_a_json_line_carries_the_exception_on_one_line(
    captured: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, stream, handler = captured
    handler.setFormatter(logs.JsonFormatter())
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        logger.exception("It failed")
    (line,) = lines(stream)  # the traceback's line breaks are escaped inside the one line
    record = json.loads(line)
    assert record["level"] == "error"
    assert record["request_id"] is None  # outside any request: a background job's line
    assert record["exception"]["type"] == "ValueError"
    assert record["exception"]["value"] == "bad\nthing"
    assert "Traceback" in record["exception"]["traceback"]


def test_a_message_cannot_forge_a_second_json_line(
    captured: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, stream, handler = captured
    handler.setFormatter(logs.JsonFormatter())
    logger.warning("name: %s", 'x"}\n{"level": "info", "message": "forged')
    assert len(lines(stream)) == 1


def test_the_text_line_names_the_request(captured: tuple[logging.Logger, io.StringIO, logging.Handler]) -> None:
    logger, stream, handler = captured
    handler.setFormatter(logs.TextFormatter())
    logger.info("outside")
    token = logs.request_id.set("abcdef0123456789")
    try:
        logger.info("inside")
    finally:
        logs.request_id.reset(token)
    outside, inside = lines(stream)
    assert outside.endswith("tests.logs: outside")
    assert inside.endswith("tests.logs: inside [abcdef0123456789]")


def test_ids_reach_threads_and_stay_in_their_task(
    captured: tuple[logging.Logger, io.StringIO, logging.Handler],
) -> None:
    logger, stream, handler = captured
    handler.setFormatter(logs.JsonFormatter())

    async def request(rid: str) -> None:
        logs.request_id.set(rid)
        await asyncio.sleep(0)  # the other request runs meanwhile
        await asyncio.to_thread(logger.info, "from a worker thread")

    async def both() -> None:
        await asyncio.gather(request("request-one-0001"), request("request-two-0002"))

    asyncio.run(both())
    assert sorted(json.loads(line)["request_id"] for line in lines(stream)) == ["request-one-0001", "request-two-0002"]


@pytest.mark.parametrize(
    "incoming",
    ["0123456789abcdef0123456789abcdef", "3f2b8c1e-7d4a-4b2e-9c3f-1a2b3c4d5e6f", "req.42:edge-1"],
)
def test_an_incoming_id_that_looks_like_one_is_kept(incoming: str) -> None:
    assert logs.accepted_request_id(incoming) == incoming


@pytest.mark.parametrize(
    "incoming", [None, "", "short", "x" * 65, "has space inside", 'quote"d-0123456', "a\nb-0123456"]
)
def test_anything_else_gets_a_new_id(incoming: str | None) -> None:
    rid = logs.accepted_request_id(incoming)
    assert rid != incoming
    assert len(rid) == 32 and rid.isalnum()


def test_configuring_twice_leaves_one_handler() -> None:
    root = logging.getLogger()
    before = list(root.handlers)
    level = root.level
    try:
        logs.configure_logging("json", "warning")
        handler = logs.configure_logging("json", "WARNING")
        ours = [h for h in root.handlers if h.get_name() == "app.core.logs"]
        assert ours == [handler]
        assert isinstance(handler.formatter, logs.JsonFormatter)
        assert root.level == logging.WARNING
    finally:
        root.handlers[:] = before
        root.setLevel(level)
