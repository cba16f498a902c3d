"""Nineteenth fresh French cases: written at once for the held-out-19 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Honorine", "Eustache", "Clothilde", "Hippolyte", "Séraphin")

CASES: tuple[Case, ...] = (
    Case(
        "fr19_linge",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans une demi-heure de rentrer le linge, il va pleuvoir.",
            0.5,
            "linge",
            "laundry",
            "washing",
            "wäsche",
            "ropa",
            "colada",
            "洗濯",
        ),
    ),
    Case(
        "fr19_devis_toiture",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier devis_toiture.txt et note dedans que le couvreur s'appelle {name}"
            " et que le numéro du devis est le {code}.",
            "devis_toiture.txt",
        ),
    ),
    Case(
        "fr19_poulailler",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Les poules sortent trop tôt : dans poulailler.conf, passe l'ouverture de la trappe"
            " de 06:30 à 07:45. Modifie la ligne existante, n'en rajoute pas une autre.",
            "poulailler.conf",
            ["ouverture = 06:30", "fermeture = 21:00", "trappe = {n}"],
            ["ouverture = 07:45", "fermeture = 21:00", "trappe = {n}"],
        ),
    ),
    Case(
        "fr19_navigo",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que mon numéro de passe Navigo finit par {code}, s'il te plaît.",
            "Il finit par quoi, déjà, mon numéro de passe Navigo ?",
        ),
    ),
    Case(
        "fr19_papier_peint",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Un rouleau de papier peint couvre 5 m². Combien de rouleaux me faut-il pour 65 m²"
            " de mur, sans compter les pertes ?",
            13,
            "treize",
            "thirteen",
            "dreizehn",
            "trece",
            "十三",
        ),
    ),
    Case(
        "fr19_plus_petit_pays",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Quel est le plus petit pays du monde ?",
            "vatican|vatikan|バチカン",
            stream=True,
        ),
    ),
    Case(
        "fr19_ouvrir_recettes",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je veux modifier recettes.txt directement dans le terminal. Quelle commande"
            " j'utilise pour l'ouvrir ? Montre-la-moi seulement, ne l'exécute pas.",
            {"recettes.txt": "Quiche lorraine pour {n} personnes\n"},
            r"(?<![\w-])(?:nano|vim?|nvim|emacs|micro|pico|joe|mcedit)\s+(?:-\S+\s+)*['\"]?"
            r"(?:\./)?recettes\.txt",
            "a nano recettes.txt (or vim, emacs) command",
        ),
    ),
    Case(
        "fr19_galette",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde dans galette_des_rois.txt et dis-moi qui a eu la fève cette année.",
            {
                "galette_des_rois.txt": "Galette des rois du club, {n} parts\n"
                "Frangipane : boulangerie Martin\nFève : {name}\nCouronne : carton doré\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr19_belote",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes de tournoi_belote.txt, ajoute Gaëtan Lefebvre sur une nouvelle"
            " ligne à la fin, puis recompte-les.",
            "tournoi_belote.txt",
            "Gaëtan Lefebvre",
        ),
    ),
    Case(
        "fr19_ruches",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Combien de lignes fait releve_ruches.txt ? Compte-les avec une commande, s'il te"
            " plaît.",
            "releve_ruches.txt",
        ),
    ),
)
