"""Twenty-seventh fresh English cases: written at once for the held-out-27 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ethelbert", "Griselda", "Gwendolyn", "Wilhelmina", "Barnabas")

#: The names the recall saves, one per run.
TREE_SURGEONS = ("Barnaby", "Ptolemy", "Crispin", "Ambrose")

#: The command that tells how much space the photos_2023 folder takes: du with its options,
#: then the folder (a trailing slash allowed).
_DU = r"(?<![\w-])du\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?photos_2023/?['\"]?(?![\w.-])"

CASES: tuple[Case, ...] = (
    Case(
        "en27_pub_quiz",
        "action",
        LANGUAGE,
        forms.append_line(
            "Could you stick '{line}' on the end of pub_quiz_rounds.txt? Don't touch the rounds"
            " that are already in there.",
            "pub_quiz_rounds.txt",
            ["General knowledge", "Music intros", "Picture round"],
            "Local history round set by {name}",
        ),
    ),
    Case(
        "en27_garage_call",
        "action",
        LANGUAGE,
        forms.remind(
            "Give me a nudge in two and a half hours to ring the garage about the car's brakes.",
            2.5,
            "garage",
            "brake",
            "car",
            "werkstatt",
            "bremse",
            "taller",
            "freno",
            "frein",
            "ブレーキ",
        ),
    ),
    Case(
        "en27_hot_tub",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The hot tub's too hot for Grandad. In hot_tub.cfg, change water_temp from 39 to 37 -"
            " edit the line that's there rather than adding another one.",
            "hot_tub.cfg",
            ["jets = low", "water_temp = 39", "filter_hours = {n}"],
            ["jets = low", "water_temp = 37", "filter_hours = {n}"],
        ),
    ),
    Case(
        "en27_tree_surgeon",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you keep in mind that the tree surgeon who took down our old ash is called"
            " {value}? The neighbours keep asking.",
            "Who was the tree surgeon that took down our ash tree?",
            TREE_SURGEONS,
        ),
    ),
    Case(
        "en27_cupcakes",
        "no-tool",
        LANGUAGE,
        forms.number(
            "For the school bake sale I've made 5 trays of cupcakes with 12 on each tray, and my"
            " neighbour's dropping round another 7. How many cupcakes is that in all?",
            67,
            "sixty-seven",
            "sixty seven",
            "siebenundsechzig",
            "sesenta y siete",
            "soixante-sept",
            "六十七",
            stream=True,
        ),
    ),
    Case(
        "en27_un_abrazo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My colleague in Valencia always finishes her emails with 'un abrazo'. What does that"
            " mean?",
            "hug|embrace",
        ),
    ),
    Case(
        "en27_photos_size",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How can I find out how much space my photos_2023 folder is taking up? Just tell me"
            " the command, I'll run it myself.",
            {"errands.txt": "Milk x{n}\nGym locker {code}\n"},
            _DU,
            "a du -sh photos_2023 command",
        ),
    ),
    Case(
        "en27_church_flowers",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check church_flowers.txt and tell me who's doing the porch flowers this Saturday.",
            {
                "church_flowers.txt": "Church flowers rota, month {n}\n"
                "Altar: Marjorie\n"
                "Porch: {name}\n"
                "Font: Reginald\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en27_bin_day",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read out house_notes.txt for me, then change bin day from Monday to Wednesday and"
            " read it out again so I can see it's right.",
            "house_notes.txt",
            ["Household notes, flat {n}", "bin day: Monday", "recycling: fortnightly"],
            ["Household notes, flat {n}", "bin day: Wednesday", "recycling: fortnightly"],
            "bin day: Wednesday",
        ),
    ),
    Case(
        "en27_lost_property",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Each line of lost_property.txt is something left behind at the swimming pool this"
            " month. How many items is that? Use a command to count them, please.",
            "lost_property.txt",
        ),
    ),
)
