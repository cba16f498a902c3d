"""Fifteenth fresh French cases: written at once for the held-out-15 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aldegonde", "Baptistin", "Cunégonde", "Évariste", "Ludivine")

CASES: tuple[Case, ...] = (
    Case(
        "fr15_conservatoire",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans une heure et demie d'aller chercher les enfants au conservatoire.",
            1.5,
            "conservatoire",
            "conservatorio",
            "enfants",
            "kids",
            "children",
            "kinder",
            "ninos",
            "musique",
            "music",
            "musik",
            "子ども",
            "子供",
            "音楽",
        ),
    ),
    Case(
        "fr15_bocaux",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » tout à la fin de bocaux.txt, merci.",
            "bocaux.txt",
            ["confiture de fraises", "cornichons", "compote"],
            "pesto offert par {name}",
        ),
    ),
    Case(
        "fr15_bouilloire",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans bouilloire.conf, mets la température à 80 au lieu de 100 ; modifie la ligne"
            " existante, n'en ajoute pas de nouvelle.",
            "bouilloire.conf",
            ["temperature = 100", "maintien_chaud = off", "minuterie = {n}"],
            ["temperature = 80", "maintien_chaud = off", "minuterie = {n}"],
        ),
    ),
    Case(
        "fr15_commande_canape",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le numéro de commande de mon canapé est le {code}, le magasin doit me"
            " rappeler.",
            "C'était quoi déjà, le numéro de commande de mon canapé ?",
        ),
    ),
    Case(
        "fr15_tonne",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Une tonne, ça fait combien de kilos ?",
            1000,
            "mille",
            "thousand",
            "tausend",
            "mil",
            "千",
        ),
    ),
    Case(
        "fr15_fleurs_du_mal",
        "no-tool",
        LANGUAGE,
        forms.words("Qui a écrit Les Fleurs du mal ?", "baudelaire|ボードレール", stream=True),
    ),
    Case(
        "fr15_serveur_python",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je voudrais partager le dossier courant sur mon réseau local avec un petit serveur"
            " web en Python. C'est quoi la commande ? Écris-la juste, ne la lance pas.",
            {"index.html": "<p>Photos du week-end {n}</p>\n"},
            r"(?<![\w-])python[0-9.]*\s+-m\s+(?:http\.server|simplehttpserver)(?![\w-])",
            "a python -m http.server command",
        ),
    ),
    Case(
        "fr15_troc_plantes",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer troc_plantes.txt ? Et c'est qui qui a apporté les boutures de"
            " figuier ?",
            {
                "troc_plantes.txt": "Troc de plantes du quartier, {n} participants\n"
                "Les échanges ont commencé dès neuf heures sur la place.\n"
                "{name} a apporté des boutures de figuier.\n"
                "À la fin, il ne restait presque que des plants de tomates.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr15_lecon_conduite",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis lecon_conduite.txt, décale l'heure de 14h à 16h, puis relis le fichier pour"
            " que je vérifie.",
            "lecon_conduite.txt",
            ["Leçon de conduite n° {n}", "heure : 14h", "moniteur : Yannick"],
            ["Leçon de conduite n° {n}", "heure : 16h", "moniteur : Yannick"],
            "heure : 16h",
        ),
    ),
    Case(
        "fr15_randonnees_mulhouse",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Avec une commande, compte combien de lignes de randonnees.csv concernent Mulhouse.",
            "randonnees.csv",
            "Mulhouse",
            ["Thann", "Altkirch", "Guebwiller"],
        ),
    ),
)
