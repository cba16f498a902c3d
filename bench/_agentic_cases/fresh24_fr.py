"""Twenty-fourth fresh French cases: written at once for the held-out-24 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bérengère", "Anatole", "Apolline", "Hippolyte", "Gonzague")

#: The file, as an answer may write it (with a path or quoted).
_FACTURE = r"['\"]?(?:[\w~./-]*/)?facture\.pdf"

#: The commands that show when facture.pdf was last changed: stat, a long ls (-l among its
#: options), or date -r, on the file.
_MODIFIE = (
    r"(?:(?<![\w-])stat\s+(?:-\S+\s+)*"
    r"|(?<![\w-])ls\s+(?:-\S+\s+)*-[a-z]*l[a-z]*\s+(?:-\S+\s+)*"
    r"|(?<![\w-])date\s+-r\s+)" + _FACTURE
)

CASES: tuple[Case, ...] = (
    Case(
        "fr24_croissants",
        "action",
        LANGUAGE,
        forms.remind(
            "Tu peux me rappeler dans 20 minutes de sortir les croissants du four ?",
            20 / 60,
            "croissant",
            "four",
            "oven",
            "ofen",
            "horno",
            "クロワッサン",
            "オーブン",
        ),
    ),
    Case(
        "fr24_serrurier",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans serrurier.txt que le serrurier s'appelle {name} et que le numéro de sa"
            " facture est le {code}, j'en aurai besoin pour l'assurance.",
            "serrurier.txt",
        ),
    ),
    Case(
        "fr24_imprimante",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "L'imprimante sort des pages toutes pâles. Dans imprimante.ini, passe qualite de"
            " brouillon à normale : modifie juste la ligne, n'en rajoute pas une autre.",
            "imprimante.ini",
            ["bac = 1", "qualite = brouillon", "copies_max = {n}"],
            ["bac = 1", "qualite = normale", "copies_max = {n}"],
        ),
    ),
    Case(
        "fr24_fromager",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde en mémoire mon numéro de carte de fidélité chez le fromager : {code}.",
            "Tu te souviens de mon numéro de carte de fidélité chez le fromager ?",
            stream=True,
        ),
    ),
    Case(
        "fr24_tables_colo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Au réfectoire de la colo, il y a 6 tables de 8 places et 4 tables de 10 places."
            " Combien d'enfants peuvent manger en même temps ?",
            88,
            "quatre-vingt-huit",
            "quatre-vingt huit",
            "quatre vingt huit",
            "eighty-eight",
            "eighty eight",
            "achtundachtzig",
            "ochenta y ocho",
            "八十八",
        ),
    ),
    Case(
        "fr24_arachides",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Je pars à Londres la semaine prochaine. Comment on dit « je suis allergique aux"
            " arachides » en anglais ?",
            "allergic",
            "peanut",
        ),
    ),
    Case(
        "fr24_date_facture",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je peux voir dans le terminal la date de dernière modification de"
            " facture.pdf ? Donne-moi juste la commande, ne la lance pas.",
            {"facture.pdf": "Facture n° {code}\nTotal : {n} €\n"},
            _MODIFIE,
            "a stat facture.pdf or ls -l facture.pdf command",
        ),
    ),
    Case(
        "fr24_fete_voisins",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde dans fete_voisins.txt et dis-moi qui apporte les chaises.",
            {
                "fete_voisins.txt": "Fête des voisins, cour du n° {n}\n"
                "Tables : les Martin\n"
                "Chaises : {name}\n"
                "Barbecue : M. Diallo\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr24_cours_piano",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis-moi piano.txt, puis change le jour du cours de mercredi à samedi, et relis-moi"
            " le fichier après pour que je vérifie.",
            "piano.txt",
            ["Cours de piano, élève {n}", "jour : mercredi", "heure : 17h"],
            ["Cours de piano, élève {n}", "jour : samedi", "heure : 17h"],
            "jour : samedi",
        ),
    ),
    Case(
        "fr24_benevoles_marche",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Chaque ligne de benevoles_marche.txt, c'est un bénévole pour le marché de Noël."
            " On est combien ? Fais le compte avec une commande.",
            "benevoles_marche.txt",
        ),
    ),
)
