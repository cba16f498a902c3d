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
        # Hyphens or blanks for underscores, the region wrong: the city decides.
        ("America/Mexico-City", "America/Mexico_City"),
        ("America/Mexico City", "America/Mexico_City"),
        ("Mexico-City", "America/Mexico_City"),
        ("Europe/Tokyo", "Asia/Tokyo"),
        # A real name with hyphens stays itself.
        ("America/Port-au-Prince", "America/Port-au-Prince"),
    ],
)
def test_a_name_that_means_one_zone(name: str, key: str) -> None:
    """A name that plainly means one zone is that zone."""
    zone = find_zone(name)
    assert zone is not None and zone.key == key


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Nowhere/City",
        "Europe/Nowhere-Town",
        "../../etc/passwd",
        "/etc/localtime",
        "Asia/\0Tokyo",
        "time",
    ],
)
def test_anything_else_is_unknown(name: str) -> None:
    """Empty, unknown or path-like names are no zone."""
    assert find_zone(name) is None
