"""Domain errors raised by services; the API maps them to status codes and the UI shows their message."""

from __future__ import annotations


class DomainError(Exception):
    status_code = 400

    def __init__(self, message: str, errors: dict[str, str] | None = None, **extra: object) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors or {}
        self.extra = extra  # additional JSON fields, e.g. userId / requiresVerification


class BadRequest(DomainError):
    """A request that cannot be carried out as sent (e.g. a used or expired link); the message says what to do."""

    status_code = 400


class Invalid(DomainError):
    """Bad input; `errors` maps field names to specific messages."""

    status_code = 422


class Unauthorized(DomainError):
    status_code = 401


class Forbidden(DomainError):
    status_code = 403


class NotFound(DomainError):
    """Missing, or not the caller's: both answer the same so ids cannot be probed."""

    status_code = 404


class Conflict(DomainError):
    status_code = 409


class TooManyRequests(DomainError):
    status_code = 429


class PayloadTooLarge(DomainError):
    status_code = 413


class Unavailable(DomainError):
    """An upstream service could not answer in time; the message tells the visitor what to do instead."""

    status_code = 503
