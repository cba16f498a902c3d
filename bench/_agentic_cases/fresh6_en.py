"""Sixth fresh English cases: written at once for the held-out-6 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en6_sprinkler",
        "action",
        LANGUAGE,
        forms.remind(
            "Could you remind me in two hours to move the sprinkler over to the back lawn?",
            2,
            "sprinkler",
            "rasensprenger",
            "aspersor",
            "arroseur",
            "スプリンクラー",
        ),
    ),
    Case(
        "en6_chimney_sweep",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a file named chimney_sweep.txt noting that the chimney sweep is coming next"
            " Tuesday, the contact person is {name} and the job reference is {code}.",
            "chimney_sweep.txt",
        ),
    ),
    Case(
        "en6_sync_device",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In sync.cfg, add -2 to the end of the device name (at the moment it's just"
            " laptop). Don't touch the other lines.",
            "sync.cfg",
            ["device = laptop", "interval_minutes = {n}", "wifi_only = true"],
            ["device = laptop-2", "interval_minutes = {n}", "wifi_only = true"],
        ),
    ),
    Case(
        "en6_gym_membership",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that my gym membership number ends in {code}?",
            "What does my gym membership number end in?",
        ),
    ),
    Case(
        "en6_adult_teeth",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many teeth does an adult normally have, wisdom teeth included?",
            32,
            "thirty-two",
            "thirty two",
            "zweiunddreißig",
            "treinta y dos",
            "trente-deux",
            "trente deux",
            "三十二",
        ),
    ),
    Case(
        "en6_longest_river_africa",
        "no-tool",
        LANGUAGE,
        forms.words(
            "What's the longest river in Africa?",
            "nile|nil|nilo|ナイル",
            stream=True,
        ),
    ),
    Case(
        "en6_uptime_command",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What's the command to see how long this machine has been up since the last"
            " reboot? Just show it to me, please don't run it.",
            {"server_log.txt": "last reboot: {n} days ago\n"},
            r"(?<![A-Za-z])uptime(?![A-Za-z])",
            "uptime",
        ),
    ),
    Case(
        "en6_choir_rota",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check choir_rota.txt and tell me who's bringing the sheet music this week.",
            {
                "choir_rota.txt": "Choir rota, week {n}\nsheet music: {name}\n"
                "tea and biscuits: the altos\nrehearsal: Wednesday 7 pm\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en6_spin_class",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Open spin_class.txt, move the class from 18:00 to 18:30, and then show me the"
            " file once more so I can see the change.",
            "spin_class.txt",
            ["studio: 2", "class: 18:00", "bikes booked: {n}"],
            ["studio: 2", "class: 18:30", "bikes booked: {n}"],
            "18:30",
        ),
    ),
    Case(
        "en6_leeds_tickets",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Use grep to find out how many lines in tickets.csv are for Leeds.",
            "tickets.csv",
            "Leeds",
            ("Bristol", "Cardiff", "Norwich"),
        ),
    ),
)
