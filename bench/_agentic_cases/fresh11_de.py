"""Eleventh fresh German cases: written at once for the held-out-11 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Reinhild", "Adalbert", "Walburga", "Hartmut", "Ottilie")

CASES: tuple[Case, ...] = (
    Case(
        "de11_pfandflaschen",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich in anderthalb Stunden daran, die Pfandflaschen zum Supermarkt"
            " zurückzubringen.",
            1.5,
            "pfand",
            "deposit",
            "empties",
            "envases",
            "consigne",
            "flaschen",
            "bottle",
            "botella",
            "bouteille",
            "瓶",
            "びん",
        ),
    ),
    Case(
        "de11_markise",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine Datei markise.txt an und notier darin, dass der Monteur am Mittwoch"
            " die neue Markise anbringt; Ansprechpartner ist {name}, die Auftragsnummer lautet"
            " {code}.",
            "markise.txt",
        ),
    ),
    Case(
        "de11_saugroboter",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in saugroboter.conf die Saugstufe von 2 auf 3 um, der Rest bleibt, wie er ist.",
            "saugroboter.conf",
            ["saugstufe = 2", "raeume = {n}", "wischen = aus"],
            ["saugstufe = 3", "raeume = {n}", "wischen = aus"],
        ),
    ),
    Case(
        "de11_tankkarte",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass die PIN von meiner Tankkarte {code} ist.",
            "Wie war noch mal die PIN von meiner Tankkarte?",
        ),
    ),
    Case(
        "de11_wuerfel_ecken",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Ecken hat ein Würfel?",
            8,
            "acht",
            "eight",
            "ocho",
            "huit",
            "八つ",
        ),
    ),
    Case(
        "de11_verwandlung",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat „Die Verwandlung“ geschrieben?",
            "kafka|カフカ",
            stream=True,
        ),
    ),
    Case(
        "de11_ordner_anlegen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl lege ich einen Ordner namens rechnungen_alt an? Zeig ihn mir"
            " nur, führ ihn bitte nicht aus.",
            {"einkauf.txt": "Milch\nBrot\nEier: {n}\n"},
            r"mkdir\s+(?:-\S+\s+)*['\"]?\S*rechnungen_alt\b",
            "a mkdir command",
        ),
    ),
    Case(
        "de11_eigentuemer",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Worum ging es bei der letzten Eigentümerversammlung? Die Notizen stehen in"
            " eigentuemer.txt.",
            {
                "eigentuemer.txt": "Eigentümerversammlung Haus {n}\n"
                "Dachsanierung ab Juni, Ansprechpartner: {name}\nDas Hausgeld steigt leicht\n"
                "Nächste Versammlung im Herbst\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de11_giessplan",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Zeig mir erst giessplan.txt, trag dann am Mittwoch Lea statt Mehmet ein und zeig"
            " mir die Datei danach noch einmal, damit ich es prüfen kann.",
            "giessplan.txt",
            ["Montag: Jonas", "Mittwoch: Mehmet", "Samstag: Petra", "Pflanzen: {n}"],
            ["Montag: Jonas", "Mittwoch: Lea", "Samstag: Petra", "Pflanzen: {n}"],
            "Mittwoch: Lea",
        ),
    ),
    Case(
        "de11_rueckmeldungen",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl bitte mit einem Befehl, wie viele Zeilen in rueckmeldungen.csv aus Cottbus"
            " kommen.",
            "rueckmeldungen.csv",
            "Cottbus",
            ["Trier", "Fulda", "Gotha"],
        ),
    ),
)
