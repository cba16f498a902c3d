"""Fourteenth fresh German cases: written at once for the held-out-14 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Gebhard", "Rosemarie", "Lieselotte", "Wilhelmine", "Eberhard")

CASES: tuple[Case, ...] = (
    Case(
        "de14_parkschein",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich in einer halben Stunde daran, den Parkschein zu verlängern.",
            0.5,
            "parkschein",
            "parken",
            "parking",
            "ticket",
            "aparcamiento",
            "estacionamiento",
            "stationnement",
            "駐車",
        ),
    ),
    Case(
        "de14_tierpension",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib in eine neue Datei tierpension.txt: Unseren Hund holt am Samstag {name} in"
            " der Tierpension ab, die Buchungsnummer lautet {code}.",
            "tierpension.txt",
        ),
    ),
    Case(
        "de14_sauna",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Setz die Temperatur in sauna.conf von 90 auf 80 herunter. Bitte die vorhandene"
            " Zeile ändern und keine neue anhängen.",
            "sauna.conf",
            ["temperatur = 90", "aufguss = minze", "dauer = {n}"],
            ["temperatur = 80", "aufguss = minze", "dauer = {n}"],
        ),
    ),
    Case(
        "de14_alpenverein",
        "recall",
        LANGUAGE,
        forms.remember(
            "Meine Mitgliedsnummer beim Alpenverein lautet {code}. Speicher dir das bitte ab.",
            "Welche Mitgliedsnummer habe ich noch mal beim Alpenverein?",
        ),
    ),
    Case(
        "de14_pfund_gramm",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viel Gramm sind ein Pfund, wenn ich beim Metzger ein Pfund Hackfleisch verlange?",
            500,
            "fünfhundert",
            "funfhundert",
        ),
    ),
    Case(
        "de14_raeuber",
        "no-tool",
        LANGUAGE,
        forms.words("Wer hat das Drama „Die Räuber“ geschrieben?", "schiller|シラー", stream=True),
    ),
    Case(
        "de14_download_befehl",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie lade ich https://www.beispiel.de/fahrplan.pdf im Terminal herunter? Zeig mir"
            " nur den Befehl, führ ihn nicht aus.",
            {"links.txt": "Fahrplan Linie {n}\n"},
            r"(?<![\w-])(?:wget|curl)\s[^\n`]*?https://www\.beispiel\.de/fahrplan\.pdf",
            "a wget or curl command for the PDF",
        ),
    ),
    Case(
        "de14_schluesselliste",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Schau bitte in schluesselliste.txt und sag mir, wer den Schlüssel für den Dachboden"
            " hat.",
            {
                "schluesselliste.txt": "Schlüsselliste Haus {n}\n"
                "Keller: Familie Yilmaz\nDachboden: {name}\nWaschküche: Herr Petersen\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de14_friseurtermin",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies friseur.txt, verschieb die Uhrzeit von 9:30 auf 10:15 und lies die Datei"
            " danach noch einmal, damit ich es kontrollieren kann.",
            "friseur.txt",
            ["Friseurtermin, Kundennummer {n}", "Uhrzeit: 9:30", "Salon: Haarwerk"],
            ["Friseurtermin, Kundennummer {n}", "Uhrzeit: 10:15", "Salon: Haarwerk"],
            "Uhrzeit: 10:15",
        ),
    ),
    Case(
        "de14_fundsachen_erfurt",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Ermittle mit einem Befehl, wie viele Zeilen in fundsachen.csv aus Erfurt stammen.",
            "fundsachen.csv",
            "Erfurt",
            ["Jena", "Gera", "Weimar"],
        ),
    ),
)
