"""The agentic suite's split: dev/held-out drawn once, committed, balanced, never moved; the
second fresh cases all in held-out-2, the third all in held-out-3, the fourth all in
held-out-4, the fifth all in held-out-5, the sixth all in held-out-6, the seventh all in
held-out-7, the eighth all in held-out-8, the ninth all in held-out-9, the tenth all in
held-out-10, the eleventh all in held-out-11, the twelfth all in held-out-12, the thirteenth all
in held-out-13, the fourteenth all in held-out-14, the fifteenth all in held-out-15, the
sixteenth all in held-out-16, the seventeenth all in held-out-17, the eighteenth all in
held-out-18, the nineteenth all in held-out-19, the twentieth all in held-out-20, the
twenty-first all in held-out-21, the twenty-second all in held-out-22, the twenty-third all in
held-out-23, the twenty-fourth all in held-out-24, the twenty-fifth all in held-out-25, the
twenty-sixth all in held-out-26, the twenty-seventh all in held-out-27, the twenty-eighth all in
held-out-28, the twenty-ninth all in held-out-29, the thirtieth all in held-out-30, the
thirty-first all in held-out-31, the thirty-second all in held-out-32, the thirty-third all in
held-out-33, the thirty-fourth all in held-out-34."""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

import bench._agentic_split as agentic_split
from bench._agentic_cases import (
    CASES,
    FRESH_SETS,
    Case,
    Say,
    Script,
)
from bench._agentic_split import HALVES, SPLIT_PATH, Half, extend, load, save, select

#: The entries drawn first (in file order) and their digest: they never change.
FROZEN = 104
FROZEN_SHA256 = "ccbd5243f2d1c08ed38b091fa8b4ad3386fbba0c542709e3f7b5d535ebd632e8"
#: The forty fresh cases appended at once after them, and their digest.
FRESH_END = 144
FRESH_SHA256 = "87370dae363a7960a6e27f11f63662516964fc597e16cc9df48a9c1e7930606c"
#: The fifty second fresh cases, all put into held-out-2 right after them, and their digest.
FRESH2_END = 194
FRESH2_SHA256 = "7cbce838d3c865b009e7a62f7fca8165f77c4ceb1e3008b9c1e81f3b58c43e40"
#: The fifty third fresh cases, all put into held-out-3 right after them, and their digest.
FRESH3_END = 244
FRESH3_SHA256 = "8ad85d6c69ebf08b71d99e7d6aff8e2ed52512f0ebe3e03e562e7bce187dc4d9"
#: The fifty fourth fresh cases, all put into held-out-4 right after them, and their digest.
FRESH4_END = 294
FRESH4_SHA256 = "7f0d49164421414774eb254772738766e9096c442fb50bac114e6da8f20b1577"
#: The fifty fifth fresh cases, all put into held-out-5 right after them, and their digest.
FRESH5_END = 344
FRESH5_SHA256 = "e0f59cb8001aaac7bbc6be90d432cd2bf29c4c7c5797a171aa69b28d77a6cbd6"
#: The fifty sixth fresh cases, all put into held-out-6 right after them, and their digest.
FRESH6_END = 394
FRESH6_SHA256 = "84cf6e44e1dc11aa9038020131f42f3909f830dbd62292fd6437ae03a8b69ce8"
#: The fifty seventh fresh cases, all put into held-out-7 right after them, and their digest.
FRESH7_END = 444
FRESH7_SHA256 = "7ab94dac9fdd0c4342b427d59a47eba7dabcdca67d27d740c52f9d7b76be8680"
#: The fifty eighth fresh cases, all put into held-out-8 right after them, and their digest.
FRESH8_END = 494
FRESH8_SHA256 = "b439e75d374f1949a73dcb390d96bc2a31a28e9d818e4a5166a2272ab52be089"
#: The fifty ninth fresh cases, all put into held-out-9 right after them, and their digest.
FRESH9_END = 544
FRESH9_SHA256 = "6fea6269019eff84e25cbd645ecc60f79ca3ef3add09af08112178777b2703a0"
#: The fifty tenth fresh cases, all put into held-out-10 right after them, and their digest.
FRESH10_END = 594
FRESH10_SHA256 = "380963ccc68018c3b8cd72f82e039aa04c2df3d4356cca7b8e839b694b704b69"
#: The fifty eleventh fresh cases, all put into held-out-11 right after them, and their digest.
FRESH11_END = 644
FRESH11_SHA256 = "e071b92952a935d47995d3c52231fe9d5a1fe525e864ea78cd069dacf20b229b"
#: The fifty twelfth fresh cases, all put into held-out-12 right after them, and their digest.
FRESH12_END = 694
FRESH12_SHA256 = "ee1905a4791b51f31e830c7fc9e7fc52bc8f5503ef1cf6e122da61cb5cda8add"
#: The fifty thirteenth fresh cases, all put into held-out-13 right after them, and their digest.
FRESH13_END = 744
FRESH13_SHA256 = "6a1a1babf832f548e38ff112a5e812624381de5142ea6737bdf90c464b732236"
#: The fifty fourteenth fresh cases, all put into held-out-14 right after them, and their digest.
FRESH14_END = 794
FRESH14_SHA256 = "c64af8e3521f3622418310c8a8c90f38344e6d340d92497146056cca9e8de8ab"
#: The fifty fifteenth fresh cases, all put into held-out-15 right after them, and their digest.
FRESH15_END = 844
FRESH15_SHA256 = "6927fb483c3e81f2cb7e9e3a682e518022f03dd72d2ed34d5cdd8db4e81d996d"
#: The fifty sixteenth fresh cases, all put into held-out-16 right after them, and their digest.
FRESH16_END = 894
FRESH16_SHA256 = "cd306c9b17a62f59b7c7172bf0e10fc63987217b28c9db74f10333084e216675"
#: The fifty seventeenth fresh cases, all put into held-out-17 right after them, and their digest.
FRESH17_END = 944
FRESH17_SHA256 = "9be3f808272e10d94ce1e4ee91e782679b15fb6cdf053a43415fcaae37ab3fd5"
#: The fifty eighteenth fresh cases, all put into held-out-18 right after them, and their digest.
FRESH18_END = 994
FRESH18_SHA256 = "e425a12cfd19b5fd4ac148d4171c8fecf92524a6ac9e294ccd117353711766d2"
#: The fifty nineteenth fresh cases, all put into held-out-19 right after them, and their digest.
FRESH19_END = 1044
FRESH19_SHA256 = "31d2fd9c661335c96dfc1fc96254a593c46f90fe9984eedc8ae862c8fde75385"
#: The fifty twentieth fresh cases, all put into held-out-20 right after them, and their digest.
FRESH20_END = 1094
FRESH20_SHA256 = "a9677ade106211f0d2dda5af718d6a05229fd9301399441114b6b5083f248d6e"
#: The fifty twenty-first fresh cases, all put into held-out-21 right after them, and their digest.
FRESH21_END = 1144
FRESH21_SHA256 = "37527feaf07bc9204a79f4437e326cab43dff27c0a2c71bd9deb8ae39462d22b"
#: The fifty twenty-second fresh cases, all put into held-out-22 right after them, and their digest.
FRESH22_END = 1194
FRESH22_SHA256 = "c340771de3c1b8abd52cc9055f7fd2bee56af3d406c2ccb8250abe0310f768b1"
#: The fifty twenty-third fresh cases, all put into held-out-23 right after them, and their digest.
FRESH23_END = 1244
FRESH23_SHA256 = "d85df999b9f96f4954e38161df32868425faac1e40a139a898b8eedb8b70f7a0"
#: The fifty twenty-fourth fresh cases, all put into held-out-24 right after them, and their digest.
FRESH24_END = 1294
FRESH24_SHA256 = "f2de9397b51630c9aab55ed17e7e443e4e8eec0a43014c6f8579942af047793d"
#: The fifty twenty-fifth fresh cases, all put into held-out-25 right after them, and their digest.
FRESH25_END = 1344
FRESH25_SHA256 = "139eaf3b835e86e295f7864fc6bdfccc2f339cf9cfd5866c41482d6b4063008a"
#: The fifty twenty-sixth fresh cases, all put into held-out-26 right after them, and their digest.
FRESH26_END = 1394
FRESH26_SHA256 = "e3ac5a5b1d9a0f92f1fcf303ac39db20578486af2dbf8d5a3e85c29b11f54740"
#: The fifty twenty-seventh fresh cases, all put into held-out-27 right after them, and their
#: digest.
FRESH27_END = 1444
FRESH27_SHA256 = "1d8efe5f6f787aeb56903de37e3ba3920fca5f5488132e01a685a1360dc09825"
#: The fifty twenty-eighth fresh cases, all put into held-out-28 right after them, and their
#: digest.
FRESH28_END = 1494
FRESH28_SHA256 = "06d4117f6952a983a94e713516ccc9007251677797440a9cb6b7a9f159a43bbd"
#: The fifty twenty-ninth fresh cases, all put into held-out-29 right after them, and their
#: digest.
FRESH29_END = 1544
FRESH29_SHA256 = "d4760972eaa4a8dd4626cc6d5bfb7bcf305dcf08351de2f607514b6e2070acd5"
#: The fifty thirtieth fresh cases, all put into held-out-30 right after them, and their digest.
FRESH30_END = 1594
FRESH30_SHA256 = "1b5e1b7c03237cf00f079381f62ebb2e6b8077d857bac0c565cd0c71be3dc774"
#: The fifty thirty-first fresh cases, all put into held-out-31 right after them, and their
#: digest.
FRESH31_END = 1644
FRESH31_SHA256 = "a7f720fb6c2913067eba05fc498c45bceb2f82ae64692f4444bc156a65bed2c0"
#: The fifty thirty-second fresh cases, all put into held-out-32 right after them, and their
#: digest.
FRESH32_END = 1694
FRESH32_SHA256 = "18b0b630c4567249466b075194e386db5a44f5a1b70d4e839c0e11d322232322"
#: The fifty thirty-third fresh cases, all put into held-out-33 right after them, and their
#: digest.
FRESH33_END = 1744
FRESH33_SHA256 = "8386312f8e4c5677733dd94b1ecb8edbb8e2d2d99d8cf9fe9682daae76a3ec46"
#: The fifty thirty-fourth fresh cases, all put into held-out-34 right after them, and their
#: digest.
FRESH34_END = 1794
FRESH34_SHA256 = "cb204b331347b2e971c78cd6f91812ed469c8c9903c8aa86e8e29d27f9a49480"


def _digest(items: Sequence[tuple[str, str]]) -> str:
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()


def _case(name: str, language: str = "de", kind: str = "action") -> Case:
    def build(rng: random.Random) -> Script:
        return Script((Say("x"),), lambda outcome: None)

    return Case(name, kind, language, build)  # type: ignore[arg-type]


def test_every_case_has_a_half_and_every_entry_a_case() -> None:
    """A case missing from the split file (or a stale name in it) fails."""
    split = load()
    assert set(split) == {c.name for c in CASES}


def test_the_first_draw_never_changes() -> None:
    """The entries drawn first are pinned: their names, halves and order."""
    items = list(load().items())
    assert len(items) >= FROZEN
    assert _digest(items[:FROZEN]) == FROZEN_SHA256


def test_the_fresh_draw_never_changes() -> None:
    """The forty fresh cases come right after the first draw, pinned the same way."""
    items = list(load().items())
    assert len(items) >= FRESH_END
    assert _digest(items[FROZEN:FRESH_END]) == FRESH_SHA256


def test_the_second_fresh_cases_are_all_held_out_2_after_the_fresh_draw() -> None:
    """The fifty second fresh cases come right after the fresh draw, all in held-out-2, and
    nothing else is; pinned like the draws before them."""
    items = list(load().items())
    assert len(items) >= FRESH2_END
    assert _digest(items[FRESH_END:FRESH2_END]) == FRESH2_SHA256
    assert [name for name, _ in items[FRESH_END:FRESH2_END]] == [c.name for c in FRESH_SETS[1]]
    assert {name for name, half in items if half == "held-out-2"} == {c.name for c in FRESH_SETS[1]}


@pytest.mark.parametrize(
    ("start", "end", "digest", "fresh", "half"),
    [
        pytest.param(
            FRESH2_END, FRESH3_END, FRESH3_SHA256, FRESH_SETS[2], "held-out-3", id="third"
        ),
        pytest.param(
            FRESH3_END, FRESH4_END, FRESH4_SHA256, FRESH_SETS[3], "held-out-4", id="fourth"
        ),
        pytest.param(
            FRESH4_END, FRESH5_END, FRESH5_SHA256, FRESH_SETS[4], "held-out-5", id="fifth"
        ),
        pytest.param(
            FRESH5_END, FRESH6_END, FRESH6_SHA256, FRESH_SETS[5], "held-out-6", id="sixth"
        ),
        pytest.param(
            FRESH6_END, FRESH7_END, FRESH7_SHA256, FRESH_SETS[6], "held-out-7", id="seventh"
        ),
        pytest.param(
            FRESH7_END, FRESH8_END, FRESH8_SHA256, FRESH_SETS[7], "held-out-8", id="eighth"
        ),
        pytest.param(
            FRESH8_END, FRESH9_END, FRESH9_SHA256, FRESH_SETS[8], "held-out-9", id="ninth"
        ),
        pytest.param(
            FRESH9_END, FRESH10_END, FRESH10_SHA256, FRESH_SETS[9], "held-out-10", id="tenth"
        ),
        pytest.param(
            FRESH10_END, FRESH11_END, FRESH11_SHA256, FRESH_SETS[10], "held-out-11", id="eleventh"
        ),
        pytest.param(
            FRESH11_END, FRESH12_END, FRESH12_SHA256, FRESH_SETS[11], "held-out-12", id="twelfth"
        ),
        pytest.param(
            FRESH12_END, FRESH13_END, FRESH13_SHA256, FRESH_SETS[12], "held-out-13", id="thirteenth"
        ),
        pytest.param(
            FRESH13_END, FRESH14_END, FRESH14_SHA256, FRESH_SETS[13], "held-out-14", id="fourteenth"
        ),
        pytest.param(
            FRESH14_END, FRESH15_END, FRESH15_SHA256, FRESH_SETS[14], "held-out-15", id="fifteenth"
        ),
        pytest.param(
            FRESH15_END, FRESH16_END, FRESH16_SHA256, FRESH_SETS[15], "held-out-16", id="sixteenth"
        ),
        pytest.param(
            FRESH16_END,
            FRESH17_END,
            FRESH17_SHA256,
            FRESH_SETS[16],
            "held-out-17",
            id="seventeenth",
        ),
        pytest.param(
            FRESH17_END,
            FRESH18_END,
            FRESH18_SHA256,
            FRESH_SETS[17],
            "held-out-18",
            id="eighteenth",
        ),
        pytest.param(
            FRESH18_END,
            FRESH19_END,
            FRESH19_SHA256,
            FRESH_SETS[18],
            "held-out-19",
            id="nineteenth",
        ),
        pytest.param(
            FRESH19_END,
            FRESH20_END,
            FRESH20_SHA256,
            FRESH_SETS[19],
            "held-out-20",
            id="twentieth",
        ),
        pytest.param(
            FRESH20_END,
            FRESH21_END,
            FRESH21_SHA256,
            FRESH_SETS[20],
            "held-out-21",
            id="twenty-first",
        ),
        pytest.param(
            FRESH21_END,
            FRESH22_END,
            FRESH22_SHA256,
            FRESH_SETS[21],
            "held-out-22",
            id="twenty-second",
        ),
        pytest.param(
            FRESH22_END,
            FRESH23_END,
            FRESH23_SHA256,
            FRESH_SETS[22],
            "held-out-23",
            id="twenty-third",
        ),
        pytest.param(
            FRESH23_END,
            FRESH24_END,
            FRESH24_SHA256,
            FRESH_SETS[23],
            "held-out-24",
            id="twenty-fourth",
        ),
        pytest.param(
            FRESH24_END,
            FRESH25_END,
            FRESH25_SHA256,
            FRESH_SETS[24],
            "held-out-25",
            id="twenty-fifth",
        ),
        pytest.param(
            FRESH25_END,
            FRESH26_END,
            FRESH26_SHA256,
            FRESH_SETS[25],
            "held-out-26",
            id="twenty-sixth",
        ),
        pytest.param(
            FRESH26_END,
            FRESH27_END,
            FRESH27_SHA256,
            FRESH_SETS[26],
            "held-out-27",
            id="twenty-seventh",
        ),
        pytest.param(
            FRESH27_END,
            FRESH28_END,
            FRESH28_SHA256,
            FRESH_SETS[27],
            "held-out-28",
            id="twenty-eighth",
        ),
        pytest.param(
            FRESH28_END,
            FRESH29_END,
            FRESH29_SHA256,
            FRESH_SETS[28],
            "held-out-29",
            id="twenty-ninth",
        ),
        pytest.param(
            FRESH29_END,
            FRESH30_END,
            FRESH30_SHA256,
            FRESH_SETS[29],
            "held-out-30",
            id="thirtieth",
        ),
        pytest.param(
            FRESH30_END,
            FRESH31_END,
            FRESH31_SHA256,
            FRESH_SETS[30],
            "held-out-31",
            id="thirty-first",
        ),
        pytest.param(
            FRESH31_END,
            FRESH32_END,
            FRESH32_SHA256,
            FRESH_SETS[31],
            "held-out-32",
            id="thirty-second",
        ),
        pytest.param(
            FRESH32_END,
            FRESH33_END,
            FRESH33_SHA256,
            FRESH_SETS[32],
            "held-out-33",
            id="thirty-third",
        ),
        pytest.param(
            FRESH33_END,
            FRESH34_END,
            FRESH34_SHA256,
            FRESH_SETS[33],
            "held-out-34",
            id="thirty-fourth",
        ),
    ],
)
def test_each_later_fresh_set_is_all_its_half_right_after_the_one_before(
    start: int, end: int, digest: str, fresh: Sequence[Case], half: str
) -> None:
    """Each fifty fresh cases come right after the set before them, all in their own half,
    and nothing else is; pinned like the draws before them."""
    items = list(load().items())
    assert len(items) >= end
    assert _digest(items[start:end]) == digest
    assert [name for name, _ in items[start:end]] == [c.name for c in fresh]
    assert {name for name, h in items if h == half} == {c.name for c in fresh}


def test_the_file_is_what_the_seeded_draw_gives() -> None:
    """Extending the committed split over the suite adds nothing and moves nothing."""
    split = load()
    assert extend(split, CASES) == split
    assert list(extend(split, CASES)) == list(split)


def test_new_cases_are_appended_and_old_entries_stay() -> None:
    """A new case gets a half at the end; every existing entry keeps its half."""
    split = load()
    grown = extend(split, [*CASES, _case("zz_new_one"), _case("zz_new_two")])
    assert list(grown)[: len(split)] == list(split)
    assert all(grown[name] == half for name, half in split.items())
    assert list(grown)[len(split) :] in (["zz_new_one", "zz_new_two"], ["zz_new_two", "zz_new_one"])
    # Two new cases of one language and kind go to different halves.
    assert {grown["zz_new_one"], grown["zz_new_two"]} == {"dev", "held-out"}


def test_the_halves_are_balanced_per_language_and_kind() -> None:
    """Each language differs by at most one case between the halves, each kind by two, and
    no language-and-kind group by more than one."""
    split = load()
    for group, limit in (
        (lambda c: c.language, 1),
        (lambda c: c.kind, 2),
        (lambda c: (c.language, c.kind), 1),
    ):
        count = Counter((group(c), split[c.name]) for c in CASES)
        for value in {group(c) for c in CASES}:
            assert abs(count[(value, "dev")] - count[(value, "held-out")]) <= limit, value


def test_select_gives_one_half_or_all() -> None:
    """--half dev plays only dev cases, held-out-2 only the second fresh ones, held-out-3 only
    the third, held-out-4 only the fourth, held-out-5 only the fifth, held-out-6 only the
    sixth, held-out-7 only the seventh, held-out-8 only the eighth, held-out-9 only the ninth,
    held-out-10 only the tenth, held-out-11 only the eleventh, held-out-12 only the twelfth,
    held-out-13 only the thirteenth, held-out-14 only the fourteenth, held-out-15 only the
    fifteenth, held-out-16 only the sixteenth, held-out-17 only the seventeenth, held-out-18 only
    the eighteenth, held-out-19 only the nineteenth, held-out-20 only the twentieth, held-out-21
    only the twenty-first, held-out-22 only the twenty-second, held-out-23 only the twenty-third,
    held-out-24 only the twenty-fourth, held-out-25 only the twenty-fifth, held-out-26 only the
    twenty-sixth, held-out-27 only the twenty-seventh, held-out-28 only the twenty-eighth,
    held-out-29 only the twenty-ninth, held-out-30 only the thirtieth, held-out-31 only the
    thirty-first, held-out-32 only the thirty-second, held-out-33 only the thirty-third,
    held-out-34 only the thirty-fourth; all plays every case."""
    split = load()
    names = [{c.name for c in select(CASES, split, half)} for half in HALVES]
    assert set().union(*names) == {c.name for c in CASES}
    assert sum(len(n) for n in names) == len(CASES)
    for number, fresh in enumerate(FRESH_SETS[1:], start=2):
        assert select(CASES, split, f"held-out-{number}") == list(fresh)
    assert select(CASES, split, "all") == list(CASES)


def test_into_puts_every_new_case_into_that_half() -> None:
    """--into: each case the split lacks goes into the named half, in the cases' order; every
    existing entry keeps its half and place."""
    split = load()
    new = [_case("zz_new_one"), _case("zz_new_two", "ja", "recall"), _case("zz_new_three")]
    grown = extend(split, [*CASES, *new], into="held-out-2")
    assert list(grown.items())[: len(split)] == list(split.items())
    assert list(grown.items())[len(split) :] == [(c.name, "held-out-2") for c in new]
    assert extend(split, CASES, into="dev") == split


def test_an_unknown_half_is_rejected(tmp_path: Path) -> None:
    """A split file naming another half, --into another half, or extend into it, fails."""
    path = tmp_path / "split.json"
    path.write_text(json.dumps({"seed": 1, "cases": {"a": "dev", "b": "held-out-35"}}))
    with pytest.raises(ValueError, match="held-out-34"):
        load(path)
    with pytest.raises(ValueError, match="unknown half"):
        extend({}, [_case("a")], into="test")  # type: ignore[arg-type]
    with pytest.raises(SystemExit):
        agentic_split.main(["--into", "held-out-35"])


def _run_main(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *argv: str) -> dict[str, str]:
    """main() over a split file of two entries and four cases (two of them new)."""
    path = tmp_path / "split.json"
    save({"old_a": "dev", "old_b": "held-out"}, path)
    cases = (_case("old_a"), _case("old_b"), _case("new_a", "fr"), _case("new_b", "fr"))
    monkeypatch.setattr(agentic_split, "SPLIT_PATH", path)
    monkeypatch.setattr(agentic_split, "CASES", cases)
    agentic_split.main(list(argv))
    return dict(load(path))


def test_main_into_appends_into_that_half(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """python -m bench._agentic_split --into held-out-2: the new cases all in held-out-2."""
    split = _run_main(tmp_path, monkeypatch, "--into", "held-out-2")
    assert list(split.items()) == [
        ("old_a", "dev"),
        ("old_b", "held-out"),
        ("new_a", "held-out-2"),
        ("new_b", "held-out-2"),
    ]


@pytest.mark.parametrize("half", [f"held-out-{n}" for n in range(3, 35)])
def test_main_into_a_later_held_out_half(
    half: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """python -m bench._agentic_split --into held-out-N: the new cases all in that half."""
    split = _run_main(tmp_path, monkeypatch, "--into", half)
    assert list(split.items())[2:] == [("new_a", half), ("new_b", half)]


def test_main_without_into_stays_balanced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --into the new cases are balanced over dev and held-out, never a judged half."""
    split = _run_main(tmp_path, monkeypatch)
    assert list(split)[:2] == ["old_a", "old_b"]
    assert {split["new_a"], split["new_b"]} == {"dev", "held-out"}


def test_save_and_load_keep_the_order(tmp_path: Path) -> None:
    """The file round-trips with its order and every half, so appending is visible as
    appending."""
    path = tmp_path / "split.json"
    halves: dict[str, Half] = {
        "b": "dev",
        "a": "held-out",
        "c": "held-out-2",
        "d": "held-out-3",
        "e": "held-out-4",
        "f": "held-out-5",
        "g": "held-out-6",
        "h": "held-out-7",
        "i": "held-out-8",
        "j": "held-out-9",
        "k": "held-out-10",
        "l": "held-out-11",
        "m": "held-out-12",
        "n": "held-out-13",
        "o": "held-out-14",
        "p": "held-out-15",
        "q": "held-out-16",
        "r": "held-out-17",
        "s": "held-out-18",
        "t": "held-out-19",
        "u": "held-out-20",
        "v": "held-out-21",
        "w": "held-out-22",
        "x": "held-out-23",
        "y": "held-out-24",
        "z": "held-out-25",
        "za": "held-out-26",
        "zb": "held-out-27",
        "zc": "held-out-28",
        "zd": "held-out-29",
        "ze": "held-out-30",
        "zf": "held-out-31",
        "zg": "held-out-32",
        "zh": "held-out-33",
        "zi": "held-out-34",
    }
    save(halves, path)
    assert list(load(path).items()) == [
        ("b", "dev"),
        ("a", "held-out"),
        ("c", "held-out-2"),
        ("d", "held-out-3"),
        ("e", "held-out-4"),
        ("f", "held-out-5"),
        ("g", "held-out-6"),
        ("h", "held-out-7"),
        ("i", "held-out-8"),
        ("j", "held-out-9"),
        ("k", "held-out-10"),
        ("l", "held-out-11"),
        ("m", "held-out-12"),
        ("n", "held-out-13"),
        ("o", "held-out-14"),
        ("p", "held-out-15"),
        ("q", "held-out-16"),
        ("r", "held-out-17"),
        ("s", "held-out-18"),
        ("t", "held-out-19"),
        ("u", "held-out-20"),
        ("v", "held-out-21"),
        ("w", "held-out-22"),
        ("x", "held-out-23"),
        ("y", "held-out-24"),
        ("z", "held-out-25"),
        ("za", "held-out-26"),
        ("zb", "held-out-27"),
        ("zc", "held-out-28"),
        ("zd", "held-out-29"),
        ("ze", "held-out-30"),
        ("zf", "held-out-31"),
        ("zg", "held-out-32"),
        ("zh", "held-out-33"),
        ("zi", "held-out-34"),
    ]
    assert SPLIT_PATH.name == "agentic_split.json"
