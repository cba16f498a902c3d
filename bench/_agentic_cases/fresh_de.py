"""Frische deutsche Fälle: written at once after both halves had been read for failures, so
no rule was tuned on them; split by the committed seed like every case."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de_gaesteliste",
        "action",
        LANGUAGE,
        forms.append_line(
            "Trag in gaeste.txt bitte noch „{line}“ als neue Zeile ganz unten ein.",
            "gaeste.txt",
            ["Oma Ilse", "Onkel Peter", "Familie Berger"],
            "{name} mit Begleitung",
        ),
    ),
    Case(
        "de_kundennummer",
        "recall",
        LANGUAGE,
        forms.remember(
            "Vergiss das bitte nicht: Meine Kundennummer beim Stromanbieter lautet {code}.",
            "Wie war nochmal meine Kundennummer beim Stromanbieter?",
        ),
    ),
    Case(
        "de_schaltjahr",
        "no-tool",
        LANGUAGE,
        forms.number("Wie viele Tage hat ein Schaltjahr?", 366),
    ),
    Case(
        "de_relativitaet",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Kurze Frage zwischendurch: Wer hat eigentlich die Relativitätstheorie aufgestellt?",
            "einstein|アインシュタイン",
        ),
    ),
    Case(
        "de_tar_zeigen",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl würde ich den Ordner fotos in ein fotos.tar.gz packen? Bitte"
            " nur den Befehl hinschreiben, nicht ausführen.",
            {"fotos/urlaub.txt": "Strand, Tag {n}\n", "fotos/liste.txt": "12 Bilder\n"},
            r"\btar\b",
            "a tar command",
        ),
    ),
    Case(
        "de_reisebericht",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Worum ging es in reisebericht.txt? Kurz zusammengefasst, bitte.",
            {
                "reisebericht.txt": "Im Mai sind wir mit dem Nachtzug nach Triest gefahren."
                " {name} hat die Unterkunft gebucht, und wir haben drei Tage lang die Küste"
                " erkundet. Am letzten Abend haben wir {code} Fotos gezählt.\n"
            },
            "triest|trieste|{name}",
        ),
    ),
    Case(
        "de_farbe_nochmal",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies bitte thema.cfg, ändere darin farbe=blau in farbe=rot und lies die Datei"
            " danach noch einmal, damit ich sehe, dass es geklappt hat.",
            "thema.cfg",
            ["farbe=blau", "stufe={n}"],
            ["farbe=rot", "stufe={n}"],
            "farbe=rot",
        ),
    ),
    Case(
        "de_docx",
        "dotted",
        LANGUAGE,
        forms.words(
            "Mit welchem Programm öffnet man normalerweise eine .docx-Datei?",
            "word|writer|ワード",
        ),
    ),
)
