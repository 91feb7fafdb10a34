"""The product catalogue: products and their prices (a product may be offered at several prices)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.core.db import get_by_id
from app.core.errors import Forbidden, Invalid, NotFound
from app.core.permissions import Perm
from app.models.commerce import OrderItem, Price, Product
from app.models.enums import BillingPeriod, ProductCategory
from app.models.user import User
from app.services import audit
from app.services import validation as v
from app.services.access import staff_can
from app.services.paging import PAGE_SIZE, Page, contains, paginate

PRODUCT_SORTS = {
    "name": (func.lower(Product.name), col(Product.id)),
    "newest": (col(Product.created_at).desc(), col(Product.id).desc()),
    "oldest": (col(Product.created_at), col(Product.id)),
}
CURRENCIES = {"usd"}  # invoices and the site show US dollars; other currencies need a price display decision first


def price_dto(p: Price) -> dict[str, Any]:
    return {
        "id": p.id,
        "amount": f"{p.amount:.2f}",
        "currency": p.currency,
        "billing_period": str(p.billing_period),
        "is_active": p.is_active,
    }


def product_dto(p: Product, prices: list[Price]) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "description": p.description,
        "category": str(p.category),
        "is_active": p.is_active,
        "metadata": p.meta,
        "prices": [price_dto(x) for x in prices],
        "created_at": p.created_at.isoformat(),
    }


def _with_prices(s: Session, products: list[Product], *, active_prices_only: bool) -> list[dict[str, Any]]:
    ids = [p.id for p in products]
    prices: dict[int, list[Price]] = {}
    if ids:
        query = select(Price).where(col(Price.product_id).in_(ids)).order_by(col(Price.amount))
        if active_prices_only:
            query = query.where(col(Price.is_active).is_(True))
        for price in s.exec(query).all():
            prices.setdefault(price.product_id, []).append(price)
    return [product_dto(p, prices.get(p.id or 0, [])) for p in products]


def list_public(s: Session) -> list[dict[str, Any]]:
    """Active products with their active prices (GET /api/products, no sign-in)."""
    products = s.exec(select(Product).where(col(Product.is_active).is_(True)).order_by(func.lower(Product.name))).all()
    return _with_prices(s, list(products), active_prices_only=True)


def list_products(
    s: Session,
    *,
    actor: User,
    search: str = "",
    sort: str = "",
    page: int = 1,
    page_size: int = PAGE_SIZE,
) -> Page[dict[str, Any]]:
    """A page of every product (active or not) with every price, searched in name and category, by name unless
    sorted (products:read)."""
    if not staff_can(actor, Perm.products_read):
        raise Forbidden("You don't have permission to view products")
    return _page(s, select(Product), search, sort, page, page_size, active_prices_only=False)


def list_active_products(
    s: Session, *, search: str = "", sort: str = "", page: int = 1, page_size: int = PAGE_SIZE
) -> Page[dict[str, Any]]:
    """A page of the public catalogue: active products with their active prices (anyone may see them)."""
    query = select(Product).where(col(Product.is_active).is_(True))
    return _page(s, query, search, sort, page, page_size, active_prices_only=True)


def _page(
    s: Session,
    query: SelectOfScalar[Product],
    search: str,
    sort: str,
    page: int,
    page_size: int,
    *,
    active_prices_only: bool,
) -> Page[dict[str, Any]]:
    # The category is searched as the list shows it too: "service package" finds service_package.
    parts = [
        contains(search, Product.name),
        contains(search.replace(" ", "_"), sa.cast(Product.category, sa.String)),
    ]
    if where := [p for p in parts if p is not None]:
        query = query.where(sa.or_(*where))
    result = paginate(s, query, to=lambda p: p, sort=sort, sorts=PRODUCT_SORTS, page=page, page_size=page_size)
    data = _with_prices(s, result.data, active_prices_only=active_prices_only)
    return result.with_data(data)


def _values(data: dict[str, Any], *, creating: bool) -> dict[str, Any]:
    # Products drop empty strings and undefined (not nulls), as the spec's payload cleaning says.
    data = v.drop_empty(data, drop_none=False)
    errors: dict[str, str] = {}
    out: dict[str, Any] = {}
    if creating or "name" in data:
        out["name"] = v.text(data.get("name"), "name", errors, "Name", limit=200, required=True)
    if "description" in data:
        out["description"] = v.text(data["description"], "description", errors, "Description", limit=5000)
    if "category" in data:
        # The column is NOT NULL: an explicit null is refused, not stored (it was a 500).
        if data["category"] is None:
            errors["category"] = "Category is required"
        else:
            out["category"] = v.choice(data["category"], ProductCategory, "category", errors, "Category")
    if "is_active" in data:
        out["is_active"] = bool(data["is_active"])
    if "metadata" in data:
        if data["metadata"] is not None and not isinstance(data["metadata"], dict):
            errors["metadata"] = "Metadata must be an object"
        out["meta"] = data["metadata"]
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return out


def _require_write(actor: User, verb: str) -> None:
    if not staff_can(actor, Perm.products_write):
        raise Forbidden(f"You don't have permission to {verb} products")


def _get(s: Session, product_id: int) -> Product:
    product = get_by_id(s, Product, product_id)
    if product is None:
        raise NotFound("Product not found")
    return product


def create_product(s: Session, *, actor: User, data: dict[str, Any]) -> dict[str, Any]:
    """Create a product, optionally with its first prices (products:write)."""
    _require_write(actor, "create")
    product = Product(**_values(data, creating=True))
    s.add(product)
    s.flush()
    for price in data.get("prices") or []:
        s.add(Price(product_id=product.id, **_price_values(price)))  # type: ignore[arg-type]
    audit.record(s, actor=actor, action="product.create", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False)[0]


def update_product(s: Session, *, actor: User, product_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """Change the fields sent (products:write)."""
    _require_write(actor, "update")
    product = _get(s, product_id)
    for key, value in _values(data, creating=False).items():
        setattr(product, key, value)
    s.add(product)
    audit.record(s, actor=actor, action="product.update", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False)[0]


def delete_product(s: Session, *, actor: User, product_id: int) -> None:
    """Delete a product and its prices; one that was ordered is deactivated instead, so orders keep their lines."""
    _require_write(actor, "delete")
    product = _get(s, product_id)
    if s.exec(select(OrderItem.id).where(OrderItem.product_id == product.id)).first() is not None:
        raise Invalid("This product has been ordered; deactivate it instead of deleting it.")
    audit.record(s, actor=actor, action="product.delete", details={"name": product.name, "id": product.id})
    s.delete(product)
    s.commit()


def _price_values(data: dict[str, Any]) -> dict[str, Any]:
    errors: dict[str, str] = {}
    amount = v.money(data.get("amount"), "amount", errors, "Price")
    if amount is None and "amount" not in errors:
        errors["amount"] = "Price is required"
    currency = str(data.get("currency") or "usd").lower()
    if currency not in CURRENCIES:
        errors["currency"] = "Only US dollars (usd) are supported"
    period = v.choice(
        data.get("billing_period") or "one_time", BillingPeriod, "billing_period", errors, "Billing period"
    )
    if errors:
        raise Invalid(next(iter(errors.values())), errors=errors)
    return {
        "amount": amount,
        "currency": currency,
        "billing_period": period,
        "is_active": bool(data.get("is_active", True)),
    }


def add_price(s: Session, *, actor: User, product_id: int, data: dict[str, Any]) -> dict[str, Any]:
    """Offer the product at another price (products:write)."""
    _require_write(actor, "update")
    product = _get(s, product_id)
    s.add(Price(product_id=product.id, **_price_values(data)))  # type: ignore[arg-type]
    audit.record(s, actor=actor, action="price.create", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False)[0]


def set_price_active(s: Session, *, actor: User, price_id: int, active: bool) -> dict[str, Any]:
    """Switch a price on or off; prices are never edited in place, so past orders keep what they paid."""
    _require_write(actor, "update")
    price = get_by_id(s, Price, price_id)
    if price is None:
        raise NotFound("Price not found")
    price.is_active = active
    s.add(price)
    audit.record(s, actor=actor, action="price.update", entity=price, details={"is_active": active})
    s.commit()
    return _with_prices(s, [_get(s, price.product_id)], active_prices_only=False)[0]
