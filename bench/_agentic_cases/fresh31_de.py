"""Thirty-first fresh German cases: written at once for the held-out-31 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Irmengard", "Reinhilde", "Liutgard", "Sieghard", "Gotthilf")

#: The commands that print the calendar week: date with a format holding %V (or %W, %U;
#: lower case, as the check compares), or cal / ncal with the week numbers (-w).
_KW = (
    r"(?<![\w-])date\s+(?:-\S+\s+)*['\"]?\+['\"]?[^'\"\n]*?%[vwu]"
    r"|(?<![\w-])n?cal\s+(?:-\S+\s+)*-[a-z]*w"
)

#: When she wakes: 15:05 (or 15.05, 15h05, 15 Uhr 5), or in words.
_WACH = r"(?<![\d.:])15\s*[:.h]\s*05(?!\d)|(?<![\d.:])15 uhr 0?5(?!\d)|funf nach drei"

CASES: tuple[Case, ...] = (
    Case(
        "de31_rollator",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib bitte in eine neue Datei rollator.txt, dass {name} vom Sanitätshaus uns den"
            " Rollator für Mama geliehen hat und dass die Leihnummer {code} ist.",
            "rollator.txt",
        ),
    ),
    Case(
        "de31_gefrierschrank",
        "action",
        LANGUAGE,
        forms.remind(
            "Ich taue gerade den Gefrierschrank ab. Erinner mich bitte in zweieinhalb Stunden"
            " daran, ihn wieder einzuschalten.",
            2.5,
            "gefrier",
            "abtau",
            "einschalten",
            "freezer",
            "congelador",
            "congelateur",
            "冷凍",
        ),
    ),
    Case(
        "de31_schrittziel",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Meine Fitnessuhr ist mir zu gnädig. Setz in fitnessuhr.conf das schrittziel von"
            " 8000 auf 10000 hoch, bitte die vorhandene Zeile ändern und keine neue anhängen.",
            "fitnessuhr.conf",
            ["anzeige = hell", "schrittziel = 8000", "geraet_nr = {n}"],
            ["anzeige = hell", "schrittziel = 10000", "geraet_nr = {n}"],
        ),
    ),
    Case(
        "de31_moebelhaus",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte die Vorgangsnummer für meine Reklamation beim Möbelhaus: {code}. Das"
            " neue Sofa hat einen Riss im Bezug.",
            "Welche Vorgangsnummer hatte meine Reklamation beim Möbelhaus nochmal?",
        ),
    ),
    Case(
        "de31_mittagsschlaf",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Unsere Kleine ist um 13:10 eingeschlafen und macht mittags meistens eine Stunde und"
            " 55 Minuten. Wann wird sie ungefähr wieder wach?",
            _WACH,
            "15:05",
            stream=True,
        ),
    ),
    Case(
        "de31_kummerspeck",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mein Kumpel sagt, er hat sich seit der Trennung ordentlich Kummerspeck angefuttert."
            " Was meint er damit?",
            "frust|trauer|sorge|traurig|stress|seelisch|emotional|trost|zugenommen|gewicht",
        ),
    ),
    Case(
        "de31_kalenderwoche",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Im Büro fragt ständig jemand, welche Kalenderwoche wir haben. Mit welchem Befehl"
            " zeigt mir das Terminal die KW an? Nur den Befehl nennen, nicht ausführen.",
            {"notizen.txt": "Briefmarken: {n} Stück\nAbholschein {code}\n"},
            _KW,
            "a date +%V (or cal -w) command",
        ),
    ),
    Case(
        "de31_kaninchenzucht",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich konnte nicht zur Jahreshauptversammlung vom Kaninchenzuchtverein. Was steht im"
            " Protokoll jhv_kaninchenzucht.txt? Und wer macht jetzt die Kasse?",
            {
                "jhv_kaninchenzucht.txt": "Jahreshauptversammlung, {n} Mitglieder anwesend\n"
                "Der Beitrag bleibt bei 30 Euro im Jahr.\n"
                "Die Kreisschau ist im November in der Turnhalle.\n"
                "{name} übernimmt ab sofort die Kasse.\n"
                "Das Sommerfest fällt dieses Jahr aus.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de31_seniorenkaffee",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "In anmeldungen_seniorenkaffee.txt steht jede Anmeldung in einer eigenen Zeile. Zähl"
            " sie mit wc -l, häng „Liselotte Brinkmann“ als neue Zeile an und zähl danach noch"
            " einmal, damit ich die neue Zahl sehe.",
            "anmeldungen_seniorenkaffee.txt",
            "Liselotte Brinkmann",
        ),
    ),
    Case(
        "de31_pilze",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In pilzfunde.csv trage ich jeden Fund mit Sorte und Gewicht ein. Wie oft hab ich"
            " diesen Herbst Steinpilze gefunden? Zähl es bitte mit einem Befehl.",
            "pilzfunde.csv",
            "Steinpilze",
            ("Pfifferlinge", "Maronen", "Birkenpilze", "Parasole"),
        ),
    ),
)
