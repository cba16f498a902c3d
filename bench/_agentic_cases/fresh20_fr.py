"""Twentieth fresh French cases: written at once for the held-out-20 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anatole", "Hippolyte", "Maximilien", "Barnabé", "Théophile")

#: The file the first-lines question is about, and five lines asked of head, as a command may
#: write them.
_INVENTAIRE = r"['\"]?(?:[\w~./-]*/)?inventaire\.csv"
_CINQ = r"(?:-n\s*['\"]?5['\"]?|-5|--lines[= ]['\"]?5['\"]?)(?![\d.,])"

#: The commands that show a file's first five lines, as an answer may write them.
_CINQ_PREMIERES = "|".join(
    (
        r"(?<![\w-])head\s+(?:-\S+\s+)*" + _CINQ + r"\s+(?:-\S+\s+)*" + _INVENTAIRE,
        r"(?<![\w-])head\s+(?:-\S+\s+)*" + _INVENTAIRE + r"['\"]?\s+" + _CINQ,
        r"inventaire\.csv['\"]?\s*\|\s*head\s+" + _CINQ,
        r"(?<![\w-])sed\s+(?:-n\s+['\"]?1,5\s*p['\"]?|['\"]?5q['\"]?)\s+" + _INVENTAIRE,
        r"(?<![\w-])awk\s+['\"](?:nr\s*<=\s*5|nr\s*<\s*6)(?:\s*\{\s*print[^}]*\})?['\"]\s+"
        + _INVENTAIRE,
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "fr20_colis_relais",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures et demie d'aller chercher mon colis au point relais.",
            2.5,
            "colis",
            "relais",
            "paket",
            "parcel",
            "package",
            "paquete",
            "荷物",
        ),
    ),
    Case(
        "fr20_covoiturage",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » à la fin de covoiturage_rando.txt, sans rien changer au reste.",
            "covoiturage_rando.txt",
            [
                "Voiture 1 : Lucien (4 places)",
                "Voiture 2 : Odile (3 places)",
                "Rendez-vous : parking de la mairie",
            ],
            "Voiture 3 : {name}, départ 8 h",
        ),
    ),
    Case(
        "fr20_aquarium",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Les algues envahissent l'aquarium : dans aquarium.cfg, baisse eclairage_heures de"
            " 10 à 8. Modifie la ligne existante, n'en rajoute pas une autre.",
            "aquarium.cfg",
            ["temperature = 25", "eclairage_heures = 10", "bac = {n}"],
            ["temperature = 25", "eclairage_heures = 8", "bac = {n}"],
        ),
    ),
    Case(
        "fr20_boite_cles_gite",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens ça pour moi : le code de la boîte à clés du gîte, c'est le {code}.",
            "C'est quoi déjà, le code de la boîte à clés du gîte ?",
        ),
    ),
    Case(
        "fr20_piscine",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Je vais à la piscine 3 fois par semaine. Ça fait combien de séances en 8 semaines ?",
            24,
            "vingt-quatre",
            "vingt quatre",
            "twenty-four",
            "twenty four",
            "vierundzwanzig",
            "veinticuatro",
            "二十四",
        ),
    ),
    Case(
        "fr20_miserables",
        "no-tool",
        LANGUAGE,
        forms.words(
            "C'est qui qui a écrit Les Misérables, déjà ?", "hugo|ユゴー|ユーゴー", stream=True
        ),
    ),
    Case(
        "fr20_premieres_lignes",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande pour afficher seulement les 5 premières lignes de inventaire.csv ?"
            " Ne la lance pas, montre-la-moi juste.",
            {"inventaire.csv": "ref;article;stock\n{code};vis à bois;{n}\n"},
            _CINQ_PREMIERES,
            "a head -n 5 inventaire.csv command",
        ),
    ),
    Case(
        "fr20_assemblee_generale",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer compte_rendu_ag.txt ? Et qui a été élu trésorier ?",
            {
                "compte_rendu_ag.txt": "Assemblée générale du club de tennis de table,"
                " {n} adhérents présents\n"
                "Le bilan financier a été approuvé à l'unanimité.\n"
                "{name} a été élu trésorier.\n"
                "La réunion s'est terminée autour d'un verre.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr20_reunion_copro",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis-moi reunion_copro.txt, remplace « salle B » par « salle polyvalente », puis"
            " relis-le-moi pour que je vérifie.",
            "reunion_copro.txt",
            ["Réunion de copropriété n° {n}", "lieu : salle B", "heure : 18h30"],
            ["Réunion de copropriété n° {n}", "lieu : salle polyvalente", "heure : 18h30"],
            "salle polyvalente",
        ),
    ),
    Case(
        "fr20_club_photo",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Il y a combien de lignes dans adherents_club_photo.txt ? Compte-les avec une"
            " commande, s'il te plaît.",
            "adherents_club_photo.txt",
        ),
    ),
)
