"""Twenty-third fresh English cases: written at once for the held-out-23 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Leopold", "Winifred", "Algernon", "Clementine", "Horatio")

#: The names the recall saves, one per run.
BABIES = ("Florence", "Theodore", "Penelope", "Barnaby")

#: The folder and its subfolder, as an answer may write them (with a path or quoted).
_TAX = r"['\"]?(?:[\w~./-]*/)?tax_2025"
_RECEIPTS = _TAX + r"/receipts/?['\"]?(?![\w.-])"

#: The commands that make tax_2025 and receipts inside it at once, as an answer may write them:
#: mkdir with its parents option on the inner folder, or mkdir given both folders in order.
_MKDIR = "|".join(
    (
        rf"(?<![\w-])mkdir\s+(?:-\S+\s+)*(?:-[a-z]*p[a-z]*|--parents)\s+(?:-\S+\s+)*{_RECEIPTS}",
        rf"(?<![\w-])mkdir\s+(?:-\S+\s+)*{_TAX}/?['\"]?\s+{_RECEIPTS}",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "en23_seed_list",
        "action",
        LANGUAGE,
        forms.append_line(
            "Please add '{line}' to the bottom of seed_list.txt and leave the rest of it as it is.",
            "seed_list.txt",
            ["Carrots: Autumn King", "Beetroot: Boltardy", "Lettuce: Little Gem"],
            "Runner beans from {name}",
        ),
    ),
    Case(
        "en23_chemist",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in an hour and a half to pick up my prescription from the chemist"
            " before it shuts?",
            1.5,
            "prescription",
            "chemist",
            "pharmac",
            "medicine",
            "rezept",
            "apotheke",
            "receta",
            "farmacia",
            "ordonnance",
            "処方",
            "薬",
        ),
    ),
    Case(
        "en23_motion_light",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The porch light goes off before I've even found my keys. In motion_light.cfg change"
            " timeout from 60 to 180 - just edit that line, don't add another one.",
            "motion_light.cfg",
            ["location = porch", "timeout = 60", "sensor = {n}"],
            ["location = porch", "timeout = 180", "sensor = {n}"],
        ),
    ),
    Case(
        "en23_cousin_baby",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you keep a note of this for me? My cousin's new baby is called {value}.",
            "What did my cousin call the new baby again?",
            BABIES,
        ),
    ),
    Case(
        "en23_bike_savings",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I'm putting £35 a week aside for a new bike. How much will I have saved after"
            " 12 weeks?",
            420,
            "four hundred and twenty",
            "four hundred twenty",
            "vierhundertzwanzig",
            "cuatrocientos veinte",
            "cuatrocientas veinte",
            "quatre cent vingt",
            "quatre-cent-vingt",
            "四百二十",
            stream=True,
        ),
    ),
    Case(
        "en23_cactus_plural",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My daughter and I are arguing about this: what's the plural of cactus?",
            "cacti|cactuses",
        ),
    ),
    Case(
        "en23_tax_folder",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "I want a folder called tax_2025 with a folder called receipts inside it. How do I"
            " make both with one command? Just show me, don't actually create them.",
            {"notes.txt": "Tax return due, reference {code}\nMileage: {n} trips\n"},
            _MKDIR,
            "a mkdir -p tax_2025/receipts command",
        ),
    ),
    Case(
        "en23_harvest_supper",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check harvest_supper.txt and tell me who's making the apple crumble.",
            {
                "harvest_supper.txt": "Harvest supper, table {n}\n"
                "Shepherd's pie: the Wilsons\n"
                "Apple crumble: {name}\n"
                "Custard and cream: Mrs Ahmed\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en23_darts_night",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Read me darts_fixtures.txt, then move match night from Thursday to Wednesday and"
            " read the file out again afterwards so I can check it.",
            "darts_fixtures.txt",
            ["Darts league, team {n}", "match night: Thursday", "captain: Gary"],
            ["Darts league, team {n}", "match night: Wednesday", "captain: Gary"],
            "match night: Wednesday",
        ),
    ),
    Case(
        "en23_quiz_owls",
        "command",
        LANGUAGE,
        forms.grep_count(
            "In quiz_scores.csv every line is one round for one team. How many lines are for"
            " the Owls? Count them with a command, please.",
            "quiz_scores.csv",
            "Owls",
            ["Badgers", "Foxes", "Herons"],
        ),
    ),
)
