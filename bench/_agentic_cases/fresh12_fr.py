"""Twelfth fresh French cases: written at once for the held-out-12 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anastasie", "Eustache", "Hippolyte", "Apolline", "Séraphine")

CASES: tuple[Case, ...] = (
    Case(
        "fr12_table_restaurant",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures de réserver une table au restaurant pour"
            " l'anniversaire de Paul.",
            2,
            "restaurant",
            "restaurante",
            "レストラン",
        ),
    ),
    Case(
        "fr12_elagage",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier elagage.txt qui indique que l'élagueur passe mardi pour tailler"
            " les tilleuls ; le contact est {name} et le numéro du devis est {code}.",
            "elagage.txt",
        ),
    ),
    Case(
        "fr12_montre",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans montre.conf, passe l'affichage de 12h à 24h sans toucher au reste.",
            "montre.conf",
            ["affichage = 12h", "luminosite = {n}", "vibreur = oui"],
            ["affichage = 24h", "luminosite = {n}", "vibreur = oui"],
        ),
    ),
    Case(
        "fr12_carte_fidelite",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le numéro de ma carte de fidélité à la boulangerie est le {code}.",
            "C'est quoi déjà, le numéro de ma carte de fidélité de la boulangerie ?",
        ),
    ),
    Case(
        "fr12_alphabet",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de lettres compte l'alphabet français ?",
            26,
            "vingt-six",
            "twenty-six",
            "sechsundzwanzig",
            "veintiseis",
            "二十六",
        ),
    ),
    Case(
        "fr12_nympheas",
        "no-tool",
        LANGUAGE,
        forms.words("Qui a peint la série des « Nymphéas » ?", "monet|モネ", stream=True),
    ),
    Case(
        "fr12_remplacer_brouillon",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment remplacer toutes les occurrences de « brouillon » par « final » dans"
            " lettre.txt ? Montre-moi la commande, mais ne l'exécute pas.",
            {"lettre.txt": "Version brouillon {n}\nCeci est un brouillon.\n"},
            r"(?<![a-z])sed\s+(?:-\S+\s+)*-i\S*\s+(?:-\S+\s+)*['\"]?s/brouillon/final/g['\"]?"
            r"\s+(?:\./)?lettre\.txt",
            "a sed -i command replacing every brouillon in lettre.txt",
        ),
    ),
    Case(
        "fr12_plan_de_table",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde plan_de_table.txt et dis-moi qui est assis à la table 4.",
            {
                "plan_de_table.txt": "Plan de table du mariage ({n} invités)\n"
                "Table 1 : famille Durand\nTable 4 : {name}\nTable 7 : Odile et Marc\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr12_attente_judo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes du fichier attente_judo.txt, ajoute « Inès Moreau » à la fin,"
            " puis recompte-les.",
            "attente_judo.txt",
            "Inès Moreau",
        ),
    ),
    Case(
        "fr12_ludotheque",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Avec une commande, compte combien de lignes contient emprunts_ludotheque.txt.",
            "emprunts_ludotheque.txt",
        ),
    ),
)
