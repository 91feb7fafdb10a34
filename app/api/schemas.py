"""The REST answers' envelopes (`Saved`, `One`, `Listed`, `Created`, `Done`) and the one loose request body left.

Request bodies are the services' typed inputs (`app.services.*`, `XCreate / XUpdate`). `ProjectIn` stays here: the
portal's `PUT /protected/projects/{id}` serves staff (parsed by `ProjectUpdate`) and clients, whose request must be
refused as a whole when it carries anything but `status: cancelled`, so its body checks the JSON shape only.
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


Text = Annotated[str | None, _shape((str,), "Must be text")]
# Amounts, quantities and ids arrive as JSON numbers or as the text of a form field; the service parses both.
Number = Annotated[int | float | str | None, _shape((int, float, str), "Must be a number")]


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
