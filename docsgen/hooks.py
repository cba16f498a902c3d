"""MkDocs hook: adds the generated reference pages to the site (never written to ``docs/``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

# MkDocs loads this file by path; the generators import agentd and docsgen from the checkout.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def on_files(files: Any, config: Any) -> Any:
    """Append each reference page as a generated file."""
    from mkdocs.structure.files import File

    from docsgen import reference_pages

    for path, text in reference_pages().items():
        files.append(File.generated(config, path, content=text))
    return files
