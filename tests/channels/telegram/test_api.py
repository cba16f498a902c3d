"""The Bot API client: results, error translation, and the token kept out of errors."""

from __future__ import annotations

import anyio
import httpx
import pytest

from agentd.backoff import Backoff
from agentd.errors import TelegramError
from channels.telegram.api import BotAPI, with_retries

pytestmark = pytest.mark.anyio

TOKEN = "42:SECRET_token-value"


def api(handler: httpx.MockTransport) -> tuple[BotAPI, httpx.AsyncClient]:
    http = httpx.AsyncClient(transport=handler)
    return BotAPI(http, base_url="https://bot.example/", token=TOKEN), http


async def test_result_and_dropped_none_params() -> None:
    """A call posts JSON without None params to /bot<token>/<method> and returns result."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"ok": True, "result": {"message_id": 1}})

    client, http = api(httpx.MockTransport(handler))
    async with http:
        assert await client.call("sendMessage", chat_id=1, parse_mode=None) == {"message_id": 1}
    assert seen[0].url.path == f"/bot{TOKEN}/sendMessage"
    assert seen[0].read() == b'{"chat_id":1}'


@pytest.mark.parametrize(
    ("response", "status", "retryable", "retry_after"),
    [
        pytest.param(httpx.Response(502, text="<html>bad gateway"), 502, True, None, id="html-502"),
        pytest.param(
            httpx.Response(
                429,
                json={
                    "ok": False,
                    "error_code": 429,
                    "description": "slow",
                    "parameters": {"retry_after": 7},
                },
            ),
            429,
            True,
            7.0,
            id="429",
        ),
        pytest.param(
            httpx.Response(
                403,
                json={
                    "ok": False,
                    "error_code": 403,
                    "description": "Forbidden: bot was blocked by the user",
                },
            ),
            403,
            False,
            None,
            id="blocked",
        ),
        pytest.param(httpx.Response(200, text="not json"), 502, True, None, id="garbage-200"),
    ],
)
async def test_errors_are_translated(
    response: httpx.Response, status: int, retryable: bool, retry_after: float | None
) -> None:
    """HTTP failures become TelegramError with status, retryability and retry_after."""
    client, http = api(httpx.MockTransport(lambda request: response))
    async with http:
        with pytest.raises(TelegramError) as caught:
            await client.call("getMe")
    err = caught.value
    assert (err.status, err.retryable, err.retry_after) == (status, retryable, retry_after)
    assert TOKEN not in str(err)


async def test_transport_error_hides_the_url() -> None:
    """A network error whose text carries the URL is scrubbed and not chained."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"cannot reach {request.url}", request=request)

    client, http = api(httpx.MockTransport(handler))
    async with http:
        with pytest.raises(TelegramError) as caught:
            await client.call("getUpdates")
    assert TOKEN not in str(caught.value) and "[redacted]" in str(caught.value)
    assert caught.value.status == 0 and caught.value.retryable
    assert caught.value.__suppress_context__


async def test_with_retries_gives_up_on_permanent_errors() -> None:
    """Permanent errors are raised at once; transient ones are retried up to the limit."""
    calls = 0

    async def permanent() -> None:
        nonlocal calls
        calls += 1
        raise TelegramError("sendMessage", "Forbidden", status=403)

    with pytest.raises(TelegramError):
        await with_retries(permanent, backoff=Backoff(0.001, 0.002), attempts=5)
    assert calls == 1

    async def transient() -> str:
        nonlocal calls
        calls += 1
        if calls < 4:
            raise TelegramError("sendMessage", "oops", status=500)
        return "sent"

    assert await with_retries(transient, backoff=Backoff(0.001, 0.002), attempts=5) == "sent"


async def test_with_retries_waits_the_backoff_or_retry_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between attempts it waits the backoff's steps, and Telegram's retry_after when given."""
    sleeps: list[float] = []

    async def fake_sleep(delay: float) -> None:
        sleeps.append(delay)

    monkeypatch.setattr(anyio, "sleep", fake_sleep)
    faults = [
        TelegramError("sendMessage", "oops", status=500),
        TelegramError("sendMessage", "Too Many Requests", status=429, retry_after=9),
        TelegramError("sendMessage", "oops", status=502),
    ]

    async def flaky() -> str:
        if faults:
            raise faults.pop(0)
        return "sent"

    backoff = Backoff(1.0, 4.0, rand=lambda: 1.0)
    assert await with_retries(flaky, backoff=backoff, attempts=4) == "sent"
    assert sleeps == [1.0, 9, 2.0]
