"""The toast a handler raised, read from the state tree the test built (app.ui.state.notice holds the latest)."""

from __future__ import annotations

from typing import Any

from app.ui.state.notice import NoticeState


def notice(state: Any) -> dict[str, str]:
    """The latest notice of `state`'s tab: level, title and description ("" where none was raised)."""
    root = state
    while root.parent_state is not None:
        root = root.parent_state
    raised = root.get_substate(NoticeState.get_full_name().split(".")).notice
    return {"level": "", "title": "", "description": "", **raised}
