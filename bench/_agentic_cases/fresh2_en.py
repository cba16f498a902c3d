"""Second fresh English cases: written at once for the held-out-2 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en2_packing_boots",
        "action",
        LANGUAGE,
        forms.append_line(
            "can you add 'hiking boots, size {n}' to the bottom of packing.txt? leave the rest"
            " as it is",
            "packing.txt",
            ["passport", "phone charger", "sunscreen"],
            "hiking boots, size {n}",
        ),
    ),
    Case(
        "en2_vet_booking",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a file called vet.txt that says: vaccination appointment for {name},"
            " booking reference {code}.",
            "vet.txt",
        ),
    ),
    Case(
        "en2_retention_days",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "backup.conf keeps old backups for 7 days, that's too short. Make it {n} days.",
            "backup.conf",
            ["target = /mnt/nas/backups", "keep_days = 7", "compress = yes"],
            ["target = /mnt/nas/backups", "keep_days = {n}", "compress = yes"],
        ),
    ),
    Case(
        "en2_library_card",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you store this for later? My library card number ends in {code}.",
            "What are the last four digits of my library card?",
        ),
    ),
    Case(
        "en2_feet_per_mile",
        "no-tool",
        LANGUAGE,
        forms.number("How many feet make up one mile?", 5280, stream=True),
    ),
    Case(
        "en2_italian_butterfly",
        "no-tool",
        LANGUAGE,
        forms.words("What's the Italian word for butterfly?", "farfalla"),
    ),
    Case(
        "en2_chmod_deploy",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "deploy.sh won't run, it says permission denied. What's the command to make it"
            " executable? Just tell me, I'll type it myself.",
            {"deploy.sh": "#!/bin/sh\nrsync -a site/ web{n}:/var/www/\n"},
            r"chmod\s+(\S*\+\S*x|[0-7]?[157][0-7][0-7])",
            "a chmod command making it executable",
        ),
    ),
    Case(
        "en2_standup_notes",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I missed the standup - what's the gist of standup.md?",
            {
                "standup.md": "# Standup, Thursday\nYesterday {name} finished the new login"
                " page and fixed {n} flaky tests. The release was pushed back a week because"
                " the payment provider changed its API. Nobody was blocked.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "en2_rsvp_recount",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Check how many lines rsvp.txt has with wc -l, then add a line 'Priya' at the end"
            " and run wc -l again. I want both numbers.",
            "rsvp.txt",
            "Priya",
        ),
    ),
    Case(
        "en2_singapore_day",
        "info",
        LANGUAGE,
        forms.weekday(
            "My client is in Singapore. What day of the week is it over there right now?",
            "Asia/Singapore",
        ),
    ),
)
