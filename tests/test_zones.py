"""Time zones by the names people and small models give them."""

from __future__ import annotations

import pytest

from agentd.zones import find_zone


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Asia/Tokyo", "Asia/Tokyo"),
        ("asia/tokyo", "Asia/Tokyo"),
        ("UTC", "UTC"),
        # What the small model passed for Tokyo (twice, then it answered without the time).
        ("Japan Standard Time", "Japan"),
        ("Tokyo", "Asia/Tokyo"),
        ("new york", "America/New_York"),
        ("New_York", "America/New_York"),
        ("Pacific Standard Time", "America/Los_Angeles"),
        ("Central European Time", "Europe/Paris"),
        ("JST", "Asia/Tokyo"),
        (" Berlin ", "Europe/Berlin"),
    ],
)
def test_a_name_that_means_one_zone(name: str, key: str) -> None:
    zone = find_zone(name)
    assert zone is not None and zone.key == key


@pytest.mark.parametrize(
    "name", ["", "Nowhere/City", "../../etc/passwd", "/etc/localtime", "Asia/\0Tokyo", "time"]
)
def test_anything_else_is_unknown(name: str) -> None:
    assert find_zone(name) is None
