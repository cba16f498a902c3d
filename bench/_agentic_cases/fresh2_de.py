"""Zweite frische deutsche Fälle: written at once for the held-out-2 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de2_werkzeugkiste",
        "action",
        LANGUAGE,
        forms.append_line(
            "Setz bitte „{line}“ ans Ende von werkzeug.txt, der Rest bleibt wie er ist.",
            "werkzeug.txt",
            ["Hammer", "Kombizange", "Wasserwaage"],
            "{n} Dübel, 8 mm",
        ),
    ),
    Case(
        "de2_kuchen_ofen",
        "action",
        LANGUAGE,
        forms.remind(
            "Sag mir bitte in einer Stunde Bescheid, dass ich den Kuchen aus dem Ofen holen muss.",
            1,
            "kuchen",
            "ofen",
            "cake",
            "oven",
        ),
    ),
    Case(
        "de2_dienst_port",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "In dienst.ini steht noch port = 8080. Stell den Port bitte auf {n}00 um.",
            "dienst.ini",
            ["[dienst]", "name = kalender", "port = 8080"],
            ["[dienst]", "name = kalender", "port = {n}00"],
        ),
    ),
    Case(
        "de2_haftpflicht",
        "recall",
        LANGUAGE,
        forms.remember(
            "Kannst du dir merken, dass meine Haftpflicht-Versicherungsnummer auf {code} endet?",
            "Auf welche Ziffern endet nochmal meine Haftpflicht-Versicherungsnummer?",
        ),
    ),
    Case(
        "de2_sekunden_stunde",
        "no-tool",
        LANGUAGE,
        forms.number("Wie viele Sekunden hat eine Stunde?", 3600),
    ),
    Case(
        "de2_eichhoernchen",
        "no-tool",
        LANGUAGE,
        forms.words("Was heißt Eichhörnchen auf Englisch?", "squirrel", stream=True),
    ),
    Case(
        "de2_ping_drucker",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Wie kann ich im Terminal prüfen, ob der Drucker unter 192.168.1.{n} erreichbar"
            " ist? Zeig mir nur den Befehl, ausführen mache ich selbst.",
            {"hosts.txt": "drucker 192.168.1.{n}\nnas 192.168.1.5\n"},
            r"\bping\b",
            "a ping command",
        ),
    ),
    Case(
        "de2_dienstplan",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Sag mir mal, wer laut dienstplan.txt am Samstag Dienst hat.",
            {
                "dienstplan.txt": "Montag: Lukas\nMittwoch: Petra\nSamstag: {name}\n"
                "Sonntag: Wolfgang\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de2_rezept_zucker",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Schau dir rezept.txt an, setz den Zucker von 200 g auf 150 g runter und zeig mir"
            " die Datei danach nochmal, damit ich es kontrollieren kann.",
            "rezept.txt",
            ["Mehl: 500 g", "Zucker: 200 g", "Butter: 250 g", "Portionen: {n}"],
            ["Mehl: 500 g", "Zucker: 150 g", "Butter: 250 g", "Portionen: {n}"],
            "Zucker: 150 g",
        ),
    ),
    Case(
        "de2_cache_groesse",
        "info",
        LANGUAGE,
        forms.read_value(
            "Wie groß ist der Cache in speicher.toml eingestellt?",
            "speicher.toml",
            '[cache]\ngroesse_mb = {n}\nablauf = "1h"\npfad = "/var/cache/app"\n',
        ),
    ),
)
