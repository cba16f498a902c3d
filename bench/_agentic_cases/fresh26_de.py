"""Twenty-sixth fresh German cases: written at once for the held-out-26 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Notburga", "Hieronymus", "Gunhild", "Engelbert", "Adelgunde")

#: The names the recall saves, one per run.
HUFSCHMIEDE = ("Kranichfeld", "Dittmann", "Scharnweber", "Rautenstrauch")

#: The time the onion tart is done, 15:40 plus 55 minutes: 16:35 (16.35, 16 Uhr 35 or "fünf
#: nach halb fünf"), not part of a longer time.
_FERTIG = (
    r"(?<![\d:.])16\s*(?:[:.]|uhr)\s*35(?!\d)"
    r"|f(?:ü|u|ue)nf nach halb f(?:ü|u|ue)nf"
)

#: The command that unpacks kontoauszug.csv.gz, as an answer may write it (lower case, as the
#: check compares): gunzip, gzip with its decompress option, zcat, or 7z e/x, then the file.
_GUNZIP = (
    r"(?<![\w-])(?:gunzip\s+(?:-\S+\s+)*"
    r"|gzip\s+(?:-\S+\s+)*(?:-[a-z]*d[a-z]*|--decompress)\s+(?:-\S+\s+)*"
    r"|zcat\s+(?:-\S+\s+)*|7z\s+[ex]\s+(?:-\S+\s+)*)"
    r"['\"]?(?:[\w~./-]*/)?kontoauszug\.csv\.gz['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de26_fliesenleger",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib mir bitte in fliesenleger.txt auf, dass der Fliesenleger {name} heißt und"
            " sein Angebot die Nummer {code} hat. Das brauch ich, wenn er zurückruft.",
            "fliesenleger.txt",
        ),
    ),
    Case(
        "de26_gans",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in einer Stunde daran, die Gans im Ofen mit Bratensaft zu"
            " begießen.",
            1,
            "gans",
            "begießen",
            "begiessen",
            "ofen",
            "goose",
            "baste",
            "ganso",
            "horno",
            "oie",
            "ガチョウ",
        ),
    ),
    Case(
        "de26_lichterkette",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Die Lichterkette im Garten geht abends viel zu früh aus. In lichterkette.ini steht"
            " aus_um = 22:00, stell das bitte auf 23:30. Ändere die Zeile, schreib keine neue"
            " dazu.",
            "lichterkette.ini",
            ["modus = dauerlicht", "aus_um = 22:00", "helligkeit = {n}"],
            ["modus = dauerlicht", "aus_um = 23:30", "helligkeit = {n}"],
        ),
    ),
    Case(
        "de26_hufschmied",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass der Hufschmied für unser Pony {value} heißt.",
            "Wie hieß noch mal der Hufschmied von unserem Pony?",
            HUFSCHMIEDE,
        ),
    ),
    Case(
        "de26_zwiebelkuchen",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Ich hab den Zwiebelkuchen um 15:40 in den Ofen geschoben, und er braucht 55"
            " Minuten. Wann muss ich ihn rausholen?",
            _FERTIG,
            "16:35",
        ),
    ),
    Case(
        "de26_faq",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Auf der Webseite vom Turnverein gibt es einen Bereich „FAQ“. Wofür steht das, und"
            " wie würde man das auf Deutsch sagen?",
            "häufig gestellte fragen|häufig gestellten fragen|häufige fragen|oft gestellte fragen"
            "|oft gestellten fragen|haeufig gestellte fragen",
            stream=True,
        ),
    ),
    Case(
        "de26_kontoauszug_gz",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Die Bank hat mir kontoauszug.csv.gz geschickt. Mit welchem Befehl packe ich das aus?"
            " Sag ihn mir nur, ausführen mache ich selbst.",
            {"haushalt.txt": "Miete: {code} Euro\nStrom: {n} Euro\n"},
            _GUNZIP,
            "a gunzip kontoauszug.csv.gz command",
        ),
    ),
    Case(
        "de26_hausfest",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich war beim Hausfest am Samstag nicht da. Was steht in hausfest.txt, und wer hat"
            " sich um die Musik gekümmert?",
            {
                "hausfest.txt": "Hausfest im Hinterhof, Haus {n}\n"
                "Es kamen mehr Nachbarn als gedacht.\n"
                "Der Hausmeister hat Bierbänke aus dem Keller geholt.\n"
                "{name} hat sich um die Musik gekümmert.\n"
                "Um elf hat jemand wegen der Lautstärke geklingelt.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de26_kegelclub",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Zähl mal die Zeilen in kegelclub.txt, häng dann „Trudi Brenneisen“ unten an und zähl"
            " noch einmal, damit ich seh, dass sie dazugekommen ist.",
            "kegelclub.txt",
            "Trudi Brenneisen",
        ),
    ),
    Case(
        "de26_taxi_freising",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In taxifahrten.csv steht jede Fahrt in einer eigenen Zeile. Wie viele davon gingen"
            " nach Freising? Zähl das bitte mit einem Befehl.",
            "taxifahrten.csv",
            "Freising",
            ["Erding", "Moosburg", "Dachau"],
        ),
    ),
)
