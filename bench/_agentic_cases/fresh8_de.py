"""Eighth fresh German cases: written at once for the held-out-8 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de8_balkonblumen",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnerst du mich bitte in zwei Stunden daran, die Balkonblumen zu gießen?",
            2,
            "blume",
            "flower",
            "flor",
            "fleur",
            "花",
        ),
    ),
    Case(
        "de8_packliste",
        "action",
        LANGUAGE,
        forms.append_line(
            "Schreib bitte „{line}“ als neue Zeile ans Ende von packliste.txt.",
            "packliste.txt",
            ["Zelt", "Isomatte", "Stirnlampe"],
            "Zeltheringe ({n} Stück)",
        ),
    ),
    Case(
        "de8_weckzeit",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in wecker.conf die Weckzeit von 6:30 auf 7:15 um, der Rest bleibt, wie er ist.",
            "wecker.conf",
            ["weckzeit = 6:30", "lautstaerke = {n}", "schlummern = 9"],
            ["weckzeit = 7:15", "lautstaerke = {n}", "schlummern = 9"],
        ),
    ),
    Case(
        "de8_stadtwerke",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte meine Vertragsnummer bei den Stadtwerken: {code}.",
            "Wie lautet noch mal meine Vertragsnummer bei den Stadtwerken?",
        ),
    ),
    Case(
        "de8_handball",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Spieler einer Handballmannschaft stehen gleichzeitig auf dem Feld?",
            7,
            "sieben",
            "seven",
            "siete",
            "sept",
            "七",
        ),
    ),
    Case(
        "de8_prag",
        "no-tool",
        LANGUAGE,
        forms.words(
            "In welchem Land liegt Prag?",
            "tschechien|tschechische|czechia|czech republic|chequia|república checa"
            "|tchéquie|république tchèque|チェコ",
            stream=True,
        ),
    ),
    Case(
        "de8_umbenennen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie benenne ich notiz.txt in notiz_alt.txt um? Zeig mir nur den Befehl, führ ihn"
            " nicht aus.",
            {"notiz.txt": "Einkauf {n}: Milch, Brot\n"},
            r"mv\s+(?:-\S+\s+)*\S*notiz\.txt\s+\S*notiz_alt\.txt",
            "a mv command",
        ),
    ),
    Case(
        "de8_teamsitzung",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Kannst du mir kurz zusammenfassen, was in teamsitzung.txt steht?",
            {
                "teamsitzung.txt": "Teamsitzung Nr. {n}\nneue Kollegin im Vertrieb: {name}"
                " (ab Montag)\nThemen: neue Kaffeemaschine, Urlaubsplanung\nnächste Sitzung:"
                " Dienstag\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de8_brezelpreis",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Ändere in preise.txt den Preis für die Brezel von 0,90 auf 1,10 und lies mir die"
            " Datei danach noch einmal vor.",
            "preise.txt",
            ["Brötchen: 0,45", "Brezel: 0,90", "Laugenstange: 1,{n}"],
            ["Brötchen: 0,45", "Brezel: 1,10", "Laugenstange: 1,{n}"],
            "Brezel: 1,10",
        ),
    ),
    Case(
        "de8_reklamationen_bamberg",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl bitte mit grep, wie viele Zeilen in reklamationen.csv Bamberg betreffen.",
            "reklamationen.csv",
            "Bamberg",
            ("Passau", "Coburg", "Lübeck"),
        ),
    ),
)
