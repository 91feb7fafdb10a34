"""File answers of the API: CSV exports streamed as they are written, and private files streamed from their store."""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO
from urllib.parse import quote

from fastapi.responses import StreamingResponse

from app.models.base import utcnow
from app.services.platform import storage


def csv_file(name: str, pieces: Iterator[str]) -> StreamingResponse:
    """`pieces` sent as they come (a list of any length never sits whole in memory), as a dated attachment."""
    filename = f"{name}-{utcnow():%Y-%m-%d}.csv"
    return StreamingResponse(
        (piece.encode() for piece in pieces),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )


def private_file(filename: str, content_type: str, handle: IO[bytes]) -> StreamingResponse:
    """A stored private file (opened after the permission check) streamed in pieces from the local folder or the
    bucket, as an attachment nobody caches: the app is the only way to it, never a URL of the store (ADR 0096)."""
    return StreamingResponse(
        storage.chunks(handle),
        media_type=content_type,
        headers={
            "Content-Disposition": f"attachment; filename*=UTF-8''{quote(filename)}",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )
