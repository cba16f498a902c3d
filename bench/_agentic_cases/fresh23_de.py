"""Twenty-third fresh German cases: written at once for the held-out-23 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Gottfried", "Walburga", "Reinhold", "Adelheid", "Siegbert")

#: The neighbours' dog's names the recall saves, one per run.
HUNDE = ("Bello", "Wuschel", "Krümel", "Balu")

#: The folder projekte (as given, with a path or quoted) and the files to delete in it.
_PROJEKTE = r"['\"]?(?:[\w~./-]*/)?projekte/?['\"]?"
_BAK = r"['\"]?\*\.bak['\"]?"

#: The commands that delete every .bak file under projekte, subfolders included, as an answer
#: may write them: find with -name (or -iname) and -delete or -exec rm, or rm on a ** glob.
_LOESCHEN = "|".join(
    (
        rf"(?<![\w-])find\s+{_PROJEKTE}\s+[^\n`]*?-i?name\s+{_BAK}[^\n`]*?(?:-delete|-exec\s+rm)",
        r"(?<![\w-])rm\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?projekte/\*\*/\*\.bak",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "de23_fahrradkauf",
        "action",
        LANGUAGE,
        forms.write_file(
            "Kannst du eine Datei fahrrad.txt anlegen? Da soll rein, dass ich das Rad bei"
            " {name} gekauft hab und die Rahmennummer {code} ist.",
            "fahrrad.txt",
        ),
    ),
    Case(
        "de23_schwimmkurs",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinner mich bitte in einer halben Stunde daran, die Kinder vom Schwimmkurs"
            " abzuholen.",
            0.5,
            "schwimm",
            "kinder",
            "abhol",
            "swim",
            "pick up",
            "kids",
            "natación",
            "natacion",
            "piscine",
            "natation",
            "水泳",
            "プール",
            "迎え",
        ),
    ),
    Case(
        "de23_lueftung",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Lüfter im Bad läuft ewig nach. Stell in lueftung.cfg den nachlauf von 15 auf 5,"
            " also bitte die vorhandene Zeile ändern und keine neue drunterschreiben.",
            "lueftung.cfg",
            ["raum = bad", "nachlauf = 15", "geraet = {n}"],
            ["raum = bad", "nachlauf = 5", "geraet = {n}"],
        ),
    ),
    Case(
        "de23_nachbarhund",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir mal, der Hund von den Nachbarn heißt {value}. Ich vergess das sonst immer.",
            "Wie hieß noch mal der Hund von unseren Nachbarn?",
            HUNDE,
            stream=True,
        ),
    ),
    Case(
        "de23_zugfahrt",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Unser Zug fährt um 9:40 los und ist um 13:05 in Hamburg. Wie viele Minuten sind"
            " wir insgesamt unterwegs?",
            205,
            "zweihundertfünf",
            "zweihundertfuenf",
            "two hundred and five",
            "two hundred five",
            "doscientos cinco",
            "deux cent cinq",
            "deux-cent-cinq",
            "二百五",
        ),
    ),
    Case(
        "de23_ebbe",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mein Neffe will wissen, wie das Gegenteil von Ebbe heißt. Weißt du das?",
            "flut",
        ),
    ),
    Case(
        "de23_bak_dateien",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "In meinem Ordner projekte liegen überall alte .bak-Dateien rum, auch in den"
            " Unterordnern. Wie werde ich die alle auf einmal los? Zeig mir bloß den Befehl,"
            " ausführen mach ich selbst.",
            {
                "projekte/garten/beet.txt.bak": "Tomaten, Gurken\n",
                "projekte/garten/beet.txt": "Tomaten, Bohnen, {code}\n",
            },
            _LOESCHEN,
            "a find projekte -name '*.bak' -delete command",
        ),
    ),
    Case(
        "de23_skiausflug",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Kannst du mir kurz sagen, was in bericht_skiausflug.txt drinsteht? Und wer hat"
            " die Skischule für die Anfänger organisiert?",
            {
                "bericht_skiausflug.txt": "Skiausflug der Abteilung, Bus {n}\n"
                "Am Freitag sind wir um sechs Uhr früh losgefahren.\n"
                "{name} hat am zweiten Tag die Skischule für die Anfänger organisiert.\n"
                "Auf der Rückfahrt standen wir zwei Stunden im Stau.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de23_lauftreff",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat teilnehmer_lauftreff.txt gerade? Häng dann „Jutta Brandt“"
            " unten dran und zähl noch mal nach.",
            "teilnehmer_lauftreff.txt",
            "Jutta Brandt",
        ),
    ),
    Case(
        "de23_chorprobe",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Zähl bitte mit einem Befehl, wie viele Zeilen in chorprobe_anwesenheit.txt stehen.",
            "chorprobe_anwesenheit.txt",
        ),
    ),
)
