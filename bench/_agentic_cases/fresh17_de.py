"""Seventeenth fresh German cases: written at once for the held-out-17 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bernhardine", "Eberhard", "Friedegund", "Irmtraud", "Wolfgang")

CASES: tuple[Case, ...] = (
    Case(
        "de17_hefeteig",
        "action",
        LANGUAGE,
        forms.remind(
            "Gib mir in 45 Minuten Bescheid, dass ich den Hefeteig weiterverarbeiten muss.",
            0.75,
            "teig",
            "hefe",
            "dough",
            "yeast",
            "masa",
            "levadura",
            "pate",
            "levure",
            "生地",
            "パン",
        ),
    ),
    Case(
        "de17_ferienwohnung",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib in eine neue Datei ferienwohnung.txt, dass der Schlüssel bei {name} im"
            " Nachbarhaus liegt und der Code für den Schlüsselkasten {code} lautet.",
            "ferienwohnung.txt",
        ),
    ),
    Case(
        "de17_wlan_zeitplan",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Stell in wlan_zeitplan.conf die Abschaltzeit von 23 auf 22 um. Nur die Zeile"
            " ändern, keine neue anhängen.",
            "wlan_zeitplan.conf",
            ["abschalten = 23", "einschalten = 6", "geraete = {n}"],
            ["abschalten = 22", "einschalten = 6", "geraete = {n}"],
        ),
    ),
    Case(
        "de17_kuechenmontage",
        "recall",
        LANGUAGE,
        forms.remember(
            "Kannst du dir bitte was merken? Die Auftragsnummer für unsere Küchenmontage lautet"
            " {code}.",
            "Was war noch gleich die Auftragsnummer für die Küchenmontage?",
        ),
    ),
    Case(
        "de17_bowling_pins",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Pins stehen beim Bowling am Anfang eines Wurfs?",
            10,
            "zehn",
            "ten",
            "diez",
            "dix",
            "十",
        ),
    ),
    Case(
        "de17_buchdruck",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat in Europa den Buchdruck mit beweglichen Lettern erfunden?",
            "gutenberg|グーテンベルク",
            stream=True,
        ),
    ),
    Case(
        "de17_passwort_aendern",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl ändere ich im Terminal mein Benutzerpasswort? Bitte nur"
            " hinschreiben, nicht ausführen, ich tipp ihn selbst ein.",
            {"zugang.txt": "Letzte Änderung vor {n} Tagen\n"},
            r"(?<![\w-])passwd(?![\w-])",
            "a passwd command",
        ),
    ),
    Case(
        "de17_winterdienst",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Guck in winterdienst.txt und sag mir, wer in KW 3 mit Schneeschippen dran ist.",
            {
                "winterdienst.txt": "Winterdienst Haus {n}\n"
                "KW 2: Familie Özdemir\nKW 3: {name}\nKW 4: Frau Lehmann\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de17_tischtennis",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies tischtennis.txt, verschieb das Training von Dienstag auf Donnerstag und lies"
            " mir die Datei dann noch einmal vor.",
            "tischtennis.txt",
            ["Tischtennis Jugend, Gruppe {n}", "Training: Dienstag", "Halle: Sporthalle Ost"],
            ["Tischtennis Jugend, Gruppe {n}", "Training: Donnerstag", "Halle: Sporthalle Ost"],
            "Training: Donnerstag",
        ),
    ),
    Case(
        "de17_hofladen_reutlingen",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Zähl mit einem Befehl, wie viele Zeilen in hofladen.csv aus Reutlingen kommen.",
            "hofladen.csv",
            "Reutlingen",
            ["Metzingen", "Pfullingen", "Tuebingen"],
        ),
    ),
)
