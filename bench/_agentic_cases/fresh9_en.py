"""Ninth fresh English cases: written at once for the held-out-9 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en9_parking_permit",
        "action",
        LANGUAGE,
        forms.remind(
            "Set me a reminder for three hours from now to renew the parking permit online.",
            3,
            "parking permit",
            "permit",
            "parkausweis",
            "parkgenehmigung",
            "permiso de aparcamiento",
            "permiso de estacionamiento",
            "stationnement",
            "駐車",
        ),
    ),
    Case(
        "en9_locksmith",
        "action",
        LANGUAGE,
        forms.write_file(
            "Create a file named locksmith.txt noting that the locksmith is coming on Thursday"
            " morning to change the back door lock; his name is {name} and the quote number is"
            " {code}.",
            "locksmith.txt",
        ),
    ),
    Case(
        "en9_doorbell_chime",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Switch the chime in doorbell.cfg from classic to westminster; leave the other"
            " settings alone.",
            "doorbell.cfg",
            ["chime = classic", "volume = {n}", "night_mode = on"],
            ["chime = westminster", "volume = {n}", "night_mode = on"],
        ),
    ),
    Case(
        "en9_sofa_order",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you keep in mind that the order number for my new sofa is {code}?",
            "What's the order number for the sofa I ordered?",
        ),
    ),
    Case(
        "en9_right_angle",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many degrees are there in a right angle?",
            90,
            "ninety",
            "neunzig",
            "noventa",
            "quatre-vingt-dix",
            "nonante",
            "九十度",
        ),
    ),
    Case(
        "en9_penicillin",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who discovered penicillin?",
            "fleming|フレミング",
            stream=True,
        ),
    ),
    Case(
        "en9_compare_letters",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How would I compare letter_v1.txt and letter_v2.txt line by line? Just show me the"
            " command, don't run it.",
            {
                "letter_v1.txt": "Dear landlord, flat {n} needs a new boiler.\n",
                "letter_v2.txt": "Dear landlord, flat {n} urgently needs a new boiler.\n",
            },
            r"diff\s+(?:-\S+\s+)*\S*letter_v1\.txt\s+\S*letter_v2\.txt"
            r"|diff\s+(?:-\S+\s+)*\S*letter_v2\.txt\s+\S*letter_v1\.txt",
            "a diff command",
        ),
    ),
    Case(
        "en9_peanut_allergy",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open allergies.txt and tell me which child is allergic to peanuts.",
            {
                "allergies.txt": "Summer camp, group {n}\nMia: dairy\n{name}: peanuts\n"
                "Oliver: none\nZoe: gluten\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en9_raffle_entries",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines does raffle.txt have? After that, put 'Priya Shah' on a new line at"
            " the bottom and check the count again.",
            "raffle.txt",
            "Priya Shah",
        ),
    ),
    Case(
        "en9_feedback_log",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Can you run a command to see how many lines feedback.log has?",
            "feedback.log",
        ),
    ),
)
