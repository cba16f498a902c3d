"""Vierte frische deutsche Fälle: written at once for the held-out-4 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de4_weihnachtsgeschenke",
        "action",
        LANGUAGE,
        forms.append_line(
            "Schreib bitte „{line}“ noch unten in weihnachten.txt dazu.",
            "weihnachten.txt",
            ["Oma: Schal", "Papa: Kochbuch", "Lena: Puzzle"],
            "Onkel Theo: Gutschein über {n} Euro",
        ),
    ),
    Case(
        "de4_auto_umparken",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in einer Stunde daran, das Auto umzuparken, sonst krieg ich"
            " einen Strafzettel.",
            1,
            "auto",
            "umpark",
            "parken",
            "parking",
            "car",
            "coche",
            "voiture",
            "車",
        ),
    ),
    Case(
        "de4_rechnungsnummer",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In rechnung.ini fehlt bei der Rechnungsnummer noch das Jahr. Häng bitte -2026"
            " hinten an die Nummer dran und lass den Rest, wie er ist.",
            "rechnung.ini",
            ["firma = Schreinerei Vogel", "rechnungsnummer = R-{code}", "mwst = 19"],
            ["firma = Schreinerei Vogel", "rechnungsnummer = R-{code}-2026", "mwst = 19"],
        ),
    ),
    Case(
        "de4_kellerabteil",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Unser Kellerabteil hat die Nummer {code}.",
            "Welche Nummer hatte noch mal unser Kellerabteil?",
        ),
    ),
    Case(
        "de4_klaviertasten",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Tasten hat eigentlich ein normales Klavier?",
            88,
            "achtundachtzig",
            "eighty-eight",
            "eighty eight",
            "ochenta y ocho",
            "quatre-vingt-huit",
            "八十八",
        ),
    ),
    Case(
        "de4_groesstes_tier",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Welches ist das größte Tier, das je auf der Erde gelebt hat?",
            "blauwal|blue whale|ballena azul|baleine bleue|シロナガスクジラ",
            stream=True,
        ),
    ),
    Case(
        "de4_uptime_zeigen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl sehe ich, wie lange der Rechner schon läuft? Zeig ihn mir nur,"
            " ausführen mach ich selbst.",
            {"rechner.txt": "host werkbank-{n}\n"},
            r"\buptime\b",
            "an uptime command",
        ),
    ),
    Case(
        "de4_elternabend",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich war gestern nicht beim Elternabend. Was steht in elternabend.txt, was ist da"
            " passiert?",
            {
                "elternabend.txt": "Elternabend der 3b\nEs kamen {n} Eltern. {name} wurde in"
                " die Elternvertretung gewählt. Das Sommerfest wurde auf Juni verschoben, und"
                " für den Museumsausflug haben sich zwei Begleitpersonen gemeldet.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "de4_samstag_oeffnung",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Ab nächster Woche haben wir samstags bis 14 Uhr offen. Lies bitte laden.txt, ändere"
            " die Samstagszeile von 9-13 auf 9-14 und lies mir die Datei danach noch mal vor,"
            " damit ich's kontrollieren kann.",
            "laden.txt",
            ["Mo-Fr 8-18", "Sa 9-13", "Filiale {n}"],
            ["Mo-Fr 8-18", "Sa 9-14", "Filiale {n}"],
            "Sa 9-14",
        ),
    ),
    Case(
        "de4_fahrten_leipzig",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Wie viele Fahrten in fahrten.csv gehen nach Leipzig? Zähl die passenden Zeilen mit"
            " grep.",
            "fahrten.csv",
            "Leipzig",
            ("Dresden", "Erfurt", "Halle", "Jena"),
        ),
    ),
)
