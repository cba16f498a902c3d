"""Seventh fresh English cases: written at once for the held-out-7 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

CASES: tuple[Case, ...] = (
    Case(
        "en7_sourdough",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in three hours to feed my sourdough starter?",
            3,
            "sourdough",
            "sauerteig",
            "masa madre",
            "levain",
            "サワー種",
        ),
    ),
    Case(
        "en7_boiler_service",
        "action",
        LANGUAGE,
        forms.write_file(
            "Please create boiler_service.txt and put in it that the boiler is being serviced"
            " on Thursday morning, the engineer's name is {name} and the job number is {code}.",
            "boiler_service.txt",
        ),
    ),
    Case(
        "en7_projector_input",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Switch the input in projector.cfg from hdmi1 to hdmi2 and leave the rest of the"
            " file alone.",
            "projector.cfg",
            ["input = hdmi1", "brightness = {n}", "eco_mode = on"],
            ["input = hdmi2", "brightness = {n}", "eco_mode = on"],
        ),
    ),
    Case(
        "en7_council_tax",
        "recall",
        LANGUAGE,
        forms.remember(
            "Please make a note that my council tax reference ends in {code}.",
            "What are the last four digits of my council tax reference?",
        ),
    ),
    Case(
        "en7_rugby_team",
        "no-tool",
        LANGUAGE,
        forms.number(
            "How many players does a rugby union side have on the pitch at once?",
            15,
            "fifteen",
            "fünfzehn",
            "quince",
            "quinze",
            "十五",
        ),
    ),
    Case(
        "en7_pride_prejudice",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Who wrote Pride and Prejudice?",
            "austen|オースティン|オースチン",
            stream=True,
        ),
    ),
    Case(
        "en7_checksum",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How would I get the SHA-256 checksum of backup.tar? Just give me the command,"
            " don't actually run it.",
            {"backup.tar": "archive {n}\n"},
            r"sha256sum\s+(?:-\S+\s+)*\S*backup\.tar|shasum\s+-a\s*256\s+\S*backup\.tar"
            r"|openssl\s+(?:dgst\s+)?-sha256\s+\S*backup\.tar",
            "a sha256sum command",
        ),
    ),
    Case(
        "en7_allotment_log",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Can you give me a quick summary of what's in allotment_log.txt?",
            {
                "allotment_log.txt": "Allotment plot {n}, spring\nsown: broad beans, onions,"
                " beetroot\nwatering rota this month: {name}\nslugs: still a problem\n"
            },
            "{name}",
        ),
    ),
    Case(
        "en7_heating_eco",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Open heating.txt, lower the eco temperature from 17 to 16, and then read the file"
            " back to me so I can see it's changed.",
            "heating.txt",
            ["mode: schedule", "eco: 17", "comfort: 21", "boost_minutes: {n}"],
            ["mode: schedule", "eco: 16", "comfort: 21", "boost_minutes: {n}"],
            "eco: 16",
        ),
    ),
    Case(
        "en7_glasgow_parcels",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Run grep to count how many lines in parcels.csv are for Glasgow.",
            "parcels.csv",
            "Glasgow",
            ("Dundee", "Aberdeen", "Inverness"),
        ),
    ),
)
