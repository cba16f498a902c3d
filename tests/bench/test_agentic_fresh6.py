"""The sixth fresh agentic cases (held-out-6): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the earlier fresh cases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench._agentic_cases import CASES, FRESH6, FRESH7, Case
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
    "en6_sprinkler": _reminded(2),
    "en6_chimney_sweep": _written,
    "en6_sync_device": _edited(r"device = laptop", "device = laptop-2"),
    "en6_gym_membership": _recalled(),
    "en6_adult_teeth": _said("An adult usually has 32 teeth.", "An adult has 28 teeth."),
    "en6_longest_river_africa": _said("The Nile.", "The Congo."),
    "en6_uptime_command": _shown("uptime"),
    "en6_choir_rota": _asked,
    "en6_spin_class": _reread("class: 18:00", "class: 18:30"),
    "en6_leeds_tickets": _counted,
    "de6_werkstatt": _reminded(4),
    "de6_kassenbuch": _appended,
    "de6_scan_ordner": _edited(r"ziel = scans", "ziel = scans_buero"),
    "de6_fahrradschloss": _recalled(),
    "de6_insektenbeine": _said("Ein Insekt hat 6 Beine.", "Ein Insekt hat acht Beine."),
    "de6_mondscheinsonate": _said("Von Ludwig van Beethoven.", "Von Mozart."),
    "de6_versteckte_dateien": _shown("ls -la"),
    "de6_wanderbericht": _asked,
    "de6_anmeldungen": _recounted("Jonas Weber"),
    "de6_lieferungen_hamburg": _counted,
    "es6_lasana_horno": _reminded(2),
    "es6_furgoneta_mudanza": _written,
    "es6_perfil_pantalla": _edited(r"perfil = lectura", "perfil = lectura_noche"),
    "es6_socio_tenis": _recalled(),
    "es6_jugadores_futbol": _said("Once jugadores.", "Diez jugadores."),
    "es6_guernica": _said("Pablo Picasso.", "Salvador Dalí."),
    "es6_direccion_ip": _shown("ip addr"),
    "es6_turnos_piscina": _asked,
    "es6_cierre_ferreteria": _reread("cierre: 20:00", "cierre: 21:30"),
    "es6_envios_burgos": _counted,
    "fr6_corvees": _appended,
    "fr6_vide_grenier": _written,
    "fr6_zone_alarme": _edited(r"zone = garage", "zone = garage_jardin"),
    "fr6_digicode_soeur": _recalled(),
    "fr6_cartes_tarot": _said("Il y a 78 cartes.", "Il y a 52 cartes."),
    "fr6_sagrada_familia": _said("À Barcelone.", "À Madrid."),
    "fr6_processus": _shown("ps aux"),
    "fr6_kermesse": _asked,
    "fr6_choristes": _recounted("Claire Dubois"),
    "fr6_expeditions_poitiers": _counted,
    "ja6_futon": _reminded(3),
    "ja6_tougei": _written,
    "ja6_sensor_basho": _edited(r"location = living", "location = living_north"),
    "ja6_locker": _recalled(),
    "ja6_tako_shinzo": _said("3つです。", "2つです。"),
    "ja6_romeo": _said("シェイクスピアです。", "ゲーテです。"),
    "ja6_whoami": _shown("whoamiコマンドです。"),
    "ja6_undokai": _asked,
    "ja6_benkyoukai": _reread("開始: 13:30", "開始: 14:00"),
    "ja6_sapporo": _counted,
}


def test_fifty_sixth_fresh_cases_ten_per_language_before_the_seventh() -> None:
    """50 cases, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool, a
    show-only, a question about a file, a change read or counted again and a command each;
    uniquely named, last in the suite but for the seventh fresh cases."""
    assert CASES[-50 - len(FRESH7) :] == (*FRESH6, *FRESH7)
    assert len({c.name for c in CASES}) == len(CASES)
    ten_per_language_of_the_mix(FRESH6, "6")
    kinds = Counter(c.kind for c in FRESH6)
    assert kinds["order-question"] == 2 and kinds["past-summary"] == 3
    assert set(ORACLES) == {c.name for c in FRESH6}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH6])
def test_a_sixth_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
