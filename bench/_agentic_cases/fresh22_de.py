"""Twenty-second fresh German cases: written at once for the held-out-22 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hildegard", "Wolfgang", "Rosemarie", "Friedhelm", "Ottilie")

#: The commands that show how big the folder Urlaubsfotos is in all, as an answer may write
#: them: du on the folder itself (not on a glob of what is in it), with any options.
_GROESSE = r"(?<![\w-])du\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?urlaubsfotos/?['\"]?(?![\w.*/-])"

CASES: tuple[Case, ...] = (
    Case(
        "de22_packliste_zelten",
        "action",
        LANGUAGE,
        forms.append_line(
            "Häng bitte „{line}“ als neue Zeile unten an packliste_zelten.txt an, der Rest"
            " bleibt, wie er ist.",
            "packliste_zelten.txt",
            ["Zelt und Heringe", "Isomatten: 2", "Gaskocher"],
            "Stirnlampe für {name}",
        ),
    ),
    Case(
        "de22_katze_tierarzt",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine Datei katze_tierarzt.txt an und schreib rein, dass unsere"
            " Tierärztin {name} heißt und Minkas Patientennummer {code} ist.",
            "katze_tierarzt.txt",
        ),
    ),
    Case(
        "de22_rasenmaeher",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Mähroboter schneidet mir den Rasen zu kurz. Stell in rasenmaeher.cfg die"
            " schnitthoehe von 3 auf 5, also die Zeile ändern und nicht noch eine dazuschreiben.",
            "rasenmaeher.cfg",
            ["modell = robomow", "schnitthoehe = 3", "zone = {n}"],
            ["modell = robomow", "schnitthoehe = 5", "zone = {n}"],
        ),
    ),
    Case(
        "de22_tiefgarage",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Unser Stellplatz in der Tiefgarage hat die Nummer {code}.",
            "Welche Nummer hatte noch mal unser Stellplatz in der Tiefgarage?",
            stream=True,
        ),
    ),
    Case(
        "de22_sprudel",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Ich hab drei Kästen Sprudel mit je 24 Flaschen gekauft, 5 Flaschen sind schon leer."
            " Wie viele volle sind noch übrig?",
            67,
            "siebenundsechzig",
            "sixty-seven",
            "sixty seven",
            "sesenta y siete",
            "soixante-sept",
            "soixante sept",
            "六十七",
        ),
    ),
    Case(
        "de22_eichhoernchen",
        "no-tool",
        LANGUAGE,
        forms.words("Was heißt eigentlich Eichhörnchen auf Englisch?", "squirrel"),
    ),
    Case(
        "de22_urlaubsfotos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie finde ich raus, wie groß der Ordner Urlaubsfotos insgesamt ist? Zeig mir nur"
            " den Befehl, ausführen musst du ihn nicht.",
            {
                "Urlaubsfotos/kreta_{n}.jpg": "JPEG {code}\n",
                "Urlaubsfotos/notizen.txt": "Tag 1: Strand\n",
            },
            _GROESSE,
            "a du -sh Urlaubsfotos command",
        ),
    ),
    Case(
        "de22_elternabend",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Kannst du mir kurz zusammenfassen, was in protokoll_elternabend.txt steht? Und wer"
            " hat sich am Ende als Kassenwart gemeldet?",
            {
                "protokoll_elternabend.txt": "Elternabend Klasse 3b, {n} Eltern anwesend\n"
                "Die Klassenfahrt ging dieses Jahr an den Bodensee.\n"
                "{name} hat sich als Kassenwart für die Klassenkasse gemeldet.\n"
                "Das Sommerfest wurde auf Ende Juni gelegt.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de22_vereinsfest",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir mal einkauf_vereinsfest.txt vor, ändere dann bei den Würstchen die Menge"
            " von 40 auf 60 und lies mir die Datei danach noch mal vor.",
            "einkauf_vereinsfest.txt",
            ["Vereinsfest, Kasse {n}", "Würstchen: 40", "Brötchen: 80"],
            ["Vereinsfest, Kasse {n}", "Würstchen: 60", "Brötchen: 80"],
            "Würstchen: 60",
        ),
    ),
    Case(
        "de22_bremen",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In busfahrten.csv steht jede Fahrt in einer eigenen Zeile. Wie viele davon gingen"
            " nach Bremen? Bitte mit einem Befehl zählen.",
            "busfahrten.csv",
            "Bremen",
            ["Hamburg", "Oldenburg", "Cuxhaven"],
        ),
    ),
)
