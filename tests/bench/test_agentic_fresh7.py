"""The seventh fresh agentic cases (held-out-7): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the earlier fresh cases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench._agentic_cases import CASES, FRESH7, Case
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

ORACLES: dict[str, Oracle] = {
    "en7_sourdough": _reminded(3),
    "en7_boiler_service": _written,
    "en7_projector_input": _edited(r"input = hdmi1", "input = hdmi2"),
    "en7_council_tax": _recalled(),
    "en7_rugby_team": _said("A rugby union side has 15 players on the pitch.", "It has 13."),
    "en7_pride_prejudice": _said("Jane Austen.", "Charlotte Brontë."),
    "en7_checksum": _shown("sha256sum backup.tar"),
    "en7_allotment_log": _asked,
    "en7_heating_eco": _reread("eco: 17", "eco: 16"),
    "en7_glasgow_parcels": _counted,
    "de7_trockner": _reminded(4),
    "de7_vorrat": _appended,
    "de7_kamera_aufloesung": _edited(r"aufloesung = 1080p", "aufloesung = 4k"),
    "de7_garagentor": _recalled(),
    "de7_volleyball": _said("Pro Mannschaft stehen 6 Spieler auf dem Feld.", "Es sind 5."),
    "de7_hoechster_berg": _said("Der Mount Everest.", "Der K2."),
    "de7_partitionen": _shown("lsblk"),
    "de7_putzplan": _asked,
    "de7_kursteilnehmer": _recounted("Lea Schmitt"),
    "de7_pakete_kassel": _counted,
    "es7_pollo_congelador": _reminded(1.5),
    "es7_cita_veterinario": _written,
    "es7_canal_wifi": _edited(r"canal = 6", "canal = 11"),
    "es7_matricula_moto": _recalled(),
    "es7_baloncesto": _said("Cinco jugadores por equipo.", "Seis jugadores por equipo."),
    "es7_cien_anos_soledad": _said("Gabriel García Márquez.", "Mario Vargas Llosa."),
    "es7_tamano_descargas": _shown("du -sh descargas"),
    "es7_jubilacion": _asked,
    "es7_clases_pilates": _reread("miércoles: 20:00", "miércoles: 18:45"),
    "es7_socios_huesca": _counted,
    "fr7_releves_compteur": _appended,
    "fr7_coussins": _reminded(6),
    "fr7_volets": _edited(r"fermeture = 21:00", "fermeture = 22:15"),
    "fr7_boite_a_cles": _recalled(),
    "fr7_cordes_violon": _said("Un violon a quatre cordes.", "Un violon a cinq cordes."),
    "fr7_marrakech": _said("Au Maroc.", "En Algérie."),
    "fr7_peripheriques_usb": _shown("lsusb"),
    "fr7_creche": _asked,
    "fr7_inscrits_atelier": _recounted("Inès Caron"),
    "fr7_colis_limoges": _counted,
    "ja7_suihanki": _reminded(2.5),
    "ja7_hikkoshi": _written,
    "ja7_kettle_hoon": _edited(r"keep_warm = 80", "keep_warm = 90"),
    "ja7_bouhan_touroku": _recalled(),
    "ja7_soccer_jikan": _said("90分です。", "80分です。"),
    "ja7_genji": _said("紫式部です。", "清少納言です。"),
    "ja7_cpu_joho": _shown("lscpuです。"),
    "ja7_bonenkai": _asked,
    "ja7_hayaban": _reread("早番: 7:00", "早番: 6:30"),
    "ja7_zaiko_matsue": _counted,
}


def test_fifty_seventh_fresh_cases_ten_per_language_last_in_the_suite() -> None:
    """50 cases, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool, a
    show-only, a question about a file, a change read or counted again and a command each;
    uniquely named, last in the suite."""
    assert CASES[-50:] == FRESH7
    assert len({c.name for c in CASES}) == len(CASES)
    ten_per_language_of_the_mix(FRESH7, "7")
    kinds = Counter(c.kind for c in FRESH7)
    assert kinds["order-question"] == 2 and kinds["past-summary"] == 3
    assert set(ORACLES) == {c.name for c in FRESH7}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH7])
def test_a_seventh_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
