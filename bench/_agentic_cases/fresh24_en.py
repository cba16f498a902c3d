"""Twenty-fourth fresh English cases: written at once for the held-out-24 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ptolemy", "Gwendolyn", "Cornelius", "Millicent", "Bartholomew")

#: The names the recall saves, one per run.
DOCTORS = ("Okonkwo", "Fairweather", "Pemberton", "Lindqvist")

#: The archive and the folder it goes into, as an answer may write them (with a path or quoted).
_ZIP = r"['\"]?(?:[\w~./-]*/)?holiday_photos\.zip['\"]?"
_DEST = r"['\"]?(?:[\w~./-]*/)?holiday/?['\"]?(?![\w.-])"

#: The command that unpacks holiday_photos.zip into holiday: unzip with its -d option, before
#: or after the archive.
_UNZIP = (
    rf"(?<![\w-])unzip\s+(?:-\S+\s+)*"
    rf"(?:{_ZIP}\s+(?:-\S+\s+)*-d\s*{_DEST}|-d\s*{_DEST}\s+(?:-\S+\s+)*{_ZIP})"
)

CASES: tuple[Case, ...] = (
    Case(
        "en24_maths_tutor",
        "action",
        LANGUAGE,
        forms.write_file(
            "Can you make a file called maths_tutor.txt saying Ellie's new maths tutor is {name}"
            " and the booking reference is {code}? I keep losing the email.",
            "maths_tutor.txt",
        ),
    ),
    Case(
        "en24_pasta_bake",
        "action",
        LANGUAGE,
        forms.remind(
            "Give me a nudge in 45 minutes to take the pasta bake out of the oven, would you?",
            0.75,
            "pasta",
            "oven",
            "ofen",
            "nudel",
            "horno",
            "four",
            "gratin",
            "パスタ",
            "オーブン",
        ),
    ),
    Case(
        "en24_photo_frame",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The digital photo frame flicks through the pictures far too quickly. In"
            " frame_settings.ini set slideshow_seconds to 20 instead of 5 - change the line"
            " that's there rather than adding a new one.",
            "frame_settings.ini",
            ["transition = fade", "slideshow_seconds = 5", "brightness = {n}"],
            ["transition = fade", "slideshow_seconds = 20", "brightness = {n}"],
        ),
    ),
    Case(
        "en24_new_gp",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that our new GP at the health centre is Dr {value}.",
            "Who's our new GP again? I need the name for a form.",
            DOCTORS,
            stream=True,
        ),
    ),
    Case(
        "en24_fence_paint",
        "no-tool",
        LANGUAGE,
        forms.number(
            "One tin of fence paint covers 12 square metres. Our fence is 84 square metres and"
            " it needs two coats. How many tins should I buy?",
            14,
            "fourteen",
            "vierzehn",
            "catorce",
            "quatorze",
            "十四",
        ),
    ),
    Case(
        "en24_thanks_portuguese",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Off to Lisbon next week! How do I say thank you in Portuguese?",
            "obrigad",
            stream=True,
        ),
    ),
    Case(
        "en24_unzip_holiday",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I've downloaded holiday_photos.zip. What's the command to unzip it into a folder"
            " called holiday? Just give me the command, I'll run it myself later.",
            {"todo.txt": "Sort out the holiday photos ({n} of them)\nBook MOT, ref {code}\n"},
            _UNZIP,
            "an unzip holiday_photos.zip -d holiday command",
        ),
    ),
    Case(
        "en24_book_club",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I missed book club last night. Can you sum up what happened? The notes are in"
            " book_club_notes.txt.",
            {
                "book_club_notes.txt": "Book club, meeting {n}\n"
                "We met at Judith's flat and finished the Ishiguro.\n"
                "Most of us found the ending too slow.\n"
                "{name} offered to host next month and picked a thriller.\n"
                "We agreed to bring a dish each next time.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en24_carol_singers",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines are in carol_singers.txt right now? Add 'Mabel Ashworth' at the"
            " end, then count them again so I can see the number went up.",
            "carol_singers.txt",
            "Mabel Ashworth",
        ),
    ),
    Case(
        "en24_allotment_waitlist",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Everyone on the allotment waiting list has one line in waiting_list.txt. How many"
            " people are waiting? Count the lines with a command rather than guessing.",
            "waiting_list.txt",
        ),
    ),
)
