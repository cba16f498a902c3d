"""Twenty-fifth fresh German cases: written at once for the held-out-25 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Wilfried", "Hiltrud", "Gerlinde", "Rotraut", "Lothar")

#: The names the recall saves, one per run.
NACHBARN = ("Brandstätter", "Auerswald", "Lichtenberg", "Pfannkuch")

#: The command that copies steuer.csv to steuer_sicherung.csv, as an answer may write it (lower
#: case, as the check compares): cp with its options, the source before the copy.
_CP = (
    r"(?<![\w-])cp\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?steuer\.csv['\"]?\s+"
    r"['\"]?(?:[\w~./-]*/)?steuer_sicherung\.csv['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de25_silvester",
        "action",
        LANGUAGE,
        forms.append_line(
            "Setz bitte „{line}“ als neue Zeile ans Ende von mitbringliste_silvester.txt, der"
            " Rest bleibt, wie er ist.",
            "mitbringliste_silvester.txt",
            ["Raclette-Grill", "zwei Flaschen Sekt", "Wunderkerzen"],
            "Tischfeuerwerk von {name}",
        ),
    ),
    Case(
        "de25_parkuhr",
        "action",
        LANGUAGE,
        forms.remind(
            "Kannst du mich in 45 Minuten dran erinnern, dass ich an der Parkuhr nachzahlen"
            " muss? Sonst gibt's wieder ein Knöllchen.",
            0.75,
            "parkuhr",
            "parkschein",
            "parken",
            "parking",
            "meter",
            "parquímetro",
            "aparcamiento",
            "horodateur",
            "stationnement",
            "駐車",
        ),
    ),
    Case(
        "de25_beamer",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Beamer ist beim Filmabend viel zu dunkel. In beamer.ini steht helligkeit = 80,"
            " mach bitte 100 daraus. Ändere die Zeile, häng keine neue an.",
            "beamer.ini",
            ["eingang = HDMI1", "helligkeit = 80", "ruhemodus_minuten = {n}"],
            ["eingang = HDMI1", "helligkeit = 100", "ruhemodus_minuten = {n}"],
        ),
    ),
    Case(
        "de25_ersatzschluessel",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Unser Ersatzschlüssel liegt bei Familie {value} im dritten Stock.",
            "Bei wem lag nochmal unser Ersatzschlüssel?",
            NACHBARN,
        ),
    ),
    Case(
        "de25_rollrasen",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Eine Rolle Rollrasen deckt 2 Quadratmeter. Unser Garten ist 9 Meter lang und 8"
            " Meter breit. Wie viele Rollen muss ich bestellen?",
            36,
            "sechsunddreißig",
            "sechsunddreissig",
            "thirty-six",
            "treinta y seis",
            "trente-six",
            "三十六",
            stream=True,
        ),
    ),
    Case(
        "de25_ohrwurm",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Meine englische Kollegin hat gefragt, was ich den ganzen Tag summe. Wie sagt man"
            " „Ohrwurm“ auf Englisch?",
            "earworm|ear worm",
        ),
    ),
    Case(
        "de25_steuer_kopie",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Bevor ich an der Steuer weiterarbeite: Mit welchem Befehl kopiere ich steuer.csv"
            " nach steuer_sicherung.csv? Sag mir nur den Befehl, ausführen will ich ihn selbst.",
            {"steuer.csv": "Posten;Betrag\nFahrtkosten;{n}0\nArbeitsmittel;{code}\n"},
            _CP,
            "a cp steuer.csv steuer_sicherung.csv command",
        ),
    ),
    Case(
        "de25_foerderverein",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich konnte gestern nicht zur Sitzung vom Förderverein. Was steht in"
            " protokoll_foerderverein.txt, und wer hat den Kuchenverkauf fürs Schulfest"
            " übernommen?",
            {
                "protokoll_foerderverein.txt": "Sitzung Förderverein Grundschule, Nr. {n}\n"
                "Die Kassenwartin hat den Jahresbericht vorgelesen.\n"
                "Für die neuen Pausenspiele wurden 400 Euro bewilligt.\n"
                "{name} hat den Kuchenverkauf fürs Schulfest übernommen.\n"
                "Die nächste Sitzung ist nach den Herbstferien.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de25_trainingsplan",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir mal trainingsplan.txt vor. Dann änder den Dienstag von Ausdauerlauf auf"
            " Schwimmen und lies mir die Datei danach nochmal vor, damit ich sehe, dass es"
            " stimmt.",
            "trainingsplan.txt",
            ["Trainingsplan Gruppe {n}", "Dienstag: Ausdauerlauf", "Freitag: Rudern"],
            ["Trainingsplan Gruppe {n}", "Dienstag: Schwimmen", "Freitag: Rudern"],
            "Dienstag: Schwimmen",
        ),
    ),
    Case(
        "de25_yogakurs",
        "command",
        LANGUAGE,
        forms.count_lines(
            "In yogakurs_liste.txt steht jede Anmeldung für den Yogakurs in einer eigenen Zeile."
            " Wie viele sind es? Bitte mit einem Befehl zählen, nicht schätzen.",
            "yogakurs_liste.txt",
        ),
    ),
)
