"""Fifteenth fresh English cases: written at once for the held-out-15 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ambrose", "Ottoline", "Lysander", "Marguerite", "Evangeline")

CASES: tuple[Case, ...] = (
    Case(
        "en15_fence_varnish",
        "action",
        LANGUAGE,
        forms.remind(
            "In two hours, remind me to put the second coat of varnish on the fence.",
            2,
            "varnish",
            "fence",
            "lack",
            "zaun",
            "barniz",
            "valla",
            "vernis",
            "cloture",
            "ニス",
            "フェンス",
            "塀",
        ),
    ),
    Case(
        "en15_street_party",
        "action",
        LANGUAGE,
        forms.append_line(
            "Could you add '{line}' to the bottom of street_party.txt?",
            "street_party.txt",
            ["bunting", "trestle tables", "tea urn"],
            "face paints from {name}",
        ),
    ),
    Case(
        "en15_pond_pump",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The flow in pond_pump.cfg needs to be 2, not 3. Change that line, don't add a new"
            " one.",
            "pond_pump.cfg",
            ["flow = 3", "fountain = on", "run_minutes = {n}"],
            ["flow = 2", "fountain = on", "run_minutes = {n}"],
        ),
    ),
    Case(
        "en15_season_ticket",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that my football season ticket number is {code}?",
            "What's my season ticket number for the football again?",
        ),
    ),
    Case(
        "en15_fortnight",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many days are there in a fortnight?",
            14,
            "fourteen",
            "vierzehn",
            "catorce",
            "quatorze",
            "十四",
        ),
    ),
    Case(
        "en15_mohs_top",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Which mineral is at the very top of the Mohs hardness scale, at 10?",
            "diamond|diamant|ダイヤモンド",
            stream=True,
        ),
    ),
    Case(
        "en15_copy_to_server",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I need to copy report.pdf to the server at 10.0.0.5, user sam, into his home"
            " folder. What's the command? Just show me, don't run it.",
            {"report.pdf": "placeholder report {n}\n"},
            r"(?<![\w-])(?:scp|rsync)\s+(?:-\S+\s+(?:\d+\s+)?)*['\"]?(?:\./)?report\.pdf['\"]?"
            r"\s+['\"]?(?:sam@)?10\.0\.0\.5:",
            "an scp or rsync command copying report.pdf to 10.0.0.5",
        ),
    ),
    Case(
        "en15_dog_walks",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open dog_walks.txt and tell me who's taking Pickle out on Thursday.",
            {
                "dog_walks.txt": "Dog walking rota, flat {n}\n"
                "Tuesday: Siobhan\nThursday: {name}\nSaturday: Dougie\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en15_carol_singers",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines does carol_singers.txt have? Add Nadia Shah on a new line at the"
            " end, then count them again.",
            "carol_singers.txt",
            "Nadia Shah",
        ),
    ),
    Case(
        "en15_parcel_log",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Use a shell command to count how many lines parcel_log.txt has, please.",
            "parcel_log.txt",
        ),
    ),
)
