"""Twenty-seventh fresh French cases: written at once for the held-out-27 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eulalie", "Anselme", "Clotilde", "Barthélemy", "Séraphine")

#: The names the recall saves, one per run.
OSTEOS = ("Anatole", "Gonzague", "Hippolyte", "Lazare")

#: The time the leg of lamb comes out, 11h50 plus 1 h 25: 13h15 (13:15 or 13.15), not part of
#: a longer time.
_SORTIE = r"(?<![\d:.])13\s*[h:.]\s*15(?!\d)"

#: The command that searches every file of the courriers folder for "quittance": grep with a
#: recursive option, the word (quoted or not), then the folder.
_GREP = (
    r"(?<![\w-])grep\s+(?:-\S+\s+)*(?:-[a-z]*r[a-z]*|--recursive)\s+(?:-\S+\s+)*"
    r"['\"]?quittance['\"]?\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?courriers/?['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr27_garde_meuble",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans garde_meuble.txt que nos cartons sont au garde-meuble de {name} et que le"
            " numéro du box est {code}. On en aura besoin le jour du déménagement.",
            "garde_meuble.txt",
        ),
    ),
    Case(
        "fr27_patissier",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans une heure et demie d'aller chercher le gâteau d'anniversaire chez"
            " le pâtissier.",
            1.5,
            "gâteau",
            "gateau",
            "pâtissier",
            "patissier",
            "cake",
            "kuchen",
            "torte",
            "pastel",
            "tarta",
            "ケーキ",
        ),
    ),
    Case(
        "fr27_chauffe_eau",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "On se brûle les mains sous la douche. Dans chauffe_eau.conf, baisse consigne de 65"
            " à 55 en corrigeant la ligne existante, sans en ajouter une autre.",
            "chauffe_eau.conf",
            ["mode = heures_creuses", "consigne = 65", "absence_jours = {n}"],
            ["mode = heures_creuses", "consigne = 55", "absence_jours = {n}"],
        ),
    ),
    Case(
        "fr27_osteo",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde en tête que l'ostéopathe de ma mère s'appelle {value}, elle me le redemande"
            " tout le temps.",
            "C'est quoi déjà le nom de l'ostéopathe de ma mère ?",
            OSTEOS,
        ),
    ),
    Case(
        "fr27_gigot",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "J'ai mis le gigot au four à 11h50 et il lui faut 1 h 25 de cuisson. À quelle heure"
            " je dois le sortir ?",
            _SORTIE,
            "13h15",
            stream=True,
        ),
    ),
    Case(
        "fr27_butterflies",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mon correspondant anglais m'écrit qu'il a « butterflies in my stomach » avant son"
            " entretien d'embauche. Qu'est-ce qu'il veut dire ?",
            "trac|stress|nerveu|anxi|angoiss|appréhen|boule au ventre|peur|trouille",
        ),
    ),
    Case(
        "fr27_quittance",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je cherche le mot « quittance » dans tous les fichiers du dossier courriers, sous-"
            "dossiers compris. Quelle commande taper ? Donne-la-moi sans la lancer.",
            {"a_faire.txt": "Rendez-vous banque, guichet {n}\nDossier {code}\n"},
            _GREP,
            "a grep -r quittance courriers command",
        ),
    ),
    Case(
        "fr27_jardin_partage",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde jardin_partage.txt et dis-moi qui arrose les bacs mercredi.",
            {
                "jardin_partage.txt": "Jardin partagé de la rue, saison {n}\n"
                "Lundi : désherbage, Ghislaine\n"
                "Mercredi : arrosage des bacs, {name}\n"
                "Samedi : compost, Fulbert\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr27_fete_musique",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes de benevoles_fete_musique.txt, ajoute « Maïwenn Le Bihan » à la"
            " fin, puis recompte pour que je voie qu'elle y est.",
            "benevoles_fete_musique.txt",
            "Maïwenn Le Bihan",
        ),
    ),
    Case(
        "fr27_huitres",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans commandes_huitres.csv, il y a une commande par ligne. Combien partent à"
            " Rochefort ? Compte-les avec une commande, pas à la main.",
            "commandes_huitres.csv",
            "Rochefort",
            ["Marennes", "Oléron", "Fouras"],
        ),
    ),
)
