"""Twenty-fifth fresh English cases: written at once for the held-out-25 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aloysius", "Fenella", "Lancelot", "Crispin", "Gervase")

#: The names the recall saves, one per run.
COACHES = ("Rhiannon", "Tamsin", "Morwenna", "Bethan")

#: The arrival time, 14:50 plus 2 hours 25 minutes: 17:15 (or 5:15, or a quarter past five),
#: not part of a longer time.
_ARRIVAL = r"(?<![\d:.])(?:17|0?5)[:.]15(?!\d)|quarter past five"

#: The command that makes tidy_downloads.sh executable: chmod with an execute bit for its
#: owner (symbolic, or in octal with an odd first digit), before the script.
_CHMOD = (
    r"(?<![\w-])chmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rwx]*x[rwx]*|[0-7]?[1357][0-7][0-7])\s+"
    r"['\"]?(?:[\w~./-]*/)?tidy_downloads\.sh['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "en25_kayak_hire",
        "action",
        LANGUAGE,
        forms.write_file(
            "Could you jot down in kayak_hire.txt that the two kayaks are booked under the name"
            " {name}, confirmation number {code}? We're paddling on Saturday and I'll need it.",
            "kayak_hire.txt",
        ),
    ),
    Case(
        "en25_recycling_bin",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in 3 hours to put the recycling bin out, they collect it first thing"
            " tomorrow.",
            3,
            "recycling",
            "bin",
            "rubbish",
            "müll",
            "tonne",
            "basura",
            "reciclaje",
            "contenedor",
            "poubelle",
            "ゴミ",
            "ごみ",
        ),
    ),
    Case(
        "en25_greenhouse_fan",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The greenhouse is getting far too hot before the fan kicks in. In greenhouse.cfg"
            " change fan_on_at from 30 to 26 - edit that line, please don't add another one.",
            "greenhouse.cfg",
            ["vent = auto", "fan_on_at = 30", "mist_seconds = {n}"],
            ["vent = auto", "fan_on_at = 26", "mist_seconds = {n}"],
        ),
    ),
    Case(
        "en25_swimming_coach",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that the kids' new swimming coach is called {value}? I'm"
            " hopeless with names.",
            "What's the name of the kids' swimming coach again? I want to thank her.",
            COACHES,
            stream=True,
        ),
    ),
    Case(
        "en25_train_arrival",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "My train leaves at 14:50 and the journey takes 2 hours 25 minutes. What time do I"
            " get in?",
            _ARRIVAL,
            "17:15",
        ),
    ),
    Case(
        "en25_bakery_french",
        "no-tool",
        LANGUAGE,
        forms.words(
            "We're spending a week near Annecy. What's the French word for a bakery, so I can"
            " ask where the nearest one is?",
            "boulangerie",
        ),
    ),
    Case(
        "en25_tidy_downloads",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I've written a little script called tidy_downloads.sh. What's the command to make it"
            " executable? Only tell me, don't run anything.",
            {"tidy_downloads.sh": "#!/bin/sh\nfind ~/Downloads -mtime +{n} -delete\n"},
            _CHMOD,
            "a chmod +x tidy_downloads.sh command",
        ),
    ),
    Case(
        "en25_sports_day",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "I had to work through the school sports day. What happened? Someone wrote it up in"
            " sports_day.txt - and who stepped in to run the egg-and-spoon race?",
            {
                "sports_day.txt": "Sports day write-up, copy {n}\n"
                "It rained all morning, so the relay moved indoors.\n"
                "Blue house won overall by four points.\n"
                "{name} stepped in to run the egg-and-spoon race when Mr Hale went home ill.\n"
                "The parents' race ended in a three-way tie.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en25_cake_stall",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Count the lines in cake_stall_helpers.txt, then add 'Hortense Quigley' to the bottom"
            " and count them once more so I can see she went in.",
            "cake_stall_helpers.txt",
            "Hortense Quigley",
        ),
    ),
    Case(
        "en25_parcels_basingstoke",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In deliveries.csv each line is one parcel we sent out. How many of them went to"
            " Basingstoke? Count them with a command, please.",
            "deliveries.csv",
            "Basingstoke",
            ["Reading", "Newbury", "Andover"],
        ),
    ),
)
