"""Tenth fresh English cases: written at once for the held-out-10 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Gwendolyn", "Barnaby", "Rosalind", "Thaddeus", "Imogen")

CASES: tuple[Case, ...] = (
    Case(
        "en10_borrowed_drill",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in two hours to take the drill back to my neighbour.",
            2,
            "drill",
            "bohrmaschine",
            "bohrer",
            "taladro",
            "perceuse",
            "ドリル",
        ),
    ),
    Case(
        "en10_window_cleaner",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a file called window_cleaner.txt with a note that the window cleaner is coming"
            " on Friday afternoon; the contact is {name} and the invoice number is {code}.",
            "window_cleaner.txt",
        ),
    ),
    Case(
        "en10_router_channel",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In router.cfg, change the wifi channel from 6 to 11 and leave the rest as it is.",
            "router.cfg",
            ["channel = 6", "tx_power = {n}", "band = 2.4ghz"],
            ["channel = 11", "tx_power = {n}", "band = 2.4ghz"],
        ),
    ),
    Case(
        "en10_bike_lock",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that the combination for my bike lock is {code}.",
            "What was the combination for my bike lock again?",
        ),
    ),
    Case(
        "en10_violin_strings",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many strings does a standard violin have?",
            4,
            "four",
            "vier",
            "cuatro",
            "quatre",
            "四本",
        ),
    ),
    Case(
        "en10_frankenstein",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who wrote the novel Frankenstein?",
            "mary shelley|mary wollstonecraft|メアリー・シェリー|メアリ・シェリー",
            stream=True,
        ),
    ),
    Case(
        "en10_first_lines",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What command would print just the first five lines of recipe_ideas.txt? Only show"
            " it to me, please, without running it.",
            {
                "recipe_ideas.txt": "Lentil soup\nShakshuka\nMushroom risotto\nFish tacos\n"
                "Dal for {n}\nBanana bread\nRoast peppers\n"
            },
            r"head\s+(?:-n\s*5|-5|--lines[= ]5)\s+\S*recipe_ideas\.txt"
            r"|sed\s+-n\s+['\"]?1,5p['\"]?\s+\S*recipe_ideas\.txt",
            "a head command for five lines",
        ),
    ),
    Case(
        "en10_spare_key",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open spare_keys.txt and tell me who's holding the spare key for the garage.",
            {
                "spare_keys.txt": "Spare keys, flat {n}\nFront door: Mrs Lowe\nGarage: {name}\n"
                "Post box: Tariq\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en10_carpool",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in carpool.txt, then add 'Tomasz Nowak' as a new last line and"
            " count them again.",
            "carpool.txt",
            "Tomasz Nowak",
        ),
    ),
    Case(
        "en10_exeter_orders",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Run a command to count how many lines of orders.csv are for Exeter.",
            "orders.csv",
            "Exeter",
            ["Bristol", "Truro", "Poole"],
        ),
    ),
)
