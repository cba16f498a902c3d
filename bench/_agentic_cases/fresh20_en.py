"""Twentieth fresh English cases: written at once for the held-out-20 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ebenezer", "Philippa", "Montgomery", "Rosalind", "Cornelius")

CASES: tuple[Case, ...] = (
    Case(
        "en20_parking_meter",
        "action",
        LANGUAGE,
        forms.remind(
            "Could you give me a nudge in 45 minutes to go and top up the parking meter on"
            " Station Road?",
            0.75,
            "parking",
            "meter",
            "parken",
            "parkuhr",
            "parkschein",
            "parquimetro",
            "aparcamiento",
            "estacionamiento",
            "stationnement",
            "parcmetre",
            "horodateur",
            "パーキング",
            "駐車",
        ),
    ),
    Case(
        "en20_babysitter",
        "action",
        LANGUAGE,
        forms.write_file(
            "Can you make a file called babysitter.txt for tonight? Put in it that the sitter's"
            " name is {name} and that the key safe code is {code}.",
            "babysitter.txt",
        ),
    ),
    Case(
        "en20_sprinkler",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The back lawn is getting soggy. In sprinkler.cfg, cut run_minutes from 20 to 12 -"
            " change that line, don't add a new one.",
            "sprinkler.cfg",
            ["zone = back_lawn", "run_minutes = 20", "controller = {n}"],
            ["zone = back_lawn", "run_minutes = 12", "controller = {n}"],
        ),
    ),
    Case(
        "en20_garage_keypad",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you keep this in mind for me? The code for the garage door keypad is {code}.",
            "What was the code for the garage door keypad?",
        ),
    ),
    Case(
        "en20_reading_pages",
        "no-tool",
        LANGUAGE,
        forms.number(
            "If I read 15 pages a day, how many pages will I have got through after three weeks?",
            315,
            "three hundred and fifteen",
            "three hundred fifteen",
            "dreihundertfunfzehn",
            "trescientos quince",
            "trois cent quinze",
            "trois-cent-quinze",
            "三百十五",
        ),
    ),
    Case(
        "en20_capital_canada",
        "no-tool",
        LANGUAGE,
        forms.words("What's the capital of Canada?", "ottawa|オタワ", stream=True),
    ),
    Case(
        "en20_essay_words",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How would I count the words in essay.txt from the terminal? Don't run it, just"
            " show me the command.",
            {"essay.txt": "My summer holiday, by {name}\nWe spent {n} days at the seaside.\n"},
            r"(?<![\w-])wc\s+(?:(?:-\S+\s+)*(?:-[a-z]*w[a-z]*|--words)\s+(?:-\S+\s+)*)?"
            r"['\"]?(?:[\w~./-]*/)?essay\.txt"
            r"|(?<![\w-])wc\s+(?:-\S+\s+)*(?:-[a-z]*w[a-z]*|--words)\s*<\s*['\"]?"
            r"(?:[\w~./-]*/)?essay\.txt"
            r"|essay\.txt['\"]?\s*\|\s*wc"
            r"(?:\s+(?:-\S+\s+)*(?:-[a-z]*w[a-z]*|--words)(?:\s+-\S+)*)?(?![\w-]|\s+-)",
            "a wc -w essay.txt (or wc essay.txt, cat essay.txt | wc -w) command",
        ),
    ),
    Case(
        "en20_bin_rota",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check bin_rota.txt and tell me whose turn it is to put the bins out this week.",
            {
                "bin_rota.txt": "Bin rota for flat {n}\n"
                "this week: {name}\n"
                "next week: Agatha\n"
                "the week after: Desmond\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en20_raffle",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines are in raffle_tickets.txt right now? Then add 'ticket 88: Mrs"
            " Okafor' as a new line at the end and count them again.",
            "raffle_tickets.txt",
            "ticket 88: Mrs Okafor",
        ),
    ),
    Case(
        "en20_choir_signups",
        "command",
        LANGUAGE,
        forms.count_lines(
            "How many people have signed up in choir_signups.txt? It's one per line, so count"
            " the lines with a command.",
            "choir_signups.txt",
        ),
    ),
)
