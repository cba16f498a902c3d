"""Seventh fresh German cases: written at once for the held-out-7 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de7_trockner",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in vier Stunden daran, die Wäsche aus dem Trockner zu holen.",
            4,
            "trockner",
            "dryer",
            "secadora",
            "sèche-linge",
            "seche-linge",
            "乾燥機",
        ),
    ),
    Case(
        "de7_vorrat",
        "action",
        LANGUAGE,
        forms.append_line(
            "Trag bitte unten in vorrat.txt die Zeile „{line}“ ein.",
            "vorrat.txt",
            ["Reis: 2 kg", "Nudeln: 5 Packungen", "Linsen: 1 kg"],
            "Mehl: {n} kg",
        ),
    ),
    Case(
        "de7_kamera_aufloesung",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in kamera.conf die Auflösung von 1080p auf 4k um, die anderen Zeilen"
            " bleiben bitte, wie sie sind.",
            "kamera.conf",
            ["aufloesung = 1080p", "bildrate = {n}", "ton = an"],
            ["aufloesung = 4k", "bildrate = {n}", "ton = an"],
        ),
    ),
    Case(
        "de7_garagentor",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass die PIN fürs Garagentor {code} ist.",
            "Wie war noch mal die PIN fürs Garagentor?",
        ),
    ),
    Case(
        "de7_volleyball",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Spieler einer Volleyballmannschaft stehen gleichzeitig auf dem Feld?",
            6,
            "sechs",
            "six",
            "seis",
        ),
    ),
    Case(
        "de7_hoechster_berg",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wie heißt der höchste Berg der Welt?",
            "everest|エベレスト|チョモランマ",
        ),
    ),
    Case(
        "de7_partitionen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl sehe ich, welche Festplatten und Partitionen angeschlossen"
            " sind? Bitte nur zeigen, nicht ausführen.",
            {"hardware.txt": "Inventar Nr. {n}\n"},
            r"(?<![a-z])lsblk(?![a-z])|fdisk\s+-l",
            "lsblk",
        ),
    ),
    Case(
        "de7_putzplan",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Schau mal in putzplan.txt und sag mir, wer diese Woche mit dem Treppenhaus dran ist.",
            {
                "putzplan.txt": "Putzplan Haus 3, KW {n}\nTreppenhaus: {name}\n"
                "Mülltonnen rausstellen: Familie Yilmaz\nKeller: nächste Woche\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de7_kursteilnehmer",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat kursteilnehmer.txt? Häng danach „Lea Schmitt“ als neue Zeile"
            " an und zähl noch mal nach.",
            "kursteilnehmer.txt",
            "Lea Schmitt",
        ),
    ),
    Case(
        "de7_pakete_kassel",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl mit grep, wie viele Zeilen in pakete.csv Kassel enthalten.",
            "pakete.csv",
            "Kassel",
            ("Fulda", "Marburg", "Hanau"),
        ),
    ),
)
