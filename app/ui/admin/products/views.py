"""The Products tab of Content Management (cards, create/edit dialog, delete confirmation) and the Products & Services
page (each product with its price table, one page at a time, and the Add Price dialog)."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.models.enums import BillingPeriod, ProductCategory
from app.ui.admin.cards import CARD_BOX, card_actions, card_form, card_page, card_title, pager
from app.ui.admin.common import empty_panel
from app.ui.admin.dialog_views import (
    area_field,
    check_field,
    delete_dialog,
    form_dialog,
    number_field,
    select_field,
    text_field,
)
from app.ui.admin.products.state import PriceRow, ProductCatalogueState, ProductListState, ProductRow
from app.ui.admin.section import section_page
from app.ui.admin.widgets import (
    CARD,
    TD,
    TH,
    allowed_button,
    badge,
)
from app.ui.rows import label_of

S = ProductListState
C = ProductCatalogueState


# --- the Products tab --------------------------------------------------------------------------------------------


def _card(p: ObjectVar[ProductRow]) -> rx.Component:
    return rx.el.div(
        card_title(
            p.name, card_actions(S.can_write, p.name, S.open_edit(p.id), S.ask_delete(p.id, p.name), p.can_delete)
        ),
        rx.el.div(
            rx.cond(p.category.value != "", badge(p.category.label, "blue"), rx.fragment()),
            rx.cond(p.active, badge("Active", "green"), badge("Inactive", "grey")),
            class_name="flex flex-wrap gap-1.5",
        ),
        rx.el.p(p.description, class_name="line-clamp-3 text-sm text-slate-600"),
        class_name=CARD_BOX,
        data_testid="product-card",
    )


def _fields() -> rx.Component:
    e = S.edit
    categories = [("", "No category"), *[(x.value, label_of(x.value)) for x in ProductCategory]]
    return rx.el.div(
        text_field(S, "Name", "name", e.name, id="product-name", required=True),
        select_field(S, "Category", "category", categories, e.category.value, id="product-category"),
        area_field(S, "Description", "description", e.description, id="product-description"),
        check_field("is_active", "Active (shown on the public site)", e.active, id="product-active"),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def products_panel() -> rx.Component:
    dialogs = [card_form(S, _fields()), delete_dialog(S, "Delete Product")]
    return card_page(S, _card, dialogs)


# --- Products & Services -----------------------------------------------------------------------------------------


def _price_row(x: ObjectVar[PriceRow]) -> rx.Component:
    return rx.el.tr(
        rx.el.td(x.amount, class_name=f"{TD} font-medium"),
        rx.el.td(x.currency, class_name=TD),
        rx.el.td(x.period, class_name=TD),
        rx.el.td(
            rx.cond(
                C.can_write,
                rx.el.label(
                    rx.el.input(
                        type="checkbox",
                        checked=x.active,
                        on_change=C.toggle_price(x.id, ~x.active),
                        class_name="h-4 w-4",
                    ),
                    rx.cond(x.active, "Active", "Inactive"),
                    class_name="flex items-center gap-2 text-sm",
                ),
                rx.cond(x.active, badge("Active", "green"), badge("Inactive", "grey")),
            ),
            class_name=TD,
        ),
        class_name="border-t border-slate-100",
        data_testid="price-row",
    )


def _catalogue_product(p: ObjectVar[ProductRow]) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.h2(p.name, class_name="font-semibold text-slate-900"),
                rx.el.div(
                    rx.cond(p.category.value != "", badge(p.category.label, "blue"), rx.fragment()),
                    rx.cond(p.active, badge("Active", "green"), badge("Inactive", "grey")),
                    class_name="mt-1 flex flex-wrap gap-1.5",
                ),
                rx.el.p(p.description, class_name="mt-2 line-clamp-2 text-sm text-slate-600"),
                class_name="min-w-0",
            ),
            allowed_button(C.can_write, "plus", "Add price", C.open_price(p.id, p.name), primary=False),
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
                rx.el.tbody(rx.foreach(p.prices, _price_row)),
                class_name="min-w-full",
            ),
            class_name="overflow-x-auto border-t border-slate-200",
        ),
        class_name=f"{CARD} overflow-hidden",
        data_testid="catalogue-product",
    )


def _price_dialog() -> rx.Component:
    fields = rx.el.div(
        number_field(C, "Amount (USD)", "amount", None, "0", step="0.01", id="price-amount", required=True),
        select_field(
            C,
            "Billing period",
            "billing_period",
            [(x.value, label_of(x.value)) for x in BillingPeriod],
            id="price-period",
        ),
        class_name="grid gap-4 sm:grid-cols-2",
    )
    return form_dialog(
        C,
        "price",
        "Add Price",
        rx.el.span("A new price for ", rx.el.strong(C.dialog_name), ". Old prices stay as they were."),
        fields,
        on_submit=C.submit_price,
        failed="Failed to add price",
        submit="Add price",
    )


def products_content() -> rx.Component:
    products = rx.cond(
        C.rows.length() > 0,
        rx.el.div(rx.foreach(C.rows, _catalogue_product), pager(C), class_name="flex flex-col gap-4"),
        empty_panel(rx.cond(C.search != "", "No products found matching your search.", "No products found.")),
    )
    return section_page(
        C,
        products,
        search="Search products…",
        title="Products & Services",
        subtitle="The catalogue and its prices. Edit products under Content Management.",
        dialogs=[_price_dialog()],
    )
