"""Twelfth fresh German cases: written at once for the held-out-12 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Wolfgang", "Hildegard", "Siegfried", "Gertrude", "Reinhold")

CASES: tuple[Case, ...] = (
    Case(
        "de12_heizkosten",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich in fünf Stunden daran, dem Vermieter die Heizkostenabrechnung"
            " zurückzuschicken.",
            5,
            "heizkosten",
            "vermieter",
            "heating bill",
            "heating costs",
            "landlord",
            "calefaccion",
            "casero",
            "chauffage",
            "proprietaire",
            "暖房",
            "大家",
        ),
    ),
    Case(
        "de12_kaminholz",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte die Datei kaminholz.txt an und schreib hinein, dass das Brennholz am"
            " Samstag geliefert wird; Ansprechpartner ist {name}, die Lieferscheinnummer lautet"
            " {code}.",
            "kaminholz.txt",
        ),
    ),
    Case(
        "de12_mahlgrad",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in espresso.ini den Mahlgrad von 4 auf 6 um und lass die übrigen"
            " Einstellungen, wie sie sind.",
            "espresso.ini",
            ["mahlgrad = 4", "wassermenge = {n}", "vorbruehen = an"],
            ["mahlgrad = 6", "wassermenge = {n}", "vorbruehen = an"],
        ),
    ),
    Case(
        "de12_ruderverein",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass meine Mitgliedsnummer im Ruderverein {code} ist.",
            "Wie war noch mal meine Mitgliedsnummer im Ruderverein?",
        ),
    ),
    Case(
        "de12_sudoku",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Felder hat ein normales Sudoku?",
            81,
            "einundachtzig",
            "eighty-one",
            "eighty one",
            "ochenta y uno",
            "quatre-vingt-un",
            "八十一",
        ),
    ),
    Case(
        "de12_buddenbrooks",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat den Roman „Buddenbrooks“ geschrieben?",
            "thomas mann|トーマス・マン|トーマス マン",
            stream=True,
        ),
    ),
    Case(
        "de12_symlink",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie lege ich einen symbolischen Link namens aktuell an, der auf den Ordner"
            " version_3 zeigt? Zeig mir nur den Befehl, ausführen bitte nicht.",
            {"version_3/liesmich.txt": "Version 3, Build {n}\n"},
            r"(?<![a-z])ln\s+(?:-\S+\s+)*(?:-[a-z]*s[a-z]*|--symbolic)\s+(?:-\S+\s+)*"
            r"(?:\./)?version_3/?\s+(?:\./)?aktuell(?![\w/])",
            "an ln -s command from aktuell to version_3",
        ),
    ),
    Case(
        "de12_kleingarten",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass mir bitte kurz zusammen, was in kleingarten_protokoll.txt steht. Wer hat"
            " angeboten, die Wasserleitung zu reparieren?",
            {
                "kleingarten_protokoll.txt": "Versammlung des Kleingartenvereins,"
                " {n} Mitglieder anwesend\n"
                "Der Vorstand berichtete über die neue Pachtordnung.\n"
                "{name} bot an, die undichte Wasserleitung am Weg C zu reparieren.\n"
                "Das Sommerfest wurde auf den zweiten Samstag im Juli gelegt.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de12_schachturnier",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Zähl bitte die Zeilen in schachturnier.txt, häng dann „Jonas Weber“ als letzte"
            " Zeile an und zähl danach noch einmal.",
            "schachturnier.txt",
            "Jonas Weber",
        ),
    ),
    Case(
        "de12_leihraeder",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl mit einem Befehl, wie viele Zeilen in leihraeder.csv zu Regensburg gehören.",
            "leihraeder.csv",
            "Regensburg",
            ["Passau", "Landshut", "Straubing"],
        ),
    ),
)
