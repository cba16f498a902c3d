"""Fourteenth fresh English cases: written at once for the held-out-14 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ebenezer", "Clementine", "Augustus", "Millicent", "Ignatius")

CASES: tuple[Case, ...] = (
    Case(
        "en14_dentist_form",
        "action",
        LANGUAGE,
        forms.remind(
            "In three hours, remind me to post the signed form back to the dentist.",
            3,
            "dentist",
            "form",
            "zahnarzt",
            "formular",
            "dentista",
            "formulario",
            "dentiste",
            "歯医者",
            "歯科",
        ),
    ),
    Case(
        "en14_baby_shower",
        "action",
        LANGUAGE,
        forms.append_line(
            "Add '{line}' as the last line of baby_shower.txt, thanks.",
            "baby_shower.txt",
            ["muslin cloths", "rattle", "sleepsuits"],
            "nappy cake from {name}",
        ),
    ),
    Case(
        "en14_treadmill_speed",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The speed in treadmill.cfg should be 6, not 8. Just change that line, no new lines.",
            "treadmill.cfg",
            ["speed = 8", "incline = 2", "session_minutes = {n}"],
            ["speed = 6", "incline = 2", "session_minutes = {n}"],
        ),
    ),
    Case(
        "en14_tablet_pin",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you keep a note in your memory that the PIN for the kids' tablet is {code}?",
            "Remind me, what's the PIN on the kids' tablet?",
        ),
    ),
    Case(
        "en14_flag_stripes",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many stripes are there on the American flag?",
            13,
            "thirteen",
            "dreizehn",
            "trece",
        ),
    ),
    Case(
        "en14_sistine_ceiling",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who painted the ceiling of the Sistine Chapel?",
            "michelangelo|michel-ange|miguel angel|ミケランジェロ",
            stream=True,
        ),
    ),
    Case(
        "en14_git_branch",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Which command tells me what git branch I'm on at the moment? Just tell me, don't"
            " run it.",
            {"todo.txt": "Merge the feature branch before {hour}:00\n"},
            r"(?<![\w-])git\s+(?:branch(?:\s+-\S+)?|rev-parse\s+--abbrev-ref\s+head"
            r"|symbolic-ref\s+(?:--short\s+)?head|status)(?![\w-])",
            "a git branch (or git status) command",
        ),
    ),
    Case(
        "en14_driveway_rota",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check driveway_rota.txt and tell me who gets the driveway on Wednesday.",
            {
                "driveway_rota.txt": "Driveway rota, week {n}\n"
                "Monday: Dev\nWednesday: {name}\nFriday: Morag\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en14_volunteer_drivers",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in volunteer_drivers.txt, put Fiona Blake on a new line at the end,"
            " and count them once more.",
            "volunteer_drivers.txt",
            "Fiona Blake",
        ),
    ),
    Case(
        "en14_seed_packets",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Could you run a command to find out how many lines seed_packets.txt has?",
            "seed_packets.txt",
        ),
    ),
)
