"""Fifth fresh French cases: written at once for the held-out-5 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr5_travaux",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » tout en bas de travaux.txt, à la suite des autres tâches.",
            "travaux.txt",
            ["repeindre le couloir", "changer le joint de la douche", "fixer les étagères"],
            "réparer la porte du garage",
        ),
    ),
    Case(
        "fr5_salle_des_fetes",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier salle_des_fetes.txt et note dedans que c'est {name} qui a réservé"
            " la salle pour la fête des voisins, numéro de réservation {code}.",
            "salle_des_fetes.txt",
        ),
    ),
    Case(
        "fr5_mise_en_veille",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans ecran.ini, ajoute cinq minutes au délai de mise en veille : il est à 10, il"
            " doit passer à 15. Ne change rien d'autre.",
            "ecran.ini",
            ["delai_minutes = 10", "luminosite = {n}", "son = non"],
            ["delai_minutes = 15", "luminosite = {n}", "son = non"],
        ),
    ),
    Case(
        "fr5_dossard",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens ceci : mon numéro de dossard pour le semi-marathon, c'est le {code}.",
            "C'était quoi, déjà, mon numéro de dossard pour le semi-marathon ?",
            stream=True,
        ),
    ),
    Case(
        "fr5_echiquier",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien y a-t-il de cases sur un échiquier ?",
            64,
            "soixante-quatre",
            "soixante quatre",
            "sixty-four",
            "sixty four",
            "vierundsechzig",
            "sesenta y cuatro",
            "六十四",
        ),
    ),
    Case(
        "fr5_flute_enchantee",
        "no-tool",
        LANGUAGE,
        forms.words("Qui a composé La Flûte enchantée ?", "mozart|モーツァルト"),
    ),
    Case(
        "fr5_variables_env",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment afficher toutes les variables d'environnement dans le terminal ?"
            " Montre-moi juste la commande, ne la lance pas.",
            {"shell.txt": "bash, historique de {n} lignes\n"},
            r"\b(printenv|env)\b",
            "printenv or env",
        ),
    ),
    Case(
        "fr5_club_lecture",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi ce qui s'est passé à la dernière réunion du club de lecture, tout est"
            " dans club_lecture.txt.",
            {
                "club_lecture.txt": "Jeudi, {name} a présenté le livre du mois.\n"
                "On a voté pour le prochain titre : un polar islandais.\n"
                "La cotisation passe à {n} euros par an.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr5_tournoi_recompte",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes de tournoi.txt, ajoute « Paul Mercier » à la fin, puis recompte"
            " pour que je voie qu'il y en a une de plus.",
            "tournoi.txt",
            "Paul Mercier",
        ),
    ),
    Case(
        "fr5_retours_angers",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Combien de retours dans retours.csv viennent d'Angers ? Compte-les avec grep.",
            "retours.csv",
            "Angers",
            ("Brest", "Metz", "Nancy"),
        ),
    ),
)
