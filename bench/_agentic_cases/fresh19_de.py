"""Nineteenth fresh German cases: written at once for the held-out-19 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Wolfhard", "Irmtraud", "Gottlieb", "Roswitha", "Hartmut")

CASES: tuple[Case, ...] = (
    Case(
        "de19_gaestezimmer",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in anderthalb Stunden daran, die Heizung im Gästezimmer"
            " aufzudrehen. Meine Schwiegereltern kommen heute Abend.",
            1.5,
            "heizung",
            "gästezimmer",
            "heating",
            "heater",
            "radiator",
            "guest room",
            "calefaccion",
            "radiador",
            "chauffage",
            "radiateur",
            "暖房",
            "ヒーター",
        ),
    ),
    Case(
        "de19_hochzeitsfotograf",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine Datei hochzeitsfotograf.txt an und schreib rein, dass unser"
            " Fotograf {name} heißt und die Buchungsnummer {code} ist.",
            "hochzeitsfotograf.txt",
        ),
    ),
    Case(
        "de19_dunstabzug",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Die Dunstabzugshaube läuft nach dem Kochen ewig nach. Stell in dunstabzug.conf die"
            " Nachlaufzeit von 15 auf 5 Minuten. Bitte die Zeile ändern, keine neue"
            " dazuschreiben.",
            "dunstabzug.conf",
            ["nachlauf = 15", "stufe = 2", "filter = {n}"],
            ["nachlauf = 5", "stufe = 2", "filter = {n}"],
        ),
    ),
    Case(
        "de19_bahncard",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass meine BahnCard-Nummer auf {code} endet.",
            "Wie waren nochmal die letzten Ziffern meiner BahnCard-Nummer?",
        ),
    ),
    Case(
        "de19_schlafstunden",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wenn ich jede Nacht 8 Stunden schlafe, wie viele Stunden sind das in einer Woche?",
            56,
            "sechsundfunfzig",
            "fifty-six",
            "fifty six",
            "cincuenta y seis",
            "cinquante-six",
            "cinquante six",
            "五十六",
        ),
    ),
    Case(
        "de19_kilimandscharo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "In welchem Land liegt eigentlich der Kilimandscharo?",
            "tansania|tanzania|tanzanie|タンザニア",
            stream=True,
        ),
    ),
    Case(
        "de19_anleitung_rsync",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Ich möchte die Anleitung zu rsync direkt im Terminal lesen. Mit welchem Befehl geht"
            " das? Bitte nur zeigen, nicht ausführen.",
            {"backup_notizen.txt": "Sicherung auf die externe Platte, Ordner {n}\n"},
            r"(?<![\w-])(?:man|info|tldr)\s+(?:-\S+\s+)*(?:1\s+)?rsync(?![\w-])"
            r"|(?<![\w-])rsync\s+(?:--help|-h)(?![\w-])",
            "a man rsync (or rsync --help) command",
        ),
    ),
    Case(
        "de19_seifenkiste",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass mir bitte seifenkistenrennen.txt kurz zusammen. Wer war am Ende am"
            " schnellsten im Ziel?",
            {
                "seifenkistenrennen.txt": "Seifenkistenrennen am Kirchberg, {n} Starter\n"
                "Gestartet wurde um zehn Uhr oben an der Kapelle.\n"
                "{name} war mit der roten Kiste am schnellsten im Ziel.\n"
                "Danach gab es Würstchen und eine Siegerehrung am Dorfplatz.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de19_weinfest_helfer",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Zähl bitte, wie viele Zeilen helfer_weinfest.txt hat, häng dann Friederike"
            " Oberländer als neue Zeile unten an und zähl noch mal.",
            "helfer_weinfest.txt",
            "Friederike Oberländer",
        ),
    ),
    Case(
        "de19_mitfahrliste",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Wie viele Zeilen hat eigentlich mitfahrliste.txt? Zähl das bitte mit einem Befehl"
            " nach.",
            "mitfahrliste.txt",
        ),
    ),
)
