"""File answers of the API: CSV exports streamed as they are written."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi.responses import StreamingResponse

from app.models.base import utcnow


def csv_file(name: str, pieces: Iterator[str]) -> StreamingResponse:
    """`pieces` sent as they come (a list of any length never sits whole in memory), as a dated attachment."""
    filename = f"{name}-{utcnow():%Y-%m-%d}.csv"
    return StreamingResponse(
        (piece.encode() for piece in pieces),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"', "Cache-Control": "no-store"},
    )
