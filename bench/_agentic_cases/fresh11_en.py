"""Eleventh fresh English cases: written at once for the held-out-11 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Percival", "Winifred", "Cornelius", "Araminta", "Leopold")

CASES: tuple[Case, ...] = (
    Case(
        "en11_streetlight",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in three hours to report the broken streetlight outside number 12.",
            3,
            "streetlight",
            "street light",
            "street lamp",
            "laterne",
            "straßenlampe",
            "strassenlampe",
            "farola",
            "lampadaire",
            "réverbère",
            "街灯",
        ),
    ),
    Case(
        "en11_loft_insulation",
        "action",
        LANGUAGE,
        forms.write_file(
            "Create a file called loft_insulation.txt noting that the insulation fitters are"
            " booked for Wednesday morning; the surveyor is {name} and the quote reference is"
            " {code}.",
            "loft_insulation.txt",
        ),
    ),
    Case(
        "en11_camera_resolution",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In camera.ini, bump the video resolution from 1080 to 2160 and don't touch the"
            " other settings.",
            "camera.ini",
            ["resolution = 1080", "fps = {n}", "stabiliser = on"],
            ["resolution = 2160", "fps = {n}", "stabiliser = on"],
        ),
    ),
    Case(
        "en11_climbing_wall",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you remember that my membership number at the climbing wall is {code}?",
            "What's my membership number at the climbing wall?",
        ),
    ),
    Case(
        "en11_octopus_hearts",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many hearts does an octopus have?",
            3,
            "three",
            "drei",
            "tres",
            "trois",
            "三つ",
        ),
    ),
    Case(
        "en11_four_seasons",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who composed The Four Seasons?",
            "vivaldi|ヴィヴァルディ|ビバルディ",
            stream=True,
        ),
    ),
    Case(
        "en11_find_pdfs",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What command would list every PDF file inside the manuals folder? Just show me the"
            " command, don't run it.",
            {"manuals/kettle.pdf": "%PDF-1.4 kettle {n}\n", "manuals/readme.txt": "Manuals\n"},
            r"find\s+\S*manuals/?\s+(?:\S+\s+)*-i?name\s+['\"]?\*\.pdf"
            r"|(?<![a-z])ls\s+(?:-\S+\s+)*\S*manuals/\*\.pdf",
            "a find or ls command for the PDFs",
        ),
    ),
    Case(
        "en11_van_booking",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at van_bookings.txt and tell me who's got the van on Thursday.",
            {
                "van_bookings.txt": "Van bookings, week {n}\nMonday: Mr Okafor\n"
                "Thursday: {name}\nSaturday: Delia\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en11_book_swap",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in book_swap.txt, then add 'Ravi Menon' as the last line and count"
            " them once more.",
            "book_swap.txt",
            "Ravi Menon",
        ),
    ),
    Case(
        "en11_swindon_returns",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Use a command to count how many lines of returns.csv are from Swindon.",
            "returns.csv",
            "Swindon",
            ["Reading", "Oxford", "Bath"],
        ),
    ),
)
