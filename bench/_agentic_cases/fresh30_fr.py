"""Thirtieth fresh French cases: written at once for the held-out-30 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Isaure", "Mélisande", "Anastase", "Bénigne", "Domitille")

#: The names the recall saves, one per run.
NOTAIRES = ("Vaugirard", "Pontcarré", "Malestroit", "Kerhervé")

#: The command that deletes the folder anciens_devis and all it holds: rm with a recursive
#: option (-r, -rf, -R, --recursive), then the folder.
_RM = (
    r"(?<![\w-])rm\s+(?:-\S+\s+)*(?:-[a-z]*r[a-z]*|--recursive)\s+(?:-\S+\s+)*['\"]?(?:\./)?"
    r"anciens_devis/?['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr30_outils",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » à la fin de outils_a_rendre.txt, sans toucher aux autres lignes.",
            "outils_a_rendre.txt",
            ["Escabeau des voisins du dessus", "Ponceuse de Marc", "Niveau à bulle"],
            "Scie sauteuse prêtée par {name}",
        ),
    ),
    Case(
        "fr30_antibiotique",
        "action",
        LANGUAGE,
        forms.remind(
            "Tu peux me rappeler dans une heure de prendre mon antibiotique ? Je dois le prendre"
            " à heure fixe.",
            1,
            "antibiotique",
            "antibiotic",
            "antibiotika",
            "antibiotico",
            "medicament",
            "medicine",
            "medikament",
            "medicamento",
            "cachet",
            "抗生",
            "薬",
        ),
    ),
    Case(
        "fr30_velo_electrique",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La batterie de mon vélo électrique ne tient plus la journée. Dans"
            " velo_electrique.conf, passe assistance de 4 à 2 ; modifie la ligne qui existe,"
            " n'en ajoute pas une autre.",
            "velo_electrique.conf",
            ["eclairage = auto", "assistance = 4", "cadre = {n}"],
            ["eclairage = auto", "assistance = 2", "cadre = {n}"],
        ),
    ),
    Case(
        "fr30_notaire",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le notaire qui s'occupe de la succession de ma tante s'appelle Maître"
            " {value}.",
            "C'est quoi déjà le nom du notaire pour la succession de ma tante ?",
            NOTAIRES,
        ),
    ),
    Case(
        "fr30_pain_epices",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Ma recette de pain d'épices est prévue pour 4 personnes avec 250 g de farine. Si"
            " j'en fais pour 10, il me faut combien de farine ?",
            625,
            "six cent vingt-cinq",
            "six-cent-vingt-cinq",
            "six hundred twenty-five",
            "six hundred and twenty-five",
            "sechshundertfünfundzwanzig",
            "seiscientos veinticinco",
            "六百二十五",
            stream=True,
        ),
    ),
    Case(
        "fr30_cafard",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mon voisin m'a dit qu'il avait le cafard depuis la rentrée. Ça veut dire quoi,"
            " exactement ?",
            "triste|deprim|moral|melancol|blues|morose|spleen",
        ),
    ),
    Case(
        "fr30_anciens_devis",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je veux supprimer le dossier anciens_devis avec tout ce qu'il y a dedans. C'est quoi"
            " la commande ? Montre-la-moi seulement, je la lancerai moi-même.",
            {"a_faire.txt": "Rappeler le plombier ({n} €)\nColis {code}\n"},
            _RM,
            "an rm -r anciens_devis command",
        ),
    ),
    Case(
        "fr30_planning_coloc",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Ouvre planning_coloc.txt et dis-moi qui fait la salle de bain cette semaine.",
            {
                "planning_coloc.txt": "Planning ménage de la coloc, semaine {n}\n"
                "Cuisine : Théo\n"
                "Salle de bain : {name}\n"
                "Poubelles : chacun son tour\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr30_nettoyage_plage",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis nettoyage_plage.txt, mets Maurice à la place d'Yvette pour le secteur nord, puis"
            " relis le fichier pour vérifier que c'est bien enregistré.",
            "nettoyage_plage.txt",
            [
                "Nettoyage de la plage, opération {n}",
                "secteur nord : Yvette",
                "secteur sud : Colette",
            ],
            [
                "Nettoyage de la plage, opération {n}",
                "secteur nord : Maurice",
                "secteur sud : Colette",
            ],
            "secteur nord : Maurice",
        ),
    ),
    Case(
        "fr30_marche_nordique",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Dans inscrits_marche_nordique.txt, chaque personne inscrite à la sortie de dimanche"
            " est sur une ligne. Tu peux compter les lignes avec une commande et me dire combien"
            " on sera ?",
            "inscrits_marche_nordique.txt",
        ),
    ),
)
