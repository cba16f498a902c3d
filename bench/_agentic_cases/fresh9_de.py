"""Ninth fresh German cases: written at once for the held-out-9 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de9_mietwagen",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in vier Stunden daran erinnern, den Mietwagen zurückzugeben?",
            4,
            "mietwagen",
            "leihwagen",
            "rental car",
            "hire car",
            "car rental",
            "coche de alquiler",
            "voiture de location",
            "レンタカー",
        ),
    ),
    Case(
        "de9_saatgut",
        "action",
        LANGUAGE,
        forms.append_line(
            "Häng bitte ans Ende von saatgut.txt die Zeile „{line}“ an.",
            "saatgut.txt",
            ["Tomaten: Harzfeuer", "Gurken: Marketmore", "Radieschen: Eiszapfen"],
            "Zucchini: Black Beauty, {n} Korn",
        ),
    ),
    Case(
        "de9_rasenmaeher",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in rasenmaeher.conf die Schnitthöhe von 4 auf 5 um, der Rest soll bleiben,"
            " wie er ist.",
            "rasenmaeher.conf",
            ["schnitthoehe = 4", "zeitplan = mo,do", "zone = {n}"],
            ["schnitthoehe = 5", "zeitplan = mo,do", "zone = {n}"],
        ),
    ),
    Case(
        "de9_diensthandy",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Die PIN von meinem Diensthandy ist {code}.",
            "Wie war noch mal die PIN von meinem Diensthandy?",
        ),
    ),
    Case(
        "de9_zentimeter",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Zentimeter hat ein Meter?",
            100,
            "hundert",
            "einhundert",
            "hundred",
            "cien",
            "cent",
            "百センチ",
        ),
    ),
    Case(
        "de9_faust",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat den „Faust“ geschrieben?",
            "goethe|ゲーテ",
            stream=True,
        ),
    ),
    Case(
        "de9_urlaubsplan_kopie",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie lege ich von urlaubsplan.txt eine Kopie namens urlaubsplan_alt.txt an? Zeig mir"
            " nur den Befehl, führ ihn bitte nicht aus.",
            {"urlaubsplan.txt": "Ostsee, Woche {n}: Ferienwohnung in Zingst\n"},
            r"cp\s+(?:-\S+\s+)*\S*urlaubsplan\.txt\s+\S*urlaubsplan_alt\.txt",
            "a cp command",
        ),
    ),
    Case(
        "de9_hausversammlung",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass mir bitte kurz zusammen, was in hausversammlung.txt steht.",
            {
                "hausversammlung.txt": "Hausversammlung, Haus Nr. {n}\nWir haben beschlossen,"
                " den Innenhof neu pflastern zu lassen.\nZur neuen Schriftführerin wurde {name}"
                " gewählt.\nDie Fahrradständer wurden an die Einfahrt verlegt.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de9_stundenplan",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Trag in stundenplan.txt am Mittwoch Sport statt Musik ein und zeig mir die Datei"
            " danach noch einmal.",
            "stundenplan.txt",
            ["Montag: Mathe", "Mittwoch: Musik", "Freitag: Kunst, Raum {n}"],
            ["Montag: Mathe", "Mittwoch: Sport", "Freitag: Kunst, Raum {n}"],
            "Mittwoch: Sport",
        ),
    ),
    Case(
        "de9_umfrage_dresden",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl mit grep, wie viele Zeilen in umfrage.csv Dresden enthalten.",
            "umfrage.csv",
            "Dresden",
            ("Erfurt", "Rostock", "Potsdam"),
        ),
    ),
)
