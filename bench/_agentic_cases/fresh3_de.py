"""Dritte frische deutsche Fälle: written at once for the held-out-3 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de3_besichtigung",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte besichtigung.txt an und schreib rein: Wohnungsbesichtigung mit {name},"
            " Objektnummer {code}.",
            "besichtigung.txt",
        ),
    ),
    Case(
        "de3_spuelmaschine",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in vier Stunden daran erinnern, die Spülmaschine auszuräumen?",
            4,
            "spülmaschine",
            "spuelmaschine",
            "geschirr",
            "dishwasher",
            "dishes",
            "lavavajillas",
            "lave-vaisselle",
            "食洗機",
            "食器",
        ),
    ),
    Case(
        "de3_nachttemperatur",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In heizung.conf ist die Nachttemperatur auf 16 Grad gestellt, das ist mir zu"
            " kalt. Mach 18 draus, sonst bitte nichts ändern.",
            "heizung.conf",
            ["tag = 21", "nacht = 16", "zone = {n}"],
            ["tag = 21", "nacht = 18", "zone = {n}"],
        ),
    ),
    Case(
        "de3_wohnheim_zimmer",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass mein Zimmer im Studentenwohnheim die Nummer {code} hat.",
            "Welche Zimmernummer hab ich im Wohnheim?",
        ),
    ),
    Case(
        "de3_fussball_spieler",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Spieler einer Mannschaft stehen beim Fußball gleichzeitig auf dem Platz?",
            11,
            "elf",
            "eleven",
            "onze",
            "十一",
        ),
    ),
    Case(
        "de3_blau_gelb",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Welche Farbe bekomme ich, wenn ich Blau und Gelb mische?",
            "grün|green|verde|vert|緑|绿",
            stream=True,
        ),
    ),
    Case(
        "de3_python_version",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie sehe ich im Terminal, welche Python-Version installiert ist? Schreib mir nur"
            " den Befehl hin, ausführen brauchst du ihn nicht.",
            {"requirements.txt": "requests==2.{n}.0\n"},
            r"python3?\s+(--version|-v)\b",
            "a python --version command",
        ),
    ),
    Case(
        "de3_hausmeister",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Guck mal in kontakte.txt und sag mir, wer bei uns der Hausmeister ist.",
            {
                "kontakte.txt": "Hausverwaltung: Frau Keller\nHausmeister: {name}\n"
                "Notdienst: 0800 {code}\nSchornsteinfeger: Herr Brandt\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de3_mitglieder_nachzaehlen",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat vereinsmitglieder.txt gerade? Schau mit wc -l nach, trag"
            " dann 'Jonas' als neue letzte Zeile ein und prüf mit wc -l noch einmal, ob es"
            " jetzt eine mehr sind. Sag mir beide Zahlen.",
            "vereinsmitglieder.txt",
            "Jonas",
        ),
    ),
    Case(
        "de3_bestellungen_zeilen",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Wie viele Einträge hat bestellungen.txt? Zähl die Zeilen mit einem Befehl im"
            " Terminal nach.",
            "bestellungen.txt",
        ),
    ),
)
