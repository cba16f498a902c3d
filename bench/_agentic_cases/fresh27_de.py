"""Twenty-seventh fresh German cases: written at once for the held-out-27 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Walburga", "Kunibert", "Hildegunde", "Ottokar", "Irmtraud")

#: The names the recall saves, one per run.
GAERTNER = ("Wolfsteller", "Birkenhauer", "Quandtmeyer", "Ostermann")

#: The time the train gets in, 13:52 plus 2 hours 25: 16:17 (16.17 or 16 Uhr 17), not part of
#: a longer time.
_ANKUNFT = r"(?<![\d:.])16\s*(?:[:.]|uhr)\s*17(?!\d)"

#: The command that unpacks hochzeitsfotos.tar.gz (lower case, as the check compares): tar with
#: its extract option, then the archive.
_TAR = (
    r"(?<![\w-])tar\s+(?:-\S+\s+)*(?:-?[a-z]*x[a-z]*|--extract|--get)\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?hochzeitsfotos\.tar\.gz['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de27_werkstatt",
        "action",
        LANGUAGE,
        forms.write_file(
            "Notier mir bitte in autowerkstatt.txt, dass mein Auto bei {name} in der Werkstatt"
            " steht und die Auftragsnummer {code} ist. Die wollen sie am Telefon immer wissen.",
            "autowerkstatt.txt",
        ),
    ),
    Case(
        "de27_pfandflaschen",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich in zwei Stunden dran, die Pfandflaschen zum Supermarkt zu bringen.",
            2,
            "pfand",
            "flaschen",
            "supermarkt",
            "bottles",
            "deposit",
            "botellas",
            "bouteilles",
            "consigne",
            "ボトル",
        ),
    ),
    Case(
        "de27_hochbeet",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Die Tomaten im Hochbeet stehen schon halb unter Wasser. Setz in bewaesserung.ini"
            " dauer_minuten von 20 auf 12 runter. Bitte die Zeile ändern, keine neue anhängen.",
            "bewaesserung.ini",
            ["zone = hochbeet", "dauer_minuten = 20", "pause_tage = {n}"],
            ["zone = hochbeet", "dauer_minuten = 12", "pause_tage = {n}"],
        ),
    ),
    Case(
        "de27_heckenschnitt",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass der Gärtner, der letztes Jahr unsere Hecke geschnitten hat,"
            " {value} heißt.",
            "Wie hieß noch gleich der Gärtner, der unsere Hecke geschnitten hat?",
            GAERTNER,
        ),
    ),
    Case(
        "de27_zug_goerlitz",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mein Zug nach Görlitz fährt um 13:52 los und ist 2 Stunden und 25 Minuten"
            " unterwegs. Wann bin ich da?",
            _ANKUNFT,
            "16:17",
        ),
    ),
    Case(
        "de27_tablespoon",
        "no-tool",
        LANGUAGE,
        forms.words(
            "In einem englischen Kuchenrezept steht „2 tablespoons of sugar“. Was ist ein"
            " tablespoon auf Deutsch?",
            "esslöffel|essloeffel|eßlöffel",
            stream=True,
        ),
    ),
    Case(
        "de27_hochzeitsfotos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Der Fotograf hat uns hochzeitsfotos.tar.gz geschickt. Wie packe ich das im Terminal"
            " aus? Nur den Befehl, bitte, ausführen tu ich ihn selbst.",
            {"einkauf.txt": "Eier: {n}\nGutschein: {code}\n"},
            _TAR,
            "a tar -xzf hochzeitsfotos.tar.gz command",
        ),
    ),
    Case(
        "de27_schuetzenfest",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich hab die Versammlung vom Schützenverein verpasst. Was steht in"
            " versammlung_schuetzen.txt, und wer übernimmt beim Fest den Getränkestand?",
            {
                "versammlung_schuetzen.txt": "Versammlung des Schützenvereins, Nr. {n}\n"
                "Der Festumzug geht dieses Jahr andersherum durchs Dorf.\n"
                "Die Blaskapelle ist schon gebucht.\n"
                "Den Getränkestand übernimmt {name}.\n"
                "Über neue Uniformen wird im Herbst abgestimmt.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de27_chor",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat chor_anmeldungen.txt? Häng danach „Benedikt Sauerwein“ unten"
            " dran und zähl noch mal, damit ich sehe, dass er drin ist.",
            "chor_anmeldungen.txt",
            "Benedikt Sauerwein",
        ),
    ),
    Case(
        "de27_pakete_hermes",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In paketannahme.csv steht jedes Paket, das ich für die Nachbarn angenommen hab, in"
            " einer Zeile. Wie viele davon kamen mit Hermes? Zähl das bitte mit einem Befehl.",
            "paketannahme.csv",
            "Hermes",
            ["DPD", "GLS", "UPS"],
        ),
    ),
)
