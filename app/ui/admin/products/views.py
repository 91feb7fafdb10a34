"""Products & Services: each product as a card with its price table, one page at a time; the product's create/edit
dialog and delete confirmation, and the Add Price dialog (ADR 0090)."""

from __future__ import annotations

import reflex as rx
from reflex.vars.object import ObjectVar

from app.models.enums import BillingPeriod, ProductCategory
from app.ui import routes
from app.ui.admin.cards import card_actions, card_form, pager
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
from app.ui.admin.products.state import PriceRow, ProductCatalogueState, ProductRow
from app.ui.admin.section import section_page
from app.ui.admin.state import AdminState
from app.ui.admin.widgets import (
    CARD,
    TD,
    TH,
    allowed_button,
    badge,
)
from app.ui.rows import label_of

C = ProductCatalogueState
# A phone's price table keeps the price's switch in view: the currency (always US dollars, see products.CURRENCIES)
# and the header's longer words give way below 640 px.
WIDE_ONLY = "max-sm:hidden"


def _price_row(x: ObjectVar[PriceRow]) -> rx.Component:
    return rx.el.tr(
        rx.el.td(x.amount, class_name=f"{TD} font-medium"),
        rx.el.td(x.currency, class_name=f"{TD} {WIDE_ONLY}"),
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


def _fields() -> rx.Component:
    e = C.edit
    categories = [("", "No category"), *[(x.value, label_of(x.value)) for x in ProductCategory]]
    return rx.el.div(
        text_field(C, "Name", "name", e.name, id="product-name", required=True),
        select_field(C, "Category", "category", categories, e.category.value, id="product-category"),
        area_field(C, "Description", "description", e.description, id="product-description"),
        check_field("is_active", "Active (clients can order it in the portal)", e.active, id="product-active"),
        class_name="grid gap-4 sm:grid-cols-2",
    )


def _offered(p: ObjectVar[ProductRow]) -> rx.Component:
    """Whether clients see the product among the portal's plans, and if not, what it lacks: a staff member who just
    added a product would otherwise wonder why it is not offered."""
    return rx.el.p(
        rx.cond(
            p.offered,
            "Offered to clients in the portal's plans.",
            rx.cond(
                p.active,
                "Not offered yet: it needs an active price.",
                "Not offered: the product is inactive.",
            ),
        ),
        class_name=rx.cond(p.offered, "mt-2 text-xs text-emerald-700", "mt-2 text-xs text-amber-700"),
        data_testid="product-offered",
    )


def _catalogue_product(p: ObjectVar[ProductRow]) -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.div(
                rx.el.div(
                    rx.el.h2(p.name, class_name="min-w-0 break-words font-semibold text-slate-900"),
                    card_actions(C.can_write, p.name, C.open_edit(p.id), C.ask_delete(p.id, p.name), p.can_delete),
                    class_name="flex items-start justify-between gap-2",
                ),
                rx.el.div(
                    rx.cond(p.category.value != "", badge(p.category.label, "blue"), rx.fragment()),
                    rx.cond(p.active, badge("Active", "green"), badge("Inactive", "grey")),
                    class_name="mt-1 flex flex-wrap gap-1.5",
                ),
                rx.el.p(p.description, class_name="mt-2 line-clamp-3 text-sm text-slate-600"),
                _offered(p),
                class_name="min-w-0 flex-1",
            ),
            allowed_button(C.can_write, "plus", "Add price", C.open_price(p.id, p.name), primary=False),
            class_name="flex flex-col items-start gap-3 p-5 sm:flex-row sm:justify-between",
        ),
        rx.el.div(
            rx.el.table(
                rx.el.thead(
                    rx.el.tr(
                        rx.el.th("Amount", class_name=TH),
                        rx.el.th("Currency", class_name=f"{TH} {WIDE_ONLY}"),
                        rx.el.th(rx.el.span("Billing ", class_name=WIDE_ONLY), "period", class_name=TH),
                        rx.el.th("Status", class_name=TH),
                    ),
                    class_name="bg-slate-50",
                ),
                rx.el.tbody(
                    rx.foreach(p.prices, _price_row),
                    rx.cond(
                        p.prices.length() == 0,
                        rx.el.tr(
                            rx.el.td("No prices yet.", col_span=4, class_name=f"{TD} text-slate-500"),
                            class_name="border-t border-slate-100",
                        ),
                        rx.fragment(),
                    ),
                ),
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


def _website_note() -> rx.Component:
    """The public Services page's texts (icons, feature lists, display order) are the website's content, edited with
    the rest of the site by content writers: point there from the catalogue for those who may see it."""
    return rx.cond(
        AdminState.visible_sections.contains("content"),
        rx.el.p(
            "What the public Services page says about each service is website content: ",
            rx.link(
                "Content Management → Website",
                href=f"{routes.ADMIN_CONTENT}?tab=site",
                class_name="font-medium text-blue-700 underline-offset-2 hover:underline",
                data_testid="website-services-link",
            ),
            ".",
            class_name="mb-4 text-sm text-slate-500",
        ),
        rx.fragment(),
    )


def products_content() -> rx.Component:
    products = rx.cond(
        C.rows.length() > 0,
        rx.el.div(rx.foreach(C.rows, _catalogue_product), pager(C), class_name="flex flex-col gap-4"),
        empty_panel(rx.cond(C.search != "", "No products found matching your search.", "No products found.")),
    )
    create = allowed_button(C.can_write, "plus", "Create Product", C.open_create, test_id="create-products")
    return section_page(
        C,
        rx.el.div(_website_note(), products),
        search="Search products…",
        search_id="search-products",
        title="Products & Services",
        subtitle="The catalogue clients order from in the portal: each product, its prices, and whether it is offered.",
        create=[create],
        dialogs=[card_form(C, _fields()), delete_dialog(C, "Delete Product"), _price_dialog()],
    )
