"""Twenty-ninth fresh English cases: written at once for the held-out-29 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ambrosine", "Bathsheba", "Hyacinth", "Mehitabel", "Rosamond")

#: The names the recall saves, one per run.
CLEANERS = ("Fortescue", "Hezekiah", "Thelonius", "Wolstan")

#: The command that unpacks wedding_pics.zip: unzip with its options, then the archive.
_UNZIP = r"(?<![\w-])unzip\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?wedding_pics\.zip['\"]?(?![\w.-])"

CASES: tuple[Case, ...] = (
    Case(
        "en29_beach_bag",
        "action",
        LANGUAGE,
        forms.append_line(
            "Could you stick '{line}' on the end of beach_bag.txt? Keep the rest of the list"
            " exactly as it is.",
            "beach_bag.txt",
            ["Towels x4", "Sun cream (factor 50)", "Bucket and spade"],
            "Snorkel borrowed from {name}",
        ),
    ),
    Case(
        "en29_bins",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in 2 hours to put the recycling bin out? They collect first thing"
            " tomorrow.",
            2,
            "bin",
            "recycling",
            "müll",
            "tonne",
            "basura",
            "reciclaje",
            "poubelle",
            "recyclage",
            "ゴミ",
            "ごみ",
        ),
    ),
    Case(
        "en29_fish_tank",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The light on the fish tank stays on way too long and the glass is going green. In"
            " fish_tank.cfg set light_hours from 12 to 8 - change that line, don't add another.",
            "fish_tank.cfg",
            ["heater = on", "light_hours = 12", "pump_speed = {n}"],
            ["heater = on", "light_hours = 8", "pump_speed = {n}"],
        ),
    ),
    Case(
        "en29_window_cleaner",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that our window cleaner is called {value}. He does the gutters too"
            " if you ask nicely.",
            "Who's our window cleaner again? I want to ask him about the gutters.",
            CLEANERS,
        ),
    ),
    Case(
        "en29_pizza_slices",
        "no-tool",
        LANGUAGE,
        forms.number(
            "We ordered 7 pizzas for the party, each cut into 8 slices, and 11 slices were left"
            " at the end of the night. How many slices got eaten?",
            45,
            "forty-five",
            "forty five",
            "fünfundvierzig",
            "cuarenta y cinco",
            "quarante-cinq",
            "四十五",
            stream=True,
        ),
    ),
    Case(
        "en29_deja_vu",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My son keeps saying he's got deja vu. What does that actually mean?",
            "already|before|familiar",
        ),
    ),
    Case(
        "en29_wedding_pics",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "My sister sent me wedding_pics.zip. What's the command to unzip it in the terminal?"
            " Just tell me, don't run it.",
            {"notes.txt": "Thank-you cards: {n}\nVenue invoice {code}\n"},
            _UNZIP,
            "an unzip wedding_pics.zip command",
        ),
    ),
    Case(
        "en29_bonfire_night",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open bonfire_night.txt and tell me who is bringing the sparklers.",
            {
                "bonfire_night.txt": "Bonfire night, street group {n}\n"
                "Guy: the kids are making it\n"
                "Sparklers: {name}\n"
                "Soup: in the big pot at number 9\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en29_dentist_time",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me appointments.txt, move the dentist from 9:30 to 11:15, then read it back"
            " once more so I know it saved properly.",
            "appointments.txt",
            ["Appointments, ref {n}", "dentist: 9:30", "optician: 14:00"],
            ["Appointments, ref {n}", "dentist: 11:15", "optician: 14:00"],
            "dentist: 11:15",
        ),
    ),
    Case(
        "en29_swimathon",
        "command",
        LANGUAGE,
        forms.count_lines(
            "swimathon_entries.txt has everyone who's entered the school swimathon, one per line."
            " Could you count the lines with a command and tell me how many we've got?",
            "swimathon_entries.txt",
        ),
    ),
)
