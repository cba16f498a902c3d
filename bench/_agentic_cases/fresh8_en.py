"""Eighth fresh English cases: written at once for the held-out-8 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en8_tyre_pressure",
        "action",
        LANGUAGE,
        forms.remind(
            "Could you remind me in two hours to check the tyre pressure on the car?",
            2,
            "tyre",
            "tire pressure",
            "reifen",
            "neumático",
            "pneu",
            "タイヤ",
        ),
    ),
    Case(
        "en8_piano_tuner",
        "action",
        LANGUAGE,
        forms.write_file(
            "Please make a file called piano_tuner.txt saying the piano tuner is coming on"
            " Saturday afternoon, her name is {name} and the invoice number is {code}.",
            "piano_tuner.txt",
        ),
    ),
    Case(
        "en8_playlist_shuffle",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In playlist.cfg, turn shuffle from off to on and don't change anything else.",
            "playlist.cfg",
            ["shuffle = off", "repeat = all", "volume = {n}"],
            ["shuffle = on", "repeat = all", "volume = {n}"],
        ),
    ),
    Case(
        "en8_photocopier_pin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that the PIN for the office photocopier is {code}?",
            "What was the PIN for the office photocopier again?",
        ),
    ),
    Case(
        "en8_bits_byte",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many bits are there in a byte?",
            8,
            "eight",
            "acht",
            "ocho",
            "huit",
            "八",
        ),
    ),
    Case(
        "en8_starry_night",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who painted The Starry Night?",
            "gogh|ゴッホ",
            stream=True,
        ),
    ),
    Case(
        "en8_word_count",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What's the command to count the words in essay.txt? Just tell me, don't run it.",
            {"essay.txt": "Draft {n}: the history of canals in the Midlands.\n"},
            r"wc\s+(?:-w|--words)\s+\S*essay\.txt"
            r"|cat\s+\S*essay\.txt\s*\|\s*wc\s+(?:-w|--words)(?![\w-])",
            "a wc -w command",
        ),
    ),
    Case(
        "en8_bake_sale",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at bake_sale.txt and tell me who's bringing the brownies.",
            {
                "bake_sale.txt": "School bake sale, table {n}\nflapjacks: Mrs Patel\n"
                "brownies: {name}\nlemon drizzle: the Hughes twins\nfloat: £20 in coins\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en8_guest_list",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in guest_list.txt, then add 'Tom Okafor' as a new line at the end"
            " and count them again.",
            "guest_list.txt",
            "Tom Okafor",
        ),
    ),
    Case(
        "en8_visitor_log",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Use wc to find out how many lines there are in visitors.log.",
            "visitors.log",
        ),
    ),
)
