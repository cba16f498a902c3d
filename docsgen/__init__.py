"""The documentation site's reference pages, generated from the code at build time.

:func:`reference_pages` renders every page (settings, CLI, metrics, HTTP API) as Markdown;
``hooks.py`` hands them to MkDocs as generated files, so nothing generated is committed and
nothing in them is written twice.
"""

from __future__ import annotations

from docsgen.cli_ref import cli_page
from docsgen.http_ref import http_page
from docsgen.metrics_ref import metrics_page
from docsgen.settings_ref import settings_page

__all__ = ["reference_pages"]


def reference_pages() -> dict[str, str]:
    """Each generated page by its path under ``docs/``."""
    return {
        "reference/settings.md": settings_page(),
        "reference/cli.md": cli_page(),
        "reference/metrics.md": metrics_page(),
        "reference/http-api.md": http_page(),
    }
