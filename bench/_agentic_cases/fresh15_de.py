"""Fifteenth fresh German cases: written at once for the held-out-15 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hubertus", "Ingeborg", "Kunigunde", "Leberecht", "Mechthild")

CASES: tuple[Case, ...] = (
    Case(
        "de15_finanzamt",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in vier Stunden daran, den Brief ans Finanzamt einzuwerfen.",
            4,
            "finanzamt",
            "brief",
            "steuer",
            "tax",
            "letter",
            "hacienda",
            "carta",
            "impot",
            "lettre",
            "税務署",
            "手紙",
        ),
    ),
    Case(
        "de15_nachhilfe",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine neue Datei nachhilfe.txt an und schreib rein: Die Lateinnachhilfe"
            " für unsere Tochter gibt ab Montag {name}, der Zugangscode fürs Lernportal ist"
            " {code}.",
            "nachhilfe.txt",
        ),
    ),
    Case(
        "de15_radumfang",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Ändere in fahrradcomputer.conf den Radumfang von 2100 auf 2155. Bitte die"
            " vorhandene Zeile anpassen und nichts anhängen.",
            "fahrradcomputer.conf",
            ["radumfang = 2100", "einheit = km", "tagesziel = {n}"],
            ["radumfang = 2155", "einheit = km", "tagesziel = {n}"],
        ),
    ),
    Case(
        "de15_gartentor",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass das Zahlenschloss am Gartentor den Code {code} hat.",
            "Wie war noch mal der Code vom Zahlenschloss am Gartentor?",
        ),
    ),
    Case(
        "de15_quartal",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Monate hat ein Quartal?",
            3,
            "drei",
            "three",
            "tres",
            "trois",
            "三",
        ),
    ),
    Case(
        "de15_brandenburger_tor",
        "no-tool",
        LANGUAGE,
        forms.words(
            "In welcher Stadt steht das Brandenburger Tor?", "berlin|ベルリン", stream=True
        ),
    ),
    Case(
        "de15_ffmpeg_pfad",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie finde ich heraus, wo ffmpeg auf meinem Rechner installiert ist? Zeig mir nur"
            " den Befehl, ausführen bitte nicht.",
            {"videos.txt": "Urlaubsvideo {n}\n"},
            r"(?<![\w-])(?:which(?:\s+-a)?|whereis|command\s+-v|type(?:\s+-[ap])?|locate"
            r"|find\s+\S+\s+(?:-\S+\s+)*-i?name)\s+['\"]?ffmpeg",
            "a which, whereis, command -v, type, locate or find command for ffmpeg",
        ),
    ),
    Case(
        "de15_grillfest",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Schau mal in grillfest.txt nach und sag mir, wer die Würstchen mitbringt.",
            {
                "grillfest.txt": "Grillfest Gartenverein, Parzelle {n}\n"
                "Salate: Familie Brandl\nWürstchen: {name}\nGetränke: Herr Lorenz\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de15_reservierung",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies reservierung.txt, ändere die Personenzahl von 4 auf 6 und lies die Datei danach"
            " noch einmal, damit ich sehe, ob es stimmt.",
            "reservierung.txt",
            ["Tischreservierung Nr. {n}", "Personen: 4", "Restaurant: Zur Linde"],
            ["Tischreservierung Nr. {n}", "Personen: 6", "Restaurant: Zur Linde"],
            "Personen: 6",
        ),
    ),
    Case(
        "de15_blutspende_lindau",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl per Befehl, wie viele Zeilen in blutspende.csv aus Lindau stammen.",
            "blutspende.csv",
            "Lindau",
            ["Kempten", "Memmingen", "Kaufbeuren"],
        ),
    ),
)
