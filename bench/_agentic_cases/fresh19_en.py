"""Nineteenth fresh English cases: written at once for the held-out-19 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bartholomew", "Wilhelmina", "Peregrine", "Clementine", "Thaddeus")

CASES: tuple[Case, ...] = (
    Case(
        "en19_paint_coat",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in an hour and a quarter to put the second coat of paint on the"
            " bathroom door?",
            1.25,
            "paint",
            "coat",
            "bathroom door",
            "farbe",
            "anstrich",
            "streich",
            "pintura",
            "pintar",
            "peinture",
            "peindre",
            "ペンキ",
            "塗",
        ),
    ),
    Case(
        "en19_harvest_festival",
        "action",
        LANGUAGE,
        forms.append_line(
            "Put '{line}' on a new line at the bottom of harvest_festival.txt and leave the rest"
            " as it is.",
            "harvest_festival.txt",
            ["tins: the primary school", "marrows: the Hendersons", "bread: Corner Bakery"],
            "apples: {name} from Orchard Lane",
        ),
    ),
    Case(
        "en19_pet_feeder",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The cat is getting a bit round, so in pet_feeder.cfg bring the portion down from 3"
            " to 2. Edit that line rather than adding another one.",
            "pet_feeder.cfg",
            ["portion = 3", "meals_per_day = 2", "bowl_id = {n}"],
            ["portion = 2", "meals_per_day = 2", "bowl_id = {n}"],
        ),
    ),
    Case(
        "en19_lunch_account",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you hang on to this for me? The PIN for my son's school lunch account is"
            " {code}.",
            "What's the PIN for my son's school lunch account again?",
        ),
    ),
    Case(
        "en19_freezing_f",
        "no-tool",
        LANGUAGE,
        forms.number(
            "At what temperature in Fahrenheit does water freeze?",
            32,
            "thirty-two",
            "thirty two",
            "zweiunddreißig",
            "zweiunddreissig",
            "treinta y dos",
            "trente-deux",
            "trente deux",
            "三十二",
        ),
    ),
    Case(
        "en19_french_library",
        "no-tool",
        LANGUAGE,
        forms.words(
            "What's the French word for library - the place where you borrow books?",
            "bibliotheque",
            stream=True,
        ),
    ),
    Case(
        "en19_dedupe_emails",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "guest_emails.txt has loads of repeated addresses in it. What command would give me"
            " each line only once? Just show me, I'll run it myself.",
            {"guest_emails.txt": "guest{n}@example.com\nvicar@example.com\nguest{n}@example.com\n"},
            r"(?<![\w-])sort\s+(?:-\S+\s+)*(?:-[a-z]*u[a-z]*|--unique)\s+(?:-\S+\s+)*['\"]?"
            r"(?:\./)?guest_emails\.txt"
            r"|(?<![\w-])sort\s+(?:-\S+\s+)*['\"]?(?:\./)?guest_emails\.txt['\"]?"
            r"(?:\s+(?:-[a-z]*u[a-z]*|--unique)(?![\w-])|\s*\|\s*uniq(?![\w-]))"
            r"|guest_emails\.txt['\"]?\s*\|\s*sort\s+(?:-\S+\s+)*(?:-[a-z]*u[a-z]*|--unique)"
            r"(?![\w-])"
            r"|guest_emails\.txt['\"]?\s*\|\s*sort(?:\s+-\S+)*\s*\|\s*uniq(?![\w-])"
            r"|(?<![\w-])awk\s+['\"]!\s*\w+\[\$0\]\+\+['\"]\s+(?:\./)?guest_emails\.txt",
            "a sort -u guest_emails.txt (or sort | uniq, awk '!seen[$0]++') command",
        ),
    ),
    Case(
        "en19_scarecrow",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Give me a quick rundown of scarecrow_festival.txt. Whose scarecrow won first prize?",
            {
                "scarecrow_festival.txt": "Scarecrow festival, {n} entries\n"
                "The judging took place on the village green at noon.\n"
                "{name} won first prize with a scarecrow dressed as the postman.\n"
                "Tea and cake were served in the church hall afterwards.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en19_swim_gala",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me swim_gala.txt, move the start from 6pm to 5:30pm, then read it back to me"
            " so I can check it.",
            "swim_gala.txt",
            ["Swim gala, squad {n}", "start: 6pm", "venue: Leisure Centre"],
            ["Swim gala, squad {n}", "start: 5:30pm", "venue: Leisure Centre"],
            "start: 5:30pm",
        ),
    ),
    Case(
        "en19_minibus_harrogate",
        "command",
        LANGUAGE,
        forms.grep_count(
            "How many lines in minibus_bookings.csv are for Harrogate? Count them with a"
            " command, please.",
            "minibus_bookings.csv",
            "Harrogate",
            ["Ripon", "Skipton", "Knaresborough"],
        ),
    ),
)
