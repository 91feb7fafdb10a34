"""The product catalogue: products and their prices (a product may be offered at several prices)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Annotated, Any, Unpack

import sqlalchemy as sa
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator
from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from app.core.errors import Invalid
from app.core.permissions import Perm
from app.models.commerce import OrderItem, Price, Product
from app.models.enums import BillingPeriod, ProductCategory
from app.models.user import User
from app.services.platform import audit
from app.services.platform.access import found, require, staff_can
from app.services.platform.paging import Listing, Page, View, contains
from app.services.platform.schema import Flag, Input, Money, OneOf, RawText, Text, parse, problem, required

PRODUCT_SORTS = {
    "name": (func.lower(Product.name), col(Product.id)),
    "newest": (col(Product.created_at).desc(), col(Product.id).desc()),
    "oldest": (col(Product.created_at), col(Product.id)),
}
CURRENCIES = {"usd"}  # invoices and the site show US dollars; other currencies need a price display decision first


def _number(value: Any) -> Any:
    if value is None or (isinstance(value, int | float | str) and not isinstance(value, bool)):
        return value
    raise ValueError("Must be a number")


def _an_object(value: Any) -> Any:
    if value is not None and not isinstance(value, dict):
        raise problem("Metadata must be an object")
    return value


class PriceShape(Input):
    """A price inside a product's body: its shape only; its values are judged as `PriceCreate` (errors keyed by the
    price's own field names, as the form shows them)."""

    amount: Annotated[Decimal | int | float | str | None, BeforeValidator(_number)] = None
    currency: RawText = None
    billing_period: RawText = None
    is_active: Flag = False  # when sent; null is false, as it always was


class PriceCreate(Input):
    amount: Annotated[Decimal | None, Money("Price", required=True)] = Field(None, validate_default=True)
    currency: RawText = Field("usd", description="Only usd (US dollars) is supported.")
    billing_period: Annotated[BillingPeriod | None, OneOf("Billing period")] = BillingPeriod.one_time
    is_active: Flag = True

    model_config = ConfigDict(json_schema_extra=required("amount"))

    @field_validator("currency")
    @classmethod
    def _usd(cls, value: str | None) -> str:
        currency = (value or "usd").lower()
        if currency not in CURRENCIES:
            raise problem("Only US dollars (usd) are supported")
        return currency


class PriceActive(Input):
    is_active: Flag = False


class ProductUpdate(Input):
    """The fields sent change; blank text means "not sent"."""

    name: Annotated[str | None, Text("Name", 200, required=True)] = None
    description: Annotated[str | None, Text("Description", 5000)] = None
    category: Annotated[ProductCategory | None, OneOf("Category", not_null=True)] = None
    is_active: Flag = False  # when sent; null is false, as it always was
    metadata: Annotated[Any, AfterValidator(_an_object)] = Field(None, description="Any JSON object.")
    prices: list[PriceShape] | None = Field(None, description="The product's first prices (on create).")


class ProductCreate(ProductUpdate):
    model_config = ConfigDict(json_schema_extra=required("name"))

    name: Annotated[str | None, Text("Name", 200, required=True)] = Field(None, validate_default=True)


class PricePublic(BaseModel):
    id: int
    amount: str
    currency: str
    billing_period: str
    is_active: bool


class ProductPublic(BaseModel):
    id: int
    name: str
    description: str | None
    category: str
    is_active: bool
    metadata: Any
    prices: list[PricePublic]
    created_at: str


class ProductView(ProductPublic):
    """A product as one actor sees it: its public fields and what that actor may do with it. The flag stays out of the
    REST answer (the routes' response model is `ProductPublic`)."""

    can_delete: bool = False  # may write products, and the product was never ordered (else deactivate it)


def price_public(p: Price) -> PricePublic:
    return PricePublic(
        id=p.id or 0,
        amount=f"{p.amount:.2f}",
        currency=p.currency,
        billing_period=str(p.billing_period),
        is_active=p.is_active,
    )


def product_view(p: Product, prices: list[Price], *, can_delete: bool = False) -> ProductView:
    return ProductView(
        id=p.id or 0,
        name=p.name,
        description=p.description,
        is_active=p.is_active,
        category=str(p.category),
        metadata=p.meta,
        prices=[price_public(x) for x in prices],
        created_at=p.created_at.isoformat(),
        can_delete=can_delete,
    )


def _ordered(s: Session, ids: list[int]) -> set[int]:
    """Which of these products appear on an order (those are deactivated, never deleted)."""
    if not ids:
        return set()
    return set(s.exec(select(OrderItem.product_id).where(col(OrderItem.product_id).in_(ids)).distinct()).all())


def _with_prices(
    s: Session, products: list[Product], *, active_prices_only: bool, actor: User | None = None
) -> list[ProductView]:
    ids = [p.id or 0 for p in products]
    prices: dict[int, list[Price]] = {}
    if ids:
        query = select(Price).where(col(Price.product_id).in_(ids)).order_by(col(Price.amount))
        if active_prices_only:
            query = query.where(col(Price.is_active).is_(True))
        for price in s.exec(query).all():
            prices.setdefault(price.product_id, []).append(price)
    writer = actor is not None and staff_can(actor, Perm.products_write)
    ordered = _ordered(s, ids) if writer else set()
    return [
        product_view(p, prices.get(p.id or 0, []), can_delete=writer and (p.id or 0) not in ordered) for p in products
    ]


def list_public(s: Session) -> list[ProductView]:
    """Active products with their active prices (GET /api/products, no sign-in)."""
    products = s.exec(select(Product).where(col(Product.is_active).is_(True)).order_by(func.lower(Product.name))).all()
    return _with_prices(s, list(products), active_prices_only=True)


def list_products(s: Session, *, actor: User, **view: Unpack[View]) -> Page[ProductView]:
    """A page of every product (active or not) with every price, searched in name and category, by name unless
    sorted (products:read); each says whether the actor may delete it."""
    require(actor, Perm.products_read, "view products")
    return _page(s, select(Product), active_prices_only=False, actor=actor, **view)


def list_active_products(s: Session, **view: Unpack[View]) -> Page[ProductView]:
    """A page of the public catalogue: active products with their active prices (anyone may see them)."""
    query = select(Product).where(col(Product.is_active).is_(True))
    return _page(s, query, active_prices_only=True, **view)


def _page(
    s: Session,
    query: SelectOfScalar[Product],
    *,
    active_prices_only: bool,
    actor: User | None = None,
    **view: Unpack[View],
) -> Page[ProductView]:
    # The category is searched as the list shows it too: "service package" finds service_package.
    search = view.pop("search", "")
    parts = [
        contains(search, Product.name),
        contains(search.replace(" ", "_"), sa.cast(Product.category, sa.String)),
    ]
    if where := [p for p in parts if p is not None]:
        query = query.where(sa.or_(*where))
    result = Listing(lambda p: p, PRODUCT_SORTS).page(s, query, **view)
    data = _with_prices(s, result.data, active_prices_only=active_prices_only, actor=actor)
    return result.with_data(data)


def _values(body: ProductUpdate) -> dict[str, Any]:
    out = body.model_dump(exclude_unset=True, exclude={"prices"})
    if "metadata" in out:
        out["meta"] = out.pop("metadata")
    return out


def _get(s: Session, product_id: int) -> Product:
    return found(s, Product, product_id, "Product")


def create_product(s: Session, *, actor: User, data: ProductCreate | Mapping[str, Any]) -> ProductView:
    """Create a product, optionally with its first prices (products:write)."""
    require(actor, Perm.products_write, "create products")
    body = parse(ProductCreate, data)
    prices = [parse(PriceCreate, price.sent()) for price in body.prices or []]
    product = Product(**_values(body))
    s.add(product)
    s.flush()
    for price in prices:
        s.add(Price(product_id=product.id or 0, **price.model_dump()))
    audit.record(s, actor=actor, action="product.create", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False, actor=actor)[0]


def update_product(s: Session, *, actor: User, product_id: int, data: ProductUpdate | Mapping[str, Any]) -> ProductView:
    """Change the fields sent (products:write)."""
    require(actor, Perm.products_write, "update products")
    product = _get(s, product_id)
    for key, value in _values(parse(ProductUpdate, data)).items():
        setattr(product, key, value)
    s.add(product)
    audit.record(s, actor=actor, action="product.update", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False, actor=actor)[0]


def delete_product(s: Session, *, actor: User, product_id: int) -> None:
    """Delete a product and its prices; one that was ordered is deactivated instead, so orders keep their lines."""
    require(actor, Perm.products_write, "delete products")
    product = _get(s, product_id)
    if _ordered(s, [product.id or 0]):
        raise Invalid("This product has been ordered; deactivate it instead of deleting it.")
    audit.record(s, actor=actor, action="product.delete", details={"name": product.name, "id": product.id})
    s.delete(product)
    s.commit()


def add_price(s: Session, *, actor: User, product_id: int, data: PriceCreate | Mapping[str, Any]) -> ProductView:
    """Offer the product at another price (products:write)."""
    require(actor, Perm.products_write, "update products")
    product = _get(s, product_id)
    price = parse(PriceCreate, data)
    s.add(Price(product_id=product.id or 0, **price.model_dump()))
    audit.record(s, actor=actor, action="price.create", entity=product)
    s.commit()
    return _with_prices(s, [product], active_prices_only=False, actor=actor)[0]


def set_price_active(s: Session, *, actor: User, price_id: int, active: bool) -> ProductView:
    """Switch a price on or off; prices are never edited in place, so past orders keep what they paid."""
    require(actor, Perm.products_write, "update products")
    price = found(s, Price, price_id, "Price")
    price.is_active = active
    s.add(price)
    audit.record(s, actor=actor, action="price.update", entity=price, details={"is_active": active})
    s.commit()
    return _with_prices(s, [_get(s, price.product_id)], active_prices_only=False, actor=actor)[0]
