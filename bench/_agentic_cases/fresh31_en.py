"""Thirty-first fresh English cases: written at once for the held-out-31 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aethelred", "Hephzibah", "Jemima", "Lavinia", "Cressida")

#: The names the recall saves, one per run.
OFFICERS = ("Higginbottom", "Ravenscroft", "Fotheringham", "Winterbottom")

#: The command that moves every PDF here into bank_statements: mv with its options, the
#: *.pdf glob, then the folder.
_MV = (
    r"(?<![\w-])mv\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?\*\.pdf['\"]?\s+(?:-\S+\s+)*['\"]?"
    r"(?:\./)?bank_statements/?['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "en31_christening",
        "action",
        LANGUAGE,
        forms.append_line(
            "Please add '{line}' to the end of christening_gifts.txt so I can do the thank-you"
            " cards later. Leave the other lines as they are.",
            "christening_gifts.txt",
            ["Silver spoon from Aunt May", "Picture book set", "Savings bond from Grandad"],
            "Knitted blanket from {name}",
        ),
    ),
    Case(
        "en31_immersion",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in 45 minutes to switch the immersion heater off, or we'll be heating"
            " water all day for nothing.",
            0.75,
            "immersion",
            "heater",
            "hot water",
            "boiler",
            "warmwasser",
            "calentador",
            "termo",
            "chauffe-eau",
            "給湯",
            "お湯",
        ),
    ),
    Case(
        "en31_ereader",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dad can barely make out the words on his e-reader. In ereader.cfg change text_size"
            " from 12 to 16 - edit the line that's there rather than adding a new one.",
            "ereader.cfg",
            ["theme = sepia", "text_size = 12", "library_id = {n}"],
            ["theme = sepia", "text_size = 16", "library_id = {n}"],
        ),
    ),
    Case(
        "en31_planning_officer",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please remember that the lady at the council dealing with our extension's planning"
            " application is Mrs {value}.",
            "What was the name of the woman at the council handling our planning application?",
            OFFICERS,
        ),
    ),
    Case(
        "en31_party_bags",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I'm making party bags for my daughter's birthday. 13 kids are coming, I want 3"
            " spare bags, and each bag gets 5 chocolate coins. How many chocolate coins do I"
            " need to buy?",
            80,
            "eighty",
            "achtzig",
            "ochenta",
            "quatre-vingts",
            "quatre-vingt",
            "八十",
            stream=True,
        ),
    ),
    Case(
        "en31_under_the_weather",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My colleague messaged to say she's feeling a bit under the weather today. What does"
            " that phrase actually mean?",
            "unwell|sick|poorly|not well|off colour|off color|not feeling well|not feeling great"
            "|feeling ill|feel ill|bit ill|slightly ill|illness",
        ),
    ),
    Case(
        "en31_statement_pdfs",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "There are loads of PDFs lying loose in this folder. What's the command to move all"
            " of them into the bank_statements folder? Just show me, I'll type it in myself.",
            {"shopping.txt": "Milk x{n}\nParcel pickup {code}\n"},
            _MV,
            "an mv *.pdf bank_statements command",
        ),
    ),
    Case(
        "en31_leaving_do",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Open leaving_do.txt and tell me who is collecting the money for the card.",
            {
                "leaving_do.txt": "Leaving do for Maureen, team {n}\n"
                "Venue: upstairs at the Red Lion\n"
                "Card and collection: {name}\n"
                "Cake: picked up from the bakery on Friday morning\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en31_parents_evening",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me parents_evening.txt, change Mr Abernethy's slot from 17:40 to 18:20, then"
            " read the file back so I can see it's been saved.",
            "parents_evening.txt",
            ["Parents evening, class {n}", "Mr Abernethy: 17:40", "Ms Quayle: 18:00"],
            ["Parents evening, class {n}", "Mr Abernethy: 18:20", "Ms Quayle: 18:00"],
            "Mr Abernethy: 18:20",
        ),
    ),
    Case(
        "en31_wreath_orders",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Every line of wreath_orders.txt is one Christmas wreath somebody has ordered from"
            " me. How many orders have I got so far? Count the lines with a command, please.",
            "wreath_orders.txt",
        ),
    ),
)
