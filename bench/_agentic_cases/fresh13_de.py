"""Thirteenth fresh German cases: written at once for the held-out-13 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Friedhelm", "Waltraud", "Gottfried", "Brunhilde", "Ottokar")

CASES: tuple[Case, ...] = (
    Case(
        "de13_packstation",
        "action",
        LANGUAGE,
        forms.remind(
            "Sag mir in zwei Stunden Bescheid, dass ich das Paket an der Packstation abholen muss.",
            2,
            "packstation",
            "paket",
            "parcel",
            "package",
            "paquete",
            "colis",
            "荷物",
            "宅配",
        ),
    ),
    Case(
        "de13_umzugskartons",
        "action",
        LANGUAGE,
        forms.write_file(
            "Erstell die Datei umzugskartons.txt und notier darin: Die leeren Umzugskartons holt"
            " {name} am Freitag ab, die Auftragsnummer ist {code}.",
            "umzugskartons.txt",
        ),
    ),
    Case(
        "de13_backofen",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Trag in backofen.conf beim Vorheizen 200 statt 180 ein, sonst bitte nichts ändern.",
            "backofen.conf",
            ["vorheizen = 180", "modus = umluft", "timer = {n}"],
            ["vorheizen = 200", "modus = umluft", "timer = {n}"],
        ),
    ),
    Case(
        "de13_fundbuero",
        "recall",
        LANGUAGE,
        forms.remember(
            "Meine Vorgangsnummer beim Fundbüro ist {code}, bitte merk dir das.",
            "Unter welcher Vorgangsnummer läuft meine Sache beim Fundbüro?",
        ),
    ),
    Case(
        "de13_skatblatt",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Aus wie vielen Karten besteht ein Skatblatt?",
            32,
            "zweiunddreißig",
            "zweiunddreissig",
            "thirty-two",
            "thirty two",
            "treinta y dos",
            "trente-deux",
            "三十二枚",
        ),
    ),
    Case(
        "de13_wien_fluss",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Welcher große Fluss fließt durch Wien?",
            "donau|danube|danubio|ドナウ",
            stream=True,
        ),
    ),
    Case(
        "de13_arbeitsspeicher",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl sehe ich im Terminal, wie viel Arbeitsspeicher noch frei ist?"
            " Schreib ihn mir nur hin, nicht ausführen.",
            {"aufruestung.txt": "RAM aufrüsten? {n} GB\n"},
            r"(?<![\w-])free\s+(?:-[a-z]+|--[a-z]+)"
            r"|(?<![\w/])cat\s+/proc/meminfo"
            r"|(?<![\w-])vmstat(?![\w-])",
            "a free -h command",
        ),
    ),
    Case(
        "de13_kuchenbuffet",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Sieh in kuchenbuffet.txt nach und sag mir, wer den Käsekuchen mitbringt.",
            {
                "kuchenbuffet.txt": "Kuchenbuffet Sommerfest ({n} Stück)\n"
                "Apfelkuchen: Familie Berger\nKäsekuchen: {name}\nMuffins: Klasse 3b\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de13_gleis",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lies abfahrt.txt, ändere das Gleis von 7 auf 12 und lies die Datei danach noch"
            " einmal, damit ich sehe, ob es stimmt.",
            "abfahrt.txt",
            ["Zug nach Köln, Wagen {n}", "Gleis: 7", "Abfahrt: 14:05"],
            ["Zug nach Köln, Wagen {n}", "Gleis: 12", "Abfahrt: 14:05"],
            "Gleis: 12",
        ),
    ),
    Case(
        "de13_anrufe_bremen",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Find per Befehl heraus, wie viele Zeilen in anrufe.csv zu Bremen gehören.",
            "anrufe.csv",
            "Bremen",
            ["Kiel", "Rostock", "Oldenburg"],
        ),
    ),
)
