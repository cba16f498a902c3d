"""The scripted conversations of the agentic benchmark, and how each one's effect is checked.

Cases in English (:mod:`.en`, the first thirty; :mod:`.near`, near misses) and in German,
Spanish, French and Japanese (:mod:`.de`, :mod:`.es`, :mod:`.fr`, :mod:`.ja`, built from the
shapes of :mod:`.forms`); then the fresh cases (:data:`FRESH`: :mod:`.fresh_en`,
:mod:`.fresh_de`, :mod:`.fresh_es`, :mod:`.fresh_fr`, :mod:`.fresh_ja`), forty written at once
after both halves had been read for failures, split like every case; then the second fresh
cases (:data:`FRESH2`: :mod:`.fresh2_en`, :mod:`.fresh2_de`, :mod:`.fresh2_es`,
:mod:`.fresh2_fr`, :mod:`.fresh2_ja`), fifty written from the forms and kinds alone, all in a
third half, held-out-2, that no rule was tuned on; then the third fresh cases (:data:`FRESH3`:
:mod:`.fresh3_en`, :mod:`.fresh3_de`, :mod:`.fresh3_es`, :mod:`.fresh3_fr`, :mod:`.fresh3_ja`),
fifty more written the same way, all in a fourth half, held-out-3; then the fourth fresh cases
(:data:`FRESH4`: :mod:`.fresh4_en`, :mod:`.fresh4_de`, :mod:`.fresh4_es`, :mod:`.fresh4_fr`,
:mod:`.fresh4_ja`), fifty more again, all in a fifth half, held-out-4; then the fifth fresh
cases (:data:`FRESH5`: :mod:`.fresh5_en`, :mod:`.fresh5_de`, :mod:`.fresh5_es`,
:mod:`.fresh5_fr`, :mod:`.fresh5_ja`), fifty more, all in a sixth half, held-out-5; then the
sixth fresh cases (:data:`FRESH6`: :mod:`.fresh6_en`, :mod:`.fresh6_de`, :mod:`.fresh6_es`,
:mod:`.fresh6_fr`, :mod:`.fresh6_ja`), fifty more, all in a seventh half, held-out-6; then the
seventh fresh cases (:data:`FRESH7`: :mod:`.fresh7_en`, :mod:`.fresh7_de`, :mod:`.fresh7_es`,
:mod:`.fresh7_fr`, :mod:`.fresh7_ja`), fifty more, all in an eighth half, held-out-7; then the
eighth fresh cases (:data:`FRESH8`: :mod:`.fresh8_en`, :mod:`.fresh8_de`, :mod:`.fresh8_es`,
:mod:`.fresh8_fr`, :mod:`.fresh8_ja`), fifty more, all in a ninth half, held-out-8; then the
ninth fresh cases (:data:`FRESH9`: :mod:`.fresh9_en`, :mod:`.fresh9_de`, :mod:`.fresh9_es`,
:mod:`.fresh9_fr`, :mod:`.fresh9_ja`), fifty more, all in a tenth half, held-out-9; then the
tenth fresh cases (:data:`FRESH10`: :mod:`.fresh10_en`, :mod:`.fresh10_de`, :mod:`.fresh10_es`,
:mod:`.fresh10_fr`, :mod:`.fresh10_ja`), fifty more, all in an eleventh half, held-out-10; then
the eleventh fresh cases (:data:`FRESH11`: :mod:`.fresh11_en`, :mod:`.fresh11_de`,
:mod:`.fresh11_es`, :mod:`.fresh11_fr`, :mod:`.fresh11_ja`), fifty more, all in a twelfth half,
held-out-11; then the twelfth fresh cases (:data:`FRESH12`: :mod:`.fresh12_en`,
:mod:`.fresh12_de`, :mod:`.fresh12_es`, :mod:`.fresh12_fr`, :mod:`.fresh12_ja`), fifty more, all
in a thirteenth half, held-out-12; then the thirteenth fresh cases (:data:`FRESH13`:
:mod:`.fresh13_en`, :mod:`.fresh13_de`, :mod:`.fresh13_es`, :mod:`.fresh13_fr`,
:mod:`.fresh13_ja`), fifty more, all in a fourteenth half, held-out-13; then the fourteenth
fresh cases (:data:`FRESH14`: :mod:`.fresh14_en`, :mod:`.fresh14_de`, :mod:`.fresh14_es`,
:mod:`.fresh14_fr`, :mod:`.fresh14_ja`), fifty more, all in a fifteenth half, held-out-14; then
the fifteenth fresh cases (:data:`FRESH15`: :mod:`.fresh15_en`, :mod:`.fresh15_de`,
:mod:`.fresh15_es`, :mod:`.fresh15_fr`, :mod:`.fresh15_ja`), fifty more, all in a sixteenth half,
held-out-15; then the sixteenth fresh cases (:data:`FRESH16`: :mod:`.fresh16_en`,
:mod:`.fresh16_de`, :mod:`.fresh16_es`, :mod:`.fresh16_fr`, :mod:`.fresh16_ja`), fifty more, all
in a seventeenth half, held-out-16; then the seventeenth fresh cases (:data:`FRESH17`:
:mod:`.fresh17_en`, :mod:`.fresh17_de`, :mod:`.fresh17_es`, :mod:`.fresh17_fr`,
:mod:`.fresh17_ja`), fifty more, all in an eighteenth half, held-out-17; then the eighteenth fresh
cases (:data:`FRESH18`: :mod:`.fresh18_en`, :mod:`.fresh18_de`, :mod:`.fresh18_es`,
:mod:`.fresh18_fr`, :mod:`.fresh18_ja`), fifty more, all in a nineteenth half, held-out-18; then
the nineteenth fresh cases (:data:`FRESH19`: :mod:`.fresh19_en`, :mod:`.fresh19_de`,
:mod:`.fresh19_es`, :mod:`.fresh19_fr`, :mod:`.fresh19_ja`), fifty more, all in a twentieth half,
held-out-19; then the twentieth fresh cases (:data:`FRESH20`: :mod:`.fresh20_en`,
:mod:`.fresh20_de`, :mod:`.fresh20_es`, :mod:`.fresh20_fr`, :mod:`.fresh20_ja`), fifty more, all
in a twenty-first half, held-out-20; then the twenty-first fresh cases (:data:`FRESH21`:
:mod:`.fresh21_en`, :mod:`.fresh21_de`, :mod:`.fresh21_es`, :mod:`.fresh21_fr`,
:mod:`.fresh21_ja`), fifty more, all in a twenty-second half, held-out-21; then the
twenty-second fresh cases (:data:`FRESH22`: :mod:`.fresh22_en`, :mod:`.fresh22_de`,
:mod:`.fresh22_es`, :mod:`.fresh22_fr`, :mod:`.fresh22_ja`), fifty more, all in a twenty-third
half, held-out-22; then the twenty-third fresh cases (:data:`FRESH23`: :mod:`.fresh23_en`,
:mod:`.fresh23_de`, :mod:`.fresh23_es`, :mod:`.fresh23_fr`, :mod:`.fresh23_ja`), fifty more, all
in a twenty-fourth half, held-out-23; then the twenty-fourth fresh cases (:data:`FRESH24`:
:mod:`.fresh24_en`, :mod:`.fresh24_de`, :mod:`.fresh24_es`, :mod:`.fresh24_fr`,
:mod:`.fresh24_ja`), fifty more, all in a twenty-fifth half, held-out-24; then the twenty-fifth
fresh cases (:data:`FRESH25`: :mod:`.fresh25_en`, :mod:`.fresh25_de`, :mod:`.fresh25_es`,
:mod:`.fresh25_fr`, :mod:`.fresh25_ja`), fifty more, all in a twenty-sixth half, held-out-25;
then the twenty-sixth fresh cases (:data:`FRESH26`: :mod:`.fresh26_en`, :mod:`.fresh26_de`,
:mod:`.fresh26_es`, :mod:`.fresh26_fr`, :mod:`.fresh26_ja`), fifty more, all in a
twenty-seventh half, held-out-26; then the twenty-seventh fresh cases (:data:`FRESH27`:
:mod:`.fresh27_en`, :mod:`.fresh27_de`, :mod:`.fresh27_es`, :mod:`.fresh27_fr`,
:mod:`.fresh27_ja`), fifty more, all in a twenty-eighth half, held-out-27; then the
twenty-eighth fresh cases (:data:`FRESH28`: :mod:`.fresh28_en`, :mod:`.fresh28_de`,
:mod:`.fresh28_es`, :mod:`.fresh28_fr`, :mod:`.fresh28_ja`), fifty more, all in a
twenty-ninth half, held-out-28; then the twenty-ninth fresh cases (:data:`FRESH29`:
:mod:`.fresh29_en`, :mod:`.fresh29_de`, :mod:`.fresh29_es`, :mod:`.fresh29_fr`,
:mod:`.fresh29_ja`), fifty more, all in a thirtieth half, held-out-29; then the thirtieth fresh
cases (:data:`FRESH30`: :mod:`.fresh30_en`, :mod:`.fresh30_de`, :mod:`.fresh30_es`,
:mod:`.fresh30_fr`, :mod:`.fresh30_ja`), fifty more, all in a thirty-first half, held-out-30;
then the thirty-first fresh cases (:data:`FRESH31`: :mod:`.fresh31_en`, :mod:`.fresh31_de`,
:mod:`.fresh31_es`, :mod:`.fresh31_fr`, :mod:`.fresh31_ja`), fifty more, all in a thirty-second
half, held-out-31; then the thirty-second fresh cases (:data:`FRESH32`: :mod:`.fresh32_en`,
:mod:`.fresh32_de`, :mod:`.fresh32_es`, :mod:`.fresh32_fr`, :mod:`.fresh32_ja`), fifty more, all
in a thirty-third half, held-out-32; then the thirty-third fresh cases (:data:`FRESH33`:
:mod:`.fresh33_en`, :mod:`.fresh33_de`, :mod:`.fresh33_es`, :mod:`.fresh33_fr`,
:mod:`.fresh33_ja`), fifty more, all in a thirty-fourth half, held-out-33; last the
thirty-fourth fresh cases (:data:`FRESH34`: :mod:`.fresh34_en`, :mod:`.fresh34_de`,
:mod:`.fresh34_es`, :mod:`.fresh34_fr`, :mod:`.fresh34_ja`), fifty more, all in a thirty-fifth
half, held-out-34.
:mod:`.script` is the shape of a case and of what each turn asks for; :mod:`.effects` the
checks of an effect. Every case has a kind and a language; the suite's halves are kept in
``bench/agentic_split.json``.
"""

from __future__ import annotations

from bench._agentic_cases import (
    de,
    en,
    es,
    fr,
    fresh2_de,
    fresh2_en,
    fresh2_es,
    fresh2_fr,
    fresh2_ja,
    fresh3_de,
    fresh3_en,
    fresh3_es,
    fresh3_fr,
    fresh3_ja,
    fresh4_de,
    fresh4_en,
    fresh4_es,
    fresh4_fr,
    fresh4_ja,
    fresh5_de,
    fresh5_en,
    fresh5_es,
    fresh5_fr,
    fresh5_ja,
    fresh6_de,
    fresh6_en,
    fresh6_es,
    fresh6_fr,
    fresh6_ja,
    fresh7_de,
    fresh7_en,
    fresh7_es,
    fresh7_fr,
    fresh7_ja,
    fresh8_de,
    fresh8_en,
    fresh8_es,
    fresh8_fr,
    fresh8_ja,
    fresh9_de,
    fresh9_en,
    fresh9_es,
    fresh9_fr,
    fresh9_ja,
    fresh10_de,
    fresh10_en,
    fresh10_es,
    fresh10_fr,
    fresh10_ja,
    fresh11_de,
    fresh11_en,
    fresh11_es,
    fresh11_fr,
    fresh11_ja,
    fresh12_de,
    fresh12_en,
    fresh12_es,
    fresh12_fr,
    fresh12_ja,
    fresh13_de,
    fresh13_en,
    fresh13_es,
    fresh13_fr,
    fresh13_ja,
    fresh14_de,
    fresh14_en,
    fresh14_es,
    fresh14_fr,
    fresh14_ja,
    fresh15_de,
    fresh15_en,
    fresh15_es,
    fresh15_fr,
    fresh15_ja,
    fresh16_de,
    fresh16_en,
    fresh16_es,
    fresh16_fr,
    fresh16_ja,
    fresh17_de,
    fresh17_en,
    fresh17_es,
    fresh17_fr,
    fresh17_ja,
    fresh18_de,
    fresh18_en,
    fresh18_es,
    fresh18_fr,
    fresh18_ja,
    fresh19_de,
    fresh19_en,
    fresh19_es,
    fresh19_fr,
    fresh19_ja,
    fresh20_de,
    fresh20_en,
    fresh20_es,
    fresh20_fr,
    fresh20_ja,
    fresh21_de,
    fresh21_en,
    fresh21_es,
    fresh21_fr,
    fresh21_ja,
    fresh22_de,
    fresh22_en,
    fresh22_es,
    fresh22_fr,
    fresh22_ja,
    fresh23_de,
    fresh23_en,
    fresh23_es,
    fresh23_fr,
    fresh23_ja,
    fresh24_de,
    fresh24_en,
    fresh24_es,
    fresh24_fr,
    fresh24_ja,
    fresh25_de,
    fresh25_en,
    fresh25_es,
    fresh25_fr,
    fresh25_ja,
    fresh26_de,
    fresh26_en,
    fresh26_es,
    fresh26_fr,
    fresh26_ja,
    fresh27_de,
    fresh27_en,
    fresh27_es,
    fresh27_fr,
    fresh27_ja,
    fresh28_de,
    fresh28_en,
    fresh28_es,
    fresh28_fr,
    fresh28_ja,
    fresh29_de,
    fresh29_en,
    fresh29_es,
    fresh29_fr,
    fresh29_ja,
    fresh30_de,
    fresh30_en,
    fresh30_es,
    fresh30_fr,
    fresh30_ja,
    fresh31_de,
    fresh31_en,
    fresh31_es,
    fresh31_fr,
    fresh31_ja,
    fresh32_de,
    fresh32_en,
    fresh32_es,
    fresh32_fr,
    fresh32_ja,
    fresh33_de,
    fresh33_en,
    fresh33_es,
    fresh33_fr,
    fresh33_ja,
    fresh34_de,
    fresh34_en,
    fresh34_es,
    fresh34_fr,
    fresh34_ja,
    fresh_de,
    fresh_en,
    fresh_es,
    fresh_fr,
    fresh_ja,
    ja,
    near,
)
from bench._agentic_cases.effects import date_in, file_lines, file_lines_after, weekday_in
from bench._agentic_cases.script import (
    KINDS,
    LANGUAGES,
    Case,
    Check,
    Kind,
    Language,
    Outcome,
    Say,
    Script,
    TurnTrace,
)

FRESH: tuple[Case, ...] = (
    *fresh_en.CASES,
    *fresh_de.CASES,
    *fresh_es.CASES,
    *fresh_fr.CASES,
    *fresh_ja.CASES,
)
FRESH2: tuple[Case, ...] = (
    *fresh2_en.CASES,
    *fresh2_de.CASES,
    *fresh2_es.CASES,
    *fresh2_fr.CASES,
    *fresh2_ja.CASES,
)
FRESH3: tuple[Case, ...] = (
    *fresh3_en.CASES,
    *fresh3_de.CASES,
    *fresh3_es.CASES,
    *fresh3_fr.CASES,
    *fresh3_ja.CASES,
)
FRESH4: tuple[Case, ...] = (
    *fresh4_en.CASES,
    *fresh4_de.CASES,
    *fresh4_es.CASES,
    *fresh4_fr.CASES,
    *fresh4_ja.CASES,
)
FRESH5: tuple[Case, ...] = (
    *fresh5_en.CASES,
    *fresh5_de.CASES,
    *fresh5_es.CASES,
    *fresh5_fr.CASES,
    *fresh5_ja.CASES,
)
FRESH6: tuple[Case, ...] = (
    *fresh6_en.CASES,
    *fresh6_de.CASES,
    *fresh6_es.CASES,
    *fresh6_fr.CASES,
    *fresh6_ja.CASES,
)
FRESH7: tuple[Case, ...] = (
    *fresh7_en.CASES,
    *fresh7_de.CASES,
    *fresh7_es.CASES,
    *fresh7_fr.CASES,
    *fresh7_ja.CASES,
)
FRESH8: tuple[Case, ...] = (
    *fresh8_en.CASES,
    *fresh8_de.CASES,
    *fresh8_es.CASES,
    *fresh8_fr.CASES,
    *fresh8_ja.CASES,
)
FRESH9: tuple[Case, ...] = (
    *fresh9_en.CASES,
    *fresh9_de.CASES,
    *fresh9_es.CASES,
    *fresh9_fr.CASES,
    *fresh9_ja.CASES,
)
FRESH10: tuple[Case, ...] = (
    *fresh10_en.CASES,
    *fresh10_de.CASES,
    *fresh10_es.CASES,
    *fresh10_fr.CASES,
    *fresh10_ja.CASES,
)
FRESH11: tuple[Case, ...] = (
    *fresh11_en.CASES,
    *fresh11_de.CASES,
    *fresh11_es.CASES,
    *fresh11_fr.CASES,
    *fresh11_ja.CASES,
)
FRESH12: tuple[Case, ...] = (
    *fresh12_en.CASES,
    *fresh12_de.CASES,
    *fresh12_es.CASES,
    *fresh12_fr.CASES,
    *fresh12_ja.CASES,
)
FRESH13: tuple[Case, ...] = (
    *fresh13_en.CASES,
    *fresh13_de.CASES,
    *fresh13_es.CASES,
    *fresh13_fr.CASES,
    *fresh13_ja.CASES,
)
FRESH14: tuple[Case, ...] = (
    *fresh14_en.CASES,
    *fresh14_de.CASES,
    *fresh14_es.CASES,
    *fresh14_fr.CASES,
    *fresh14_ja.CASES,
)
FRESH15: tuple[Case, ...] = (
    *fresh15_en.CASES,
    *fresh15_de.CASES,
    *fresh15_es.CASES,
    *fresh15_fr.CASES,
    *fresh15_ja.CASES,
)
FRESH16: tuple[Case, ...] = (
    *fresh16_en.CASES,
    *fresh16_de.CASES,
    *fresh16_es.CASES,
    *fresh16_fr.CASES,
    *fresh16_ja.CASES,
)
FRESH17: tuple[Case, ...] = (
    *fresh17_en.CASES,
    *fresh17_de.CASES,
    *fresh17_es.CASES,
    *fresh17_fr.CASES,
    *fresh17_ja.CASES,
)
FRESH18: tuple[Case, ...] = (
    *fresh18_en.CASES,
    *fresh18_de.CASES,
    *fresh18_es.CASES,
    *fresh18_fr.CASES,
    *fresh18_ja.CASES,
)
FRESH19: tuple[Case, ...] = (
    *fresh19_en.CASES,
    *fresh19_de.CASES,
    *fresh19_es.CASES,
    *fresh19_fr.CASES,
    *fresh19_ja.CASES,
)
FRESH20: tuple[Case, ...] = (
    *fresh20_en.CASES,
    *fresh20_de.CASES,
    *fresh20_es.CASES,
    *fresh20_fr.CASES,
    *fresh20_ja.CASES,
)
FRESH21: tuple[Case, ...] = (
    *fresh21_en.CASES,
    *fresh21_de.CASES,
    *fresh21_es.CASES,
    *fresh21_fr.CASES,
    *fresh21_ja.CASES,
)
FRESH22: tuple[Case, ...] = (
    *fresh22_en.CASES,
    *fresh22_de.CASES,
    *fresh22_es.CASES,
    *fresh22_fr.CASES,
    *fresh22_ja.CASES,
)
FRESH23: tuple[Case, ...] = (
    *fresh23_en.CASES,
    *fresh23_de.CASES,
    *fresh23_es.CASES,
    *fresh23_fr.CASES,
    *fresh23_ja.CASES,
)
FRESH24: tuple[Case, ...] = (
    *fresh24_en.CASES,
    *fresh24_de.CASES,
    *fresh24_es.CASES,
    *fresh24_fr.CASES,
    *fresh24_ja.CASES,
)
FRESH25: tuple[Case, ...] = (
    *fresh25_en.CASES,
    *fresh25_de.CASES,
    *fresh25_es.CASES,
    *fresh25_fr.CASES,
    *fresh25_ja.CASES,
)
FRESH26: tuple[Case, ...] = (
    *fresh26_en.CASES,
    *fresh26_de.CASES,
    *fresh26_es.CASES,
    *fresh26_fr.CASES,
    *fresh26_ja.CASES,
)
FRESH27: tuple[Case, ...] = (
    *fresh27_en.CASES,
    *fresh27_de.CASES,
    *fresh27_es.CASES,
    *fresh27_fr.CASES,
    *fresh27_ja.CASES,
)
FRESH28: tuple[Case, ...] = (
    *fresh28_en.CASES,
    *fresh28_de.CASES,
    *fresh28_es.CASES,
    *fresh28_fr.CASES,
    *fresh28_ja.CASES,
)
FRESH29: tuple[Case, ...] = (
    *fresh29_en.CASES,
    *fresh29_de.CASES,
    *fresh29_es.CASES,
    *fresh29_fr.CASES,
    *fresh29_ja.CASES,
)
FRESH30: tuple[Case, ...] = (
    *fresh30_en.CASES,
    *fresh30_de.CASES,
    *fresh30_es.CASES,
    *fresh30_fr.CASES,
    *fresh30_ja.CASES,
)
FRESH31: tuple[Case, ...] = (
    *fresh31_en.CASES,
    *fresh31_de.CASES,
    *fresh31_es.CASES,
    *fresh31_fr.CASES,
    *fresh31_ja.CASES,
)
FRESH32: tuple[Case, ...] = (
    *fresh32_en.CASES,
    *fresh32_de.CASES,
    *fresh32_es.CASES,
    *fresh32_fr.CASES,
    *fresh32_ja.CASES,
)
FRESH33: tuple[Case, ...] = (
    *fresh33_en.CASES,
    *fresh33_de.CASES,
    *fresh33_es.CASES,
    *fresh33_fr.CASES,
    *fresh33_ja.CASES,
)
FRESH34: tuple[Case, ...] = (
    *fresh34_en.CASES,
    *fresh34_de.CASES,
    *fresh34_es.CASES,
    *fresh34_fr.CASES,
    *fresh34_ja.CASES,
)
#: The fresh sets, in the order they end the suite (a new set goes last).
FRESH_SETS: tuple[tuple[Case, ...], ...] = (
    FRESH,
    FRESH2,
    FRESH3,
    FRESH4,
    FRESH5,
    FRESH6,
    FRESH7,
    FRESH8,
    FRESH9,
    FRESH10,
    FRESH11,
    FRESH12,
    FRESH13,
    FRESH14,
    FRESH15,
    FRESH16,
    FRESH17,
    FRESH18,
    FRESH19,
    FRESH20,
    FRESH21,
    FRESH22,
    FRESH23,
    FRESH24,
    FRESH25,
    FRESH26,
    FRESH27,
    FRESH28,
    FRESH29,
    FRESH30,
    FRESH31,
    FRESH32,
    FRESH33,
    FRESH34,
)
CASES: tuple[Case, ...] = (
    *en.CASES,
    *near.CASES,
    *de.CASES,
    *es.CASES,
    *fr.CASES,
    *ja.CASES,
    *(case for fresh in FRESH_SETS for case in fresh),
)

__all__ = [
    "CASES",
    "FRESH",
    "FRESH2",
    "FRESH3",
    "FRESH4",
    "FRESH5",
    "FRESH6",
    "FRESH7",
    "FRESH8",
    "FRESH9",
    "FRESH10",
    "FRESH11",
    "FRESH12",
    "FRESH13",
    "FRESH14",
    "FRESH15",
    "FRESH16",
    "FRESH17",
    "FRESH18",
    "FRESH19",
    "FRESH20",
    "FRESH21",
    "FRESH22",
    "FRESH23",
    "FRESH24",
    "FRESH25",
    "FRESH26",
    "FRESH27",
    "FRESH28",
    "FRESH29",
    "FRESH30",
    "FRESH31",
    "FRESH32",
    "FRESH33",
    "FRESH34",
    "FRESH_SETS",
    "KINDS",
    "LANGUAGES",
    "Case",
    "Check",
    "Kind",
    "Language",
    "Outcome",
    "Say",
    "Script",
    "TurnTrace",
    "date_in",
    "file_lines",
    "file_lines_after",
    "weekday_in",
]
