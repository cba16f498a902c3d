"""Fourth fresh English cases: written at once for the held-out-4 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en4_bread_freezer",
        "action",
        LANGUAGE,
        forms.remind(
            "In two hours, remind me to take the bread out of the freezer for tonight.",
            2,
            "bread",
            "brot",
            "pan",
            "pain",
            "パン",
        ),
    ),
    Case(
        "en4_cat_sitter",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a new file cat_sitter.txt and put in it that {name} is feeding the cat while"
            " we're away and that the alarm code is {code}.",
            "cat_sitter.txt",
        ),
    ),
    Case(
        "en4_invoice_folder",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In sync.ini, add _2025 to the end of the folder name (right now it's just"
            " invoices). Leave the other lines as they are.",
            "sync.ini",
            ["folder = invoices", "interval_minutes = {n}", "delete_remote = false"],
            ["folder = invoices_2025", "interval_minutes = {n}", "delete_remote = false"],
        ),
    ),
    Case(
        "en4_shed_padlock",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember this for me: the padlock on the shed opens with {code}.",
            "What was the code for the padlock on the shed again?",
        ),
    ),
    Case(
        "en4_spider_legs",
        "no-tool",
        LANGUAGE,
        forms.number(
            "My kid just asked me how many legs a spider has. What do I tell her?",
            8,
            "eight",
            "acht",
            "ocho",
            "huit",
            "八",
        ),
    ),
    Case(
        "en4_mona_lisa",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who painted the Mona Lisa?",
            "leonardo|da vinci|レオナルド|ダ・ヴィンチ",
            stream=True,
        ),
    ),
    Case(
        "en4_big_jpgs",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What's the find command to list every .jpg over 5 MB in my home folder? Just show"
            " it to me, don't run it.",
            {"home_usage.txt": "pictures {n} GB\n"},
            r"\bfind\b.*-size",
            "a find command with -size",
        ),
    ),
    Case(
        "en4_bbq_drinks",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check bbq.txt and tell me who's bringing the drinks on Saturday.",
            {
                "bbq.txt": "Barbecue on Saturday\nsalads: Priya\ndrinks: {name}\n"
                "charcoal: {n} kg\ngrill: Tom's\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en4_waitlist_recount",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in waitlist.txt, add Marcus Lee as a new line at the bottom, then"
            " count them again so I can see the number went up by one.",
            "waitlist.txt",
            "Marcus Lee",
        ),
    ),
    Case(
        "en4_signup_count",
        "command",
        LANGUAGE,
        forms.count_lines(
            "How many sign-ups are in signups.txt? Count the lines with wc -l.",
            "signups.txt",
        ),
    ),
)
