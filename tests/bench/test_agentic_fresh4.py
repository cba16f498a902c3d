"""The fourth fresh agentic cases (held-out-4): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the earlier fresh cases."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from bench._agentic_cases import CASES, FRESH4, FRESH5, FRESH6, FRESH7, Case
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
    "en4_bread_freezer": _reminded(2),
    "en4_cat_sitter": _written,
    "en4_invoice_folder": _edited(r"folder = invoices", "folder = invoices_2025"),
    "en4_shed_padlock": _recalled(),
    "en4_spider_legs": _said("A spider has eight legs.", "A spider has six legs."),
    "en4_mona_lisa": _said("Leonardo da Vinci painted it.", "Michelangelo painted it."),
    "en4_big_jpgs": _shown("find ~ -name '*.jpg' -size +5M"),
    "en4_bbq_drinks": _asked,
    "en4_waitlist_recount": _recounted("Marcus Lee"),
    "en4_signup_count": _lines,
    "de4_weihnachtsgeschenke": _appended,
    "de4_auto_umparken": _reminded(1),
    "de4_rechnungsnummer": _edited(r"(rechnungsnummer = R-\d{4})", r"\1-2026"),
    "de4_kellerabteil": _recalled(),
    "de4_klaviertasten": _said("Ein Klavier hat 88 Tasten.", "Ein Klavier hat 85 Tasten."),
    "de4_groesstes_tier": _said("Der Blauwal.", "Der Elefant."),
    "de4_uptime_zeigen": _shown("uptime"),
    "de4_elternabend": _asked,
    "de4_samstag_oeffnung": _reread("Sa 9-13", "Sa 9-14"),
    "de4_fahrten_leipzig": _counted,
    "es4_profe_guitarra": _written,
    "es4_farmacia": _reminded(4),
    "es4_ferreteria_nombre": _edited(
        r"nombre = Ferretería Ruiz", "nombre = Ferretería Ruiz e Hijos"
    ),
    "es4_pasaporte": _recalled(),
    "es4_siglo": _said("Un siglo tiene cien años.", "Un siglo tiene mil años."),
    "es4_quijote": _said("Miguel de Cervantes.", "Lope de Vega."),
    "es4_historial": _shown("history"),
    "es4_buzon_tercero": _asked,
    "es4_coro_recuento": _recounted("Marina Soto"),
    "es4_partidos_huelva": _counted,
    "fr4_cave_vin": _appended,
    "fr4_covoiturage": _written,
    "fr4_equipe_juniors": _edited(r"equipe = Les Aigles", "equipe = Les Aigles Juniors"),
    "fr4_dossier_logement": _recalled(),
    "fr4_quart_heure": _said("Il y a 900 secondes.", "Il y a 1 500 secondes."),
    "fr4_miserables": _said("Victor Hugo.", "Émile Zola."),
    "fr4_adresse_ip": _shown("ip addr"),
    "fr4_copropriete": _asked,
    "fr4_yoga_jeudi": _reread("mardi 19h", "jeudi 19h"),
    "fr4_abonnes_lignes": _lines,
    "ja4_hanami_mochimono": _appended,
    "ja4_mukae": _reminded(1),
    "ja4_bucket_tokyo": _edited(r"bucket = kaisha-docs", "bucket = kaisha-docs-tokyo"),
    "ja4_naisen": _recalled(),
    "ja4_sankakkei": _said("180度です。", "360度です。"),
    "ja4_nagai_kawa": _said("信濃川です。", "利根川です。"),
    "ja4_cal_miseru": _shown("`cal` を使います。"),
    "ja4_bunkasai": _asked,
    "ja4_yoyaku_ninzu": _reread("人数: 4", "人数: 6"),
    "ja4_furima_gyosu": _lines,
}


def test_fifty_fourth_fresh_cases_ten_per_language_before_the_fifth_to_seventh() -> None:
    """50 cases, 10 in each language: 2 actions, an edit, a recall, 2 needing no tool, a
    show-only, a question about a file, a change read or counted again and a command each;
    uniquely named, last in the suite but for the fifth, sixth and seventh fresh cases."""
    later = len(FRESH5) + len(FRESH6) + len(FRESH7)
    assert CASES[-50 - later :] == (*FRESH4, *FRESH5, *FRESH6, *FRESH7)
    assert len({c.name for c in CASES}) == len(CASES)
    ten_per_language_of_the_mix(FRESH4, "4")
    kinds = Counter(c.kind for c in FRESH4)
    assert kinds["order-question"] == 2 and kinds["past-summary"] == 3
    assert set(ORACLES) == {c.name for c in FRESH4}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH4])
def test_a_fourth_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
