"""Products & Services (/admin/products, products:read): every product with its prices (amount, currency, billing
period, active); products:write adds prices and switches them on or off (prices are never edited in place)."""

from __future__ import annotations

from typing import Any

import reflex as rx

from app.core.permissions import Perm
from app.models.enums import BillingPeriod
from app.services import products
from app.ui.admin.common import dollars, error_panel, form_alert, form_text, holds, label_of, search_input
from app.ui.admin.state import AdminState, as_actor, error_text
from app.ui.admin.widgets import (
    BTN_SECONDARY,
    CARD,
    TD,
    TH,
    badge,
    dialog,
    field,
    page_header,
    select,
    submit_actions,
    text_input,
)

FEATURE = "Products & Services"


def catalogue_row(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(p["id"]),
        "name": p["name"],
        "description": p.get("description") or "",
        "category": label_of(p.get("category") or ""),
        "active": "yes" if p.get("is_active") else "",
        "prices": [
            {
                "id": str(x["id"]),
                "amount": dollars(x["amount"]),
                "currency": str(x["currency"]).upper(),
                "period": label_of(x["billing_period"]),
                "active": "yes" if x["is_active"] else "",
            }
            for x in p.get("prices") or []
        ],
    }


class CatalogueState(AdminState):
    rows: list[dict[str, Any]] = []
    search: str = ""
    load_error: str = ""
    price_open: bool = False
    price_product: str = ""
    form_error: str = ""
    form_errors: dict[str, str] = {}
    saving: bool = False
    _price_product_id: int = 0

    async def _reload(self, *, quiet: bool = False) -> None:
        actor = await self._actor(Perm.products_read, FEATURE, quiet=quiet)
        if actor is None:
            self.rows = []
            return
        search = self.search
        try:
            data = await as_actor(actor, lambda s, a: products.list_all(s, actor=a, search=search))
            self.load_error = ""
        except Exception as exc:
            data = []
            self.load_error = error_text(exc, "There was an error loading the products.")
        self.rows = [catalogue_row(p) for p in data]

    @rx.event
    async def load(self) -> None:
        self.price_open = False
        await self._reload(quiet=True)

    @rx.event
    async def retry(self) -> None:
        await self._reload()

    @rx.event
    async def set_search(self, value: str) -> None:
        self.search = str(value)[:100]
        await self._reload()

    @rx.var
    def can_write(self) -> bool:
        return holds(self.user, Perm.products_write)

    @rx.event
    def open_price(self, product_id: str, name: str) -> None:
        self._price_product_id, self.price_product = int(product_id), str(name)
        self.form_error, self.form_errors = "", {}
        self.price_open = True

    @rx.event
    def set_price_open(self, value: bool) -> None:
        self.price_open = bool(value) and self.price_open

    @rx.event
    async def submit_price(self, form: dict[str, Any]) -> None:
        actor = await self._actor(Perm.products_write, FEATURE)
        if actor is None:
            return
        pid = self._price_product_id
        data = {
            "amount": form_text(form, "amount", 20),
            "currency": "usd",
            "billing_period": form_text(form, "billing_period", 20),
            "is_active": True,
        }
        ok, _ = await self._save(
            actor,
            lambda s, a: products.add_price(s, actor=a, product_id=pid, data=data),
            "Failed to add price",
            toast=False,
        )
        if not ok:
            return
        self.price_open = False
        self._notify("success", "Price added successfully")
        await self._reload()

    @rx.event
    async def toggle_price(self, price_id: str, active: bool) -> None:
        actor = await self._actor(Perm.products_write, FEATURE)
        if actor is None:
            return
        pid = int(price_id)
        try:
            await as_actor(actor, lambda s, a: products.set_price_active(s, actor=a, price_id=pid, active=bool(active)))
        except Exception as exc:
            self._notify("error", "Failed to update price", error_text(exc, "Failed to update price"))
            return
        self._notify("success", "Price updated successfully")
        await self._reload()


S = CatalogueState


def _price_row(x: rx.Var) -> rx.Component:
    return rx.el.tr(
        rx.el.td(x["amount"], class_name=f"{TD} font-medium"),
        rx.el.td(x["currency"], class_name=TD),
        rx.el.td(x["period"], class_name=TD),
        rx.el.td(
            rx.cond(
                S.can_write,
                rx.el.label(
                    rx.el.input(
                        type="checkbox",
                        checked=x["active"] != "",
                        on_change=S.toggle_price(x["id"], x["active"] == ""),
                        class_name="h-4 w-4",
                    ),
                    rx.cond(x["active"] != "", "Active", "Inactive"),
                    class_name="flex items-center gap-2 text-sm",
                ),
                rx.cond(x["active"] != "", badge("Active", "green"), badge("Inactive", "grey")),
            ),
            class_name=TD,
        ),
        class_name="border-t border-slate-100",
        data_testid="price-row",
    )


def _product(p: rx.Var) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2(p["name"], class_name="font-semibold text-slate-900"),
                rx.el.div(
                    rx.cond(p["category"] != "", badge(p["category"], "blue"), rx.fragment()),
                    rx.cond(p["active"] != "", badge("Active", "green"), badge("Inactive", "grey")),
                    class_name="mt-1 flex flex-wrap gap-1.5",
                ),
                rx.el.p(p["description"], class_name="mt-2 line-clamp-2 text-sm text-slate-600"),
                class_name="min-w-0",
            ),
            rx.cond(
                S.can_write,
                rx.el.button(
                    rx.icon("plus", size=16),
                    "Add price",
                    on_click=S.open_price(p["id"], p["name"]),
                    class_name=BTN_SECONDARY,
                ),
                rx.fragment(),
            ),
            class_name="flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:justify-between",
        ),
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th("Amount", class_name=TH),
                        rx.el.th("Currency", class_name=TH),
                        rx.el.th("Billing period", class_name=TH),
                        rx.el.th("Status", class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.foreach(p["prices"].to(list[dict[str, str]]), _price_row),
                ),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto border-t border-slate-200",
        ),
        class_name=f"{CARD} overflow-hidden",
        data_testid="catalogue-product",
    )


def _price_dialog() -> rx.Component:
    err = S.form_errors
    form = rx.el.form(
        form_alert("Failed to add price", S.form_error),
        rx.el.div(
            field(
                "Amount (USD)",
                text_input("amount", id="price-amount", type="number", step="0.01", min="0", required=True),
                err["amount"],
                required=True,
            ),
            field(
                "Billing period",
                select([(x.value, label_of(x.value)) for x in BillingPeriod], name="billing_period", id="price-period"),
                err["billing_period"],
            ),
            class_name="grid gap-4 sm:grid-cols-2",
        ),
        submit_actions(S.set_price_open(False), S.saving, "Add price"),
        on_submit=S.submit_price,
        reset_on_submit=False,
    )
    return dialog(
        "Add Price",
        rx.el.span("A new price for ", rx.el.strong(S.price_product), ". Old prices stay as they were."),
        form,
        open=S.price_open,
        on_open_change=S.set_price_open,
    )


def products_content() -> rx.Component:
    return rx.el.div(
        page_header("Products & Services", "The catalogue and its prices. Edit products under Content Management."),
        rx.el.div(search_input(S.search, S.set_search, "Search products…"), class_name="mb-4"),
        rx.cond(
            S.load_error != "",
            error_panel("Failed to load products", "There was an error loading the products.", S.retry),
            rx.cond(
                S.rows.length() > 0,
                rx.el.div(rx.foreach(S.rows, _product), class_name="flex flex-col gap-4"),
                rx.el.div(
                    rx.cond(S.search != "", "No products found matching your search.", "No products found."),
                    class_name=f"{CARD} px-4 py-12 text-center text-sm text-slate-500",
                ),
            ),
        ),
        _price_dialog(),
    )
