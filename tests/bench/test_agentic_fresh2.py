"""The second fresh agentic cases (held-out-2): each one's check passes a hand-made right
outcome and fails wrong ones, with the oracles of the first fresh cases."""

# ruff: noqa: RUF001  # answers written with the language's own punctuation

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from bench._agentic_cases import (
    CASES,
    FRESH2,
    FRESH_SETS,
    Case,
    Outcome,
    Script,
)
from bench._agentic_checks import Call
from tests.bench.test_agentic_fresh import (
    Oracle,
    Verdicts,
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
    _turn,
    _valued,
    _weekday,
    _written,
    passes_only_its_effect,
)

LANGUAGES = ("en", "de", "es", "fr", "ja")


def _lines(script: Script, root: Path) -> Verdicts:
    """The file's line count, after exec, passes; a guess or another count does not."""
    say = script.turns[0]
    count = next(iter(script.files.values())).count("\n")
    ran = Call("exec", "{}", f"exit 0\n{count}")
    return Outcome(root, [_turn(say, f"{count}.", ran)]), [
        Outcome(root, [_turn(say, f"{count}.")]),
        Outcome(root, [_turn(say, f"{count + 1}.", ran)]),
    ]


def _set(old: str, asked: str, new: str) -> Oracle:
    """``old`` becomes ``new`` holding the value ``asked`` (a pattern) finds in the request."""

    def oracle(script: Script, root: Path) -> Verdicts:
        found = re.search(asked, script.turns[0].text)
        assert found is not None
        return _edited(old, new.format(found.group(1)))(script, root)

    return oracle


ORACLES: dict[str, Oracle] = {
    "en2_packing_boots": _appended,
    "en2_vet_booking": _written,
    "en2_retention_days": _set("keep_days = 7", r"Make it (\d+) days", "keep_days = {}"),
    "en2_library_card": _recalled(),
    "en2_feet_per_mile": _said("There are 5,280 feet in a mile.", "About 3,280 feet."),
    "en2_italian_butterfly": _said("It's farfalla.", "It's papillon."),
    "en2_chmod_deploy": _shown("chmod +x deploy.sh"),
    "en2_standup_notes": _asked,
    "en2_rsvp_recount": _recounted("Priya"),
    "en2_singapore_day": _weekday("It's Tuesday in Singapore.", "It's Wednesday there."),
    "de2_werkzeugkiste": _appended,
    "de2_kuchen_ofen": _reminded(1),
    "de2_dienst_port": _set("port = 8080", r"auf (\d+) um", "port = {}"),
    "de2_haftpflicht": _recalled(),
    "de2_sekunden_stunde": _said("Eine Stunde hat 3.600 Sekunden.", "Sie hat 360 Sekunden."),
    "de2_eichhoernchen": _said("Eichhörnchen heißt squirrel.", "Das heißt hedgehog."),
    "de2_ping_drucker": _shown("ping -c 3 192.168.1.20"),
    "de2_dienstplan": _asked,
    "de2_rezept_zucker": _reread("Zucker: 200 g", "Zucker: 150 g"),
    "de2_cache_groesse": _valued(r"groesse_mb = (\d+)"),
    "es2_reserva_cumple": _written,
    "es2_riego_limonero": _appended,
    "es2_idioma_perfil": _edited(r"idioma = en", "idioma = es"),
    "es2_taquilla": _recalled(),
    "es2_semanas_anio": _said("Un año tiene 52 semanas y un día.", "Tiene 48 semanas."),
    "es2_capital_australia": _said("Es Canberra.", "Es Sídney."),
    "es2_descomprimir": _shown("unzip fotos.zip"),
    "es2_excursion": _asked,
    "es2_invitados_recuento": _recounted("Lucía"),
    "es2_envios_madrid": _counted,
    "fr2_bricolage": _appended,
    "fr2_babysitter": _written,
    "fr2_theme_sombre": _edited(r"theme = clair", "theme = sombre"),
    "fr2_badge_bureau": _recalled(),
    "fr2_heures_semaine": _said("Une semaine compte 168 heures.", "Elle compte 186 heures."),
    "fr2_parapluie": _said("On dit « Regenschirm ».", "On dit « Sonnenschirm »."),
    "fr2_vieux_logs": _shown("find . -name '*.log' -mtime +7"),
    "fr2_compte_rendu": _asked,
    "fr2_horaires_relire": _reread("ouverture: 9h", "ouverture: 8h30"),
    "fr2_inscrits": _lines,
    "ja2_souji_tsuika": _appended,
    "ja2_hotel_memo": _written,
    "ja2_kisho_jikan": _edited(r"wake = 07:00", "wake = 06:30"),
    "ja2_shain_bango": _recalled(),
    "ja2_kakezan": _said("17×23は391です。", "17×23は381です。"),
    "ja2_arigatou": _said("フランス語ではmerciです。", "フランス語ではgrazieです。"),
    "ja2_port_shiraberu": _shown("`lsof -i :8080` で調べられます。"),
    "ja2_nippo": _asked,
    "ja2_debug_kakunin": _reread("debug: false", "debug: true"),
    "ja2_kusuri": _reminded(1.5),
}


def test_fifty_second_fresh_cases_ten_per_language_before_the_third() -> None:
    """50 cases, 10 in each language: 2+ needing no tool, a recall, a show-only, a change read
    or counted again, and 3+ actions or edits each; uniquely named, last in the suite but for
    the third to thirty-fourth fresh cases."""
    assert len(FRESH2) == 50
    tail = tuple(case for fresh in FRESH_SETS[1:] for case in fresh)
    assert CASES[-len(tail) :] == tail
    assert len({c.name for c in CASES}) == len(CASES)
    for language in LANGUAGES:
        kinds = Counter(c.kind for c in FRESH2 if c.language == language)
        assert sum(kinds.values()) == 10, language
        assert kinds["no-tool"] >= 2 and kinds["recall"] == 1, language
        assert kinds["show-only"] == 1 and kinds["redo"] == 1, language
        assert kinds["action"] + kinds["edit"] >= 3, language
        assert kinds["past-summary"] + kinds["order-question"] == 1, language
        assert all(c.name.startswith(f"{language}2_") for c in FRESH2 if c.language == language)
    assert set(ORACLES) == {c.name for c in FRESH2}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in FRESH2])
def test_a_second_fresh_case_passes_only_its_effect(case: Case, run: int, tmp_path: Path) -> None:
    """Runs 0 and 1: the right outcome passes the case's check, every wrong one fails it."""
    passes_only_its_effect(case.script(run), ORACLES[case.name], tmp_path)
