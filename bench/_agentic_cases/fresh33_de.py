"""Thirty-third fresh German cases: written at once for the held-out-33 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Gottfried", "Roswitha", "Mechthild", "Hannelore", "Reinhold")

#: The commands that show stromzaehler_2024.csv.gz without unpacking it: zcat, zless or zmore
#: on it; gunzip -c (--stdout) or gzip -dc on it; the file fed to gunzip or zcat; or less,
#: which opens a .gz through lesspipe.
_GZ = r"['\"]?(?:[\w~./-]*/)?stromzaehler_2024\.csv\.gz['\"]?(?![\w.-])"
_STDOUT = r"(?:-[a-z]*c[a-z]*|--stdout|--to-stdout)"
_DECOMPRESS = r"(?:-[a-z]*d[a-z]*|--decompress|--uncompress)"
_ANSEHEN = (
    rf"(?<![\w-])(?:zcat|zless|zmore|less)\s+(?:-\S+\s+)*{_GZ}"
    rf"|(?<![\w-])gunzip\s+(?:-\S+\s+)*{_STDOUT}\s+(?:-\S+\s+)*{_GZ}"
    rf"|(?<![\w-])gzip\s+(?:-\S+\s+)*(?:-[a-z]*(?:dc|cd)[a-z]*|{_DECOMPRESS}\s+{_STDOUT}"
    rf"|{_STDOUT}\s+{_DECOMPRESS})\s+(?:-\S+\s+)*{_GZ}"
    rf"|(?<![\w-])(?:gunzip|zcat)\s+(?:-\S+\s+)*<\s*{_GZ}"
    rf"|(?<![\w-])cat\s+{_GZ}\s*\|\s*(?:gunzip|zcat|gzip\s+-d)(?![\w-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de33_segeltoern",
        "action",
        LANGUAGE,
        forms.append_line(
            "Häng bitte „{line}“ unten an segeltoern.txt an. Das ist meine Packliste fürs"
            " Segelwochenende, der Rest soll so bleiben.",
            "segeltoern.txt",
            ["Segelhandschuhe", "Ölzeug", "Sonnencreme LSF 50"],
            "Schwimmweste von {name} ausleihen",
        ),
    ),
    Case(
        "de33_wurmkur",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in vier Stunden daran, unserem Hund die Wurmtablette zu geben."
            " Der Tierarzt meinte, nach dem Abendessen wäre am besten.",
            4,
            "wurm",
            "hund",
            "tablette",
            "dog",
            "worm",
            "perro",
            "chien",
            "vermifug",
            "desparasit",
            "犬",
            "虫下し",
        ),
    ),
    Case(
        "de33_wasserhaerte",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Wir sind umgezogen, und hier ist das Wasser viel härter. Ändere bitte in"
            " kaffeevollautomat.conf die wasserhaerte von 2 auf 3, und zwar in der vorhandenen"
            " Zeile, schreib keine zweite dazu.",
            "kaffeevollautomat.conf",
            ["tassengroesse = mittel", "wasserhaerte = 2", "geraet = {n}"],
            ["tassengroesse = mittel", "wasserhaerte = 3", "geraet = {n}"],
        ),
    ),
    Case(
        "de33_tombola",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass meine Losnummer bei der Tombola vom Sportverein {code} ist."
            " Die Ziehung ist erst nächste Woche.",
            "Welche Losnummer hatte ich noch mal bei der Tombola vom Sportverein?",
        ),
    ),
    Case(
        "de33_silberhochzeit",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Für unsere Silberhochzeit haben wir im Saal 7 runde Tische mit je 8 Plätzen und"
            " 3 lange Tafeln mit je 12 Plätzen. Wie viele Gäste können insgesamt sitzen?",
            92,
            "zweiundneunzig",
            "ninety-two",
            "ninety two",
            "noventa y dos",
            "quatre-vingt-douze",
            "九十二",
            stream=True,
        ),
    ),
    Case(
        "de33_katze_im_sack",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mein Schwager hat sich übers Internet ein gebrauchtes Wohnmobil gekauft. Meine"
            " Frau sagt, da hat er die Katze im Sack gekauft. Was meint sie damit?",
            "ungesehen|unbesehen|ungeprüft|ohne es|ohne sie|ohne ihn|ohne die|ohne den"
            "|ohne das|ohne sich|ohne zu|ohne vorher|ohne genau|ohne prüf|ohne besicht"
            "|nicht genau|nicht geprüft|nicht gesehen|nicht angesehen|nicht angeschaut"
            "|nicht besichtigt|nicht begutachtet|nicht kennt|nicht weiß|nicht wusste"
            "|nicht wissen|überprüf|begutacht|zu prüfen|blind|risiko",
        ),
    ),
    Case(
        "de33_stromzaehler",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Ich habe die Zählerstände vom letzten Jahr als stromzaehler_2024.csv.gz bekommen."
            " Mit welchem Befehl kann ich mir den Inhalt anschauen, ohne die Datei vorher zu"
            " entpacken? Zeig mir nur den Befehl, nicht ausführen.",
            {"erledigen.txt": "Paket abholen, Nummer {code}\nGlühbirnen x{n}\n"},
            _ANSEHEN,
            "a zcat stromzaehler_2024.csv.gz (or zless, gunzip -c) command",
        ),
    ),
    Case(
        "de33_pfarrfest",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Öffne pfarrfest.txt und sag mir, wer dieses Jahr den Kuchenstand macht.",
            {
                "pfarrfest.txt": "Pfarrfest St. Laurentius, Helferliste {n}\n"
                "Aufbau: Samstag ab 9 Uhr auf der Kirchwiese\n"
                "Kuchenstand: {name}\n"
                "Getränkewagen: die Feuerwehr\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de33_reifenwechsel",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir reifenwechsel.txt vor, ändere den Termin von Dienstag auf Donnerstag und"
            " lies mir die Datei danach noch einmal vor, damit ich sehe, dass es gespeichert"
            " ist.",
            "reifenwechsel.txt",
            ["Reifenwechsel, Auftrag {n}", "termin: Dienstag", "reifen: Winterreifen"],
            ["Reifenwechsel, Auftrag {n}", "termin: Donnerstag", "reifen: Winterreifen"],
            "termin: Donnerstag",
        ),
    ),
    Case(
        "de33_buecher",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Jede Zeile in gelesene_buecher.txt ist ein Buch, das ich dieses Jahr gelesen habe."
            " Wie viele sind es schon? Zähl bitte die Zeilen mit einem Befehl.",
            "gelesene_buecher.txt",
        ),
    ),
)
