"""Thirteenth fresh French cases: written at once for the held-out-13 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Théophile", "Bérénice", "Aurélien", "Gwendoline", "Maximilien")

CASES: tuple[Case, ...] = (
    Case(
        "fr13_centre_aere",
        "action",
        LANGUAGE,
        forms.remind(
            "Dans une heure et demie, rappelle-moi d'aller chercher les enfants au centre aéré.",
            1.5,
            "centre aere",
            "enfants",
            "kids",
            "children",
            "kinder",
            "ninos",
            "hijos",
            "子ども",
            "子供",
        ),
    ),
    Case(
        "fr13_valise",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » tout en bas de valise.txt, s'il te plaît.",
            "valise.txt",
            ["passeport", "chargeur", "crème solaire"],
            "maillot de bain de {name}",
        ),
    ),
    Case(
        "fr13_arrosage",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans arrosage.conf, la durée doit passer de 10 à 15 minutes : modifie juste cette"
            " ligne-là.",
            "arrosage.conf",
            ["duree = 10", "zone = potager", "debit = {n}"],
            ["duree = 15", "zone = potager", "debit = {n}"],
        ),
    ),
    Case(
        "fr13_consigne_gare",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde en mémoire que le code de ma consigne à la gare est {code}.",
            "Tu te souviens du code de ma consigne à la gare ?",
        ),
    ),
    Case(
        "fr13_trajet_autoroute",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Si je roule à 90 km/h pendant deux heures et demie, combien de kilomètres je fais ?",
            225,
            "deux cent vingt-cinq",
            "deux cents vingt-cinq",
            "two hundred and twenty-five",
            "two hundred twenty-five",
            "doscientos veinticinco",
            "zweihundertfunfundzwanzig",
            "zweihundertfünfundzwanzig",
            "二百二十五",
        ),
    ),
    Case(
        "fr13_grand_desert",
        "no-tool",
        LANGUAGE,
        forms.words("Quel est le plus grand désert chaud du monde ?", "sahara|サハラ", stream=True),
    ),
    Case(
        "fr13_connexion_ssh",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je me connecte en SSH au serveur 192.168.1.20 avec l'utilisateur marie ?"
            " Donne-moi juste la commande, ne la lance pas.",
            {"serveurs.txt": "nas 192.168.1.20 (baie {n})\n"},
            r"(?<![a-z])ssh\s+(?:-\S+\s+(?:\d+\s+)?)*marie@192\.168\.1\.20(?!\d)"
            r"|(?<![a-z])ssh\s+(?:-\S+\s+(?:\d+\s+)?)*-l\s*marie\s+(?:-\S+\s+(?:\d+\s+)?)*"
            r"192\.168\.1\.20(?!\d)",
            "an ssh command to marie@192.168.1.20",
        ),
    ),
    Case(
        "fr13_sortie_velo",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi sortie_velo.txt, et dis-moi qui a réparé la crevaison.",
            {
                "sortie_velo.txt": "Sortie vélo du club, {n} km parcourus\n"
                "Le groupe est parti à huit heures de la place du marché.\n"
                "{name} a réparé la crevaison de Julien au bord de la route.\n"
                "Nous avons pique-niqué près du lac avant de rentrer.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr13_ramassage",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis ramassage.txt, change le jour du recyclage de jeudi à vendredi, puis relis-le"
            " pour que je vérifie.",
            "ramassage.txt",
            ["Collecte quartier {n}", "ordures : lundi", "recyclage : jeudi"],
            ["Collecte quartier {n}", "ordures : lundi", "recyclage : vendredi"],
            "recyclage : vendredi",
        ),
    ),
    Case(
        "fr13_pannes_quimper",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Avec une commande, dis-moi combien de lignes de pannes_bornes.csv concernent Quimper.",
            "pannes_bornes.csv",
            "Quimper",
            ["Brest", "Lorient", "Vannes"],
        ),
    ),
)
