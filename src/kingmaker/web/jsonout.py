"""JSON answers written where the endpoint runs: ``@json_answer`` on a synchronous API
endpoint that returns its ``response_model`` (a model, or a list of them).

FastAPI checks a synchronous endpoint's return value against its ``response_model`` in
another trip through the thread pool after the endpoint's own, then writes it with the
model's serializer. The value is the model already (mypy checks it), so the check finds
nothing; the decorated endpoint writes the same bytes with the same serializer (the
model's ``TypeAdapter``, by alias, as FastAPI does) in its own thread and answers the
``Response``, which FastAPI sends as it is: one thread hop fewer per request. The route
keeps its ``response_model`` (the OpenAPI schema is unchanged) and its parameters.

The caller's credentials are checked in the endpoint's thread as well: an ``ApiActor``
parameter is given FastAPI as ``ApiCredentials`` (the header read on the event loop,
``auth.api_credentials``) and checked (``Credentials.actor``: the seat or the GM, the
rate limit or the login throttle) just before the endpoint runs, instead of in a trip
through the thread pool of its own (FastAPI runs a synchronous dependency there): a
second thread hop fewer.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, get_type_hints

from fastapi.responses import Response
from pydantic import TypeAdapter

from .auth import ApiActor, ApiCredentials, Credentials

P = ParamSpec("P")
T = TypeVar("T")


def json_answer(status_code: int = 200) -> Callable[[Callable[P, T]], Callable[P, Response]]:
    """Decorate a synchronous endpoint: its return value (of its annotated return type)
    is answered as JSON with ``status_code``."""

    def decorate(endpoint: Callable[P, T]) -> Callable[P, Response]:
        hints = get_type_hints(endpoint, include_extras=True)
        adapter: TypeAdapter[T] = TypeAdapter(hints["return"])
        signature = inspect.signature(endpoint)
        actors = [name for name in signature.parameters if hints.get(name) == ApiActor]
        params = [
            p.replace(annotation=ApiCredentials if p.name in actors else hints.get(p.name, p.annotation))
            for p in signature.parameters.values()
        ]

        @functools.wraps(endpoint)
        def answered(*args: P.args, **kwargs: P.kwargs) -> Response:
            for name in actors:
                given: Any = kwargs[name]
                if isinstance(given, Credentials):
                    kwargs[name] = given.actor()
            body = adapter.dump_json(endpoint(*args, **kwargs), by_alias=True)
            return Response(content=body, status_code=status_code, media_type="application/json")

        # FastAPI reads this signature: the ApiActor parameters as ApiCredentials
        answered.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]  # a function's attribute inspect reads
        return answered

    return decorate
