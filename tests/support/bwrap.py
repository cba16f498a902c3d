"""Whether the exec tests can run: bubblewrap installed, or required (``make test``)."""

from __future__ import annotations

import os

import pytest

from agentd.tools.sandbox import find_bwrap

#: `make test` sets AGENTD_REQUIRE_BWRAP=1 (and installs bubblewrap): a missing bwrap then fails
#: the exec tests (the tool refuses) instead of skipping them.
REQUIRED = os.environ.get("AGENTD_REQUIRE_BWRAP") == "1"

needs_bwrap = pytest.mark.skipif(
    find_bwrap("bwrap") is None and not REQUIRED,
    reason="bubblewrap is not installed (apt-get install bubblewrap)",
)
