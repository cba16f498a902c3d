"""Nouveaux cas en français : written at once after both halves had been read for failures,
so no rule was tuned on them; split by the committed seed like every case."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"
CITIES = ("Nantes", "Rennes", "Dijon", "Grenoble", "Toulouse")

CASES: tuple[Case, ...] = (
    Case(
        "fr_rappel_roti",
        "action",
        LANGUAGE,
        forms.remind(
            "Programme-moi un rappel dans 3 heures pour sortir le rôti du congélateur, stp.",
            3,
            "roti",
            "congelateur",
            "roast",
            "freezer",
        ),
    ),
    Case(
        "fr_place_parking",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens bien ceci : ma place au parking de la résidence porte le numéro {code}.",
            "Quel est le numéro de ma place de parking, déjà ?",
        ),
    ),
    Case(
        "fr_ocean",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Quel est le plus grand océan du monde ?",
            "pacifique|pacific|pacifico|pazifik|太平洋",
        ),
    ),
    Case(
        "fr_pourcentage",
        "no-tool",
        LANGUAGE,
        forms.number("Combien font 15 % de 80 ?", 12, "douze", "twelve"),
    ),
    Case(
        "fr_git_annuler",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande git annulerait mon dernier commit ? Donne-la-moi seulement,"
            " ne lance rien.",
            {"notes.txt": "version {n}\n"},
            r"\bgit\s+(reset|revert)\b",
            "a git reset or git revert command",
        ),
    ),
    Case(
        "fr_zero_timeout",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans app.ini, rajoute un zéro au timeout : il doit passer de {n} à {n}0 secondes.",
            "app.ini",
            ["[app]", "timeout = {n}", "retries = 3"],
            ["[app]", "timeout = {n}0", "retries = 3"],
        ),
    ),
    Case(
        "fr_grep_ventes",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Avec grep, compte combien de lignes de ventes.csv contiennent Lyon, et donne-moi"
            " le chiffre.",
            "ventes.csv",
            "Lyon",
            CITIES,
        ),
    ),
    Case(
        "fr_incident",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me faire un résumé rapide de incident.md ?",
            {
                "incident.md": "# Incident du 3 mars\nLe serveur de base de données est tombé"
                " vers 2 h du matin. {name} a redémarré le service puis a restauré la"
                " sauvegarde de la veille. Nous avons perdu {n} minutes de données.\n"
            },
            "{name}|{n}",
        ),
    ),
)
