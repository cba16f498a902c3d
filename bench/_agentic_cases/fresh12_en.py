"""Twelfth fresh English cases: written at once for the held-out-12 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bartholomew", "Genevieve", "Montgomery", "Rosalind", "Thaddeus")

CASES: tuple[Case, ...] = (
    Case(
        "en12_slow_cooker",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in two hours to switch off the slow cooker.",
            2,
            "slow cooker",
            "slow-cooker",
            "slowcooker",
            "crockpot",
            "crock-pot",
            "schongarer",
            "olla lenta",
            "mijoteuse",
            "スロークッカー",
        ),
    ),
    Case(
        "en12_gutter_repair",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a file called gutter_repair.txt saying the roofer is coming on Tuesday to fix"
            " the leaking gutter; the roofer's name is {name} and the job number is {code}.",
            "gutter_repair.txt",
        ),
    ),
    Case(
        "en12_telescope_eyepiece",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In telescope.ini, swap the eyepiece from 25 mm to 10 mm and leave everything else"
            " as it is.",
            "telescope.ini",
            ["eyepiece = 25", "mount = alt-az", "exposure = {n}"],
            ["eyepiece = 10", "mount = alt-az", "exposure = {n}"],
        ),
    ),
    Case(
        "en12_wheel_nut_key",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that the code on my locking wheel nut key is {code}?",
            "What's the code on my locking wheel nut key?",
        ),
    ),
    Case(
        "en12_netball_team",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many players does a netball team have on court?",
            7,
            "seven",
            "sieben",
            "siete",
            "sept",
            "七人",
        ),
    ),
    Case(
        "en12_red_spot",
        "no-tool",
        LANGUAGE,
        forms.words("Which planet has the Great Red Spot?", "jupiter|木星", stream=True),
    ),
    Case(
        "en12_copy_photos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How would I make a copy of the photos folder called photos_backup? Just show me the"
            " command, don't actually run it.",
            {"photos/beach.jpg": "JPEG {n}\n", "notes.txt": "Holiday notes\n"},
            r"(?<![a-z])cp\s+(?:-\S+\s+)*(?:-[a-z]*[ra][a-z]*|--recursive|--archive)\s+"
            r"(?:-\S+\s+)*(?:\./)?photos/?\s+(?:\./)?photos_backup/?(?![\w/])",
            "a cp -r command copying photos to photos_backup",
        ),
    ),
    Case(
        "en12_cricket_agm",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Could you sum up cricket_agm.txt for me? Who said they'd repaint the scoreboard?",
            {
                "cricket_agm.txt": "Village cricket club AGM, {n} members present\n"
                "The treasurer reported a small surplus.\n"
                "{name} offered to repaint the scoreboard before the season.\n"
                "Members voted to keep the match tea at two pounds.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en12_bus_times",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read bus_times.txt, change the Sunday service from every 30 minutes to every 20"
            " minutes, then read it again so I can check it.",
            "bus_times.txt",
            ["Route {n}", "weekdays: every 15 minutes", "sundays: every 30 minutes"],
            ["Route {n}", "weekdays: every 15 minutes", "sundays: every 20 minutes"],
            "sundays: every 20 minutes",
        ),
    ),
    Case(
        "en12_kendal_visits",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Using a command, count how many lines of site_visits.csv are for Kendal.",
            "site_visits.csv",
            "Kendal",
            ["Penrith", "Keswick", "Carlisle"],
        ),
    ),
)
