"""The pieces a list's row is made of: the row itself (`Row`, what every row of a paged list is) and a row's
enumerated value with its label (`Choice`: a status, a role, a category)."""

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
    """One of a fixed set of values as a row shows it: the value (what selects, filters and badge colours key on)
    and its label ("in_progress", "In Progress")."""

    value: str = ""
    label: str = ""

    @classmethod
    def of(cls, value: object, labels: Mapping[str, str] | None = None) -> Choice:
        """The choice `value` (none: empty), labelled as `labels` name it or, failing that, by itself."""
        text = str(value or "")
        return cls(text, (labels or {}).get(text) or label_of(text))
