"""Sixteenth fresh German cases: written at once for the held-out-16 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Adelheid", "Gottfried", "Hildegard", "Siegfried", "Walburga")

CASES: tuple[Case, ...] = (
    Case(
        "de16_optiker",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in drei Stunden dran erinnern, meine neue Brille beim Optiker"
            " abzuholen?",
            3,
            "brille",
            "optiker",
            "glasses",
            "spectacles",
            "optician",
            "gafas",
            "optica",
            "lunettes",
            "opticien",
            "眼鏡",
            "メガネ",
            "めがね",
        ),
    ),
    Case(
        "de16_trauzeuge",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg mir eine Datei trauzeuge.txt an und schreib da rein: Trauzeuge bei unserer"
            " Hochzeit ist {name}, die Vorgangsnummer beim Standesamt lautet {code}.",
            "trauzeuge.txt",
        ),
    ),
    Case(
        "de16_weinkuehlschrank",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In der weinkuehlschrank.conf bitte die Temperatur von 12 auf 10 stellen, aber die"
            " bestehende Zeile ändern und nichts unten dranhängen.",
            "weinkuehlschrank.conf",
            ["temperatur = 12", "licht = aus", "tuer_alarm = {n}"],
            ["temperatur = 10", "licht = aus", "tuer_alarm = {n}"],
        ),
    ),
    Case(
        "de16_parzelle",
        "recall",
        LANGUAGE,
        forms.remember(
            "Unsere Parzelle im Kleingartenverein hat die Nummer {code}. Kannst du dir das merken?",
            "Welche Nummer hatte noch mal unsere Parzelle im Kleingartenverein?",
        ),
    ),
    Case(
        "de16_europaflagge",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Sterne sind auf der Europaflagge?",
            12,
            "zwolf",
            "twelve",
            "doce",
            "douze",
            "十二",
        ),
    ),
    Case(
        "de16_kanada",
        "no-tool",
        LANGUAGE,
        forms.words("Wie heißt die Hauptstadt von Kanada?", "ottawa|オタワ", stream=True),
    ),
    Case(
        "de16_sicherung_entpacken",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie entpacke ich sicherung.tar.gz im Terminal? Zeig mir den Befehl bitte nur,"
            " nicht ausführen.",
            {"sicherung.tar.gz": "Platzhalter {n}\n"},
            r"(?<![\w-])tar\s+(?:-\S+\s+)*(?:-?[a-z]*x[a-z]*|--extract)(?![\w-])[^\n|;]*?"
            r"(?<![\w.-])(?:\./)?['\"]?sicherung\.tar\.gz",
            "a tar command extracting sicherung.tar.gz",
        ),
    ),
    Case(
        "de16_kita_kochdienst",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Lies mal kita_kochdienst.txt durch und verrat mir, wer am Freitag mit dem Kochen"
            " dran ist.",
            {
                "kita_kochdienst.txt": "Kochdienst Kita Sonnenblume, Gruppe {n}\n"
                "Montag: Familie Yilmaz\nMittwoch: Herr Novak\nFreitag: {name}\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de16_physiotermin",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Öffne physio_termin.txt, trag als Uhrzeit 9:15 statt 8:30 ein und zeig mir die"
            " Datei danach zur Kontrolle noch mal.",
            "physio_termin.txt",
            ["Physiotherapie, Rezept Nr. {n}", "Uhrzeit: 8:30", "Praxis: Bewegungsraum Nord"],
            ["Physiotherapie, Rezept Nr. {n}", "Uhrzeit: 9:15", "Praxis: Bewegungsraum Nord"],
            "Uhrzeit: 9:15",
        ),
    ),
    Case(
        "de16_pannenhilfe_cottbus",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Wie viele Zeilen in pannenhilfe.csv sind aus Cottbus? Zähl das bitte mit einem"
            " Befehl.",
            "pannenhilfe.csv",
            "Cottbus",
            ["Guben", "Forst", "Spremberg"],
        ),
    ),
)
