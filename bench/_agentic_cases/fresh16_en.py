"""Sixteenth fresh English cases: written at once for the held-out-16 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bartholomew", "Philippa", "Rosamund", "Percival", "Wilhelmina")

CASES: tuple[Case, ...] = (
    Case(
        "en16_recycling_bin",
        "action",
        LANGUAGE,
        forms.remind(
            "Give me a nudge in an hour to wheel the recycling bin out to the kerb, would you?",
            1,
            "recycl",
            "bin",
            "kerb",
            "curb",
            "rubbish",
            "tonne",
            "mull",
            "reciclaje",
            "contenedor",
            "poubelle",
            "ゴミ",
            "ごみ",
            "資源",
        ),
    ),
    Case(
        "en16_jumble_sale",
        "action",
        LANGUAGE,
        forms.append_line(
            "Please stick '{line}' on the end of jumble_sale.txt.",
            "jumble_sale.txt",
            ["board games", "winter coats", "picture frames"],
            "cake stand from {name}",
        ),
    ),
    Case(
        "en16_night_heating",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In heating_schedule.cfg the night setting is 19, but I want it at 17. Alter that"
            " line rather than adding another one, please.",
            "heating_schedule.cfg",
            ["night = 19", "day = 21", "boost_minutes = {n}"],
            ["night = 17", "day = 21", "boost_minutes = {n}"],
        ),
    ),
    Case(
        "en16_vet_client",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you hang on to this for me? The vet has our cat down under client number"
            " {code}.",
            "What was our cat's client number at the vet?",
        ),
    ),
    Case(
        "en16_stop_sign",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many sides has a stop sign got?",
            8,
            "eight",
            "octagon",
            "octagonal",
            "acht",
            "ocho",
            "huit",
            "八",
        ),
    ),
    Case(
        "en16_africa_australia",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Which ocean lies between Africa and Australia?",
            "indian|indisch|indico|indien|インド洋",
            stream=True,
        ),
    ),
    Case(
        "en16_path_variable",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How do I print out what's in my PATH variable from the terminal? Just show me the"
            " command, please don't run it.",
            {"shell_notes.txt": "Added ~/bin to the path on day {n}\n"},
            r"(?<![\w-])echo\s+['\"]?\$\{?path\}?(?!\w)"
            r"|(?<![\w-])printenv\s+path(?!\w)"
            r"|(?<![\w-])env\s*\|\s*grep\s+(?:-\S+\s+)*['\"]?\^?path",
            "an echo $PATH (or printenv PATH) command",
        ),
    ),
    Case(
        "en16_book_club",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at book_club_hosts.txt and let me know who is hosting in March.",
            {
                "book_club_hosts.txt": "Book club hosts, {n} members\n"
                "January: Priya\nMarch: {name}\nMay: Callum\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en16_litter_pickers",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines are in litter_pickers.txt right now? Pop Gareth Lewis on the end as"
            " a new line, then give me the new count.",
            "litter_pickers.txt",
            "Gareth Lewis",
        ),
    ),
    Case(
        "en16_meter_readings",
        "command",
        LANGUAGE,
        forms.count_lines(
            "How many lines are there in meter_readings.txt? Check with a shell command, please.",
            "meter_readings.txt",
        ),
    ),
)
