"""Sixteenth fresh French cases: written at once for the held-out-16 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anatole", "Bérengère", "Clotilde", "Eudoxie", "Hippolyte")

CASES: tuple[Case, ...] = (
    Case(
        "fr16_mairie_identite",
        "action",
        LANGUAGE,
        forms.remind(
            "Dans trois quarts d'heure, rappelle-moi de téléphoner à la mairie pour le"
            " rendez-vous de carte d'identité.",
            0.75,
            "mairie",
            "identit",
            "town hall",
            "city hall",
            "council",
            "rathaus",
            "ausweis",
            "ayuntamiento",
            "dni",
            "市役所",
            "役所",
            "身分証",
        ),
    ),
    Case(
        "fr16_cadeaux_noel",
        "action",
        LANGUAGE,
        forms.append_line(
            "Tu peux ajouter « {line} » en dernière ligne de cadeaux_noel.txt ?",
            "cadeaux_noel.txt",
            ["puzzle 1000 pièces", "écharpe rouge", "livre de cuisine"],
            "bougie parfumée pour {name}",
        ),
    ),
    Case(
        "fr16_robot_tondeuse",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans robot_tondeuse.conf, passe la hauteur de coupe de 40 à 50 ; change la ligne"
            " qui existe, sans en rajouter.",
            "robot_tondeuse.conf",
            ["hauteur_coupe = 40", "pluie = pause", "zone = {n}"],
            ["hauteur_coupe = 50", "pluie = pause", "zone = {n}"],
        ),
    ),
    Case(
        "fr16_centre_loisirs",
        "recall",
        LANGUAGE,
        forms.remember(
            "Mémorise, s'il te plaît, que le numéro d'inscription de mon fils au centre de"
            " loisirs est le {code}.",
            "C'était quoi, le numéro d'inscription du petit au centre de loisirs ?",
        ),
    ),
    Case(
        "fr16_centimes_euro",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Un euro, ça fait combien de centimes ?",
            100,
            "cent",
            "hundred",
            "hundert",
            "cien",
            "百",
        ),
    ),
    Case(
        "fr16_liberte_peuple",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Qui a peint « La Liberté guidant le peuple » ?", "delacroix|ドラクロワ", stream=True
        ),
    ),
    Case(
        "fr16_chown_rapport",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je donne le fichier rapport.odt à l'utilisateur luc, pour qu'il en devienne"
            " le propriétaire ? Écris-moi juste la commande, ne l'exécute pas.",
            {"rapport.odt": "Rapport annuel {n}\n"},
            r"(?<![\w-])chown\s+(?:-\S+\s+)*luc(?::\S*)?\s+(?:\./)?['\"]?rapport\.odt",
            "a chown luc command for rapport.odt",
        ),
    ),
    Case(
        "fr16_loto_asso",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu me résumes loto_asso.txt ? Au passage, qui a remporté le gros lot ?",
            {
                "loto_asso.txt": "Loto de l'association, {n} joueurs\n"
                "La salle était pleine dès dix-neuf heures.\n"
                "{name} a gagné le gros lot, un vélo électrique.\n"
                "La buvette a été dévalisée avant l'entracte.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr16_billet_train",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis billet_train.txt, remplace la voiture 7 par la voiture 12, puis relis-le pour"
            " vérifier.",
            "billet_train.txt",
            ["Billet n° {n}", "voiture : 7", "place : 45"],
            ["Billet n° {n}", "voiture : 12", "place : 45"],
            "voiture : 12",
        ),
    ),
    Case(
        "fr16_adhesions_dieppe",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Compte avec une commande les lignes du fichier adhesions.csv qui viennent de Dieppe.",
            "adhesions.csv",
            "Dieppe",
            ["Fecamp", "Yvetot", "Bolbec"],
        ),
    ),
)
