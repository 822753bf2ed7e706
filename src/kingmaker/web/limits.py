"""The size of a request body (``docs/limits.md``): at most ``MAX_BODY`` bytes.

``BodyLimit`` is plain ASGI middleware. A request that declares a larger
``Content-Length`` is answered 413 at once, unread; any other body is read up to the
limit before the app sees it (so a body sent in chunks, with no length, cannot run past
it either) and then handed to the app whole. The answer is JSON for the API and a short
plain page for the pages, like every other error.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY = 64 * 1024  # bytes; the largest legitimate body is a post of 20,000 characters


class BodyLimit:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_body:
            await self._refuse(scope, send)
            return
        body = bytearray()
        messages: list[Message] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                messages.append(message)  # the client left: let the app see it
                break
            body += message.get("body", b"")
            if len(body) > self.max_body:
                await self._refuse(scope, send)
                return
            if not message.get("more_body", False):
                messages.append({"type": "http.request", "body": bytes(body), "more_body": False})
                break

        async def replay() -> Message:
            if messages:
                return messages.pop(0)
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        limit = f"{self.max_body // 1024} KB" if self.max_body % 1024 == 0 else f"{self.max_body} bytes"
        message = f"the request body is too large: at most {limit} are accepted"
        path = str(scope.get("path", ""))
        if path == "/api" or path.startswith("/api/"):
            body = json.dumps({"error": "too_large", "message": message}).encode()
            kind = b"application/json"
        else:
            body = f"413 Request Entity Too Large: {message}\n".encode()
            kind = b"text/plain; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", kind),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
