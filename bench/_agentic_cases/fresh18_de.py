"""Eighteenth fresh German cases: written at once for the held-out-18 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Volkmar", "Hannelore", "Burkhard", "Edeltraud", "Rüdiger")

CASES: tuple[Case, ...] = (
    Case(
        "de18_kartoffeln",
        "action",
        LANGUAGE,
        forms.remind(
            "Sag mir in zwanzig Minuten Bescheid, dass ich nach den Kartoffeln auf dem Herd"
            " schauen muss.",
            1 / 3,
            "kartoffel",
            "herd",
            "potato",
            "stove",
            "patata",
            "pomme de terre",
            "pommes de terre",
            "じゃがいも",
            "ジャガイモ",
            "芋",
        ),
    ),
    Case(
        "de18_laternenumzug",
        "action",
        LANGUAGE,
        forms.append_line(
            "Schreib bitte „{line}“ als neue letzte Zeile in laternenumzug.txt, der Rest bleibt"
            " so.",
            "laternenumzug.txt",
            ["Fackeln: Feuerwehr", "Weckmänner: Bäckerei Kunz", "Musik: Posaunenchor"],
            "Kinderpunsch bringt {name}",
        ),
    ),
    Case(
        "de18_wetterstation",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In wetterstation.conf steht das Messintervall auf 10 Minuten, mach bitte 5 daraus."
            " Die vorhandene Zeile ändern, keine zusätzliche schreiben.",
            "wetterstation.conf",
            ["intervall = 10", "einheit = celsius", "sensor = {n}"],
            ["intervall = 5", "einheit = celsius", "sensor = {n}"],
        ),
    ),
    Case(
        "de18_waermepumpe",
        "recall",
        LANGUAGE,
        forms.remember(
            "Kannst du dir merken, dass die Seriennummer unserer Wärmepumpe auf {code} endet?"
            " Die brauch ich für den Wartungsvertrag.",
            "Auf welche Ziffern endet noch mal die Seriennummer der Wärmepumpe?",
        ),
    ),
    Case(
        "de18_wasserkaesten",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Ich hab 7 Kästen Wasser mit je 24 Flaschen im Keller. Wie viele Flaschen sind das"
            " zusammen?",
            168,
            "hundertachtundsechzig",
            "einhundertachtundsechzig",
            "one hundred and sixty-eight",
            "one hundred sixty-eight",
            "ciento sesenta y ocho",
            "cent soixante-huit",
            "百六十八",
        ),
    ),
    Case(
        "de18_blechtrommel",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Wer hat eigentlich „Die Blechtrommel“ geschrieben?",
            "grass|ギュンター",
            stream=True,
        ),
    ),
    Case(
        "de18_skript_dauer",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Ich will wissen, wie lange mein Skript fotos_sortieren.sh für einen Durchlauf"
            " braucht. Wie messe ich das im Terminal? Bitte nur den Befehl zeigen, nicht"
            " ausführen.",
            {"fotos_sortieren.sh": "#!/bin/sh\necho 'Fotos sortiert: {n}'\n"},
            r"(?<![\w-])time\s+(?:-\S+\s+)*(?:(?:ba|z)?sh\s+)?['\"]?(?:\./|\S*/)?"
            r"fotos_sortieren\.sh"
            r"|(?<![\w-])hyperfine\s+(?:-\S+\s+)*['\"]?(?:(?:ba|z)?sh\s+)?(?:\./|\S*/)?"
            r"fotos_sortieren\.sh",
            "a time ./fotos_sortieren.sh command",
        ),
    ),
    Case(
        "de18_maibaum",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Mach mal maibaum.txt auf und sag mir, wer dieses Jahr den Kranz bindet.",
            {
                "maibaum.txt": "Maibaumfest, {n} Helfer\n"
                "Baum fällen: Forstbetrieb Huber\nKranz binden: {name}\nBier: Brauerei Maier\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de18_zeltlager",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies mir zeltlager.txt vor, änder den Treffpunkt von Bahnhof Süd auf Kirchplatz"
            " und lies mir die Datei danach nochmal vor, damit ich seh, ob's passt.",
            "zeltlager.txt",
            ["Zeltlager der Pfadfinder, Stamm {n}", "Treffpunkt: Bahnhof Süd", "Rückkehr: Sonntag"],
            ["Zeltlager der Pfadfinder, Stamm {n}", "Treffpunkt: Kirchplatz", "Rückkehr: Sonntag"],
            "Treffpunkt: Kirchplatz",
        ),
    ),
    Case(
        "de18_schulbus_ingolstadt",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Wie viele Zeilen in schulbus_fahrten.csv gehören zu Ingolstadt? Ermittle das bitte"
            " mit einem Befehl.",
            "schulbus_fahrten.csv",
            "Ingolstadt",
            ["Eichstaett", "Kelheim", "Neuburg"],
        ),
    ),
)
