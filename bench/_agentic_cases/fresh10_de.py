"""Tenth fresh German cases: written at once for the held-out-10 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hildegard", "Wolfram", "Irmgard", "Siegfried", "Gudrun")

CASES: tuple[Case, ...] = (
    Case(
        "de10_altglas",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in einer Stunde daran, das Altglas wegzubringen.",
            1,
            "altglas",
            "glascontainer",
            "glass",
            "flaschen",
            "bottles",
            "vidrio",
            "botellas",
            "verre",
            "bouteilles",
            "ガラス",
            "瓶",
        ),
    ),
    Case(
        "de10_wasserzaehler",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine Datei wasserzaehler.txt an: Der Ableser für den Wasserzähler kommt"
            " am Montag zwischen acht und zwölf, Ansprechpartner ist {name}, die Auftragsnummer"
            " lautet {code}.",
            "wasserzaehler.txt",
        ),
    ),
    Case(
        "de10_waschmaschine",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in waschmaschine.ini die Schleuderdrehzahl von 1200 auf 800 um, der Rest"
            " bleibt, wie er ist.",
            "waschmaschine.ini",
            ["schleudern = 1200", "temperatur = {n}", "eco = ja"],
            ["schleudern = 800", "temperatur = {n}", "eco = ja"],
        ),
    ),
    Case(
        "de10_bibliotheksausweis",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass mein Bibliotheksausweis die Nummer {code} hat.",
            "Welche Nummer hat noch mal mein Bibliotheksausweis?",
        ),
    ),
    Case(
        "de10_zaehne",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Zähne hat ein erwachsener Mensch normalerweise?",
            32,
            "zweiunddreißig",
            "zweiunddreissig",
            "thirty-two",
            "treinta y dos",
            "trente-deux",
            "三十二",
        ),
    ),
    Case(
        "de10_mondlandung",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat als erster Mensch den Mond betreten?",
            "armstrong|アームストロング",
        ),
    ),
    Case(
        "de10_umbenennen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl benenne ich entwurf.txt in endfassung.txt um? Zeig ihn mir nur,"
            " führ ihn bitte nicht aus.",
            {"entwurf.txt": "Bewerbung um die Stelle {n}, Ansprechpartnerin {name}\n"},
            r"mv\s+(?:-\S+\s+)*\S*entwurf\.txt\s+\S*endfassung\.txt",
            "an mv command",
        ),
    ),
    Case(
        "de10_elternabend",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Was wurde beim letzten Elternabend besprochen? Das Protokoll liegt in"
            " protokoll_elternabend.txt.",
            {
                "protokoll_elternabend.txt": "Elternabend Klasse 4b\nAnwesend: {n} Eltern\n"
                "Klassenfahrt nach Rügen, Leitung: {name}\nNeue Elternsprecherin: Frau Özdemir\n"
                "Nächster Termin: im März\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de10_zahnarzttermin",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir termine.txt vor, verleg dann den Zahnarzttermin von Dienstag auf Freitag"
            " und lies die Datei danach noch einmal, damit ich sehe, dass es stimmt.",
            "termine.txt",
            ["Zahnarzt: Dienstag", "Friseur: Samstag", "Elterngespräch: {n}. Mai"],
            ["Zahnarzt: Freitag", "Friseur: Samstag", "Elterngespräch: {n}. Mai"],
            "Zahnarzt: Freitag",
        ),
    ),
    Case(
        "de10_spendenliste",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Kannst du mit einem Befehl nachzählen, wie viele Zeilen spenden.txt hat?",
            "spenden.txt",
        ),
    ),
)
