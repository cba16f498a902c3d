"""Twenty-first fresh English cases: written at once for the held-out-21 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bartholomew", "Genevieve", "Archibald", "Wilhelmina", "Percival")

#: The commands that list every PDF under a folder, subfolders included, as an answer may write
#: them: find by name or regex, fd by extension, ls with a recursive glob.
_PDFS = "|".join(
    (
        r"(?<![\w-])find\s[^\n|;&`]*?-i?(?:name\s+['\"]?\\?\*|regex\s+['\"]?\.\*\\?)\.pdf"
        r"(?![\w.])",
        r"(?<![\w-])fd(?:find)?\s[^\n|;&`]*?(?:-e|--extension)[\s=]+['\"]?\.?pdf(?![\w.])",
        r"(?<![\w-])ls\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?\*\*/\*\.pdf(?![\w.])",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "en21_vet_callback",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in an hour and a half to ring the vet back about Biscuit's booster jab.",
            1.5,
            "vet",
            "biscuit",
            "booster",
            "jab",
            "vaccin",
            "tierarzt",
            "impfung",
            "veterinari",
            "vacuna",
            "vétérinaire",
            "veterinaire",
            "獣医",
            "ワクチン",
        ),
    ),
    Case(
        "en21_potluck",
        "action",
        LANGUAGE,
        forms.append_line(
            "Could you add '{line}' as a new line at the bottom of potluck.txt? Leave the rest"
            " of the list as it is.",
            "potluck.txt",
            [
                "Lasagne: Marjorie",
                "Garlic bread: the Patels",
                "Fruit salad: Tom and Ruth",
            ],
            "Cheese board: {name}",
        ),
    ),
    Case(
        "en21_backup_days",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "My USB stick keeps filling up. In backup.cfg, set keep_days to 14 instead of 30 -"
            " just edit that line, please don't add another one.",
            "backup.cfg",
            ["target = /mnt/usbstick", "keep_days = 30", "job = {n}"],
            ["target = /mnt/usbstick", "keep_days = 14", "job = {n}"],
        ),
    ),
    Case(
        "en21_bike_lock",
        "recall",
        LANGUAGE,
        forms.remember(
            "Quick one to remember for me: the combination on my bike lock is {code}.",
            "Sorry, what's the combination on my bike lock again?",
            stream=True,
        ),
    ),
    Case(
        "en21_dog_walks",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I walk the dog three times a day, 25 minutes each time. How many minutes of dog"
            " walking is that in a week?",
            525,
            "five hundred and twenty-five",
            "five hundred and twenty five",
            "five hundred twenty-five",
            "five hundred twenty five",
            "funfhundertfunfundzwanzig",
            "fünfhundertfünfundzwanzig",
            "quinientos veinticinco",
            "cinq cent vingt-cinq",
            "cinq-cent-vingt-cinq",
            "五百二十五",
        ),
    ),
    Case(
        "en21_nearest_planet",
        "no-tool",
        LANGUAGE,
        forms.words("Which planet is closest to the sun?", "mercury|merkur|mercurio|mercure|水星"),
    ),
    Case(
        "en21_find_pdfs",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "What command would list every PDF in my paperwork folder, subfolders included?"
            " Just show it to me, don't run it.",
            {
                "paperwork/tax/return.pdf": "%PDF-1.4 tax return {code}\n",
                "paperwork/house/insurance.pdf": "%PDF-1.4 policy {n}\n",
                "paperwork/todo.txt": "renew passport\n",
            },
            _PDFS,
            "a find paperwork -name '*.pdf' (or fd -e pdf) command",
        ),
    ),
    Case(
        "en21_allotment",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Give me the gist of allotment_meeting.txt. Who ended up taking over plot 7?",
            {
                "allotment_meeting.txt": "Allotment committee meeting, {n} members came\n"
                "The broken water trough had been fixed over the winter.\n"
                "{name} took over plot 7 after the Hendersons moved away.\n"
                "We agreed to hold a seed swap in March.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en21_school_pickup",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Show me what pickup.txt says, then change the pickup time from 3:15 to 3:45 and"
            " read the file back to me so I can check it.",
            "pickup.txt",
            ["School pickup for class {n}", "time: 3:15", "gate: north"],
            ["School pickup for class {n}", "time: 3:45", "gate: north"],
            "3:45",
        ),
    ),
    Case(
        "en21_whitby_lets",
        "command",
        LANGUAGE,
        forms.grep_count(
            "How many of the rows in holiday_lets.csv are bookings in Whitby? Count them with a"
            " command, please.",
            "holiday_lets.csv",
            "Whitby",
            ["Scarborough", "Filey", "Staithes"],
        ),
    ),
)
