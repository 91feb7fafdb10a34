"""The catalogue: the public GET /api/products and the staff calls on products and prices."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.crud import Write, writes
from app.api.deps import (
    Paged,
    RowId,
    SessionDep,
    StaffUser,
    permitted,
)
from app.api.schemas import Listed, One
from app.core.permissions import Perm
from app.services.catalogue import products
from app.services.catalogue.products import PriceActive, PriceCreate, ProductCreate, ProductPublic, ProductUpdate

router = APIRouter(tags=["content"])
public = APIRouter(tags=["content"])
NameSort = Annotated[str, Query(description="name (default), newest or oldest.")]


@public.get("/products", response_model=One[list[ProductPublic]])
def list_active_products(s: SessionDep) -> dict[str, Any]:
    """Active products with their active prices (public)."""
    return {"data": products.list_public(s)}


@router.get("/admin/products", response_model=Listed[ProductPublic])
def list_all_products(user: StaffUser, s: SessionDep, paged: Paged, sort: NameSort = "name") -> dict[str, Any]:
    """Every product with every price, searched (name, category) and paginated in SQL (products:read)."""
    return products.list_products(s, actor=user, sort=sort, **paged).as_json()


writes(
    router,
    "/admin/products",
    "product_id",
    noun="Product",
    public=ProductPublic,
    perm=Perm.products_write,
    things="products",
    create=Write(products.create_product, "Create a product, optionally with prices (products:write).", ProductCreate),
    update=Write(products.update_product, "Change a product (partial; products:write).", ProductUpdate),
    delete=Write(products.delete_product, "Delete a product that was never ordered (products:write)."),
)


@router.post(
    "/admin/products/{product_id}/prices",
    status_code=201,
    response_model=One[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="update products")],
)
def add_price(product_id: RowId, user: StaffUser, s: SessionDep, body: PriceCreate) -> dict[str, Any]:
    """Offer a product at another price (products:write)."""
    return {"data": products.add_price(s, actor=user, product_id=product_id, data=body)}


@router.put(
    "/admin/prices/{price_id}",
    response_model=One[ProductPublic],
    dependencies=[permitted(Perm.products_write, doing="update products")],
)
def set_price_active(price_id: RowId, user: StaffUser, s: SessionDep, body: PriceActive) -> dict[str, Any]:
    """Switch a price on or off (products:write)."""
    return {"data": products.set_price_active(s, actor=user, price_id=price_id, active=bool(body.is_active))}
