"""Errors the service reports to its callers: each says what is wrong, never a traceback."""

from __future__ import annotations


class ServiceError(Exception):
    """Base: a request the service refuses; ``str(error)`` is the message for the user."""

    code = "error"


class BadRequest(ServiceError):
    code = "bad_request"


class NotFound(ServiceError):
    code = "not_found"


class PermissionDenied(ServiceError):
    code = "forbidden"


class Conflict(ServiceError):
    """The game kept changing under us; the caller may retry."""

    code = "conflict"
