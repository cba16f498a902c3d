"""Twentieth fresh German cases: written at once for the held-out-20 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hildegard", "Waltraud", "Leopoldine", "Mechthild", "Adelheid")

#: The file the line-number question is about, as a command may name it.
_LISTE = r"(?:<\s*)?['\"]?(?:[\w~./-]*/)?einkaufsliste\.txt"

#: Options of a command.
_OPTS = r"(?:-\S+\s+)*"
#: The commands that show a file with line numbers, as an answer may write them: each followed
#: by the file, or the file piped into nl or cat -n.
_BEFEHLE = (
    r"(?<![\w-])cat\s+" + _OPTS + r"(?:-[a-z]*[nb][a-z]*|--number(?:-nonblank)?)\s+" + _OPTS,
    r"(?<![\w-])nl\s+" + _OPTS,
    r"(?<![\w-])less\s+" + _OPTS + r"(?:-[a-z]*n[a-z]*|--line-numbers)\s+" + _OPTS,
    r"(?<![\w-])pr\s+" + _OPTS + r"-[a-z]*n[a-z]*\s+" + _OPTS,
    r"(?<![\w-])nano\s+" + _OPTS + r"(?:-[a-z]*l[a-z]*|--linenumbers)\s+" + _OPTS,
    r"(?<![\w-])grep\s+" + _OPTS + r"-[a-z]*n[a-z]*\s+" + _OPTS + r"(?:''|\"\"|'\^'|\"\^\""
    r"|\^|'\$'|\"\$\"|\$|\.|'\.'|\"\.\"|'\.\*'|\"\.\*\")\s+",
    r"(?<![\w-])awk\s+(?:'[^']*\bnr\b[^']*'|\"[^\"]*\bnr\b[^\"]*\")\s+",
    r"(?<![\w-])n?vim?\s+(?:\+|-c\s*)['\"]?:?set\s+(?:nu|number)['\"]?\s+",
)
_ZEILENNUMMERN = (
    f"(?:{'|'.join(_BEFEHLE)}){_LISTE}"
    rf"|einkaufsliste\.txt['\"]?\s*\|\s*(?:nl(?![\w-])|cat\s+{_OPTS}(?:-[a-z]*[nb][a-z]*|--number))"
)

CASES: tuple[Case, ...] = (
    Case(
        "de20_tiefkuehltorte",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in zwei Stunden daran erinnern, die Torte für morgen aus dem"
            " Gefrierfach zu holen?",
            2,
            "torte",
            "gefrier",
            "tiefkühl",
            "kuchen",
            "cake",
            "freezer",
            "tarta",
            "pastel",
            "congelador",
            "gâteau",
            "congélateur",
            "ケーキ",
            "冷凍",
        ),
    ),
    Case(
        "de20_flohmarkt",
        "action",
        LANGUAGE,
        forms.append_line(
            "Häng bitte „{line}“ als neue Zeile unten an flohmarkt_stand.txt an, der Rest soll"
            " so bleiben, wie er ist.",
            "flohmarkt_stand.txt",
            [
                "Tisch: leiht uns Oma",
                "Kasse: die alte Blechdose",
                "Preisschilder: selbst gebastelt",
            ],
            "Aufbau: {name} ab 7 Uhr",
        ),
    ),
    Case(
        "de20_maehroboter",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Rasen wird mir zu kurz. Setz bitte in maehroboter.cfg die schnitthoehe von 40"
            " auf 55, aber nur die Zeile ändern, keine neue dazuschreiben.",
            "maehroboter.cfg",
            ["zone = vorgarten", "schnitthoehe = 40", "geraet = {n}"],
            ["zone = vorgarten", "schnitthoehe = 55", "geraet = {n}"],
        ),
    ),
    Case(
        "de20_stadtwerke",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte was: Meine Kundennummer bei den Stadtwerken ist {code}.",
            "Welche Kundennummer hab ich nochmal bei den Stadtwerken?",
            stream=True,
        ),
    ),
    Case(
        "de20_fitnessstudio",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Mein Fitnessstudio kostet 35 Euro im Monat. Was zahle ich dafür im ganzen Jahr?",
            420,
            "vierhundertzwanzig",
            "vierhundert zwanzig",
            "four hundred and twenty",
            "four hundred twenty",
            "cuatrocientos veinte",
            "quatre cent vingt",
            "quatre-cent-vingt",
            "四百二十",
        ),
    ),
    Case(
        "de20_hoechster_berg",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wie heißt eigentlich der höchste Berg Deutschlands?",
            "zugspitze|ツークシュピッツェ",
        ),
    ),
    Case(
        "de20_zeilennummern",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie lasse ich mir einkaufsliste.txt mit Zeilennummern anzeigen? Zeig mir bitte nur"
            " den Befehl, ausführen mach ich selbst.",
            {"einkaufsliste.txt": "Milch\nEier\n{n} Brötchen\nKaffee\n"},
            _ZEILENNUMMERN,
            "a cat -n einkaufsliste.txt (or nl, less -N, grep -n '') command",
        ),
    ),
    Case(
        "de20_elternabend",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Kannst du mir kurz zusammenfassen, was in elternabend.txt steht? Wer wurde denn zur"
            " Elternsprecherin gewählt?",
            {
                "elternabend.txt": "Elternabend der Klasse {n}b\n"
                "Es kamen 19 Eltern, und die Klassenfahrt wurde auf Mai verschoben.\n"
                "{name} wurde zur Elternsprecherin gewählt.\n"
                "Zum Schluss gab es noch Kaffee und Kuchen.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de20_stammtisch",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir bitte stammtisch.txt vor, ändere dann den Treffpunkt von „Zum Löwen“ auf"
            " „Alte Post“ und lies mir die Datei danach noch einmal vor.",
            "stammtisch.txt",
            ["Stammtisch Nr. {n}", "Treffpunkt: Zum Löwen", "Uhrzeit: 19:30"],
            ["Stammtisch Nr. {n}", "Treffpunkt: Alte Post", "Uhrzeit: 19:30"],
            "Alte Post",
        ),
    ),
    Case(
        "de20_kurier_leipzig",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Wie viele Zeilen in kurierfahrten.csv gehen nach Leipzig? Zähl das bitte mit einem"
            " Befehl.",
            "kurierfahrten.csv",
            "Leipzig",
            ["Halle", "Dresden", "Chemnitz"],
        ),
    ),
)
