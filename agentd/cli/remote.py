"""A client of a running daemon's HTTP API: streaming chat for ``agentd chat``, and the JSON
endpoints (stored sessions, tenants, memories) for the ``--remote`` actions of the CLI.

It speaks the same OpenAI-compatible protocol as every other client, so it needs nothing the
API does not offer to them: the session goes in ``X-Session-Id``, the token in
``Authorization``, and the reply arrives as server-sent chunks.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import aclosing
from typing import Any

import httpx

from agentd.errors import DaemonError, DaemonUnavailable
from agentd.sse import sse_data


def _error_message(response: httpx.Response) -> str:
    try:
        body = response.json()
        return str(body["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return response.text[:200] or response.reason_phrase


def _pieces(data: str) -> list[str]:
    """The text deltas of one stream chunk; an error chunk raises DaemonError."""
    try:
        chunk = json.loads(data)
    except ValueError:
        raise DaemonError(
            f"the daemon sent a stream chunk that is not JSON: {data[:200]!r}"
        ) from None
    if not isinstance(chunk, dict):
        raise DaemonError(f"the daemon sent a stream chunk that is not an object: {data[:200]!r}")
    if "error" in chunk:
        error = chunk["error"]
        raise DaemonError(str(error.get("message") if isinstance(error, dict) else error))
    pieces: list[str] = []
    for choice in chunk.get("choices") or ():
        piece = (choice.get("delta") or {}).get("content") if isinstance(choice, dict) else None
        if isinstance(piece, str) and piece:
            pieces.append(piece)
    return pieces


class DaemonClient:
    """Chat with the daemon at ``base_url`` over an injected ``httpx.AsyncClient``."""

    def __init__(self, http: httpx.AsyncClient, base_url: str, *, token: str | None) -> None:
        self._http = http
        self.base_url = base_url.rstrip("/")
        self._headers = {"Authorization": f"Bearer {token}"} if token else {}

    async def chat(self, session: str, text: str) -> AsyncGenerator[str, None]:
        """Send ``text`` to ``session``; yield the answer's text as it streams."""
        body = {"messages": [{"role": "user", "content": text}], "stream": True}
        headers = {**self._headers, "X-Session-Id": session}
        url = f"{self.base_url}/v1/chat/completions"
        try:
            async with self._http.stream("POST", url, json=body, headers=headers) as response:
                if response.status_code != 200:
                    await response.aread()
                    raise DaemonError(_error_message(response), response.status_code)
                async with aclosing(sse_data(response.aiter_lines())) as events:
                    async for data in events:
                        for piece in _pieces(data):
                            yield piece
        except httpx.ConnectError as exc:
            raise DaemonUnavailable(
                f"no agentd daemon answers at {self.base_url}: start it with `agentd run` "
                "(channels.http.enabled), pass --url, or use `agentd chat --local`"
            ) from exc
        except httpx.TransportError as exc:
            raise DaemonError(f"the connection to {self.base_url} failed: {exc!r}") from exc

    async def call(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, str] | None = None,
        json: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The JSON object ``method path`` answers (``json`` is the request's body); an error
        status raises DaemonError."""
        url = f"{self.base_url}{path}"
        try:
            response = await self._http.request(
                method, url, params=params, json=json, headers=self._headers
            )
        except httpx.ConnectError as exc:
            raise DaemonUnavailable(
                f"no agentd daemon answers at {self.base_url}: start it with `agentd run` "
                "(channels.http.enabled), pass --url, or drop --remote"
            ) from exc
        except httpx.TransportError as exc:
            raise DaemonError(f"the connection to {self.base_url} failed: {exc!r}") from exc
        if response.status_code != 200:
            raise DaemonError(_error_message(response), response.status_code)
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            raise DaemonError(f"{method} {path} did not answer a JSON object")
        return body
