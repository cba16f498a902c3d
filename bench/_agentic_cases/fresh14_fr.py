"""Fourteenth fresh French cases: written at once for the held-out-14 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Honorine", "Barnabé", "Léocadie", "Ferdinand", "Joséphine")

CASES: tuple[Case, ...] = (
    Case(
        "fr14_boulangerie",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans trois heures de passer prendre le pain commandé à la boulangerie.",
            3,
            "boulangerie",
            "pain",
            "bread",
            "bakery",
            "brot",
            "backer",
            "panaderia",
            "パン",
        ),
    ),
    Case(
        "fr14_apero",
        "action",
        LANGUAGE,
        forms.append_line(
            "Mets « {line} » à la fin de apero.txt, merci.",
            "apero.txt",
            ["chips", "olives", "rosé"],
            "tapenade apportée par {name}",
        ),
    ),
    Case(
        "fr14_piscine_ph",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans piscine.conf, remplace le pH cible 7.4 par 7.2 ; modifie la ligne existante,"
            " n'en ajoute pas.",
            "piscine.conf",
            ["ph_cible = 7.4", "filtration = {n}", "robot = off"],
            ["ph_cible = 7.2", "filtration = {n}", "robot = off"],
        ),
    ),
    Case(
        "fr14_ticket_pressing",
        "recall",
        LANGUAGE,
        forms.remember(
            "Note dans ta mémoire que mon ticket du pressing porte le numéro {code}.",
            "C'était quoi déjà, le numéro de mon ticket du pressing ?",
        ),
    ),
    Case(
        "fr14_mi_temps",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Au foot, une mi-temps dure combien de minutes ?",
            45,
            "quarante-cinq",
            "forty-five",
            "forty five",
            "funfundvierzig",
            "cuarenta y cinco",
            "四十五分",
        ),
    ),
    Case(
        "fr14_botte",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Quel pays d'Europe a la forme d'une botte sur les cartes ?",
            "itali|italy|イタリア",
            stream=True,
        ),
    ),
    Case(
        "fr14_taille_video",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je vois la taille du fichier mariage.mp4 dans le terminal ? Donne-moi"
            " seulement la commande, ne la lance pas.",
            {"mariage.mp4": "fausse video {n}\n"},
            r"(?<![\w-])(?:ls\s+(?:-\S+\s+)*-[a-z]*[ls][a-z]*\s+(?:-\S+\s+)*"
            r"|du\s+(?:-\S+\s+)*|stat\s+(?:-\S+\s+(?:\S+\s+)?)*|wc\s+-c\s+(?:<\s*)?)"
            r"(?:\./)?['\"]?mariage\.mp4",
            "an ls -l, du or stat command on mariage.mp4",
        ),
    ),
    Case(
        "fr14_atelier_cuisine",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer atelier_cuisine.txt ? Et qui a apporté le four ?",
            {
                "atelier_cuisine.txt": "Atelier cuisine du centre social, {n} participants\n"
                "On a préparé une quiche et une tarte aux pommes.\n"
                "{name} a apporté le four mobile prêté par la mairie.\n"
                "Chacun est reparti avec une part à la maison.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr14_cours_danse",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis cours_danse.txt, mets la salle C à la place de la salle B, puis relis le"
            " fichier pour que je voie le résultat.",
            "cours_danse.txt",
            ["Cours de danse, groupe {n}", "salle : B", "heure : 19h"],
            ["Cours de danse, groupe {n}", "salle : C", "heure : 19h"],
            "salle : C",
        ),
    ),
    Case(
        "fr14_prets_rennes",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Compte avec une commande combien de lignes de prets_velos.csv viennent de Rennes.",
            "prets_velos.csv",
            "Rennes",
            ["Dinan", "Vitré", "Fougères"],
        ),
    ),
)
