"""Twenty-first fresh German cases: written at once for the held-out-21 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Gottfried", "Brunhilde", "Siegfried", "Walburga", "Eberhard")

#: The log the count question is about, the word counted, and options of a command, as a
#: command may write them.
_LOG = r"['\"]?(?:[\w~./-]*/)?backup\.log['\"]?"
_WORT = r"['\"]?fehler['\"]?"
_OPTS = r"(?:-\S+\s+)*"
#: grep's count option, alone or among others (-c, -ic, --count).
_ANZAHL = r"(?:-(?!-)[a-z]*c[a-z]*|--count)"
#: wc counting lines, at the end of a pipe.
_WC = r"\s*\|\s*wc\s+(?:-(?!-)[a-z]*l[a-z]*|--lines)(?![\w-])"

#: The commands that count the lines of backup.log holding "Fehler", as an answer may write
#: them: grep -c, grep piped into wc -l, or the file piped into either.
_FEHLER_ZAEHLEN = "|".join(
    (
        rf"(?<![\w-])(?:grep|egrep|fgrep|rg)\s+{_OPTS}{_ANZAHL}\s+{_OPTS}{_WORT}\s+{_OPTS}{_LOG}",
        rf"(?<![\w-])(?:grep|egrep|fgrep|rg)\s+{_OPTS}{_WORT}\s+{_OPTS}{_LOG}{_WC}",
        rf"backup\.log['\"]?\s*\|\s*(?:grep|rg)\s+{_OPTS}"
        rf"(?:{_ANZAHL}\s+{_OPTS}{_WORT}|{_WORT}{_WC})",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "de21_waesche",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnerst du mich in drei Stunden dran, die Wäsche aus der Maschine zu holen und"
            " aufzuhängen?",
            3,
            "wäsche",
            "wasche",
            "waesche",
            "maschine",
            "aufhäng",
            "aufhang",
            "laundry",
            "washing",
            "ropa",
            "lavadora",
            "colada",
            "linge",
            "lessive",
            "洗濯",
        ),
    ),
    Case(
        "de21_heizung_termin",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib mir bitte in eine Datei heizung_termin.txt, dass der Monteur für die"
            " Heizungswartung {name} heißt und die Auftragsnummer {code} ist.",
            "heizung_termin.txt",
        ),
    ),
    Case(
        "de21_nachttemperatur",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Nachts ist es mir im Wohnzimmer zu warm. Stell in heizung.cfg die nachttemperatur"
            " von 18 auf 16, aber bitte die vorhandene Zeile ändern und keine zweite anhängen.",
            "heizung.cfg",
            ["raum = wohnzimmer", "nachttemperatur = 18", "thermostat = {n}"],
            ["raum = wohnzimmer", "nachttemperatur = 16", "thermostat = {n}"],
        ),
    ),
    Case(
        "de21_kopierer_pin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Kannst du dir was merken? Die PIN für den Kopierer bei uns im Büro ist {code}.",
            "Wie war nochmal die PIN vom Bürokopierer?",
        ),
    ),
    Case(
        "de21_radtour",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wir machen eine Radtour über 4 Tage und fahren jeden Tag 65 Kilometer. Wie viele"
            " Kilometer sind das insgesamt?",
            260,
            "zweihundertsechzig",
            "zweihundert sechzig",
            "two hundred and sixty",
            "two hundred sixty",
            "doscientos sesenta",
            "deux cent soixante",
            "deux-cent-soixante",
            "二百六十",
            stream=True,
        ),
    ),
    Case(
        "de21_koeln_fluss",
        "no-tool",
        LANGUAGE,
        forms.words("An welchem Fluss liegt eigentlich Köln?", "rhein|rhine|ライン"),
    ),
    Case(
        "de21_fehler_zaehlen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie zähle ich, in wie vielen Zeilen von backup.log das Wort Fehler vorkommt? Bitte"
            " nur den Befehl zeigen, nicht ausführen.",
            {
                "backup.log": "03:00 Start Sicherung {n}\n03:04 Fehler: Datei gesperrt\n"
                "03:09 fertig\n"
            },
            _FEHLER_ZAEHLEN,
            "a grep -c Fehler backup.log (or grep Fehler backup.log | wc -l) command",
        ),
    ),
    Case(
        "de21_fahrgemeinschaft",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Guck mal in fahrgemeinschaft.txt und sag mir, wer am Donnerstag fährt.",
            {
                "fahrgemeinschaft.txt": "Fahrgemeinschaft zum Werk, Tor {n}\n"
                "Montag: Ottokar\n"
                "Donnerstag: {name}\n"
                "Freitag: jeder selbst\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de21_grillfest",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat grillfest_anmeldungen.txt gerade? Häng danach die Zeile"
            " „Familie Brandt mit Hund“ unten dran und zähl noch mal nach.",
            "grillfest_anmeldungen.txt",
            "Familie Brandt mit Hund",
        ),
    ),
    Case(
        "de21_spendenliste",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Zähl doch mal mit einem Befehl, wie viele Zeilen spendenliste.txt hat.",
            "spendenliste.txt",
        ),
    ),
)
