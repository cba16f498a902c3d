"""Thirty-second fresh English cases: written at once for the held-out-32 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ebenezer", "Philippa", "Rosalind", "Horatio", "Millicent")

#: The names the recall saves, one per run.
CHIROPODISTS = ("Pennington", "Braithwaite", "Ollerenshaw", "Sutcliffe")

#: The commands that list the lines of christmas_cards.txt without "sent": grep with an
#: inverted match (-v, --invert-match) for sent, on the file or fed it by cat; or awk '!/sent/'.
_CARDS = r"['\"]?(?:[\w~./-]*/)?christmas_cards\.txt['\"]?(?![\w.-])"
_SENT = r"['\"]?sent\$?['\"]?"
_INVERT = r"(?:-[a-z]*v[a-z]*|--invert-match)"
_GREP_V = (
    rf"(?<![\w-])grep\s+(?:-\S+\s+)*{_INVERT}\s+(?:-\S+\s+)*{_SENT}\s+(?:-\S+\s+)*{_CARDS}"
    rf"|(?<![\w-])cat\s+{_CARDS}\s*\|\s*grep\s+(?:-\S+\s+)*{_INVERT}\s+(?:-\S+\s+)*{_SENT}"
    r"(?![\w])"
    rf"|(?<![\w-])awk\s+['\"]!\s*/sent\$?/['\"]\s+{_CARDS}"
)

CASES: tuple[Case, ...] = (
    Case(
        "en32_record_fair",
        "action",
        LANGUAGE,
        forms.append_line(
            "Can you add '{line}' to the bottom of record_fair.txt? It's my wish list for the"
            " record fair on Saturday, so leave the rest alone.",
            "record_fair.txt",
            [
                "Fleetwood Mac - Rumours",
                "Kate Bush - Hounds of Love",
                "Talk Talk - Spirit of Eden",
            ],
            "Any Northern Soul singles for {name}",
        ),
    ),
    Case(
        "en32_marinade",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in an hour and a half to take the lamb out of the marinade, otherwise it"
            " goes all mushy.",
            1.5,
            "marinade",
            "lamb",
            "marin",
            "lamm",
            "cordero",
            "agneau",
            "マリネ",
            "ラム",
        ),
    ),
    Case(
        "en32_bike_computer",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "I've put new tyres on my bike and now the bike computer reads a bit slow. In"
            " bike_computer.cfg change wheel_mm from 2096 to 2105 - just alter that line, don't"
            " add a new one.",
            "bike_computer.cfg",
            ["units = miles", "wheel_mm = 2096", "sensor_id = {n}"],
            ["units = miles", "wheel_mm = 2105", "sensor_id = {n}"],
        ),
    ),
    Case(
        "en32_chiropodist",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember for me that Nan's new chiropodist is called {value}? She always"
            " forgets and then asks me.",
            "What's the name of Nan's new chiropodist again?",
            CHIROPODISTS,
        ),
    ),
    Case(
        "en32_carpet_tiles",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I'm putting carpet tiles down in the spare room. The floor is 6 metres by 4 metres"
            " and each tile is 50 cm square. How many tiles do I need, not counting spares?",
            96,
            "ninety-six",
            "ninety six",
            "sechsundneunzig",
            "noventa y seis",
            "quatre-vingt-seize",
            "九十六",
            stream=True,
        ),
    ),
    Case(
        "en32_blue_moon",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mum says my brother only rings her once in a blue moon. What does she mean by that?",
            "rarely|rare|seldom|hardly ever|not very often|not often|almost never|infrequent"
            "|very occasionally|hardly at all",
        ),
    ),
    Case(
        "en32_christmas_cards",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Every card I've already posted has 'sent' at the end of its line in"
            " christmas_cards.txt. What command would list just the ones I still have to send?"
            " Only tell me, I'll run it myself.",
            {"notes.txt": "Return library books\nLocker {code}, row {n}\n"},
            _GREP_V,
            "a grep -v sent christmas_cards.txt command",
        ),
    ),
    Case(
        "en32_pigeon_race",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open pigeon_race.txt and tell me who is clocking the birds in on Saturday.",
            {
                "pigeon_race.txt": "Pigeon club race, loft {n}\n"
                "Birds basketed: Friday at 7pm at the club hut\n"
                "Clocking in on Saturday: {name}\n"
                "Tea urn and biscuits: whoever gets there first\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en32_karate_grading",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me karate_grading.txt, change the grading time from 10:30 to 11:15, then read"
            " the file back to me so I know it saved properly.",
            "karate_grading.txt",
            ["Karate grading, dojo {n}", "time: 10:30", "bring: licence book"],
            ["Karate grading, dojo {n}", "time: 11:15", "bring: licence book"],
            "time: 11:15",
        ),
    ),
    Case(
        "en32_conkers",
        "command",
        LANGUAGE,
        forms.count_lines(
            "My son writes every conker fight he wins on its own line in conker_matches.txt."
            " How many has he won this autumn? Count the lines with a command, please.",
            "conker_matches.txt",
        ),
    ),
)
