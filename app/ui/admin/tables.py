"""Pieces the staff tables share."""

from __future__ import annotations

import reflex as rx

from app.ui.admin.widgets import TH


def table_head(headers: list[tuple[str, str]]) -> rx.Component:
    """The header row: (title, extra classes) per column, then the screen-reader-only Actions column."""
    return rx.el.thead(
        rx.el.tr(
            *[rx.el.th(t, class_name=f"{TH} {extra}") for t, extra in headers],
            rx.el.th(rx.el.span("Actions", class_name="sr-only"), class_name=TH),
        ),
        class_name="bg-slate-50",
    )
