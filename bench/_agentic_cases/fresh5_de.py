"""Fifth fresh German cases: written at once for the held-out-5 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "de"

CASES: tuple[Case, ...] = (
    Case(
        "de5_dachfenster",
        "action",
        LANGUAGE,
        forms.remind(
            "Erinnere mich bitte in zwei Stunden daran, die Dachfenster zu schließen.",
            2,
            "fenster",
            "window",
            "ventana",
            "fenetre",
            "窓",
        ),
    ),
    Case(
        "de5_telefonliste",
        "action",
        LANGUAGE,
        forms.append_line(
            "Trag bitte unten in telefonliste.txt noch „{line}“ ein.",
            "telefonliste.txt",
            ["Hausarzt: 0351 4410", "Apotheke: 0351 2291", "Tierarzt: 0351 7735"],
            "Kinderärztin: 0351 {code}",
        ),
    ),
    Case(
        "de5_nas_freigabe",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Häng in nas.ini an den Namen der Freigabe noch _archiv an, im Moment heißt sie"
            " nur fotos. Der Rest bleibt, wie er ist.",
            "nas.ini",
            ["freigabe = fotos", "kontingent_gb = {n}", "papierkorb = an"],
            ["freigabe = fotos_archiv", "kontingent_gb = {n}", "papierkorb = an"],
        ),
    ),
    Case(
        "de5_steuer_id",
        "recall",
        LANGUAGE,
        forms.remember(
            "Merk dir bitte: Meine Steuer-ID endet auf {code}.",
            "Auf welche vier Ziffern endet nochmal meine Steuer-ID?",
        ),
    ),
    Case(
        "de5_bundeslaender",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Wie viele Bundesländer hat Deutschland eigentlich?",
            16,
            "sechzehn",
            "sixteen",
            "dieciseis",
            "seize",
            "十六",
        ),
    ),
    Case(
        "de5_pizza_herkunft",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Aus welchem Land kommt die Pizza ursprünglich?",
            "ital|neapel|napol|naples|イタリア|ナポリ",
        ),
    ),
    Case(
        "de5_kernel_version",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Mit welchem Befehl sehe ich, welche Kernel-Version auf dem Rechner läuft? Zeig"
            " ihn mir nur, ausführen musst du ihn nicht.",
            {"system.txt": "Festplatte {n} GB frei\n"},
            r"\buname\b",
            "a uname command",
        ),
    ),
    Case(
        "de5_entruempeln",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fass mir bitte kurz zusammen, was beim Entrümpeln am Wochenende passiert ist."
            " Ich hab alles in entruempeln.txt notiert.",
            {
                "entruempeln.txt": "Am Samstag hat {name} den Container bestellt.\n"
                "Der Wertstoffhof hat {n} Euro für den Sperrmüll berechnet.\n"
                "Das alte Sofa hat die Nachbarin übernommen.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "de5_spender_nachzaehlen",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Zähl die Zeilen in spender.txt, häng dann „Familie Brandt“ als neue Zeile an und"
            " zähl danach noch mal, damit ich sehe, dass es eine mehr ist.",
            "spender.txt",
            "Familie Brandt",
        ),
    ),
    Case(
        "de5_ausleihen_zeilen",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Wie viele Einträge stehen in ausleihen.txt? Zähl die Zeilen mit wc -l.",
            "ausleihen.txt",
        ),
    ),
)
