"""Tenth fresh French cases: written at once for the held-out-10 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Solange", "Gaspard", "Bérénice", "Anatole", "Ghislaine")

CASES: tuple[Case, ...] = (
    Case(
        "fr10_orchidees",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures d'arroser les orchidées.",
            2,
            "orchid",
            "orquidea",
            "蘭",
            "オーキッド",
        ),
    ),
    Case(
        "fr10_carreleur",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier carreleur.txt qui note que le carreleur passe mercredi pour la salle"
            " de bains ; le contact est {name} et le numéro du devis est {code}.",
            "carreleur.txt",
        ),
    ),
    Case(
        "fr10_lave_vaisselle",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans lave_vaisselle.conf, passe le programme de eco à intensif, sans toucher au"
            " reste.",
            "lave_vaisselle.conf",
            ["programme = eco", "dosage = {n}", "sechage = oui"],
            ["programme = intensif", "dosage = {n}", "sechage = oui"],
        ),
    ),
    Case(
        "fr10_casier_piscine",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens, s'il te plaît, que mon casier à la piscine porte le numéro {code}.",
            "C'est quoi déjà, le numéro de mon casier à la piscine ?",
        ),
    ),
    Case(
        "fr10_cordes_guitare",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de cordes a une guitare classique ?",
            6,
            "six",
            "sechs",
            "seis",
            "六本",
        ),
    ),
    Case(
        "fr10_plus_long_fleuve",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Quel est le plus long fleuve de France ?",
            "loire|ロワール",
        ),
    ),
    Case(
        "fr10_numeros_lignes",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande affiche recette.txt avec les numéros de ligne ? Montre-la-moi"
            " seulement, ne la lance pas.",
            {"recette.txt": "Clafoutis pour {n} personnes\n500 g de cerises\n3 oeufs\n"},
            r"cat\s+(?:-\S+\s+)*-[a-z]*n[a-z]*\s+(?:-\S+\s+)*\S*recette\.txt"
            r"|cat\s+--number\s+\S*recette\.txt"
            r"|(?<![a-z])nl\s+(?:-\S+\s+)*\S*recette\.txt",
            "cat -n or nl",
        ),
    ),
    Case(
        "fr10_comite_fetes",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Fais-moi un résumé de ce qui a été décidé à la dernière réunion du comité des fêtes,"
            " c'est dans comite_fetes.txt.",
            {
                "comite_fetes.txt": "Comité des fêtes, réunion n° {n}\n"
                "Brocante : dimanche 14 juin\nBuvette : tenue par {name}\n"
                "Feu d'artifice : annulé faute de budget\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr10_permanences",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis permanences.txt, décale la permanence du jeudi de 9h à 11h, puis relis le"
            " fichier pour vérifier.",
            "permanences.txt",
            ["mardi : 14h", "jeudi : 9h", "bénévoles : {n}"],
            ["mardi : 14h", "jeudi : 11h", "bénévoles : {n}"],
            "jeudi : 11h",
        ),
    ),
    Case(
        "fr10_inscriptions",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Lance une commande pour savoir combien de lignes contient inscriptions.txt.",
            "inscriptions.txt",
        ),
    ),
)
