"""Twenty-eighth fresh German cases: written at once for the held-out-28 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Adelheid", "Reinhold", "Gottfried", "Roswitha", "Sieglinde")

#: The names the recall saves, one per run.
TAGESMUETTER = ("Wunderlich", "Hagedorn", "Kleinschmidt", "Rosenbaum")

#: The time the roast is done, 10:35 plus 3 hours 40: 14:15 (14.15 or 14 Uhr 15), not part of
#: a longer time.
_FERTIG = r"(?<![\d:.])14\s*(?:[:.]|uhr)\s*15(?!\d)"

#: The command that renames steuer_alt.pdf to steuer_2023.pdf: mv with its options, the old
#: name, then the new one.
_MV = (
    r"(?<![\w-])mv\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?steuer_alt\.pdf['\"]?\s+"
    r"['\"]?(?:[\w~./-]*/)?steuer_2023\.pdf['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "de28_fahrrad",
        "action",
        LANGUAGE,
        forms.write_file(
            "Schreib mir bitte in fahrrad.txt auf, dass ich mein Rad bei {name} gekauft hab und"
            " die Rahmennummer {code} ist. Falls es mal geklaut wird.",
            "fahrrad.txt",
        ),
    ),
    Case(
        "de28_oma_anrufen",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich in drei Stunden daran, Oma im Pflegeheim anzurufen.",
            3,
            "oma",
            "pflegeheim",
            "anrufen",
            "grandma",
            "grandmother",
            "abuela",
            "grand-mère",
            "mamie",
            "おばあ",
        ),
    ),
    Case(
        "de28_kuehlschrank",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Der Kühlschrank friert mir das Gemüse ein. Stell in kuehlschrank.conf die temperatur"
            " von 2 auf 5 hoch, aber bitte die vorhandene Zeile ändern und keine neue"
            " dazuschreiben.",
            "kuehlschrank.conf",
            ["modus = eco", "temperatur = 2", "abtauen_tage = {n}"],
            ["modus = eco", "temperatur = 5", "abtauen_tage = {n}"],
        ),
    ),
    Case(
        "de28_tagesmutter",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte, dass die Tagesmutter von unserer Kleinen {value} heißt.",
            "Wie heißt nochmal die Tagesmutter von unserer Kleinen?",
            TAGESMUETTER,
        ),
    ),
    Case(
        "de28_sonntagsbraten",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Der Sonntagsbraten muss 3 Stunden und 40 Minuten in den Ofen. Wenn ich ihn um 10:35"
            " reinschiebe, wann ist er fertig?",
            _FERTIG,
            "14:15",
        ),
    ),
    Case(
        "de28_cheers",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mein Kollege aus London schreibt unter jede Mail „Cheers“. Was heißt das eigentlich"
            " auf Deutsch?",
            "danke|prost|gruß|grüße|gruss",
            stream=True,
        ),
    ),
    Case(
        "de28_steuer_pdf",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie benenne ich im Terminal steuer_alt.pdf in steuer_2023.pdf um? Sag mir nur den"
            " Befehl, ich tipp ihn dann selbst ein.",
            {"notizen.txt": "Briefmarken: {n}\nPIN Fahrradschloss: {code}\n"},
            _MV,
            "a mv steuer_alt.pdf steuer_2023.pdf command",
        ),
    ),
    Case(
        "de28_elternabend",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Ich konnte nicht zum Elternabend. Was steht in elternabend.txt, und wer kümmert sich"
            " um die Klassenfahrt?",
            {
                "elternabend.txt": "Elternabend Klasse 4b, Protokoll Nr. {n}\n"
                "Die Hausaufgabenhefte werden ab sofort wöchentlich kontrolliert.\n"
                "Für das Sommerfest werden noch Kuchenspenden gesucht.\n"
                "Die Klassenfahrt an die Ostsee organisiert {name}.\n"
                "Das nächste Treffen ist nach den Herbstferien.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "de28_laufgruppe",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Wie viele Zeilen hat laufgruppe.txt? Trag danach „Mechthild Brauneis“ unten ein und"
            " zähl noch mal, damit ich sehe, dass sie jetzt dabei ist.",
            "laufgruppe.txt",
            "Mechthild Brauneis",
        ),
    ),
    Case(
        "de28_flohmarkt",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In flohmarkt.csv steht jeder Verkauf vom Flohmarkt am Samstag in einer Zeile. Wie"
            " oft hab ich Schallplatten verkauft? Zähl das bitte mit einem Befehl.",
            "flohmarkt.csv",
            "Schallplatten",
            ["Bücher", "Spielzeug", "Geschirr"],
        ),
    ),
)
