"""Thirtieth fresh German cases: written at once for the held-out-30 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eckehard", "Gunthilde", "Wendelin", "Gundolf", "Friedlinde")

#: The names the recall saves, one per run.
HEBAMMEN = ("Kniebusch", "Wollenweber", "Brettschneider", "Habermalz")

#: The command that pages through vereinschronik.txt: less (or more, most) with its options,
#: then the file.
_PAGER = (
    r"(?<![\w-])(?:less|more|most)\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?vereinschronik\.txt"
    r"['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de30_wunschzettel",
        "action",
        LANGUAGE,
        forms.append_line(
            "Schreib bitte „{line}“ als letzte Zeile in wunschzettel_oma.txt, der Rest bleibt,"
            " wie er ist.",
            "wunschzettel_oma.txt",
            ["Wärmflasche", "Kreuzworträtselheft", "Handcreme mit Rosenduft"],
            "Fotokalender bei {name} abholen",
        ),
    ),
    Case(
        "de30_musikschule",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in einer Viertelstunde daran, die Kleine von der Musikschule"
            " abzuholen.",
            0.25,
            "musikschule",
            "abhol",
            "kleine",
            "music",
            "musica",
            "musique",
            "音楽",
        ),
    ),
    Case(
        "de30_wallbox",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Das Auto wird über Nacht nicht voll. Stell in wallbox.conf den ladestrom von 10 auf"
            " 16, bitte die bestehende Zeile ändern und keine zweite anhängen.",
            "wallbox.conf",
            ["modus = nachtstrom", "ladestrom = 10", "zaehler_nr = {n}"],
            ["modus = nachtstrom", "ladestrom = 16", "zaehler_nr = {n}"],
        ),
    ),
    Case(
        "de30_hebamme",
        "recall",
        LANGUAGE,
        forms.remember(
            "Kannst du dir merken, dass unsere Hebamme Frau {value} heißt? Ich hab den Zettel"
            " schon wieder verlegt.",
            "Wie hieß unsere Hebamme nochmal?",
            HEBAMMEN,
        ),
    ),
    Case(
        "de30_hoerbuch",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Mein Hörbuch dauert 13 Stunden und 30 Minuten. Wenn ich jeden Abend 45 Minuten"
            " höre, nach wie vielen Abenden bin ich durch?",
            18,
            "achtzehn",
            "eighteen",
            "dieciocho",
            "dix-huit",
            "十八",
            stream=True,
        ),
    ),
    Case(
        "de30_torschlusspanik",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Meine Schwester meint, sie hat mit 39 Torschlusspanik. Was heißt das eigentlich"
            " genau?",
            "verpass|zu spat|alter|gelegenheit|chance|miss|too late",
        ),
    ),
    Case(
        "de30_vereinschronik",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Die vereinschronik.txt ist ewig lang. Mit welchem Befehl kann ich sie im Terminal"
            " Seite für Seite durchblättern? Nur sagen, nicht ausführen.",
            {"zettel.txt": "Pfand zurückbringen: {n} Flaschen\nPaketcode {code}\n"},
            _PAGER,
            "a less vereinschronik.txt (or more) command",
        ),
    ),
    Case(
        "de30_theater_ag",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Guck mal in theater_ag.txt und sag mir, wer die Kostüme näht.",
            {
                "theater_ag.txt": "Theater-AG, Stück Nr. {n}\n"
                "Regie: Frau Sommerfeld\n"
                "Kostüme näht: {name}\n"
                "Generalprobe: Freitag in der Aula\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de30_fahrdienst",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mal fahrdienst_training.txt, trag beim Samstag die Wagners statt der Krügers"
            " ein und lies die Datei danach noch einmal, damit ich sehe, dass es gespeichert ist.",
            "fahrdienst_training.txt",
            ["Fußballtraining, Mannschaft {n}", "Fahrdienst Samstag: Krügers", "Bälle: Yilmaz"],
            ["Fußballtraining, Mannschaft {n}", "Fahrdienst Samstag: Wagners", "Bälle: Yilmaz"],
            "Fahrdienst Samstag: Wagners",
        ),
    ),
    Case(
        "de30_honig",
        "command",
        LANGUAGE,
        forms.count_lines(
            "In sammelbestellung_honig.txt steht jede Bestellung für den Honig vom Imker in einer"
            " eigenen Zeile. Wie viele sind es bisher? Zähl bitte die Zeilen mit einem Befehl.",
            "sammelbestellung_honig.txt",
        ),
    ),
)
