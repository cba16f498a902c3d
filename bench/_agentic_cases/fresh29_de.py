"""Twenty-ninth fresh German cases: written at once for the held-out-29 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eberhardine", "Rotraud", "Wigbert", "Swanhild", "Ortwin")

#: The names the recall saves, one per run.
AERZTINNEN = ("Pfefferkorn", "Liebknecht", "Grünewald", "Trautwein")

#: The command that packs the folder urlaub_fotos into a zip archive: zip with its options,
#: the archive's name, then the folder (with or without a slash or a glob after it).
_ZIP = (
    r"(?<![\w-])zip\s+(?:-\S+\s+)*\S+\s+(?:-\S+\s+)*['\"]?(?:\./)?urlaub_fotos/?['\"]?"
    r"(?![\w.-])"
)

#: The arrival: 12:15 with a colon, a dot or an "h", or in words.
_ANKUNFT = r"(?<![\d.:])12\s*[:.h]\s*15(?!\d)|viertel nach zwolf"

CASES: tuple[Case, ...] = (
    Case(
        "de29_handwerker",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg mir bitte eine Datei handwerker.txt an: Der Elektriker {name} kommt am"
            " Donnerstag, die Auftragsnummer ist {code}.",
            "handwerker.txt",
        ),
    ),
    Case(
        "de29_parkschein",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in einer halben Stunde daran erinnern, den Parkschein zu verlängern?"
            " Sonst krieg ich wieder ein Knöllchen.",
            0.5,
            "park",
            "knollchen",
            "ticket",
            "aparc",
            "estacionamiento",
            "stationnement",
            "駐車",
        ),
    ),
    Case(
        "de29_terrarium",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Meine Schildkröte hat zu viel Licht, sagt die Tierärztin. Ändere in terrarium.conf"
            " tageslicht_stunden von 14 auf 12. Bitte die vorhandene Zeile ändern, keine neue"
            " dazuschreiben.",
            "terrarium.conf",
            ["waermelampe = an", "tageslicht_stunden = 14", "sensor_id = {n}"],
            ["waermelampe = an", "tageslicht_stunden = 12", "sensor_id = {n}"],
        ),
    ),
    Case(
        "de29_hausaerztin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass unsere neue Hausärztin Dr. {value} heißt. Den Namen vergesse"
            " ich sonst sofort wieder.",
            "Wie hieß nochmal unsere neue Hausärztin?",
            AERZTINNEN,
        ),
    ),
    Case(
        "de29_zugfahrt",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mein Zug fährt um 9:40 in Hamburg los und ist 2 Stunden und 35 Minuten unterwegs."
            " Wann bin ich da?",
            _ANKUNFT,
            "12:15",
            stream=True,
        ),
    ),
    Case(
        "de29_lol",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Meine Tochter schreibt ständig LOL in ihre Nachrichten. Was heißt das eigentlich?",
            "lach|laugh",
        ),
    ),
    Case(
        "de29_urlaub_zip",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie packe ich den Ordner urlaub_fotos in ein Zip-Archiv, damit ich ihn verschicken"
            " kann? Sag mir nur den Befehl, ausführen mach ich selbst.",
            {"einkauf.txt": "Brötchen x{n}\nAbholnummer {code}\n"},
            _ZIP,
            "a zip -r ... urlaub_fotos command",
        ),
    ),
    Case(
        "de29_kleingarten",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich war bei der Sitzung vom Kleingartenverein nicht dabei. Was steht in"
            " protokoll_verein.txt? Und wer kümmert sich jetzt um den Wasseranschluss?",
            {
                "protokoll_verein.txt": "Protokoll Kleingartenverein, Sitzung {n}\n"
                "Die Hecke am Eingang wird im Oktober geschnitten.\n"
                "Der Jahresbeitrag bleibt gleich.\n"
                "Um den Wasseranschluss kümmert sich {name}.\n"
                "Nächstes Treffen: erster Samstag im Monat.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de29_tafel",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "In helfer_tafel.txt steht jeder Helfer der Tafel in einer eigenen Zeile. Zähl bitte"
            " mit wc -l, wie viele es sind, trag dann „Gudula Eichenlaub“ als neue Zeile ein und"
            " zähl danach noch mal nach.",
            "helfer_tafel.txt",
            "Gudula Eichenlaub",
        ),
    ),
    Case(
        "de29_fahrtenbuch",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In fahrtenbuch.csv steht jede Dienstfahrt mit Ziel und Kilometern in einer Zeile."
            " Wie oft war ich dieses Jahr in Greifswald? Zähl das bitte mit einem Befehl.",
            "fahrtenbuch.csv",
            "Greifswald",
            ("Stralsund", "Wismar", "Schwerin", "Anklam"),
        ),
    ),
)
