"""Request bodies of the staff forms: every field the services read, with the JSON shape it may have.

The services take partial objects (a key not sent is "not changed", an empty string "not sent") and parse the values
themselves (money, dates, ids, choices) with their own messages. What they cannot meet is a list or an object where
text belongs, so these types check the shape only and hand the value over unchanged; a wrong shape is a 422 naming
the field. Keys not declared here pass through untouched, as before (the services ignore them).
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator


def _shape(kinds: tuple[type, ...], message: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        # JSON true is a Python int too: it is a number only where a number is not what was declared.
        if value is None or (isinstance(value, kinds) and (bool in kinds or not isinstance(value, bool))):
            return value
        raise ValueError(message)

    return BeforeValidator(check)


def _text_list(value: Any) -> Any:
    if value is None or (isinstance(value, list) and all(isinstance(item, str) for item in value)):
        return value
    raise ValueError("Must be a list of text")


Text = Annotated[str | None, _shape((str,), "Must be text")]
# Amounts, quantities and ids arrive as JSON numbers or as the text of a form field; the service parses both.
Number = Annotated[int | float | str | None, _shape((int, float, str), "Must be a number")]
# A checkbox arrives as true/false or as the text a form sends ("on"); the service reads both.
Flag = Annotated[bool | str | None, _shape((bool, str), "Must be true or false")]
TextList = Annotated[list[str] | None, BeforeValidator(_text_list)]
AList = _shape((list,), "Must be a list")  # of objects, each checked by its own model


class Partial(BaseModel):
    """A form's partial object: only the keys sent reach the service."""

    model_config = ConfigDict(extra="allow")

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            raise ValueError("Must be an object")
        return value

    def sent(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


T = TypeVar("T")


class Saved(BaseModel, Generic[T]):
    """The answer to a create or an update: the record and what happened."""

    data: T
    message: str


class One(BaseModel, Generic[T]):
    """A record alone."""

    data: T


class Listed(BaseModel, Generic[T]):
    """One page of a list: the spec's `{"data": [...]}` with the paging fields beside it."""

    data: list[T]
    total: int
    page: int
    page_size: int
    pages: int


class Created(BaseModel, Generic[T]):
    """The answer to a new account made by staff: without a password, its owner was e-mailed a link to choose one."""

    data: T
    message: str
    passwordLinkSent: bool  # noqa: N815 (the spec's answer names)


class Done(BaseModel):
    """The answer to a call that returns no record (a delete)."""

    message: str


class UserCreateIn(Partial):
    username: Text = None
    email: Text = None
    password: Text = None
    password_hash: Text = None  # the spec's staff form sends the new password under this name
    role: Text = None
    employee_type: Text = None
    first_name: Text = None
    last_name: Text = None
    phone: Text = None
    company: Text = None
    extra_permissions: TextList = None


class ClientCreateIn(Partial):
    username: Text = None
    email: Text = None
    password: Text = None
    password_hash: Text = None
    first_name: Text = None
    last_name: Text = None
    phone: Text = None
    company: Text = None


class UserUpdateIn(Partial):
    username: Text = None
    email: Text = None
    role: Text = None
    employee_type: Text = None
    first_name: Text = None
    last_name: Text = None
    phone: Text = None
    company: Text = None
    extra_permissions: TextList = None
    revoked_permissions: TextList = None
    is_verified: Flag = None


class ProjectIn(Partial):
    name: Text = None
    description: Text = None
    client_id: Text = None
    status: Text = None
    project_type: Text = None
    organization_id: Number = None
    manager_id: Text = None  # a staff user's id; "" or null: nobody (then STAFF_NOTIFY_EMAIL hears of cancellations)
    budget: Number = None
    start_date: Text = None
    end_date: Text = None
    deadline: Text = None
    estimated_hours: Number = None
    progress_percentage: Number = None
    actual_hours: Number = None  # sent by the spec's form; the service ignores it (time tracking sets it)
