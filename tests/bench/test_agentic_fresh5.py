"""The fifth fresh agentic cases (held-out-5): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the earlier fresh cases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench._agentic_cases import CASES, FRESH5, FRESH6, FRESH7, Case
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
    "en5_dehumidifier": _reminded(3),
    "en5_boat_rental": _written,
    "en5_export_profile": _edited(r"profile = portrait", "profile = portrait_raw"),
    "en5_frequent_flyer": _recalled(),
    "en5_adult_bones": _said("An adult has 206 bones.", "An adult has 208 bones."),
    "en5_ringed_planet": _said("Saturn.", "Jupiter."),
    "en5_git_version": _shown("git --version"),
    "en5_quiz_host": _asked,
    "en5_ferry_departure": _reread("departure: 08:15", "departure: 07:45"),
    "en5_denver_visits": _counted,
    "de5_dachfenster": _reminded(2),
    "de5_telefonliste": _appended,
    "de5_nas_freigabe": _edited(r"freigabe = fotos", "freigabe = fotos_archiv"),
    "de5_steuer_id": _recalled(),
    "de5_bundeslaender": _said("Deutschland hat 16 Bundesländer.", "Es sind 15."),
    "de5_pizza_herkunft": _said("Aus Italien, genauer aus Neapel.", "Aus Griechenland."),
    "de5_kernel_version": _shown("uname -r"),
    "de5_entruempeln": _asked,
    "de5_spender_nachzaehlen": _recounted("Familie Brandt"),
    "de5_ausleihen_zeilen": _lines,
    "es5_paquete_correos": _reminded(2),
    "es5_reforma_cocina": _written,
    "es5_zoom_mapa": _edited(r"zoom = 12", "zoom = 14"),
    "es5_pedido_cortinas": _recalled(),
    "es5_meses_31": _said("Siete meses.", "Seis meses."),
    "es5_machu_picchu": _said("En Perú.", "En Bolivia."),
    "es5_fecha_sistema": _shown("`date`"),
    "es5_turno_escalera": _asked,
    "es5_cambio_aula": _reread("aula: 12", "aula: 14"),
    "es5_reservas_zamora": _counted,
    "fr5_travaux": _appended,
    "fr5_salle_des_fetes": _written,
    "fr5_mise_en_veille": _edited(r"delai_minutes = 10", "delai_minutes = 15"),
    "fr5_dossard": _recalled(),
    "fr5_echiquier": _said("Il y en a 64.", "Il y en a 81."),
    "fr5_flute_enchantee": _said("Mozart.", "Beethoven."),
    "fr5_variables_env": _shown("printenv"),
    "fr5_club_lecture": _asked,
    "fr5_tournoi_recompte": _recounted("Paul Mercier"),
    "fr5_retours_angers": _counted,
    "ja5_cleaning": _reminded(3),
    "ja5_happyokai": _written,
    "ja5_printer_mae": _edited(r"name = office", "name = 2f_office"),
    "ja5_shinsatsuken": _recalled(),
    "ja5_gorin": _said("輪は5つです。", "輪は6つです。"),
    "ja5_wagahai": _said("夏目漱石です。", "芥川龍之介です。"),
    "ja5_pwd_miseru": _shown("pwdコマンドです。"),
    "ja5_shain_ryoko": _asked,
    "ja5_gomi_yobi": _reread("燃えるゴミ: 火曜", "燃えるゴミ: 水曜"),
    "ja5_kenshu_nagoya": _counted,
}


def test_fifty_fifth_fresh_cases_ten_per_language_before_the_sixth_and_seventh() -> None:
    """50 cases, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool, a
    show-only, a question about a file, a change read or counted again and a command each;
    uniquely named, last in the suite but for the sixth and seventh fresh cases."""
    assert CASES[-50 - len(FRESH6) - len(FRESH7) :] == (*FRESH5, *FRESH6, *FRESH7)
    assert len({c.name for c in CASES}) == len(CASES)
    ten_per_language_of_the_mix(FRESH5, "5")
    kinds = Counter(c.kind for c in FRESH5)
    assert kinds["order-question"] == 2 and kinds["past-summary"] == 3
    assert set(ORACLES) == {c.name for c in FRESH5}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH5])
def test_a_fifth_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
