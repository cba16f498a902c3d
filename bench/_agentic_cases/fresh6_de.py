"""Sixth fresh German cases: written at once for the held-out-6 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de6_werkstatt",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in vier Stunden daran, das Auto aus der Werkstatt abzuholen.",
            4,
            "werkstatt",
            "auto",
            "garage",
            "taller",
            "coche",
            "voiture",
            "car",
            "車",
        ),
    ),
    Case(
        "de6_kassenbuch",
        "action",
        LANGUAGE,
        forms.append_line(
            "Füg bitte ans Ende von kassenbuch.txt die Zeile „{line}“ an.",
            "kassenbuch.txt",
            ["Einnahmen Sommerfest: 420 Euro", "Ausgaben Getränke: 135 Euro"],
            "Spende von {name}: {n} Euro",
        ),
    ),
    Case(
        "de6_scan_ordner",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In scanner.ini soll an den Zielordner noch _buero drangehängt werden (im Moment"
            " steht da nur scans). Die anderen Zeilen bitte so lassen.",
            "scanner.ini",
            ["ziel = scans", "seiten_max = {n}", "duplex = ja"],
            ["ziel = scans_buero", "seiten_max = {n}", "duplex = ja"],
        ),
    ),
    Case(
        "de6_fahrradschloss",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass der Code von meinem Fahrradschloss {code} ist.",
            "Wie war noch mal der Code von meinem Fahrradschloss?",
        ),
    ),
    Case(
        "de6_insektenbeine",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Beine hat eigentlich ein Insekt?",
            6,
            "sechs",
            "six",
            "seis",
            "六",
        ),
    ),
    Case(
        "de6_mondscheinsonate",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Von wem ist die Mondscheinsonate?",
            "beethoven|ベートーヴェン|ベートーベン",
            stream=True,
        ),
    ),
    Case(
        "de6_versteckte_dateien",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl sehe ich auch die versteckten Dateien im aktuellen Ordner?"
            " Zeig ihn mir nur, bitte nicht ausführen.",
            {"notizen.txt": "Ordner aufgeräumt, {n} Dateien gelöscht\n"},
            r"\bls\s+(-\w*[aA]\w*|--all|--almost-all)",
            "ls -a",
        ),
    ),
    Case(
        "de6_wanderbericht",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass mir kurz zusammen, was in wanderbericht.txt steht.",
            {
                "wanderbericht.txt": "Am Samstag sind wir um sieben Uhr am Parkplatz"
                " losgegangen.\n{name} hatte die Wanderkarte dabei und hat uns geführt.\n"
                "Nach {n} Minuten Aufstieg waren wir an der Hütte.\n"
                "Auf dem Rückweg hat es angefangen zu regnen.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de6_anmeldungen",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Zähl mit wc -l, wie viele Zeilen anmeldungen.txt hat, häng dann die Zeile"
            " Jonas Weber hinten an und zähl danach noch einmal nach.",
            "anmeldungen.txt",
            "Jonas Weber",
        ),
    ),
    Case(
        "de6_lieferungen_hamburg",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Wie viele Zeilen in lieferungen.csv gehen nach Hamburg? Zähl das bitte mit grep.",
            "lieferungen.csv",
            "Hamburg",
            ("Bremen", "Kiel", "Rostock"),
        ),
    ),
)
