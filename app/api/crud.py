"""The routes that create, change and delete an aggregate's rows, where they all answer alike: a typed body in,
`{"data": <its public model>, "message": "<Noun> created successfully"}` out (a delete: only the message).

Written once here, so an aggregate names only what differs: the path and its id's name, the models, the services
(called as `(s, actor=, data=)`, the id passed by its name), the permission that gates them all and the docstrings
(the OpenAPI summaries). Routes that answer otherwise are written out in their modules.
"""

# No `from __future__ import annotations`: the routes' annotations must be the objects FastAPI reads, and a body's
# model is chosen per aggregate.
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel

from app.api.deps import RowId, SessionDep, StaffUser, permitted
from app.api.schemas import Done, Saved


@dataclass(frozen=True)
class Write:
    """One route: the service it calls, its docstring, the body's model (not for a delete), and its name when not
    the service's."""

    service: Callable[..., Any]
    doc: str
    body: type[BaseModel] | None = None
    name: str | None = None


def writes(
    router: APIRouter,
    path: str,
    key: str,
    *,
    noun: str,
    public: type[BaseModel],
    perm: str,
    things: str,
    create: Write | None = None,
    update: Write | None = None,
    delete: Write | None = None,
) -> None:
    """Register POST `path`, PUT and DELETE `path/{key}` (those given), in that order.

    Each runs its gate before the body or the id is read: staff without `perm` are refused "You don't have permission
    to <create|update|delete> <things>" (`permitted`)."""
    if not perm:  # a write without one would read the body or the id before refusing (a 422 for a 403)
        raise ValueError(f"{path}: every staff write needs its permission gate (`perm`)")
    saved: Any = Saved.__class_getitem__(public)  # the answer's model, chosen per aggregate
    item = f"{path}/{{{key}}}"
    ItemId = Annotated[RowId, Path(alias=key)]  # noqa: N806 (a type, named as one)

    def gate(verb: str) -> Any:
        return permitted(perm, doing=f"{verb} {things}")

    if create is not None:
        made = create

        def create_route(user: StaffUser, s: SessionDep, body: Any) -> dict[str, Any]:
            return {"data": made.service(s, actor=user, data=body), "message": f"{noun} created successfully"}

        _register(router.post, path, create_route, made, gate("create"), status_code=201, response_model=saved)
    if update is not None:
        changed = update

        def update_route(item_id: ItemId, user: StaffUser, s: SessionDep, body: Any) -> dict[str, Any]:
            data = changed.service(s, actor=user, data=body, **{key: item_id})
            return {"data": data, "message": f"{noun} updated successfully"}

        _register(router.put, item, update_route, changed, gate("update"), response_model=saved)
    if delete is not None:
        gone = delete

        def delete_route(item_id: ItemId, user: StaffUser, s: SessionDep) -> dict[str, str]:
            gone.service(s, actor=user, **{key: item_id})
            return {"message": f"{noun} deleted successfully"}

        _register(router.delete, item, delete_route, gone, gate("delete"), response_model=Done)


def _register(
    method: Callable[..., Any], path: str, route: Callable[..., Any], spec: Write, gate: Any, **options: Any
) -> None:
    if spec.body is not None:
        route.__annotations__["body"] = spec.body
    route.__doc__ = spec.doc
    method(path, name=spec.name or spec.service.__name__, dependencies=[gate], **options)(route)
