"""Fresh English cases: written at once after both halves had been read for failures, so no
rule was tuned on them; split by the committed seed like every case."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en_laundry_reminder",
        "action",
        LANGUAGE,
        forms.remind(
            "Set a reminder for 45 minutes from now: take the laundry out of the machine.",
            0.75,
            "laundry",
            "washing",
        ),
    ),
    Case(
        "en_storage_pin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Keep this in your memory, please: the PIN for my storage unit on Elm Street"
            " is {code}.",
            "What was the PIN for my storage unit on Elm Street again?",
        ),
    ),
    Case(
        "en_minutes_in_hours",
        "no-tool",
        LANGUAGE,
        forms.number("quick one - how many minutes are in three and a half hours?", 210),
    ),
    Case(
        "en_closest_planet",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Which planet is closest to the sun?",
            "mercury|merkur|mercurio|mercure|水星",
            stream=True,
        ),
    ),
    Case(
        "en_crontab_line",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I'd like to run backup.sh every night at 3am. Can you show me the crontab line"
            " for that? Don't schedule or change anything, I'll add it myself.",
            {"backup.sh": "#!/bin/sh\ntar czf /tmp/docs-{n}.tgz docs\n"},
            r"(?<![\d*])0?0 0?3 \* \* \*",
            "a crontab line for 03:00 daily",
        ),
    ),
    Case(
        "en_beta_version",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Append -beta to the version in release.ini, so 1.{n}.0 becomes 1.{n}.0-beta.",
            "release.ini",
            ["[release]", "name = harbor", "version = 1.{n}.0"],
            ["[release]", "name = harbor", "version = 1.{n}.0-beta"],
        ),
    ),
    Case(
        "en_upload_limit",
        "info",
        LANGUAGE,
        forms.read_value(
            "Hey, what's the max upload size set to in nginx.conf?",
            "nginx.conf",
            "server {{\n    listen 80;\n    server_name files.home.lan;\n"
            "    client_max_body_size {n}m;\n}}\n",
        ),
    ),
    Case(
        "en_boiling_after_read",
        "after-tool",
        LANGUAGE,
        forms.after_tools(
            "Which port does server.yml use?",
            {"server.yml": "service: photos\nport: 80{n}\nworkers: 2\n"},
            "Cool, thanks. Totally unrelated: what's the boiling point of water at sea level"
            " in Fahrenheit?",
            "212",
        ),
    ),
)
