"""The pieces a list's row is made of: the row itself (`Row`, what every row of a paged list is) and a value with
its label (`Choice`: a row's status, role or category, or an option of a select built from state)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping


def label_of(value: str) -> str:
    """'in_progress' -> 'In Progress'."""
    return str(value or "").replace("_", " ").replace("-", " ").title()


@dataclasses.dataclass
class Row:
    """A record as a list shows it, its values formatted for display. `id` is the record's id: the React key of its
    line and the id the browser sends back for the row's actions (the handler finds the row by it, see
    `PagedList._shown_row`)."""

    id: int = 0


@dataclasses.dataclass
class Choice:
    """A value and the text that names it ("in_progress", "In Progress"): a row's enumerated field, whose value
    selects, filters and badge colours key on, or an option of a select built from state (the value it sends)."""

    value: str = ""
    label: str = ""

    @classmethod
    def of(cls, value: object, labels: Mapping[str, str] | None = None) -> Choice:
        """The choice `value` (none: empty), labelled as `labels` name it or, failing that, by itself."""
        text = str(value or "")
        return cls(text, (labels or {}).get(text) or label_of(text))
