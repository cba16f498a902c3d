"""Fifth fresh English cases: written at once for the held-out-5 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en5_dehumidifier",
        "action",
        LANGUAGE,
        forms.remind(
            "Set a reminder for three hours from now to switch off the dehumidifier in the"
            " basement.",
            3,
            "dehumidifier",
            "luftentfeuchter",
            "deshumidificador",
            "deshumidificateur",
            "除湿",
        ),
    ),
    Case(
        "en5_boat_rental",
        "action",
        LANGUAGE,
        forms.write_file(
            "Create a file called boat_rental.txt with a note that the rowing boat for Sunday"
            " is booked under {name}, booking number {code}.",
            "boat_rental.txt",
        ),
    ),
    Case(
        "en5_export_profile",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In export.ini, tack _raw onto the end of the profile name (right now it's just"
            " portrait). Leave the other lines alone.",
            "export.ini",
            ["profile = portrait", "quality = {n}", "keep_originals = true"],
            ["profile = portrait_raw", "quality = {n}", "keep_originals = true"],
        ),
    ),
    Case(
        "en5_frequent_flyer",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that my frequent flyer number ends in {code}.",
            "What are the last four digits of my frequent flyer number?",
        ),
    ),
    Case(
        "en5_adult_bones",
        "no-tool",
        LANGUAGE,
        forms.number(
            "My biology quiz asks how many bones an adult human has. What's the answer?",
            206,
            "two hundred and six",
            "two hundred six",
            "zweihundertsechs",
            "doscientos seis",
            "deux cent six",
            "deux cents six",
            "二百六",
        ),
    ),
    Case(
        "en5_ringed_planet",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Which planet is famous for its big bright rings?",
            "saturn|土星",
            stream=True,
        ),
    ),
    Case(
        "en5_git_version",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How do I check which version of git I have installed? Just show me the command,"
            " don't run it.",
            {"repo_notes.txt": "branch main, {n} commits ahead\n"},
            r"\bgit\s+(--)?version\b",
            "git --version",
        ),
    ),
    Case(
        "en5_quiz_host",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at quiz_night.txt and tell me who's hosting this month.",
            {
                "quiz_night.txt": "Quiz night, first Thursday of the month\nhost: {name}\n"
                "teams signed up: {n}\nprize: a book voucher\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en5_ferry_departure",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Show me ferry.txt, change the departure from 08:15 to 07:45, then show me the"
            " file again so I can check it.",
            "ferry.txt",
            ["route: harbour to the island", "departure: 08:15", "tickets: {n}"],
            ["route: harbour to the island", "departure: 07:45", "tickets: {n}"],
            "07:45",
        ),
    ),
    Case(
        "en5_denver_visits",
        "command",
        LANGUAGE,
        forms.grep_count(
            "How many lines in visits.csv are for Denver? Count them with grep.",
            "visits.csv",
            "Denver",
            ("Boston", "Austin", "Tampa"),
        ),
    ),
)
