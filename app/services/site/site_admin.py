"""Staff editing of the public site's content: services, portfolio, testimonials, team and job openings.

One description per kind (its table and fields) drives listing, validation, create, partial update and delete, so
the five editors behave alike. Reading needs content:read, writing content:write; every write is audited. The public
pages read these tables on each visit (app/ui/site/content.py), so an edit shows without a rebuild.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints, create_model
from pydantic import Field as Spec
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, SQLModel, col, select

from app.core.errors import Invalid, NotFound
from app.core.permissions import Perm
from app.core.text import INVALID_CHARACTER, storable
from app.models.careers import JobOpening
from app.models.content import PortfolioProject, Service, TeamMember, Testimonial
from app.models.user import User
from app.services.platform import audit
from app.services.platform import validation as v
from app.services.platform.access import found, require
from app.services.platform.schema import Body, parse, problem, required
from app.services.site.site_content import PORTFOLIO_CATEGORIES, SERVICE_ICONS

EMPLOYMENT_TYPES = ("Full-time", "Part-time", "Contract", "Internship")
MAX_LIST_ITEMS = 30


@dataclass(frozen=True)
class Field:
    name: str  # the model attribute and the payload key
    label: str
    type: str = "text"  # text | long | lines | bool | int | date | choice | url | slug | code
    limit: int = 200
    required: bool = False
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 10_000
    default: bool | int | None = None  # the value of a new row when the field is not sent


@dataclass(frozen=True)
class Kind:
    key: str  # the URL segment: /api/admin/site/{key}
    noun: str  # "service", as in "Service created successfully"
    model: type[SQLModel]
    title: str  # the field that names a row in lists, toasts and the audit log
    fields: tuple[Field, ...]
    unique: str | None = None  # a field that must be unique (the public id)
    shown: str = "is_published"  # the flag that puts a row on the public site


ORDER = Field("sort_order", "Display order", "int", default=0)
KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        Kind(
            "services",
            "service",
            Service,
            "title",
            (
                Field("title", "Title", required=True),
                Field("slug", "Slug", "slug", limit=100, required=True),
                Field("icon", "Icon", "choice", required=True, choices=tuple(SERVICE_ICONS)),
                Field("description", "Description", "long", limit=2000, required=True),
                Field("features", "Features", "lines"),
                Field("popular", "Most Popular", "bool"),
                Field("is_active", "Shown on the site", "bool", default=True),
                ORDER,
            ),
            unique="slug",
            shown="is_active",
        ),
        Kind(
            "portfolio",
            "portfolio project",
            PortfolioProject,
            "title",
            (
                Field("title", "Title", required=True),
                Field("category", "Category", "choice", required=True, choices=tuple(PORTFOLIO_CATEGORIES[1:])),
                Field("description", "Description", "long", limit=2000, required=True),
                Field("tags", "Tags", "lines", limit=50),
                Field("link", "Site address", "url", limit=500),
                Field("is_live", "Live site (Visit Site)", "bool"),
                Field("is_published", "Shown on the site", "bool", default=True),
                ORDER,
            ),
        ),
        Kind(
            "testimonials",
            "testimonial",
            Testimonial,
            "name",
            (
                Field("name", "Name", limit=100, required=True),
                Field("role", "Role", limit=100),
                Field("company", "Company"),
                Field("text", "Testimonial", "long", limit=2000, required=True),
                Field("rating", "Rating", "int", required=True, low=1, high=5),
                Field("date", "Date", "date"),
                Field("verified", "Verified client", "bool", default=True),
                Field("featured", "Featured (fixed, with role and company)", "bool"),
                Field("is_published", "Shown on the site", "bool", default=True),
                ORDER,
            ),
        ),
        Kind(
            "team",
            "team member",
            TeamMember,
            "name",
            (
                Field("name", "Name", limit=100, required=True),
                Field("role", "Role", limit=100, required=True),
                Field("bio", "Bio", "long", limit=2000, required=True),
                Field("skills", "Skills", "lines", limit=50),
                Field("is_published", "Shown on the site", "bool", default=True),
                ORDER,
            ),
        ),
        Kind(
            "jobs",
            "job opening",
            JobOpening,
            "title",
            (
                Field("title", "Title", required=True),
                Field("code", "Job ID", "code", limit=20, required=True),
                Field("department", "Department", limit=100, required=True),
                Field("location", "Location", required=True),
                Field("employment_type", "Type", "choice", required=True, choices=EMPLOYMENT_TYPES),
                Field("salary", "Salary", limit=100),
                Field("description", "Description", "long", limit=5000),
                Field("requirements", "Requirements", "lines", limit=300),
                Field("benefits", "Benefits", "lines", limit=300),
                Field("is_active", "Open (shown on Careers)", "bool", default=True),
                ORDER,
            ),
            unique="code",
            shown="is_active",
        ),
    )
}

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_CODE = re.compile(r"^[A-Z0-9]+(?:-[A-Z0-9]+)*$")


def kind_of(key: str) -> Kind:
    kind = KINDS.get(key)
    if kind is None:
        raise NotFound("Unknown content type")
    return kind


def _dto(kind: Kind, row: SQLModel) -> BaseModel:
    """The row as its kind's public model (`PUBLIC[key]`: the kinds' fields differ, so the class is built per kind)."""
    out: dict[str, Any] = {"id": getattr(row, "id")}  # noqa: B009  (every kind's table has an id; SQLModel does not say so)
    for f in kind.fields:
        value = getattr(row, f.name)
        out[f.name] = value.isoformat() if isinstance(value, date) else list(value) if f.type == "lines" else value
    return PUBLIC[kind.key].model_validate(out)


def list_items(s: Session, *, actor: User, kind: str) -> list[BaseModel]:
    """Every row of a kind, published or not, in display order (content:read)."""
    require(actor, Perm.content_read, "view site content")
    k = kind_of(kind)
    model: Any = k.model
    rows = s.exec(select(model).order_by(col(model.sort_order), col(model.id))).all()
    return [_dto(k, r) for r in rows]


def _lines(value: Any, f: Field, errors: dict[str, str]) -> list[str]:
    # A list, or text with one item per line (how the editor's textarea sends it).
    items = value if isinstance(value, list) else str(value or "").splitlines()
    cleaned = [" ".join(str(i).split()) for i in items]
    cleaned = [i for i in cleaned if i]
    if len(cleaned) > MAX_LIST_ITEMS:
        errors[f.name] = f"{f.label} can have at most {MAX_LIST_ITEMS} items"
    elif any(len(i) > f.limit for i in cleaned):
        errors[f.name] = f"Each of the {f.label.lower()} must not exceed {f.limit} characters"
    return cleaned


def _flag(value: Any) -> bool:
    return value is True or str(value).strip().lower() in ("true", "1", "on", "yes")


def _value(f: Field, value: Any, errors: dict[str, str]) -> Any:
    if f.type == "bool":
        return _flag(value)
    if f.type == "lines":
        return _lines(value, f, errors)
    if f.type == "int":
        number = v.whole(value, f.name, errors, f.label, low=f.low, high=f.high)
        if number is None and f.name not in errors:
            if f.required:
                errors[f.name] = f"{f.label} is required"
            return f.default
        return number
    if f.type == "date":
        return v.day(value, f.name, errors, f.label)
    cleaned = v.text(value, f.name, errors, f.label, limit=f.limit, required=f.required)
    if cleaned is None:
        return None
    if f.type == "choice" and cleaned not in f.choices:
        errors[f.name] = f"{f.label} must be one of: {', '.join(f.choices)}"
    elif f.type == "url" and not re.match(r"^https?://[^\s/]+\.[^\s]+$", cleaned):
        errors[f.name] = f"{f.label} must be a full web address starting with https://"
    elif f.type == "slug" and not _SLUG.match(cleaned):
        errors[f.name] = f"{f.label} may contain only lowercase letters, digits and single hyphens"
    elif f.type == "code" and not _CODE.match(cleaned.upper()):
        errors[f.name] = f"{f.label} may contain only letters, digits and single hyphens (e.g. JOB-005)"
    elif f.type == "code":
        return cleaned.upper()
    elif f.type != "long" and "\n" in cleaned:
        return " ".join(cleaned.split())
    return cleaned


def _values(k: Kind, data: Body | Mapping[str, Any], *, creating: bool) -> dict[str, Any]:
    """Model values for the fields sent (all fields when creating), checked by the kind's typed input; a field left
    empty on a new row keeps the column's default."""
    body = parse((CREATE if creating else UPDATE)[k.key], data)
    if not creating:
        return body.sent()
    return {name: value for name, value in body.model_dump().items() if value is not None}


# --- typed inputs and answers, one per kind, built from the kinds' fields ---------------------------------------------

# The JSON shape each type of field takes, and the words for another shape.
_SHAPES: dict[str, tuple[tuple[type, ...], str]] = {
    "bool": ((bool, str), "Must be true or false"),
    "int": ((int, float, str), "Must be a number"),
    "lines": ((list, str), "Must be a list of text"),
}


def _shape(f: Field, value: Any) -> None:
    kinds, message = _SHAPES.get(f.type, ((str,), "Must be text"))
    wrong = value is not None and (not isinstance(value, kinds) or (f.type == "int" and isinstance(value, bool)))
    if wrong or (f.type == "lines" and isinstance(value, list) and not all(isinstance(i, str) for i in value)):
        raise ValueError(message)
    texts = value if isinstance(value, list) else [value] if isinstance(value, str) else []
    if not all(storable(text) for text in texts):
        raise problem(INVALID_CHARACTER)


def _checker(f: Field, *, updating: bool) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        _shape(f, value)
        if updating and f.required and value in (None, ""):
            raise problem(f"{f.label} is required")
        errors: dict[str, str] = {}
        out = _value(f, value, errors)
        if errors:
            raise problem(errors[f.name])
        return out

    return check


def _column(f: Field) -> Any:
    """The type a field's value has once checked, with the constraints the schema documents."""
    if f.type == "bool":
        return bool
    if f.type == "lines":
        return list[str]
    if f.type == "int":
        return Annotated[int, Spec(ge=f.low, le=f.high)] | None
    if f.type == "date":
        return date | None
    return Annotated[str, StringConstraints(max_length=f.limit)] | None


def _doc(f: Field) -> dict[str, Any]:
    extra: dict[str, Any] = {"description": f.label + (" (one item per line, or a list)" if f.type == "lines" else "")}
    if f.type == "choice":
        extra["json_schema_extra"] = {"enum": [*f.choices, None]}
    return extra


def _input(k: Kind, *, updating: bool) -> type[Body]:
    fields: dict[str, Any] = {}
    for f in k.fields:
        checked = (_column(f), BeforeValidator(_checker(f, updating=updating)), Spec(**_doc(f)))
        annotation: Any = Annotated.__class_getitem__(checked)  # type: ignore[attr-defined]
        # A new row: fields not sent take their default (checked too, so a required one left out is named).
        default: Any = [] if f.type == "lines" else bool(f.default) if f.type == "bool" else f.default
        fields[f.name] = (annotation, None if updating else Spec(default, validate_default=True))
    name = f"{k.model.__name__}{'Update' if updating else 'Create'}"
    base: type[Body] = Body
    if not updating:  # the schema lists the fields a new row needs (the model words their absence itself)
        extra = required(*(f.name for f in k.fields if f.required))
        base = type(f"{name}Base", (Body,), {"model_config": ConfigDict(extra="ignore", json_schema_extra=extra)})
    return create_model(name, __base__=base, **fields)


def _public(k: Kind) -> type[BaseModel]:
    def shown(f: Field) -> Any:
        return {"bool": bool, "lines": list[str], "int": int | None}.get(f.type, str | None)

    fields: dict[str, Any] = {"id": (int, ...)} | {f.name: (shown(f), ...) for f in k.fields}
    return create_model(f"{k.model.__name__}Public", **fields)


# Per kind: the body of a new row, the body of a change (only the fields sent), and the row as answered.
CREATE: dict[str, type[Body]] = {key: _input(k, updating=False) for key, k in KINDS.items()}
UPDATE: dict[str, type[Body]] = {key: _input(k, updating=True) for key, k in KINDS.items()}
PUBLIC: dict[str, type[BaseModel]] = {key: _public(k) for key, k in KINDS.items()}


def _get(s: Session, k: Kind, item_id: int) -> Any:
    return found(s, k.model, item_id, k.noun.capitalize())


def _check_unique(s: Session, k: Kind, values: dict[str, Any], item_id: int | None) -> None:
    if k.unique is None or k.unique not in values:
        return
    model: Any = k.model
    other = s.exec(select(model.id).where(getattr(model, k.unique) == values[k.unique])).first()
    if other is not None and other != item_id:
        label = next(f.label for f in k.fields if f.name == k.unique)
        raise Invalid(f"{label} {values[k.unique]} is already used", errors={k.unique: f"{label} is already used"})


def _commit(s: Session, k: Kind, values: dict[str, Any], item_id: int | None) -> None:
    try:
        s.commit()
    except IntegrityError:  # a concurrent save took the same slug/code between the check and the commit
        s.rollback()
        _check_unique(s, k, values, item_id)
        raise


def create_item(s: Session, *, actor: User, kind: str, data: Body | Mapping[str, Any]) -> BaseModel:
    """Add a row of a kind (content:write)."""
    require(actor, Perm.content_write, "create site content")
    k = kind_of(kind)
    values = _values(k, data, creating=True)
    _check_unique(s, k, values, None)
    row = k.model(**values)
    s.add(row)
    s.flush()
    audit.record(s, actor=actor, action=f"site.{k.key}.create", entity=row, details={k.title: values[k.title]})
    _commit(s, k, values, None)
    s.refresh(row)
    return _dto(k, row)


def update_item(s: Session, *, actor: User, kind: str, item_id: int, data: Body | Mapping[str, Any]) -> BaseModel:
    """Change the fields sent (content:write)."""
    require(actor, Perm.content_write, "update site content")
    k = kind_of(kind)
    row = _get(s, k, item_id)
    values = _values(k, data, creating=False)
    _check_unique(s, k, values, item_id)
    for name, value in values.items():
        setattr(row, name, value)
    s.add(row)
    audit.record(s, actor=actor, action=f"site.{k.key}.update", entity=row, details={"fields": sorted(values)})
    _commit(s, k, values, item_id)
    s.refresh(row)
    return _dto(k, row)


def delete_item(s: Session, *, actor: User, kind: str, item_id: int) -> None:
    """Remove a row (content:write). Applications to a removed opening keep its job id (the key is set to null)."""
    require(actor, Perm.content_write, "delete site content")
    k = kind_of(kind)
    row = _get(s, k, item_id)
    audit.record(s, actor=actor, action=f"site.{k.key}.delete", details={"id": item_id, k.title: getattr(row, k.title)})
    s.delete(row)
    s.commit()
