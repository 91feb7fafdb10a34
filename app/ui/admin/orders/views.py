"""Billing's orders and subscriptions panel: its own heading, search, status filter and sort, and the table of one
page (order number, client, items, total, status, subscription status)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.ui.admin.common import error_panel, loading_text, search_input
from app.ui.admin.orders.state import (
    SORTS,
    STATUS_COLORS,
    STATUS_FILTERS,
    SUBSCRIPTION_COLORS,
    OrderLine,
    OrdersState,
)
from app.ui.admin.section import filter_select
from app.ui.admin.tables import Column, data_table, lead, note
from app.ui.admin.widgets import choice_badge

S = OrdersState


def _statuses(r: Any) -> rx.Component:
    """The order's status, with its subscription's under it where the Subscription column is hidden (below lg)."""
    return rx.el.div(
        choice_badge(r.status, STATUS_COLORS, data_testid="order-status"),
        rx.cond(
            r.subscription.value != "",
            rx.el.div(choice_badge(r.subscription, SUBSCRIPTION_COLORS), class_name="lg:hidden"),
        ),
        class_name="flex flex-col items-start gap-1",
    )


COLUMNS: list[Column[OrderLine]] = [
    Column(
        "Order",
        lambda r: lead(
            r.number,
            note(r.client, "md:hidden"),
            note(r.total, "sm:hidden"),
            note(r.created_at),
            title_classes="whitespace-nowrap",
        ),
    ),
    Column("Client", lambda r: r.client, "hidden md:table-cell"),
    Column("Items", lambda r: rx.el.span(r.bought, class_name="line-clamp-2"), "hidden sm:table-cell"),
    Column("Total", lambda r: r.total, "hidden text-right sm:table-cell", "whitespace-nowrap font-medium"),
    Column("Status", lambda r: _statuses(r)),
    Column(
        "Subscription",
        lambda r: rx.cond(
            r.subscription.value != "",
            choice_badge(r.subscription, SUBSCRIPTION_COLORS, data_testid="order-subscription"),
            rx.el.span("—", class_name="text-slate-400"),
        ),
        "hidden lg:table-cell",
    ),
]


def orders_panel() -> rx.Component:
    """The panel under the invoices: what clients ordered from the catalogue, and their subscriptions."""
    s: Any = S  # its vars, read on the class, are Vars at run time (mypy sees the plain types)
    filtered = (S.search != "") | (S.status_filter != "")
    empty = rx.cond(filtered, "No orders found matching your search.", "No orders yet.")
    toolbar = rx.el.div(
        rx.el.div(
            search_input(s.search, S.set_search, "Search orders…", "orders-search"),
            class_name="w-full sm:w-auto sm:min-w-[12rem] sm:max-w-xs sm:flex-1",
        ),
        filter_select(STATUS_FILTERS, S.status_filter, S.set_status_filter, "Order status", "sm:w-48"),
        filter_select(SORTS, S.sort, S.set_sort, "Sort orders"),
        class_name="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center",
    )
    body = rx.cond(
        S.load_error != "",
        error_panel("Failed to load orders", S.load_error, S.retry),
        rx.cond(
            S.loaded, data_table(S, COLUMNS, row_test_id="order-row", empty=empty), loading_text("Loading orders…")
        ),
    )
    return rx.el.section(
        rx.el.div(
            rx.el.h2("Orders & subscriptions", class_name="text-xl font-semibold text-slate-900"),
            rx.el.p(
                "What clients bought from the catalogue online; each payment also appears above as a paid invoice.",
                class_name="mt-1 text-sm text-slate-500",
            ),
            class_name="mb-4",
        ),
        toolbar,
        body,
        class_name="mt-10",
        aria_label="Orders and subscriptions",
        data_testid="orders-panel",
    )
