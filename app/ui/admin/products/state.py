"""Products & Services (/admin/products): the one place where the catalogue is edited (ADR 0090). Each product with
its prices, one page at a time; creating, editing and deleting products; adding prices and switching them on or
off. Reading needs products:read, every write products:write, checked again in each handler and in the service."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import reflex as rx
from sqlmodel import Session

from app.core.permissions import Perm
from app.models.user import User, UserPublic
from app.services.catalogue import products
from app.services.catalogue.products import ProductView
from app.ui.admin.cards import CardList
from app.ui.admin.common import dollars, form_text, row_id
from app.ui.admin.paged import SectionListing
from app.ui.admin.state import AdminState
from app.ui.rows import Choice, Row, label_of

CATALOGUE = "Products & Services"
CATALOGUE_PAGE_SIZE = 10  # products per page; each shows its price table


@dataclasses.dataclass
class PriceRow(Row):
    amount: str = ""
    currency: str = ""
    period: str = ""
    active: bool = True


@dataclasses.dataclass
class ProductRow(Row):
    """A product as its catalogue entry (with its prices) and its create/edit form show it."""

    name: str = ""
    description: str = ""
    category: Choice = dataclasses.field(default_factory=Choice)
    active: bool = True
    prices: list[PriceRow] = dataclasses.field(default_factory=list)
    can_delete: bool = False  # the service's flag: the actor may write and the product was never ordered
    offered: bool = False  # clients see it among the portal's plans: active, with an active price (orders.list_plans)


def product_row(p: ProductView) -> ProductRow:
    return ProductRow(
        id=p.id,
        name=p.name,
        description=p.description or "",
        category=Choice.of(p.category),
        active=p.is_active,
        prices=[
            PriceRow(
                id=x.id,
                amount=dollars(x.amount),
                currency=x.currency.upper(),
                period=label_of(x.billing_period),
                active=x.is_active,
            )
            for x in p.prices
        ],
        can_delete=p.can_delete,
        offered=p.is_active and any(x.is_active for x in p.prices),
    )


class ProductCatalogueState(CardList[ProductRow], AdminState):
    """The catalogue section: the card list's create/edit form and delete confirmation (CardList), read and written
    with the products permissions instead of Content Management's, plus the prices' dialog and switch."""

    listing: ClassVar[SectionListing[ProductRow]] = SectionListing(
        Perm.products_read, CATALOGUE, products.list_products, product_row, "products", "product"
    )
    rows: rx.Field[list[ProductRow]] = rx.field(default_factory=list)
    page_size: int = CATALOGUE_PAGE_SIZE
    sort: str = "name"
    edit: ProductRow = ProductRow()

    def _write_perm(self) -> str:
        return Perm.products_write

    def _write_guard(self) -> tuple[str, str]:
        return Perm.products_write, CATALOGUE

    @rx.event
    async def load(self) -> None:
        """The page's loader: the first page with no dialog open (a section of its own, not a tab: nothing else
        closes its dialogs)."""
        self.page = 1
        self.close_dialogs()
        await self._reload(quiet=True)

    # --- products ------------------------------------------------------------------------------------------------

    def _delete(self, s: Session, actor: User, target: int) -> None:
        products.delete_product(s, actor=actor, product_id=target)

    def _new_row(self) -> ProductRow:
        return ProductRow(active=True)

    async def _open(self, actor: UserPublic, row: ProductRow) -> None:
        self.edit = row

    def _form_data(self, form: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {k: form_text(form, k, 5000) for k in ("name", "description", "category")}
        data["is_active"] = str(form.get("is_active") or "") in ("on", "true", "1")
        return data

    def _write(self, s: Session, actor: User, edit_id: int, data: dict[str, Any]) -> ProductView:
        if edit_id:
            return products.update_product(s, actor=actor, product_id=edit_id, data=data)
        return products.create_product(s, actor=actor, data=data)

    # --- prices --------------------------------------------------------------------------------------------------
    @rx.event
    async def open_price(self, product_id: int, name: str) -> None:
        await self._ask("price", product_id, str(name)[:200])

    @rx.event
    async def submit_price(self, form: dict[str, Any]) -> None:
        actor = await self._writer()
        if actor is None:
            return
        pid = self._dialog_row()
        data = {
            "amount": form_text(form, "amount", 20),
            "currency": "usd",
            "billing_period": form_text(form, "billing_period", 20),
            "is_active": True,
        }
        await self._submit(
            actor,
            lambda s, a: products.add_price(s, actor=a, product_id=pid, data=data),
            "Failed to add price",
            "Price added successfully",
        )

    @rx.event
    async def toggle_price(self, price_id: int, active: bool) -> None:
        actor = await self._writer()
        if actor is None:
            return
        pid = row_id(price_id)
        failed = "Failed to update price"
        ok, _ = await self._attempt(
            actor, lambda s, a: products.set_price_active(s, actor=a, price_id=pid, active=bool(active)), failed, failed
        )
        if not ok:
            return
        await self._notify("success", "Price updated successfully")
        await self._reload()
