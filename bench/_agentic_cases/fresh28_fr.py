"""Twenty-eighth fresh French cases: written at once for the held-out-28 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Philibert", "Gontran", "Eudoxie", "Honorine", "Ermengarde")

#: The names the recall saves, one per run.
PROFS_PIANO = ("Aristide", "Marcellin", "Fulbert", "Ambroise")

#: The time the train gets in, 9h40 plus 3 h 50: 13h30 (13:30 or 13.30), not part of a longer
#: time.
_ARRIVEE = r"(?<![\d:.])13\s*[h:.]\s*30(?!\d)"

#: The command that copies the whole recettes folder to recettes_sauvegarde: cp with a
#: recursive (or archive) option, the folder, then the copy.
_CP = (
    r"(?<![\w-])cp\s+(?:-\S+\s+)*(?:-[a-z]*[ra][a-z]*|--recursive|--archive)\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?recettes/?['\"]?\s+['\"]?(?:[\w~./-]*/)?recettes_sauvegarde/?"
    r"['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr28_pressing",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans pressing.txt que j'ai déposé mon costume au pressing de {name} et que le"
            " ticket porte le numéro {code}. Je dois le récupérer avant le mariage.",
            "pressing.txt",
        ),
    ),
    Case(
        "fr28_pharmacie",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures de passer à la pharmacie chercher l'ordonnance de ma"
            " mère.",
            2,
            "pharmacie",
            "ordonnance",
            "pharmacy",
            "prescription",
            "apotheke",
            "rezept",
            "farmacia",
            "receta",
            "薬",
        ),
    ),
    Case(
        "fr28_tondeuse",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Le robot coupe l'herbe beaucoup trop ras. Dans tondeuse.ini, passe hauteur_mm de 30"
            " à 45 en modifiant la ligne qui existe, sans en ajouter une autre.",
            "tondeuse.ini",
            ["zone = jardin_arriere", "hauteur_mm = 30", "batterie_min = {n}"],
            ["zone = jardin_arriere", "hauteur_mm = 45", "batterie_min = {n}"],
        ),
    ),
    Case(
        "fr28_prof_piano",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le prof de piano de ma fille s'appelle {value}, je l'oublie tout le"
            " temps.",
            "Comment s'appelle déjà le prof de piano de ma fille ?",
            PROFS_PIANO,
        ),
    ),
    Case(
        "fr28_train_bordeaux",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mon train pour Bordeaux part à 9h40 et le trajet dure 3 h 50. J'arrive à quelle"
            " heure ?",
            _ARRIVEE,
            "13h30",
            stream=True,
        ),
    ),
    Case(
        "fr28_gesundheit",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Ma belle-sœur allemande dit toujours « Gesundheit » quand j'éternue. Ça veut dire"
            " quoi ?",
            "santé|souhaits",
        ),
    ),
    Case(
        "fr28_recettes",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je copie tout le dossier recettes dans recettes_sauvegarde ? Donne-moi juste"
            " la commande, je la lancerai moi-même.",
            {"courses.txt": "Baguettes : {n}\nCode du portail : {code}\n"},
            _CP,
            "a cp -r recettes recettes_sauvegarde command",
        ),
    ),
    Case(
        "fr28_covoiturage",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde covoiturage.txt et dis-moi qui emmène les enfants à l'école mercredi.",
            {
                "covoiturage.txt": "Covoiturage école, semaine {n}\n"
                "Lundi : Mathilde\n"
                "Mercredi : {name}\n"
                "Vendredi : Gaspard\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr28_brocante",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Combien de lignes il y a dans inscrits_brocante.txt ? Ajoute ensuite « Gwenaëlle"
            " Kerjean » à la fin et recompte, que je voie qu'elle est bien inscrite.",
            "inscrits_brocante.txt",
            "Gwenaëlle Kerjean",
        ),
    ),
    Case(
        "fr28_cantal",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans ventes_fromages.csv, chaque ligne est une vente de mon stand au marché."
            " Combien de fois j'ai vendu du Cantal ? Compte-le avec une commande, s'il te plaît.",
            "ventes_fromages.csv",
            "Cantal",
            ["Brie", "Reblochon", "Roquefort"],
        ),
    ),
)
