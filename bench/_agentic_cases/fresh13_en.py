"""Thirteenth fresh English cases: written at once for the held-out-13 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Archibald", "Philippa", "Cornelius", "Henrietta", "Peregrine")

CASES: tuple[Case, ...] = (
    Case(
        "en13_mot_garage",
        "action",
        LANGUAGE,
        forms.remind(
            "Set me a reminder for an hour from now to ring the garage about the MOT.",
            1,
            "garage",
            "mot",
            "werkstatt",
            "tuv",
            "taller",
            "itv",
            "controle technique",
            "車検",
            "整備",
        ),
    ),
    Case(
        "en13_camping_kit",
        "action",
        LANGUAGE,
        forms.append_line(
            "Pop '{line}' onto the end of camping_kit.txt for me.",
            "camping_kit.txt",
            ["tent pegs", "head torch", "gas canister"],
            "spare guy ropes for {name}",
        ),
    ),
    Case(
        "en13_lamp_brightness",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Put 40 as the brightness in lamp.cfg instead of 70. Change the line that's there,"
            " don't add another one.",
            "lamp.cfg",
            ["brightness = 70", "colour = warm", "timer = {n}"],
            ["brightness = 40", "colour = warm", "timer = {n}"],
        ),
    ),
    Case(
        "en13_suitcase_lock",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that the combination on my blue suitcase is {code}.",
            "What was the combination for my blue suitcase again?",
        ),
    ),
    Case(
        "en13_ounces_pound",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many ounces are there in a pound?",
            16,
            "sixteen",
            "sechzehn",
            "dieciseis",
            "seize",
            "十六オンス",
        ),
    ),
    Case(
        "en13_great_expectations",
        "no-tool",
        LANGUAGE,
        forms.words("Who wrote Great Expectations?", "dickens|ディケンズ", stream=True),
    ),
    Case(
        "en13_delete_tmp",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What's the command to delete every .tmp file in this folder? Only tell me, please"
            " don't run it.",
            {"scan1.tmp": "tmp {n}\n", "scan2.tmp": "tmp {code}\n", "report.txt": "Keep me\n"},
            r"(?<![a-z])rm\s+(?:-\S+\s+)*(?:\./)?\*\.tmp(?!\w|\.\w)"
            r"|(?<![a-z])find\s+\.?\s*(?:-\S+\s+\S+\s+)*-i?name\s+['\"]?\*\.tmp['\"]?"
            r"\s+(?:\S+\s+)*?-delete",
            "an rm *.tmp (or find -delete) command",
        ),
    ),
    Case(
        "en13_fancy_dress",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at fancy_dress.txt and tell me who's coming as the pirate.",
            {
                "fancy_dress.txt": "Fancy dress party, {n} guests\n"
                "Astronaut: Priya\nPirate: {name}\nDinosaur: Callum\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en13_relay_team",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines are in relay_team.txt? Add Tobias Reed at the bottom, then count"
            " them again.",
            "relay_team.txt",
            "Tobias Reed",
        ),
    ),
    Case(
        "en13_tombola_prizes",
        "command",
        LANGUAGE,
        forms.count_lines(
            "How many lines has tombola_prizes.txt got? Use a command to count them.",
            "tombola_prizes.txt",
        ),
    ),
)
