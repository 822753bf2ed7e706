"""JSON answers written where the endpoint runs: ``@json_answer`` on a synchronous API
endpoint that returns its ``response_model`` (a model, or a list of them).

FastAPI checks a synchronous endpoint's return value against its ``response_model`` in
another trip through the thread pool after the endpoint's own, then writes it with the
model's serializer. The value is the model already (mypy checks it), so the check finds
nothing; the decorated endpoint writes the same bytes with the same serializer (the
model's ``TypeAdapter``, by alias, as FastAPI does) in its own thread and answers the
``Response``, which FastAPI sends as it is: one thread hop fewer per request. The route
keeps its ``response_model`` (the OpenAPI schema is unchanged) and its signature
(``functools.wraps``: FastAPI reads the wrapped function's parameters).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar, get_type_hints

from fastapi.responses import Response
from pydantic import TypeAdapter

P = ParamSpec("P")
T = TypeVar("T")


def json_answer(status_code: int = 200) -> Callable[[Callable[P, T]], Callable[P, Response]]:
    """Decorate a synchronous endpoint: its return value (of its annotated return type)
    is answered as JSON with ``status_code``."""

    def decorate(endpoint: Callable[P, T]) -> Callable[P, Response]:
        adapter: TypeAdapter[T] = TypeAdapter(get_type_hints(endpoint)["return"])

        @functools.wraps(endpoint)
        def answered(*args: P.args, **kwargs: P.kwargs) -> Response:
            body = adapter.dump_json(endpoint(*args, **kwargs), by_alias=True)
            return Response(content=body, status_code=status_code, media_type="application/json")

        return answered

    return decorate
