"""Thirtieth fresh English cases: written at once for the held-out-30 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aurelian", "Evander", "Philomena", "Marigold", "Thomasina")

#: The commands that print the second column of running_club.csv: cut with a comma delimiter
#: and field 2 (either order), or awk -F, printing $2; then the file.
_CSV = r"['\"]?(?:[\w~./-]*/)?running_club\.csv['\"]?(?![\w.-])"
_CUT = (
    r"(?<![\w-])cut\s+(?:(?:-d\s*['\"]?,['\"]?|--delimiter=['\"]?,['\"]?|-f\s*2|--fields=2)"
    rf"\s+){{2}}{_CSV}"
    rf"|(?<![\w-])awk\s+-f\s*['\"]?,['\"]?\s+['\"]\{{\s*print\s+\$2\s*;?\s*\}}['\"]\s+{_CSV}"
)

#: When to leave: 10:25 (or 10.25), or in words.
_LEAVE = r"(?<![\d.:])10\s*[:.]\s*25(?!\d)|twenty.five past ten"

CASES: tuple[Case, ...] = (
    Case(
        "en30_lost_luggage",
        "action",
        LANGUAGE,
        forms.write_file(
            "Can you start a file called lost_luggage.txt? Put in it that the airline agent I"
            " spoke to was {name} and that my claim reference is {code}.",
            "lost_luggage.txt",
        ),
    ),
    Case(
        "en30_street_sweeper",
        "action",
        LANGUAGE,
        forms.remind(
            "Give me a shout in an hour and a half to move the car - the street sweeper is"
            " coming down our road this afternoon.",
            1.5,
            "car",
            "sweeper",
            "street",
            "auto",
            "wagen",
            "umparken",
            "coche",
            "voiture",
            "車",
        ),
    ),
    Case(
        "en30_tablet_time",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The kids are glued to the tablet. In tablet_limits.cfg, bring screen_time_minutes"
            " down from 120 to 90 - change the line that's there, don't add a second one.",
            "tablet_limits.cfg",
            ["profile = kids", "screen_time_minutes = 120", "device_id = {n}"],
            ["profile = kids", "screen_time_minutes = 90", "device_id = {n}"],
        ),
    ),
    Case(
        "en30_care_home_door",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember the door code at Gran's care home: {code}. I always forget it when"
            " I visit.",
            "What's the door code for Gran's care home?",
        ),
    ),
    Case(
        "en30_airport_leave",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "My flight's at 13:20 and they want us at the airport two hours before. It's a"
            " 55-minute drive. What time do I need to leave the house?",
            _LEAVE,
            "10:25",
            stream=True,
        ),
    ),
    Case(
        "en30_daytime_animals",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Owls are nocturnal, right? So what's the word for animals that are up and about in"
            " the daytime instead?",
            "diurnal",
        ),
    ),
    Case(
        "en30_club_emails",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "running_club.csv is comma-separated and I only want the second column, the email"
            " addresses. What command would pull that out? Just show me, I'll run it myself.",
            {"to_do.txt": "Renew parking permit {code}\nBuy {n} envelopes\n"},
            _CUT,
            "a cut -d, -f2 running_club.csv (or awk -F,) command",
        ),
    ),
    Case(
        "en30_house_sitter",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "We've just got back from holiday. What did the house sitter say in"
            " house_sitter_notes.txt? And who took the parcel in?",
            {
                "house_sitter_notes.txt": "Notes from the house sitter, stay {n}\n"
                "The cat ate well and slept on your bed every night.\n"
                "The boiler made a banging noise on Tuesday, then settled down.\n"
                "A parcel came on Thursday and {name} from number 12 took it in.\n"
                "I watered the tomatoes twice and picked the ripe ones.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en30_ukulele_club",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "ukulele_club.txt has one member per line. Count them with wc -l, add 'Bernadette"
            " Fairclough' as a new line, then count again so I can see the new total.",
            "ukulele_club.txt",
            "Bernadette Fairclough",
        ),
    ),
    Case(
        "en30_parkrun",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Each line of parkrun_log.csv is one of my runs, with the course and my time. How"
            " many of them were at Bushy? Count it with a command, please.",
            "parkrun_log.csv",
            "Bushy",
            ("Richmond", "Hackney", "Wimbledon", "Fulham"),
        ),
    ),
)
