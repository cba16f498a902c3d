"""Thirty-fourth fresh German cases: written at once for the held-out-34 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Luitpold", "Hedwig", "Wunibald", "Kreszenz", "Gerhild")

#: When the train gets in: 12:25 (or 12.25, 12 Uhr 25), or in words (lower case, no umlauts,
#: as the check compares).
_ANKUNFT = r"(?<![\d.:])12\s*(?:[:.h]|uhr)\s*25(?!\d)|funf vor halb eins|zwolf uhr funfundzwanzig"

#: The commands that take the Windows line ends (\r) out of spielplan.csv: dos2unix or fromdos
#: on it; sed in place (or into another file) deleting \r (s/\r$//, s/\r//g, any of / | #);
#: tr -d '\r' (or '\015') from it into another file; perl in place deleting \r; awk's sub of
#: \r into another file; or vim (ex) setting fileformat=unix.
_CSV = r"['\"]?(?:[\w~./-]*/)?spielplan\.csv['\"]?(?![\w.-])"
_CR = r"\$?['\"]s(?:/\\r[^/'\"]*//|\|\\r[^|'\"]*\|\||#\\r[^#'\"]*##)g?['\"]"
_TR = r"tr\s+-d\s+['\"]?\\(?:r|015)['\"]?"
_IN_PLACE = r"(?:-[a-z]*i\S*|--in-place\S*)"
_UNIX = (
    rf"(?<![\w-])(?:dos2unix|fromdos)\s+(?:-\S+\s+)*{_CSV}"
    rf"|(?<![\w-])sed\s+(?:-\S+\s+)*{_IN_PLACE}\s+(?:-\S+\s+)*{_CR}\s+{_CSV}"
    rf"|(?<![\w-])sed\s+(?:-\S+\s+)*{_CR}\s+{_CSV}\s*>\s*\S"
    rf"|(?<![\w-]){_TR}\s*<\s*{_CSV}\s*>\s*\S"
    rf"|(?<![\w-])cat\s+{_CSV}\s*\|\s*{_TR}\s*>\s*\S"
    rf"|(?<![\w-])perl\s+(?:-\S+\s+)*-[a-z]*i[a-z.]*\s+(?:-\S+\s+)*{_CR}\s+{_CSV}"
    rf"|(?<![\w-])awk\s+(?:'[^']*sub\(/\\r[^']*'|\"[^\"]*sub\(/\\r[^\"]*\")\s+{_CSV}\s*>\s*\S"
    r"|(?<![\w-])(?:vim?|ex)\s[^`]*?(?:ff|fileformat)\s*=\s*unix"
)

CASES: tuple[Case, ...] = (
    Case(
        "de34_hundeschule",
        "action",
        LANGUAGE,
        forms.write_file(
            "Leg bitte eine Datei hundeschule.txt an und schreib rein, dass unser Welpe in der"
            " Gruppe von {name} ist und unsere Kursnummer {code} lautet.",
            "hundeschule.txt",
        ),
    ),
    Case(
        "de34_mutter_bahnhof",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in zweieinhalb Stunden daran, meine Mutter vom Bahnhof"
            " abzuholen. Sie kommt mit dem Regionalzug aus Fulda.",
            2.5,
            "bahnhof",
            "mutter",
            "abhol",
            "station",
            "mother",
            "madre",
            "mere",
            "gare",
            "駅",
            "母",
        ),
    ),
    Case(
        "de34_balkonkraftwerk",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Unser Balkonkraftwerk darf jetzt 800 Watt einspeisen. Stell in"
            " balkonkraftwerk.conf die max_leistung von 600 auf 800 um. Bitte ändere die"
            " vorhandene Zeile und schreib keine neue dazu.",
            "balkonkraftwerk.conf",
            ["wechselrichter = WR-{n}", "max_leistung = 600", "anzeige = watt"],
            ["wechselrichter = WR-{n}", "max_leistung = 800", "anzeige = watt"],
        ),
    ),
    Case(
        "de34_hagelschaden",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte die Vorgangsnummer von der Versicherung für den Hagelschaden am"
            " Auto: {code}. Die wollen sie bei jedem Anruf wissen.",
            "Wie war noch mal die Vorgangsnummer für den Hagelschaden?",
        ),
    ),
    Case(
        "de34_ice_muenchen",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mein ICE fährt um 9:47 in Erfurt ab und braucht laut Fahrplan 2 Stunden und 38"
            " Minuten bis München. Wann komme ich an, wenn alles pünktlich ist?",
            _ANKUNFT,
            "12:25",
            stream=True,
        ),
    ),
    Case(
        "de34_schwedisch",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Meine Tochter hat eine Brieffreundin in Schweden, die nächste Woche Geburtstag"
            " hat. Was heißt „Alles Gute zum Geburtstag“ auf Schwedisch?",
            "grattis|födelsedag",
        ),
    ),
    Case(
        "de34_zeilenenden",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Der Trainer hat mir spielplan.csv von seinem Windows-Laptop geschickt, und bei mir"
            " steht jetzt am Ende jeder Zeile ein ^M. Mit welchem Befehl werde ich die los?"
            " Nur sagen, bitte nicht ausführen.",
            {"notizen.txt": "Trikots waschen, Satz {n}\nHallenschlüssel {code}\n"},
            _UNIX,
            "a dos2unix spielplan.csv (or sed -i 's/\\r$//') command",
        ),
    ),
    Case(
        "de34_karnevalsverein",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich konnte gestern nicht zur Versammlung vom Karnevalsverein. Was steht in"
            " karnevalsverein.txt? Und wer kümmert sich um den Wagen für den Rosenmontagszug?",
            {
                "karnevalsverein.txt": "Versammlung des Karnevalsvereins, {n} Mitglieder anwesend\n"
                "Das Motto für die neue Session wurde einstimmig angenommen.\n"
                "Die Prinzenproklamation wurde in die Stadthalle verlegt.\n"
                "{name} hat zugesagt, den Wagen für den Rosenmontagszug zu bauen.\n"
                "Der Mitgliedsbeitrag blieb bei 36 Euro.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de34_adventsmarkt",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "In helfer_adventsmarkt.txt steht ein Helfer pro Zeile. Zähl die Zeilen mit wc -l,"
            " häng „Wiltrud Haselbeck“ als neue Zeile an und zähl danach noch mal, damit ich die"
            " neue Zahl sehe.",
            "helfer_adventsmarkt.txt",
            "Wiltrud Haselbeck",
        ),
    ),
    Case(
        "de34_einkaeufe",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Ich schreibe jeden Einkauf mit dem Namen vom Laden in einkaeufe.csv. Wie oft war"
            " ich dieses Jahr bei Edeka? Zähl das bitte mit einem Befehl.",
            "einkaeufe.csv",
            "Edeka",
            ("Rewe", "Aldi", "Lidl", "Netto"),
        ),
    ),
)
