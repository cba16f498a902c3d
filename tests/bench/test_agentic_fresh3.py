"""The third fresh agentic cases (held-out-3): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the earlier fresh cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench._agentic_cases import CASES, FRESH3, FRESH4, FRESH5, FRESH6, FRESH7, Case
from tests.bench.test_agentic_fresh import (
    Oracle,
    _appended,
    _asked,
    _counted,
    _edited,
    _recalled,
    _recounted,
    _reminded,
    _reread,
    _said,
    _shown,
    _written,
    passes_only_its_effect,
    ten_per_language_of_the_mix,
)
from tests.bench.test_agentic_fresh2 import _lines

ORACLES: dict[str, Oracle] = {
    "en3_garden_fern": _appended,
    "en3_plumber_callback": _reminded(0.5),
    "en3_tab_width": _edited(r"tab_width = 8", "tab_width = 4"),
    "en3_gate_code": _recalled(),
    "en3_grams_kilogram": _said("A kilogram is 1,000 grams.", "A kilogram is 100 grams."),
    "en3_rsvp_meaning": _said(
        "It's French for 'please reply': let them know if you're coming.",
        "It means the party is formal.",
    ),
    "en3_free_space": _shown("df -h"),
    "en3_moving_day": _asked,
    "en3_tea_price": _reread("tea 3.50", "tea 3.80"),
    "en3_lisbon_bookings": _counted,
    "de3_besichtigung": _written,
    "de3_spuelmaschine": _reminded(4),
    "de3_nachttemperatur": _edited(r"nacht = 16", "nacht = 18"),
    "de3_wohnheim_zimmer": _recalled(),
    "de3_fussball_spieler": _said("Es sind elf Spieler.", "Es sind zehn Spieler."),
    "de3_blau_gelb": _said("Dann bekommst du Grün.", "Dann bekommst du Lila."),
    "de3_python_version": _shown("python3 --version"),
    "de3_hausmeister": _asked,
    "de3_mitglieder_nachzaehlen": _recounted("Jonas"),
    "de3_bestellungen_zeilen": _lines,
    "es3_mudanza_llaves": _appended,
    "es3_bici_taller": _written,
    "es3_bajar_volumen": _edited(r"volumen = 80", "volumen = 35"),
    "es3_socio_natacion": _recalled(),
    "es3_febrero_bisiesto": _said("Tiene 29 días.", "Tiene 28 días."),
    "es3_planeta_rojo": _said("A Marte.", "A Júpiter."),
    "es3_ultimas_lineas": _shown("tail -n 20 registro.log"),
    "es3_boda": _asked,
    "es3_puerta_embarque": _reread("puerta: B12", "puerta: C3"),
    "es3_alumnos_lineas": _lines,
    "fr3_sortie_ecole": _reminded(2),
    "fr3_pique_nique": _appended,
    "fr3_format_a4": _edited(r"format = Letter", "format = A4"),
    "fr3_mutuelle": _recalled(),
    "fr3_jours_avril": _said("Avril compte trente jours.", "Avril compte 31 jours."),
    "fr3_langue_bresil": _said("On y parle portugais.", "On y parle espagnol."),
    "fr3_processus_memoire": _shown("ps aux --sort=-%mem | head"),
    "fr3_dessert_dimanche": _asked,
    "fr3_benevoles_recompte": _recounted("Margaux"),
    "fr3_livraisons_nantes": _counted,
    "ja3_shaken_memo": _written,
    "ja3_yomitai_tsuika": _appended,
    "ja3_sleep_timer": _edited(r"sleep_minutes = 30", "sleep_minutes = 45"),
    "ja3_churinjo": _recalled(),
    "ja3_dozen": _said("1ダースは12個です。", "1ダースは10個です。"),
    "ja3_kogosei": _said("二酸化炭素です。", "酸素です。"),
    "ja3_atarashii_jun": _shown("`ls -lt` を使います。"),
    "ja3_chonaikai": _asked,
    "ja3_shugo_jikan": _reread("集合: 10:00", "集合: 9:30"),
    "ja3_kiroku_gyosu": _lines,
}


def test_fifty_third_fresh_cases_ten_per_language_before_the_fourth_to_seventh() -> None:
    """50 cases, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool, a
    show-only, a question about a file, a change read or counted again and a command each;
    uniquely named, last in the suite but for the fourth to seventh fresh cases."""
    later = len(FRESH4) + len(FRESH5) + len(FRESH6) + len(FRESH7)
    assert CASES[-50 - later :] == (*FRESH3, *FRESH4, *FRESH5, *FRESH6, *FRESH7)
    assert len({c.name for c in CASES}) == len(CASES)
    ten_per_language_of_the_mix(FRESH3, "3")
    assert set(ORACLES) == {c.name for c in FRESH3}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH3])
def test_a_third_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
