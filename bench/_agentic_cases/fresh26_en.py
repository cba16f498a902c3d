"""Twenty-sixth fresh English cases: written at once for the held-out-26 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Cuthbert", "Drusilla", "Leofric", "Perpetua", "Zebedee")

#: The names the recall saves, one per run.
BEEKEEPERS = ("Hamish", "Fergus", "Lachlan", "Torquil")

#: The command that lists what backup_march.zip holds without unpacking it: unzip with a
#: listing option (-l or -v), zipinfo, or 7z l, before the archive.
_LIST = (
    r"(?<![\w-])(?:unzip\s+(?:-\S+\s+)*-[a-z]*[lv][a-z]*\s+(?:-\S+\s+)*"
    r"|zipinfo\s+(?:-\S+\s+)*|7z\s+l\s+(?:-\S+\s+)*)"
    r"['\"]?(?:[\w~./-]*/)?backup_march\.zip['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "en26_fete_stall",
        "action",
        LANGUAGE,
        forms.append_line(
            "Pop '{line}' on the end of fete_stalls.txt, would you? Leave the other stalls as"
            " they are.",
            "fete_stalls.txt",
            ["Plant stall", "Tea tent", "Coconut shy"],
            "Hedgehog rescue stand run by {name}",
        ),
    ),
    Case(
        "en26_trampoline_park",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in an hour and a half to collect the kids from the trampoline park.",
            1.5,
            "trampoline",
            "kids",
            "collect",
            "children",
            "kinder",
            "abholen",
            "niños",
            "recoger",
            "enfants",
            "トランポリン",
        ),
    ),
    Case(
        "en26_kiln_glaze",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The glaze keeps running down onto the kiln shelf. In kiln.cfg, bring peak_temp"
            " down from 1240 to 1220 - alter that line rather than adding a new one.",
            "kiln.cfg",
            ["program = glaze", "peak_temp = 1240", "hold_minutes = {n}"],
            ["program = glaze", "peak_temp = 1220", "hold_minutes = {n}"],
        ),
    ),
    Case(
        "en26_beekeeper",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you remember that the beekeeper we buy our honey from is called {value}? I'll"
            " want to order more before Christmas.",
            "What was the beekeeper's name again, the one we get our honey from?",
            BEEKEEPERS,
            stream=True,
        ),
    ),
    Case(
        "en26_diwali_samosas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "For the Diwali lunch at work, 7 of us are each bringing 3 samosas, and I'm picking"
            " up another 10 from the shop. How many samosas will there be altogether?",
            31,
            "thirty-one",
            "thirty one",
            "einunddreißig",
            "einunddreissig",
            "treinta y uno",
            "trente et un",
            "三十一",
        ),
    ),
    Case(
        "en26_pamplemousse",
        "no-tool",
        LANGUAGE,
        forms.words(
            "On the breakfast menu at our hotel in Lyon there's 'jus de pamplemousse'. What's a"
            " pamplemousse in English?",
            "grapefruit|pomelo",
        ),
    ),
    Case(
        "en26_zip_contents",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "My brother sent me backup_march.zip. How can I see what's in it without unpacking"
            " it? Just give me the command - don't run it.",
            {"notes.txt": "March backup: {n} folders\nLaptop asset tag {code}\n"},
            _LIST,
            "an unzip -l backup_march.zip command",
        ),
    ),
    Case(
        "en26_safety_boat",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look at canoe_club_rota.txt and tell me who's on the safety boat this Sunday.",
            {
                "canoe_club_rota.txt": "Canoe club rota, week {n}\n"
                "Kit check: Dominic\n"
                "Safety boat: {name}\n"
                "Tea urn: Marjorie\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en26_bell_practice",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me bellringers.txt, then move practice night from Tuesday to Thursday and read"
            " the file out again so I can check it went in.",
            "bellringers.txt",
            ["Bell ringers, band {n}", "practice: Tuesday", "Sunday service: 10:00"],
            ["Bell ringers, band {n}", "practice: Thursday", "Sunday service: 10:00"],
            "practice: Thursday",
        ),
    ),
    Case(
        "en26_scout_badges",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Every line in scout_badges.txt is a badge one of the cubs earned this term. How many"
            " badges is that? Count them with a command rather than by eye, please.",
            "scout_badges.txt",
        ),
    ),
)
