"""Thirty-fourth fresh English cases: written at once for the held-out-34 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Euphemia", "Wilbraham", "Hortensia", "Bertram", "Ermintrude")

#: The paint colours the recall saves, one per run.
PAINTS = ("Elephant's Breath", "Skimming Stone", "Hague Blue", "Sulking Room Pink")

#: What she earns: £216 (216.00 too), or in words.
_EARNED = (
    rf"{forms.number_pattern(216)}|(?<![\d.,])216[.,]00(?!\d)"
    r"|two hundred and sixteen|two hundred sixteen"
)

#: The commands that make best_man_speech.txt read-only: chmod taking the owner's write bit
#: away (-w, a-w, ugo-w, u-w, or among other clauses such as u-w,g-w,o-w), setting read with
#: no write (a=r, ugo=r), or an octal mode that keeps the owner's read and gives nobody write
#: (444, 0444, 440, 400, 555...); or chattr +i, which makes it immutable.
_SPEECH = r"['\"]?(?:[\w~./-]*/)?best_man_speech\.txt['\"]?(?![\w.-])"
#: A clause that gives no write (removes bits, or sets some without w); the owner's write off.
_CLAUSE = r"[ugoa]*(?:-[rwxst]*|=[rxst]*)"
_OFF = r"(?:[ugoa]*[ua][ugoa]*)?(?:-[rxst]*w[rwxst]*|=[rxst]*)"
_MODE = rf"(?:(?:{_CLAUSE},)*{_OFF}(?:,{_CLAUSE})*|0?[45][0145]{{2}})"
_READ_ONLY = (
    rf"(?<![\w-])chmod\s+(?:-\S+\s+)*{_MODE}\s+(?:-\S+\s+)*{_SPEECH}"
    rf"|(?<![\w-])chattr\s+(?:-\S+\s+)*\+[a-z]*i[a-z]*\s+(?:-\S+\s+)*{_SPEECH}"
)

CASES: tuple[Case, ...] = (
    Case(
        "en34_boot_sale",
        "action",
        LANGUAGE,
        forms.append_line(
            "Can you add '{line}' to the end of boot_sale.txt? It's everything I'm taking to"
            " the car boot sale on Sunday, so keep the rest as it is.",
            "boot_sale.txt",
            ["Bread maker, never used", "Two folding chairs", "Box of jigsaws"],
            "Pasta machine from {name}",
        ),
    ),
    Case(
        "en34_plum_jam",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in an hour and a quarter to check whether the plum jam has set. If I"
            " forget, it'll catch on the bottom of the pan.",
            1.25,
            "jam",
            "plum",
            "marmelade",
            "konfit",
            "mermelada",
            "confiture",
            "ジャム",
        ),
    ),
    Case(
        "en34_sewing_machine",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "My sewing machine keeps leaving loopy stitches underneath. In sewing_machine.cfg,"
            " change tension from 4 to 5 - change the line that's there, don't add another one.",
            "sewing_machine.cfg",
            ["stitch = straight", "tension = 4", "serial = {n}"],
            ["stitch = straight", "tension = 5", "serial = {n}"],
        ),
    ),
    Case(
        "en34_hallway_paint",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember that the paint we used in the hallway is called {value}? We'll"
            " need another tin when we touch up the scuffs.",
            "What was the paint colour we used in the hallway called?",
            PAINTS,
        ),
    ),
    Case(
        "en34_paper_round",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "My daughter's paper round pays £4.50 a day and she does it six days a week. How"
            " much will she have earned after 8 weeks?",
            _EARNED,
            "£216",
            stream=True,
        ),
    ),
    Case(
        "en34_pulling_leg",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Grandad told the kids he once wrestled a bear in Canada, and my wife said he was"
            " just pulling their leg. What did she mean?",
            "jok|teas|kidding|having them on|having you on|not serious|wasn't serious"
            "|was not serious|not true|isn't true|wasn't true|untrue|made it up|made up"
            "|making it up|fool|trick|wind-up|wind up|winding them up|fib|tall tale|not real"
            "|pretend|for fun|having fun|prank|exaggerat|invent|fiction|lying|playful|humour"
            "|humor",
        ),
    ),
    Case(
        "en34_speech_read_only",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I've finally finished my best man's speech in best_man_speech.txt and I don't want"
            " to change it by accident before the wedding. What command makes the file"
            " read-only? Just tell me, don't run it.",
            {"jobs.txt": "Pick up suit, ticket {code}\nBuy {n} tea lights\n"},
            _READ_ONLY,
            "a chmod a-w best_man_speech.txt (or chmod 444, chattr +i) command",
        ),
    ),
    Case(
        "en34_tenants_meeting",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I missed the tenants' association meeting last night. What's in"
            " tenants_meeting.txt? And who's writing to the council about the bins?",
            {
                "tenants_meeting.txt": "Tenants' association meeting, {n} flats represented\n"
                "The letting agent finally turned up and answered questions about the damp.\n"
                "Everyone agreed the bike store needed a new lock.\n"
                "{name} agreed to write to the council about the overflowing recycling bins.\n"
                "The summer barbecue was moved to the last Saturday in July.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en34_blood_test",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me blood_test.txt, move the appointment time from 08:40 to 09:10, then read"
            " the file back to me so I can check it saved.",
            "blood_test.txt",
            ["Blood test, surgery ref {n}", "time: 08:40", "fasting: yes"],
            ["Blood test, surgery ref {n}", "time: 09:10", "fasting: yes"],
            "time: 09:10",
        ),
    ),
    Case(
        "en34_presents_bought",
        "command",
        LANGUAGE,
        forms.count_lines(
            "I put every Christmas present I've bought so far on its own line in"
            " presents_bought.txt. How many have I got now? Count the lines with a command,"
            " please.",
            "presents_bought.txt",
        ),
    ),
)
