"""Troisièmes nouveaux cas en français : written at once for the held-out-3 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr3_sortie_ecole",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures d'aller chercher les enfants à l'école.",
            2,
            "enfants",
            "école",
            "children",
            "kids",
            "school",
            "kinder",
            "schule",
            "niños",
            "escuela",
            "子供",
            "学校",
        ),
    ),
    Case(
        "fr3_pique_nique",
        "action",
        LANGUAGE,
        forms.append_line(
            "Mets « {line} » en dernière ligne de pique-nique.txt, merci.",
            "pique-nique.txt",
            ["baguette", "fromage", "nappe à carreaux"],
            "thermos de café pour {name}",
        ),
    ),
    Case(
        "fr3_format_a4",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans imprimante.ini le format est resté sur Letter, mets A4 à la place.",
            "imprimante.ini",
            ["[imprimante]", "format = Letter", "bac = {n}"],
            ["[imprimante]", "format = A4", "bac = {n}"],
        ),
    ),
    Case(
        "fr3_mutuelle",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que mon numéro d'adhérent à la mutuelle est le {code}, j'en aurai besoin"
            " plus tard.",
            "Tu te souviens de mon numéro d'adhérent à la mutuelle ?",
        ),
    ),
    Case(
        "fr3_jours_avril",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Le mois d'avril, il a combien de jours ?",
            30,
            "trente",
            "thirty",
            "dreissig",
            "dreißig",
            "treinta",
            "三十",
        ),
    ),
    Case(
        "fr3_langue_bresil",
        "no-tool",
        LANGUAGE,
        forms.words(
            "On parle quelle langue au Brésil ?",
            "portugais|portuguese|portugues|portugiesisch|ポルトガル語",
            stream=True,
        ),
    ),
    Case(
        "fr3_processus_memoire",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande me montrerait les processus qui prennent le plus de mémoire ?"
            " Écris-la seulement, ne la lance pas.",
            {"charge.txt": "serveur{n}: lent\n"},
            r"\b(h?top|ps)\b",
            "a top or ps command",
        ),
    ),
    Case(
        "fr3_dessert_dimanche",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Dis-moi qui s'occupe du dessert dimanche, d'après repas.txt.",
            {
                "repas.txt": "Repas de dimanche\nEntrée : Claire\nPlat : Mathieu\n"
                "Dessert : {name}\nBoissons : Sophie\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr3_benevoles_recompte",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Passe wc -l sur benevoles.txt, ajoute ensuite une ligne 'Margaux' à la fin, puis"
            " relance wc -l : je veux le nombre avant et après.",
            "benevoles.txt",
            "Margaux",
        ),
    ),
    Case(
        "fr3_livraisons_nantes",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Combien de lignes de livraisons.csv concernent Nantes ? Compte-les avec grep.",
            "livraisons.csv",
            "Nantes",
            ("Rennes", "Brest", "Angers", "Vannes"),
        ),
    ),
)
