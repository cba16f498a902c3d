"""Quatrièmes nouveaux cas en français : written at once for the held-out-4 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr4_cave_vin",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » en bas de cave.txt, merci.",
            "cave.txt",
            [
                "Bordeaux 2018 : 6 bouteilles",
                "Chablis 2021 : 4 bouteilles",
                "Champagne : 2 bouteilles",
            ],
            "Côtes-du-Rhône 2022 : {n} bouteilles",
        ),
    ),
    Case(
        "fr4_covoiturage",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier covoiturage.txt avec ceci : jeudi, c'est {name} qui conduit, et"
            " son numéro de portable finit par {code}.",
            "covoiturage.txt",
        ),
    ),
    Case(
        "fr4_equipe_juniors",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans club.ini, ajoute « Juniors » à la suite du nom de l'équipe (pour le moment"
            " c'est juste Les Aigles), sans toucher au reste.",
            "club.ini",
            ["equipe = Les Aigles", "terrain = {n}", "entraineur = Karim"],
            ["equipe = Les Aigles Juniors", "terrain = {n}", "entraineur = Karim"],
        ),
    ),
    Case(
        "fr4_dossier_logement",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens ça pour moi : le numéro de dossier de ma demande de logement social,"
            " c'est {code}.",
            "C'était quoi, déjà, le numéro de dossier de ma demande de logement ?",
        ),
    ),
    Case(
        "fr4_quart_heure",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Il y a combien de secondes dans un quart d'heure ?",
            900,
            "neuf cents",
            "neuf cent",
            "nine hundred",
            "neunhundert",
            "novecientos",
            "九百",
            stream=True,
        ),
    ),
    Case(
        "fr4_miserables",
        "no-tool",
        LANGUAGE,
        forms.words("Qui a écrit Les Misérables ?", "hugo|ユーゴー|ユゴー"),
    ),
    Case(
        "fr4_adresse_ip",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je peux voir l'adresse IP de mon ordi dans le terminal ? Donne-moi juste la"
            " commande, ne la lance pas.",
            {"reseau.txt": "box {n}\n"},
            r"\bip\s+(-\S+\s+)*a(ddr(ess)?)?\b|\bhostname\s+-i\b|\bifconfig\b",
            "an ip, hostname -I or ifconfig command",
        ),
    ),
    Case(
        "fr4_copropriete",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Je n'ai pas pu aller à l'assemblée de copropriété. D'après copro.txt, qu'est-ce"
            " qui s'est passé ?",
            {
                "copro.txt": "Assemblée générale du 14 mars\n{name} a pris la présidence du"
                " conseil syndical. Le ravalement de la façade a été voté pour {n} 000 euros."
                " On a aussi décidé de repeindre le local à vélos.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "fr4_yoga_jeudi",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Le cours de yoga passe du mardi au jeudi. Lis yoga.txt, remplace mardi par jeudi"
            " sur la ligne du cours, puis relis le fichier pour que je voie le résultat.",
            "yoga.txt",
            ["cours : mardi 19h", "salle {n}", "prof : Élodie"],
            ["cours : jeudi 19h", "salle {n}", "prof : Élodie"],
            "jeudi 19h",
        ),
    ),
    Case(
        "fr4_abonnes_lignes",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Combien y a-t-il de lignes dans abonnes.txt ? Compte-les avec wc -l.",
            "abonnes.txt",
        ),
    ),
)
