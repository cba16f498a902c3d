"""Die deutschen Fälle: every kind of the suite, worded as a German speaker would ask."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"
CONFIG = ["[app]", "name = shop", "port = 80{n}", "debug=true"]

CASES: tuple[Case, ...] = (
    Case(
        "de_notiz",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib bitte in notiz.txt: Paket für {name} abholen, Abholcode {code}.",
            "notiz.txt",
            stream=True,
        ),
    ),
    Case(
        "de_zeile_anhaengen",
        "action",
        LANGUAGE,
        forms.append_line(
            "Häng die Zeile '{line}' an einkauf.txt an.",
            "einkauf.txt",
            ["- Milch", "- Brot"],
            "- Geschenk für {name}",
        ),
    ),
    Case(
        "de_erinnerung",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich in 2 Stunden daran, den Zahnarzt anzurufen.", 2, "zahnarzt", "dentist"
        ),
    ),
    Case(
        "de_schliessfach",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Mein Schließfach im Fitnessstudio hat die Nummer {code}.",
            "Welche Nummer hat mein Schließfach im Fitnessstudio?",
        ),
    ),
    Case(
        "de_wochentag",
        "info",
        LANGUAGE,
        forms.weekday("Welcher Wochentag ist gerade in Sydney?", "Australia/Sydney"),
    ),
    Case(
        "de_timeout_lesen",
        "info",
        LANGUAGE,
        forms.read_value(
            "Auf wie viele Sekunden ist das Timeout in server.conf eingestellt?",
            "server.conf",
            "[server]\nhost = 127.0.0.1\nport = 8080\ntimeout = {n}\n",
        ),
    ),
    Case(
        "de_zeilen_zaehlen",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Zähl mit einem Shell-Befehl die Zeilen in daten.txt und sag mir die Zahl.",
            "daten.txt",
        ),
    ),
    Case(
        "de_uebersetzen",
        "no-tool",
        LANGUAGE,
        forms.words("Was heißt „Schmetterling“ auf Englisch?", "butterfly"),
    ),
    Case(
        "de_letzte_zeile",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Ändere in der letzten Zeile von config.ini debug=true auf debug=false.",
            "config.ini",
            CONFIG,
            [*CONFIG[:-1], "debug=false"],
        ),
    ),
    Case(
        "de_hinweis_frage",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Hinweis: Das Protokoll der Besprechung liegt in protokoll.txt. Auf welchen Tag"
            " wurde die Besprechung verschoben?",
            {
                "protokoll.txt": "Die Teambesprechung wurde von Dienstag auf Donnerstag"
                " verschoben. Raum {n}.\n"
            },
            "donnerstag|thursday",
        ),
    ),
    Case(
        "de_zusammenfassung",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass notizen.md in zwei Sätzen zusammen.",
            {
                "notizen.md": "# Letzte Woche\nWir haben den Backup-Server nach Oslo umgezogen."
                " {name} hat die Firewall-Regeln aktualisiert und die Release-Notes"
                " geschrieben. Beim Hosting haben wir {code} Euro gespart.\n"
            },
            "oslo|{name}",
        ),
    ),
    Case(
        "de_nur_zeigen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Zeig mir nur, mit welchem Befehl ich hier alle .log-Dateien löschen würde –"
            " aber führ ihn nicht aus.",
            {"app.log": "start\n", "fehler.log": "fehler {n}\n", "behalten.txt": "bleibt\n"},
            r"\brm\b|-delete\b",
            "an rm or find -delete command",
        ),
    ),
    Case(
        "de_anhaengen_zaehlen",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Führ wc -l liste.txt aus, häng dann die Zeile 'Birnen' an liste.txt an und führ"
            " wc -l liste.txt noch einmal aus. Nenn mir beide Zahlen.",
            "liste.txt",
            "Birnen",
        ),
    ),
    Case(
        "de_zb",
        "dotted",
        LANGUAGE,
        forms.words("Was bedeutet die Abkürzung z.B.?", "zum beispiel|for example"),
    ),
    Case(
        "de_nach_werkzeug",
        "after-tool",
        LANGUAGE,
        forms.after_tools(
            "Was steht in gruss.txt?",
            {"gruss.txt": "Viele Grüße aus {name}s Garten!\n"},
            "Danke! Und was ist eigentlich die Hauptstadt von Kanada?",
            "ottawa",
        ),
    ),
)
