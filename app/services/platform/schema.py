"""Typed inputs and outputs of the services (`XCreate / XUpdate / XPublic`) and their field types.

A field's constraints live on the field, so the REST schema documents them and every caller (the API, the Reflex
handlers, the seeders) is judged by the same rules in the product's own words. Two kinds of failure keep the two
answers the product has always given:

- a value of the wrong JSON shape (a list where text belongs, a body that is not an object) is pydantic's own error;
  the answer is "Please check the highlighted fields." with only those fields;
- a value of the right shape but a wrong meaning (too long, not one of the choices) raises `Problem`, worded as the
  services always worded it; when only such errors occur, the answer's message is the first of them.

`parse` runs a model for callers outside the API and raises the same `Invalid` the REST error handler builds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Annotated, Any, TypeVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from app.core.errors import Invalid
from app.core.text import INVALID_CHARACTER, INVALID_TEXT, storable
from app.services.platform import validation
from app.services.platform.rules import normalize_email, one_line

CHECK_FIELDS = "Please check the highlighted fields."
PROBLEM = "product_rule"  # the error type of a value the product's rules refuse (see the module's docstring)

EMAIL_MAX = 254  # the longest address e-mail allows (RFC 5321's path limit)

M = TypeVar("M", bound=BaseModel)


def problem(message: str, *, summary: str | None = None, several: str | None = None) -> PydanticCustomError:
    """A value of the right shape that a rule refuses, with the product's words for it.

    The 422's message is the first such text, unless the form words its answer otherwise: `summary` is the message
    whatever fails (the contact form's "Please check the highlighted fields."), `several` the message when more than
    one field fails (registration's "Please check the information and try again")."""
    ctx = {"message": message, **({"summary": summary} if summary else {}), **({"several": several} if several else {})}
    return PydanticCustomError(PROBLEM, "{message}", ctx)


def report(errors: Iterable[Mapping[str, Any]], *, strip: tuple[str, ...] = ()) -> tuple[str, dict[str, str]]:
    """The product's 422: (message, {field: text}) for pydantic's errors, fields named by their dotted path.

    Shape errors are reported alone (they were always checked first); otherwise the message is the first rule's text.
    """
    listed = list(errors)
    shape = [e for e in listed if e.get("type") != PROBLEM]
    fields: dict[str, str] = {}
    for err in shape or listed:
        loc = [str(p) for p in err.get("loc", ())]
        if loc and loc[0] in strip:
            loc = loc[1:]
        field = ".".join(loc) or "body"
        fields.setdefault(field, str(err.get("msg", "Invalid value")).removeprefix("Value error, "))
    if shape or not fields:
        return CHECK_FIELDS, fields
    contexts = [e.get("ctx") or {} for e in listed]
    if summary := next((c["summary"] for c in contexts if c.get("summary")), None):
        return summary, fields
    several = next((c["several"] for c in contexts if c.get("several")), None)
    if several and len(fields) > 1:
        return several, fields
    first = next(iter(fields.values()))
    # Unstorable text is worded as the engine's own guard words it (app.core.db): the sentence, then the fields.
    return (INVALID_TEXT if first == INVALID_CHARACTER else first), fields


def parse(model: type[M], data: M | Mapping[str, Any]) -> M:
    """`data` as `model`, or `Invalid` with the product's 422 (what the REST handler answers for the same body)."""
    if isinstance(data, model):
        return data
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        message, fields = report(exc.errors())
        raise Invalid(message, errors=fields) from None


class Body(BaseModel):
    """A request body: a JSON object; keys the model does not declare are ignored. `sent()` is the partial update:
    only the keys the caller sent."""

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, value: Any) -> Any:
        if isinstance(value, BaseModel):
            return value
        if not isinstance(value, dict):
            raise ValueError("Must be an object")
        return value

    def sent(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


class Input(Body):
    """A staff form's body, whose empty strings mean "not sent" (the spec's payload cleaning)."""

    @model_validator(mode="before")
    @classmethod
    def _drop_empty(cls, value: Any) -> Any:
        return {k: v for k, v in value.items() if v != ""} if isinstance(value, dict) else value


class _Described:
    """A field type that checks a value (`check`) before the schema of its type (`inner`) does, and states its rule
    in the schema's description (unless the field gives its own)."""

    def check(self, value: Any) -> Any:
        raise NotImplementedError

    def inner(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return handler(source)

    def described(self) -> str:
        raise NotImplementedError

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_before_validator_function(self.check, self.inner(source, handler))

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        out = handler(schema)
        out.setdefault("description", self.described())
        return out


def _judged(parser: Callable[..., Any], value: Any, label: str, refusal: str | None = None, **limits: Any) -> Any:
    """What one of `validation`'s parsers makes of a value, or its sentence (or `refusal`) as the rule's refusal."""
    errors: dict[str, str] = {}
    parsed = parser(value, "value", errors, label, **limits)
    if errors:
        raise problem(refusal or errors["value"])
    return parsed


@dataclass(frozen=True)
class Text(_Described):
    """`Annotated[str | None, Text("Name", 200)]`: text trimmed of surrounding spaces, at most `limit` characters,
    never NUL or a lone surrogate; blank is null. `required`: null or blank is refused ("<label> is required"); give
    such a field `Field(None, validate_default=True)` where it may be absent."""

    label: str
    limit: int
    required: bool = False
    one_line: bool = False  # runs of whitespace (newlines too) become one space: text for a mail subject or a name
    missing: str | None = None  # the words for a required field left blank, when not "<label> is required"
    summary: str | None = None  # see `problem`
    several: str | None = None

    def check(self, value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise ValueError("Must be text")
        cleaned = one_line(value) if self.one_line else (value or "").strip()
        if self.required and not cleaned:
            raise self._refuse(self.missing or f"{self.label} is required")
        if len(cleaned) > self.limit:
            raise self._refuse(f"{self.label} must not exceed {self.limit} characters")
        if not storable(cleaned):
            raise problem(INVALID_CHARACTER)  # worded as the engine's guard words it, whatever the form's summary
        return cleaned or None

    def _refuse(self, message: str) -> PydanticCustomError:
        return problem(message, summary=self.summary, several=self.several)

    def inner(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return handler.generate_schema(Annotated[str, StringConstraints(max_length=self.limit)] | None)

    def described(self) -> str:
        return f"{self.label}: at most {self.limit} characters, trimmed; no NUL or lone surrogates."


@dataclass(frozen=True)
class OneOf:
    """`Annotated[X | None, OneOf("Size")]` for a StrEnum X: one of its values, null for none; any other text is
    worded "<label> must be one of: a, b, c"."""

    label: str
    not_null: bool = False  # a NOT NULL column: an explicit null is "<label> is required"
    refusal: str | None = None  # one sentence for any refusal ("Unknown status"), not the two above

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        enum = next(a for a in get_args(source) if isinstance(a, type) and issubclass(a, StrEnum))
        label, not_null, refusal = self.label, self.not_null, self.refusal

        def check(value: Any) -> Any:
            if value is None:
                if not_null:
                    raise problem(refusal or f"{label} is required")
                return None
            if not isinstance(value, str):
                raise ValueError("Must be text")
            try:
                return enum(value)
            except ValueError:
                raise problem(refusal or f"{label} must be one of: {', '.join(m.value for m in enum)}") from None

        return core_schema.no_info_before_validator_function(check, handler(source))


def required(*names: str) -> Callable[[dict[str, Any]], None]:
    """`json_schema_extra` that lists fields as required in the schema when the model itself words their absence."""

    def extra(schema: dict[str, Any]) -> None:
        schema["required"] = sorted({*schema.get("required", []), *names})

    return extra


def _shape_text(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    raise ValueError("Must be text")


def _a_list(value: Any) -> Any:
    if value is None or isinstance(value, list):
        return value if value is not None else []
    raise ValueError("Must be a list")


# A list of objects, each checked by its own model; null is an empty list.
AList = BeforeValidator(_a_list)


# Text handed to the service as sent (an id the service looks up, a value it words itself); only the shape is checked.
RawText = Annotated[str | None, BeforeValidator(_shape_text)]


def _flag(value: Any) -> bool:
    # JSON true/false, or the text a form's checkbox sends ("on"); any other text counts as set, as it always did.
    if value is not None and not isinstance(value, bool | str):
        raise ValueError("Must be true or false")
    return bool(value)


# A checkbox: true/false (a form's "on" is true); null is false.
Flag = Annotated[bool, BeforeValidator(_flag)]


@dataclass(frozen=True)
class Money(_Described):
    """`Annotated[Decimal | None, Money("Price")]`: an amount in whole cents from 0 to 99,999,999.99, sent as a JSON
    number or as the text of a form field ("$1,200.50"); `required`: null is "<label> is required"."""

    label: str
    required: bool = False

    def check(self, value: Any) -> Decimal | None:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float | str | Decimal)):
            raise ValueError("Must be a number")
        amount: Decimal | None = _judged(validation.money, value, self.label)
        if amount is None and self.required:
            raise problem(f"{self.label} is required")
        return amount

    def described(self) -> str:
        return f"{self.label}: 0 to 99999999.99, in whole cents (a number or its text)."


@dataclass(frozen=True)
class Day(_Described):
    """`Annotated[date | None, Day("Start date")]`: a calendar date (YYYY-MM-DD, or the start of an ISO date-time)
    from 1900-01-01 to 2200-12-31; blank is null. Worded "<label> must be a date (YYYY-MM-DD)" and "<label> cannot be
    before/after ..."."""

    label: str

    def check(self, value: Any) -> date | None:
        if value is not None and not isinstance(value, str | date):
            raise ValueError("Must be text")
        day: date | None = _judged(validation.day, value, self.label)
        return day

    def described(self) -> str:
        return f"{self.label}: a date (YYYY-MM-DD) from 1900-01-01 to 2200-12-31."


@dataclass(frozen=True)
class Moment(_Described):
    """`Annotated[datetime | None, Moment("Start time")]`: a date and time with its zone (ISO 8601, "Z" for UTC) on a
    day from 1900-01-01 to 2200-12-31; null is null. Worded "<label> must be a date and time", "<label> needs a time
    zone" and the calendar's limits; `required`: null is "<label> is required". The words can be the form's own."""

    label: str
    required: bool = False
    unreadable: str | None = None  # for text that is no date and time
    no_zone: str | None = None  # for a date and time without its zone
    missing: str | None = None  # for a required one left out
    summary: str | None = None  # see `problem`

    def check(self, value: Any) -> datetime | None:
        if value is None or value == "":
            if self.required:
                raise self._refuse(self.missing or f"{self.label} is required")
            return None
        if isinstance(value, datetime):
            parsed = value
        elif isinstance(value, str):
            try:
                parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            except ValueError:
                raise self._refuse(self.unreadable or f"{self.label} must be a date and time") from None
        else:
            raise ValueError("Must be text")
        if parsed.tzinfo is None:
            raise self._refuse(self.no_zone or f"{self.label} needs a time zone")
        # Checked on the date as written, before any conversion: 0001-01-01 at +05:00 has no UTC equivalent.
        if why := validation.date_problem(parsed.date(), self.label):
            raise self._refuse(why)
        return parsed

    def _refuse(self, message: str) -> PydanticCustomError:
        return problem(message, summary=self.summary)

    def described(self) -> str:
        return f"{self.label}: ISO 8601 with a time zone, between 1900-01-01 and 2200-12-31."


@dataclass(frozen=True)
class Email(_Described):
    """`Annotated[str | None, Email("Please enter a valid email address")]`: an e-mail address, required, stored in
    its one normalised form (trimmed, lower-case); anything else (blank included) is refused with `invalid`."""

    invalid: str
    summary: str | None = None  # see `problem`
    several: str | None = None

    def check(self, value: Any) -> str:
        if value is not None and not isinstance(value, str):
            raise ValueError("Must be text")
        if not storable(value or ""):
            raise problem(INVALID_CHARACTER)
        try:
            return normalize_email(value or "")
        except ValueError:
            raise problem(self.invalid, summary=self.summary, several=self.several) from None

    def inner(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return handler.generate_schema(Annotated[str, StringConstraints(max_length=EMAIL_MAX)] | None)

    def described(self) -> str:
        return f"An e-mail address (at most {EMAIL_MAX} characters), stored lower-case."


def verbatim(value: Any) -> str:
    """Text as typed (null is empty): refused only when it is not text or cannot be stored."""
    if value is None or isinstance(value, str):
        if value and not storable(value):
            raise problem(INVALID_CHARACTER)
        return value or ""
    raise ValueError("Must be text")


# Text handed over exactly as typed (a password, a code, a sign-in name): only its shape and that it is storable are
# checked; null is empty.
Verbatim = Annotated[str, BeforeValidator(verbatim)]


@dataclass(frozen=True)
class Whole(_Described):
    """`Annotated[int | None, Whole("Duration", 5, 600)]`: a whole number from `low` to `high`, sent as a JSON
    number or as the text of a form field; blank is null. Worded "<label> must be a whole number" and "<label> must
    be between <low> and <high>"; `required`: null or blank is "<label> is required"."""

    label: str
    low: int = 0
    high: int = 10**6
    refusal: str | None = None  # one sentence for any refusal (an id: "Project not found"), not the two above
    required: bool = False  # null or blank is "<label> is required" (give the field validate_default=True)

    def check(self, value: Any) -> int | None:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float | str)):
            raise ValueError("Must be a number")
        number: int | None = _judged(validation.whole, value, self.label, self.refusal, low=self.low, high=self.high)
        if number is None and self.required:
            raise problem(f"{self.label} is required")
        return number

    def inner(self, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return handler.generate_schema(Annotated[int, Field(ge=self.low, le=self.high)] | None)

    def described(self) -> str:
        return f"{self.label}: a whole number from {self.low} to {self.high} (or its text)."


class Form(Input):
    """A staff form's body whose empty strings and nulls both mean "not sent" (the spec's payload cleaning for
    projects and meetings): a field can be changed, not cleared, by sending it."""

    @model_validator(mode="before")
    @classmethod
    def _drop_null(cls, value: Any) -> Any:
        return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value
