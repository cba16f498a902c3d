"""Thirty-second fresh German cases: written at once for the held-out-32 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Waltraud", "Hildegunde", "Eberhard", "Adelheid", "Burkhard")

#: The commands that find the lines of backrezepte.txt with Zimt in any case: grep (or rg)
#: ignoring case (-i, --ignore-case) for zimt (lower case, as the check compares), on the file
#: or fed it by cat; or grep for [Zz]imt.
_REZEPTE = r"['\"]?(?:[\w~./-]*/)?backrezepte\.txt['\"]?(?![\w.-])"
_IGNORE = r"(?:-[a-z]*i[a-z]*|--ignore-case)"
_ZIMT = (
    rf"(?<![\w-])(?:grep|rg)\s+(?:-\S+\s+)*{_IGNORE}\s+(?:-\S+\s+)*['\"]?zimt['\"]?\s+"
    rf"(?:-\S+\s+)*{_REZEPTE}"
    rf"|(?<![\w-])cat\s+{_REZEPTE}\s*\|\s*(?:grep|rg)\s+(?:-\S+\s+)*{_IGNORE}\s+(?:-\S+\s+)*"
    r"['\"]?zimt['\"]?(?![\w])"
    rf"|(?<![\w-])grep\s+(?:-\S+\s+)*['\"]?\[zz\]imt['\"]?\s+(?:-\S+\s+)*{_REZEPTE}"
)

#: When they arrive: 14:00 (or 14.00, 14 Uhr), or in words.
_ZIEL = r"(?<![\d.:])14\s*[:.h]\s*00(?!\d)|(?<![\d.:])14 uhr(?!\s*\d)|zwei uhr"

CASES: tuple[Case, ...] = (
    Case(
        "de32_heizoel",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib bitte in eine neue Datei heizoel.txt, dass unser Ansprechpartner beim"
            " Heizölhändler {name} heißt und die Auftragsnummer {code} ist.",
            "heizoel.txt",
        ),
    ),
    Case(
        "de32_haarfarbe",
        "action",
        LANGUAGE,
        forms.remind(
            "Ich hab mir grad die Haare gefärbt. Erinner mich bitte in einer Dreiviertelstunde"
            " daran, die Farbe auszuwaschen.",
            0.75,
            "haarfarbe",
            "farbe",
            "haare",
            "auswaschen",
            "hair",
            "dye",
            "tinte",
            "pelo",
            "cheveux",
            "coloration",
            "髪",
            "カラー",
        ),
    ),
    Case(
        "de32_gewaechshaus",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Im Gewächshaus wird es den Tomaten zu heiß. Stell in gewaechshaus.conf lueften_ab"
            " von 28 auf 25 runter, aber bitte die vorhandene Zeile ändern und keine neue"
            " dazuschreiben.",
            "gewaechshaus.conf",
            ["modus = automatisch", "lueften_ab = 28", "sensor = {n}"],
            ["modus = automatisch", "lueften_ab = 25", "sensor = {n}"],
        ),
    ),
    Case(
        "de32_griechen",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass unsere Reservierung beim Griechen am Samstag unter der Nummer"
            " {code} läuft.",
            "Unter welcher Nummer lief nochmal unsere Reservierung beim Griechen?",
        ),
    ),
    Case(
        "de32_wanderung",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Wir starten morgen um 8:40 zur Wanderung. Laut Karte sind es 4 Stunden 35 Minuten"
            " reine Gehzeit, dazu kommen 45 Minuten Pause. Wann sind wir ungefähr am Ziel?",
            _ZIEL,
            "14:00",
            stream=True,
        ),
    ),
    Case(
        "de32_flinte_ins_korn",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mein Vater meint, ich soll nicht gleich die Flinte ins Korn werfen, nur weil ich"
            " einmal durch die Führerscheinprüfung gefallen bin. Was heißt das eigentlich?",
            "aufgeben|aufzugeben|aufgibst|gib nicht auf|gibst du auf|resignier|hinwerfen"
            "|hinzuwerfen|hinschmei|hinzuschmei|kapitulier|den mut verlier|mut sinken"
            "|aufhoren|aufzuhoren|nicht weitermachen",
        ),
    ),
    Case(
        "de32_zimt",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl finde ich in backrezepte.txt alle Zeilen, in denen Zimt"
            " vorkommt, egal ob groß oder klein geschrieben? Bitte nur zeigen, nicht ausführen.",
            {"einkauf.txt": "Backpapier x{n}\nPaketnummer {code}\n"},
            _ZIMT,
            "a grep -i zimt backrezepte.txt command",
        ),
    ),
    Case(
        "de32_heimatverein",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich war letzte Woche nicht bei der Versammlung vom Heimatverein. Was steht in"
            " heimatverein_protokoll.txt? Und wer hat jetzt die Maifeier übernommen?",
            {
                "heimatverein_protokoll.txt": "Versammlung des Heimatvereins, {n} Mitglieder"
                " anwesend\n"
                "Der Vorstand wurde einstimmig entlastet.\n"
                "Man hat beschlossen, die Dorfchronik neu drucken zu lassen.\n"
                "{name} hat die Organisation der Maifeier übernommen.\n"
                "Der Ausflug ins Freilichtmuseum wurde auf September verschoben.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de32_spendenlauf",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "In laeufer_spendenlauf.txt steht jeder angemeldete Läufer für den Spendenlauf in"
            " einer eigenen Zeile. Zähl die Zeilen mit wc -l, häng dann „Heinrich Overbeck“ als"
            " neue Zeile an und zähl noch einmal, damit ich sehe, wie viele es jetzt sind.",
            "laeufer_spendenlauf.txt",
            "Heinrich Overbeck",
        ),
    ),
    Case(
        "de32_tankbuch",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In tankbuch.csv schreibe ich jedes Tanken mit Tankstelle und Litern auf. Wie oft"
            " habe ich dieses Jahr bei Aral getankt? Zähl das bitte mit einem Befehl.",
            "tankbuch.csv",
            "Aral",
            ("Shell", "Esso", "Agip", "Avia"),
        ),
    ),
)
