"""Third fresh English cases: written at once for the held-out-3 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en3_garden_fern",
        "action",
        LANGUAGE,
        forms.append_line(
            "Stick '{line}' at the end of garden.txt, please.",
            "garden.txt",
            ["water the tomatoes", "prune the roses", "order compost"],
            "repot the fern into a {n} cm pot",
        ),
    ),
    Case(
        "en3_plumber_callback",
        "action",
        LANGUAGE,
        forms.remind(
            "In half an hour, remind me to call the plumber back about the leaking tap.",
            0.5,
            "plumber",
            "klempner",
            "installateur",
            "fontanero",
            "plomero",
            "plombier",
            "配管",
            "水道",
        ),
    ),
    Case(
        "en3_tab_width",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The tabs in editor.toml are way too wide. Set tab_width to 4 instead of 8 and"
            " don't touch anything else.",
            "editor.toml",
            ['theme = "solarized"', "tab_width = 8", "autosave_seconds = {n}"],
            ['theme = "solarized"', "tab_width = 4", "autosave_seconds = {n}"],
        ),
    ),
    Case(
        "en3_gate_code",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember something for me? The gate code at my parents' place is {code}.",
            "What's the code for the gate at my parents' place?",
        ),
    ),
    Case(
        "en3_grams_kilogram",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Quick one: how many grams are in a kilogram?",
            1000,
            "thousand",
            "tausend",
            "mil",
            "mille",
            "千",
            stream=True,
        ),
    ),
    Case(
        "en3_rsvp_meaning",
        "no-tool",
        LANGUAGE,
        forms.words(
            "There's RSVP at the bottom of a party invitation I got. What does that mean?",
            "respond|reply|repondez|antwort|responda|confirm|返事|返信|出欠",
        ),
    ),
    Case(
        "en3_free_space",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How do I check how much free space is left on my drives from the terminal? Just"
            " the command please, I'll run it myself.",
            {"mounts.txt": "/dev/sda1 /\n/dev/sdb1 /data{n}\n"},
            r"\bdf\b",
            "a df command",
        ),
    ),
    Case(
        "en3_moving_day",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I couldn't make it on moving day. What does moving_day.md say happened?",
            {
                "moving_day.md": "# Moving day\nWe moved into the new flat on Saturday."
                " {name} rented the van and drove it. The sofa didn't fit through the"
                " stairwell, so it went up over the balcony on ropes. By the evening we had"
                " carried {n} boxes up four floors.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "en3_tea_price",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Tea went up to 3.80. Have a look at menu.txt, update the tea line (it still says"
            " 3.50), and afterwards open the file once more so I can see it's correct.",
            "menu.txt",
            ["espresso 2.40", "tea 3.50", "seats {n}"],
            ["espresso 2.40", "tea 3.80", "seats {n}"],
            "tea 3.80",
        ),
    ),
    Case(
        "en3_lisbon_bookings",
        "command",
        LANGUAGE,
        forms.grep_count(
            "How many of the bookings in bookings.csv are for Lisbon? Count the matching"
            " lines with grep.",
            "bookings.csv",
            "Lisbon",
            ("Porto", "Faro", "Braga", "Coimbra"),
        ),
    ),
)
