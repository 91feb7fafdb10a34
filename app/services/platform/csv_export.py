"""Lists as CSV files, written a row at a time: a download of 100,000 rows never holds them all in memory.

Cells that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) get a leading
apostrophe: the values come from visitors and staff, and opening the file must not run what one of them typed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> str:
    if value is None:
        return ""
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The file in pieces: a byte-order mark (so spreadsheet programs read UTF-8), the header, then each row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)

    def line(values: Sequence[Any]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([cell(v) for v in values])
        return buffer.getvalue()

    yield "\ufeff" + line(header)
    for row in rows:
        yield line(row)


def table(names: Sequence[str], rows: Iterable[dict[str, Any]]) -> Iterator[str]:
    """The file of a list's rows, with the named fields as its columns, in that order."""
    return csv_text(names, ([row.get(name) for name in names] for row in rows))
