"""structlog setup: JSON lines under systemd, a console renderer in a terminal, secrets redacted.

Libraries that log through stdlib ``logging`` (uvicorn, httpx, pymilvus) go through the same
processors, so redaction and the renderer apply to every line the daemon writes.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog
from structlog.typing import Processor

from agentd.redact import Scrubber

# Whole name parts only: ``bot_token`` and ``api_key`` are secrets, ``prompt_tokens`` is a count.
_SECRET_KEYS = re.compile(
    r"(?:^|[_.-])(token|api_?key|password|passwd|secrets?|authorization)(?:$|[_.-])", re.I
)
REDACTED = "[redacted]"


class Redact:
    """Processor: masks values under secret-looking keys and tokens embedded in strings."""

    __slots__ = ("_scrub",)

    def __init__(self, extra_secrets: tuple[str, ...] = ()) -> None:
        # The same scrubbing as errors sent to clients (agentd.redact), in the log's own mask.
        self._scrub = Scrubber(extra_secrets, mask=REDACTED)

    def __call__(
        self, logger: Any, method: str, event_dict: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        for key, value in list(event_dict.items()):
            event_dict[key] = self._value(key, value)
        return event_dict

    def _value(self, key: str, value: Any) -> Any:
        if _SECRET_KEYS.search(key) and value not in (None, ""):
            return REDACTED
        if isinstance(value, str):
            return self._scrub(value)
        if isinstance(value, dict):
            return {k: self._value(str(k), v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._value("", v) for v in value]
        return value


def use_json(fmt: str, environ: MutableMapping[str, str] | None = None) -> bool:
    env = os.environ if environ is None else environ
    if fmt == "auto":
        return bool(env.get("JOURNAL_STREAM"))
    return fmt == "json"


def configure(
    *,
    level: str = "info",
    fmt: str = "auto",
    secrets: tuple[str, ...] = (),
    stream: TextIO | None = None,
) -> None:
    """Configure structlog and stdlib logging once, from the entry point.

    structlog's own loggers and stdlib ones (uvicorn, httpx, pymilvus...) share one processor
    chain, so every line is redacted and rendered alike: stdlib records reach it through
    ``ProcessorFormatter`` on the root handler, with the chain as its ``foreign_pre_chain``.
    """
    out = stream or sys.stderr
    numeric = logging.getLevelName(level.upper())
    renderer: Any
    if use_json(fmt):
        renderer = structlog.processors.JSONRenderer()
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=out.isatty())
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
        # Last before rendering, so tracebacks and every added field are scrubbed too.
        Redact(secrets),
    ]
    structlog.configure(
        processors=[*shared, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        # One write per line (PrintLogger writes the newline apart), so a stdlib line from a
        # worker thread never lands between an event and its newline.
        logger_factory=structlog.WriteLoggerFactory(out),
        # No caching: module-level loggers that logged once would keep the first
        # configuration (and its stream) forever, and a second configure() would not reach them.
        cache_logger_on_first_use=False,
    )
    handler = logging.StreamHandler(out)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *shared],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
        )
    )
    logging.basicConfig(level=max(numeric, logging.WARNING), handlers=[handler], force=True)
    # httpx logs every request at INFO, with URLs that may carry a bot token.
    logging.getLogger("httpx").setLevel(logging.WARNING)
