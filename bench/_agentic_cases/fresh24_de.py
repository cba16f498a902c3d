"""Twenty-fourth fresh German cases: written at once for the held-out-24 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hildegard", "Friedhelm", "Waltraud", "Gottfried", "Rosemarie")

#: The names the recall saves, one per run.
ZAHNAERZTINNEN = ("Hüttenmeister", "Oberhauser", "Wendelstein", "Kesselring")

#: The command that lists the files over 20 MB in Fotos, as an answer may write it (lower
#: case, as the check compares): find on the folder, its size test at 20 MB in M, k or bytes.
_FIND = (
    r"(?<![\w-])find\s+['\"]?(?:[\w~./-]*/)?fotos/?['\"]?\s+(?:\S+\s+)*?"
    r"-size\s+['\"]?\+(?:20m|20480k|20000k|20971520c)(?!\w)"
)

CASES: tuple[Case, ...] = (
    Case(
        "de24_verliehen",
        "action",
        LANGUAGE,
        forms.append_line(
            "Schreib bitte „{line}“ unten an verliehen.txt dran, der Rest soll so bleiben.",
            "verliehen.txt",
            ["Bohrmaschine an Herrn Kaya", "Leiter an Familie Ott", "Hochdruckreiniger an Sabine"],
            "Stichsäge an {name}",
        ),
    ),
    Case(
        "de24_oma_anrufen",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in zwei Stunden daran, dass ich Oma zurückrufen wollte.",
            2,
            "oma",
            "grandma",
            "granny",
            "grandmother",
            "großmutter",
            "grossmutter",
            "abuela",
            "mamie",
            "grand-mère",
            "祖母",
            "おばあ",
        ),
    ),
    Case(
        "de24_saugroboter",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Saugroboter saugt mir zu schwach. Stell in saugroboter.conf die saugstaerke von"
            " 2 auf 3. Bitte nur die vorhandene Zeile ändern, keine neue dazuschreiben.",
            "saugroboter.conf",
            ["raum = Wohnzimmer", "saugstaerke = 2", "akku_warnung = {n}"],
            ["raum = Wohnzimmer", "saugstaerke = 3", "akku_warnung = {n}"],
        ),
    ),
    Case(
        "de24_zahnaerztin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass unsere neue Zahnärztin Frau Dr. {value} heißt.",
            "Wie hieß nochmal unsere neue Zahnärztin?",
            ZAHNAERZTINNEN,
        ),
    ),
    Case(
        "de24_eierkartons",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Für das Vereinsfest backen wir 14 Kuchen, jeder braucht 5 Eier. Im Karton sind 10"
            " Eier. Wie viele Kartons muss ich kaufen?",
            7,
            "sieben",
            "seven",
            "siete",
            "sept",
            "七",
            stream=True,
        ),
    ),
    Case(
        "de24_rechnung_spanisch",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wir sind nächste Woche in Valencia. Was sagt man im Restaurant auf Spanisch, wenn"
            " man bezahlen will, also „Die Rechnung, bitte“?",
            "cuenta",
        ),
    ),
    Case(
        "de24_grosse_fotos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie finde ich im Ordner Fotos alle Dateien, die größer als 20 MB sind? Zeig mir nur"
            " den Befehl, ausführen mach ich selbst.",
            {"notizen.txt": "Fotobuch bestellen, Auftrag {code}\n{n} Bilder aussortieren\n"},
            _FIND,
            "a find Fotos -size +20M command",
        ),
    ),
    Case(
        "de24_wichteln",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Guck mal in wichteln.txt nach und sag mir, wer mich dieses Jahr beschenkt.",
            {
                "wichteln.txt": "Wichteln im Büro, Budget {n} Euro\n"
                "Karin beschenkt Uwe\n"
                "{name} beschenkt mich\n"
                "Uwe beschenkt Karin\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de24_bandprobe",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Zeig mir mal, was in bandprobe.txt steht. Dann änder den Raum von Keller auf"
            " Garage und zeig mir die Datei danach nochmal, damit ich sehe, ob es passt.",
            "bandprobe.txt",
            ["Bandprobe, Woche {n}", "Raum: Keller", "Uhrzeit: 19:30"],
            ["Bandprobe, Woche {n}", "Raum: Garage", "Uhrzeit: 19:30"],
            "Raum: Garage",
        ),
    ),
    Case(
        "de24_carsharing_bochum",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In fahrten.csv steht pro Zeile eine Fahrt mit unserem Carsharing-Auto. Wie viele"
            " davon gingen nach Bochum? Zähl das bitte mit einem Befehl.",
            "fahrten.csv",
            "Bochum",
            ["Essen", "Dortmund", "Herne"],
        ),
    ),
)
