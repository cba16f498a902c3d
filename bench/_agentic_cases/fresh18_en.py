"""Eighteenth fresh English cases: written at once for the held-out-18 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Fitzwilliam", "Seraphina", "Octavius", "Rosabel", "Jedediah")

CASES: tuple[Case, ...] = (
    Case(
        "en18_pothole",
        "action",
        LANGUAGE,
        forms.remind(
            "Set me a reminder for three and a half hours from now to report the pothole on"
            " Mill Lane to the council.",
            3.5,
            "pothole",
            "council",
            "mill lane",
            "schlagloch",
            "bache",
            "nid-de-poule",
            "nid de poule",
            "穴",
            "役所",
        ),
    ),
    Case(
        "en18_ski_hire",
        "action",
        LANGUAGE,
        forms.write_file(
            "Make a new file, ski_hire.txt, and put in it that the skis for our trip are booked"
            " under {name} and the hire voucher number is {code}.",
            "ski_hire.txt",
        ),
    ),
    Case(
        "en18_baby_monitor",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The baby monitor keeps going off at every little noise. In baby_monitor.cfg, turn"
            " the sensitivity down from 7 to 4 - change that line, don't add a new one.",
            "baby_monitor.cfg",
            ["sensitivity = 7", "night_light = on", "channel = {n}"],
            ["sensitivity = 4", "night_light = on", "channel = {n}"],
        ),
    ),
    Case(
        "en18_microchip",
        "recall",
        LANGUAGE,
        forms.remember(
            "Keep this in mind for me, would you: our dog's microchip number ends in {code}.",
            "What did I tell you the dog's microchip number ends in?",
        ),
    ),
    Case(
        "en18_dominoes",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many tiles are there in a standard double-six set of dominoes?",
            28,
            "twenty-eight",
            "twenty eight",
            "achtundzwanzig",
            "veintiocho",
            "vingt-huit",
            "二十八",
        ),
    ),
    Case(
        "en18_iron_symbol",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Which element has the chemical symbol Fe?",
            r"\biron\b|\beisen\b|\bhierro\b|\bfer\b|鉄",
            "iron",
            stream=True,
        ),
    ),
    Case(
        "en18_reload_bashrc",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I've just added a couple of aliases to my .bashrc. How do I get them working in"
            " this terminal without logging out and back in? Only tell me the command, don't"
            " run it.",
            {"shell_tweaks.txt": "Aliases tried so far: {n}\n"},
            r"(?<![\w-])(?:source|\.)\s+['\"]?(?:~/|\$home/|\$\{home\}/|/home/[\w.-]+/|/root/"
            r"|\./)?\.bashrc"
            r"|(?<![\w-])exec\s+(?:(?:/usr)?/bin/)?bash(?![\w-])"
            r"|(?<![\w-])exec\s+['\"]?\$\{?shell\b",
            "a source ~/.bashrc (or . ~/.bashrc, exec bash) command",
        ),
    ),
    Case(
        "en18_panto_dame",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Go through panto_cast.txt and tell me who's playing the dame this year.",
            {
                "panto_cast.txt": "Village panto, year {n}\n"
                "Principal boy: Shona\nDame: {name}\nVillain: Mr Pryce\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en18_beach_clean",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Tell me how many lines beach_clean.txt has, then put Oluwaseun Adeyemi on a new"
            " line at the bottom and count them again.",
            "beach_clean.txt",
            "Oluwaseun Adeyemi",
        ),
    ),
    Case(
        "en18_moth_trap",
        "command",
        LANGUAGE,
        forms.count_lines(
            "I've been logging what turns up in the moth trap in moth_trap.txt. Get me its line"
            " count with a command, would you?",
            "moth_trap.txt",
        ),
    ),
)
