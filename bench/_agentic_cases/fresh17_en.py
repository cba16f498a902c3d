"""Seventeenth fresh English cases: written at once for the held-out-17 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Cornelius", "Henrietta", "Leopoldine", "Montgomery", "Theodosia")

CASES: tuple[Case, ...] = (
    Case(
        "en17_blocked_card",
        "action",
        LANGUAGE,
        forms.remind(
            "Could you remind me in an hour and a half to phone the bank about my blocked card?",
            1.5,
            "bank",
            "card",
            "blocked",
            "banco",
            "tarjeta",
            "banque",
            "carte",
            "karte",
            "gesperrt",
            "銀行",
            "カード",
        ),
    ),
    Case(
        "en17_hen_party",
        "action",
        LANGUAGE,
        forms.append_line(
            "Tack '{line}' onto the end of hen_party.txt, please.",
            "hen_party.txt",
            ["spa booking", "matching t-shirts", "karaoke room"],
            "sash from {name}",
        ),
    ),
    Case(
        "en17_bread_maker",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "My bread_maker.cfg says crust = dark. Make it medium instead by editing that line,"
            " not by adding another.",
            "bread_maker.cfg",
            ["crust = dark", "loaf_size = large", "program = {n}"],
            ["crust = medium", "loaf_size = large", "program = {n}"],
        ),
    ),
    Case(
        "en17_car_park_fob",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please memorise this: the key fob for the office car park is number {code}.",
            "Which number was the car park fob at the office?",
        ),
    ),
    Case(
        "en17_fifty_pence",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many sides does a 50p coin have?",
            7,
            "seven",
            "heptagon",
            "heptagonal",
            "sieben",
            "siete",
            "sept",
            "七",
        ),
    ),
    Case(
        "en17_new_zealand",
        "no-tool",
        LANGUAGE,
        forms.words("What's the capital of New Zealand?", "wellington|ウェリントン", stream=True),
    ),
    Case(
        "en17_ssh_history",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How can I search through my shell history for every ssh command I've typed? Just"
            " show me, please don't run it.",
            {"servers_todo.txt": "Rotate the keys on box {n}\n"},
            r"(?<![\w-])history\s*\|\s*grep\s+(?:-\S+\s+)*['\"]?\^?\s*ssh"
            r"|(?<![\w-])grep\s+(?:-\S+\s+)*['\"]?\^?ssh\S*\s+\S*\.(?:bash|zsh)_history"
            r"|(?<![\w-])(?:fc\s+-l\s+1|fc\s+-ln\s+1)\s*\|\s*grep\s+(?:-\S+\s+)*['\"]?\^?ssh",
            "a history | grep ssh (or grep ssh on the history file) command",
        ),
    ),
    Case(
        "en17_school_run",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Read school_run.txt and tell me who's doing the school run on Friday.",
            {
                "school_run.txt": "School run, Year {n} parents\n"
                "Monday: Joanne\nWednesday: Tariq\nFriday: {name}\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en17_sponsored_walk",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "What's the line count of sponsored_walk.txt? Then append Priya Nair as a final line"
            " and give me the count again.",
            "sponsored_walk.txt",
            "Priya Nair",
        ),
    ),
    Case(
        "en17_bird_sightings",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Can you find out with a terminal command how many lines there are in"
            " bird_sightings.txt?",
            "bird_sightings.txt",
        ),
    ),
)
