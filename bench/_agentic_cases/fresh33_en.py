"""Thirty-third fresh English cases: written at once for the held-out-33 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Cornelius", "Wilhelmina", "Bartholomew", "Georgiana", "Leopold")

#: The commands that tell whether the CUPS printing service runs: systemctl status (or
#: is-active) on cups, cupsd or cups.service; service cups status; the init script's status;
#: lpstat -r or -t (the scheduler's state); pgrep for it; or ps piped into grep for cups.
_CUPS = r"['\"]?cups(?:d|\.service)?['\"]?(?![\w.-])"
_SERVICE = (
    rf"(?<![\w-])systemctl\s+(?:-\S+\s+)*(?:status|is-active)\s+(?:-\S+\s+)*{_CUPS}"
    rf"|(?<![\w-])service\s+{_CUPS}\s+status(?![\w-])"
    r"|/etc/init\.d/cups\s+status(?![\w-])"
    r"|(?<![\w-])lpstat\s+(?:-\S+\s+)*-[a-z]*[rt][a-z]*(?![\w-])"
    rf"|(?<![\w-])pgrep\s+(?:-\S+\s+)*{_CUPS}"
    r"|(?<![\w-])ps\s+[^|\n]*\|\s*grep\s+(?:-\S+\s+)*['\"]?\[?c\]?upsd?['\"]?(?![\w.-])"
)

#: When they come out: 22:40 (or 10:40, 10.40), or in words.
_OUT = r"(?<![\d.:])(?:22|10)\s*[:.]\s*40(?!\d)|twenty to eleven"

CASES: tuple[Case, ...] = (
    Case(
        "en33_tool_hire",
        "action",
        LANGUAGE,
        forms.write_file(
            "Can you make a file called tool_hire.txt and put in it that I hired the cement"
            " mixer from {name} at the hire shop, and that the agreement number is {code}?",
            "tool_hire.txt",
        ),
    ),
    Case(
        "en33_hedgehog",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in three hours to put some food out for the hedgehog? He only"
            " turns up in the garden once it's dark.",
            3,
            "hedgehog",
            "igel",
            "erizo",
            "herisson",
            "ハリネズミ",
        ),
    ),
    Case(
        "en33_smart_plug",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The hallway lamp stays on far too late. In smart_plug.cfg, change off_time from"
            " 23:00 to 22:30 - edit the line that's already there rather than adding another.",
            "smart_plug.cfg",
            ["name = hallway lamp", "off_time = 23:00", "plug_id = {n}"],
            ["name = hallway lamp", "off_time = 22:30", "plug_id = {n}"],
        ),
    ),
    Case(
        "en33_national_trust",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember my National Trust membership number: {code}. I never have the"
            " card on me when we turn up somewhere.",
            "What's my National Trust membership number again?",
        ),
    ),
    Case(
        "en33_cinema",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "We're off to the cinema tonight. The showing is at 19:45, there are about 20"
            " minutes of adverts and trailers first, and the film itself runs 2 hours 35"
            " minutes. Roughly what time will we come out?",
            _OUT,
            "22:40",
            stream=True,
        ),
    ),
    Case(
        "en33_bite_the_bullet",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My sister keeps telling me I should just bite the bullet and book the dentist."
            " What does she mean?",
            "unpleasant|difficult|painful|dread|putting off|put off|putting it off|avoiding"
            "|get it over|face it|face up|face the|brave|courage|nerve|just do it|stop delaying"
            "|procrastinat|reluctan|don't want to|do not want to|don't like|tough|scary|fear",
        ),
    ),
    Case(
        "en33_cups",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "My printer has stopped printing and I want to check whether the CUPS printing"
            " service is even running. What command would tell me? Don't run anything, just"
            " tell me.",
            {"errands.txt": "Collect prescription {code}\nBuy {n} AA batteries\n"},
            _SERVICE,
            "a systemctl status cups (or service cups status, lpstat -r) command",
        ),
    ),
    Case(
        "en33_neighbourhood_watch",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I couldn't make the Neighbourhood Watch meeting on Thursday. What's in"
            " neighbourhood_watch.txt? And who is delivering the new leaflets?",
            {
                "neighbourhood_watch.txt": "Neighbourhood Watch meeting, {n} households came\n"
                "Two sheds on Orchard Close were broken into last month.\n"
                "The police liaison officer gave a talk about doorbell cameras.\n"
                "{name} offered to deliver the new leaflets to every house.\n"
                "The next meeting was moved to the church hall.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en33_bowls_team",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "bowls_team.txt has one player per line for Saturday's match. Count them with"
            " wc -l, add 'Gwendolyn Pryce' as a new line, then count again so I can see the"
            " new number.",
            "bowls_team.txt",
            "Gwendolyn Pryce",
        ),
    ),
    Case(
        "en33_golf_rounds",
        "command",
        LANGUAGE,
        forms.grep_count(
            "I log every round of golf in golf_rounds.csv, one line per round with the course."
            " How many rounds did I play at Wentworth this year? Count them with a command,"
            " please.",
            "golf_rounds.csv",
            "Wentworth",
            ("Sunningdale", "Woburn", "Hoylake", "Carnoustie"),
        ),
    ),
)
