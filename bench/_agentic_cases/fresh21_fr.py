"""Twenty-first fresh French cases: written at once for the held-out-21 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eulalie", "Aurélien", "Ghislaine", "Évariste", "Philomène")

#: The commands that rename brouillon.txt to lettre_motivation.txt, as an answer may write them
#: (mv or git mv, with options, the files quoted or with a path).
_RENOMMER = (
    r"(?<![\w-])mv\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?brouillon\.txt['\"]?\s+"
    r"['\"]?(?:[\w~./-]*/)?lettre_motivation\.txt(?![\w.])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr21_pharmacie",
        "action",
        LANGUAGE,
        forms.remind(
            "Tu peux me rappeler dans une heure et quart de passer à la pharmacie avant qu'elle"
            " ferme ?",
            1.25,
            "pharmacie",
            "pharmacy",
            "apotheke",
            "farmacia",
            "ordonnance",
            "médicament",
            "medicament",
            "薬局",
        ),
    ),
    Case(
        "fr21_garde_chat",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans un fichier garde_chat.txt que c'est {name} qui nourrit le chat pendant"
            " nos vacances, et que le code de l'interphone est {code}.",
            "garde_chat.txt",
        ),
    ),
    Case(
        "fr21_alarme",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Je n'ai jamais le temps de sortir avant que l'alarme se déclenche : dans"
            " alarme.cfg, passe delai_sortie de 30 à 45. Change juste cette ligne, n'en"
            " ajoute pas une nouvelle.",
            "alarme.cfg",
            ["zone = entree", "delai_sortie = 30", "centrale = {n}"],
            ["zone = entree", "delai_sortie = 45", "centrale = {n}"],
        ),
    ),
    Case(
        "fr21_portail_ecole",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens bien ça : le code du portail de l'école des enfants, c'est {code}.",
            "Tu te souviens du code du portail de l'école ?",
            stream=True,
        ),
    ),
    Case(
        "fr21_film_minutes",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Le film de ce soir dure 2 h 15. Ça fait combien de minutes en tout ?",
            135,
            "cent trente-cinq",
            "cent trente cinq",
            "one hundred and thirty-five",
            "one hundred thirty-five",
            "one hundred and thirty five",
            "hundertfunfunddreissig",
            "hundertfünfunddreißig",
            "ciento treinta y cinco",
            "百三十五",
        ),
    ),
    Case(
        "fr21_capitale_australie",
        "no-tool",
        LANGUAGE,
        forms.words("C'est quoi la capitale de l'Australie ?", "canberra|キャンベラ"),
    ),
    Case(
        "fr21_renommer",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je renomme brouillon.txt en lettre_motivation.txt dans le terminal ?"
            " Donne-moi juste la commande, ne la lance pas.",
            {
                "brouillon.txt": "Madame, Monsieur,\n"
                "Suite à votre annonce n° {n}, je vous propose ma candidature.\n"
            },
            _RENOMMER,
            "a mv brouillon.txt lettre_motivation.txt command",
        ),
    ),
    Case(
        "fr21_cantine",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde planning_cantine.txt et dis-moi qui surveille la cantine mardi.",
            {
                "planning_cantine.txt": "Surveillance de la cantine, semaine {n}\n"
                "lundi : Clothilde\n"
                "mardi : {name}\n"
                "jeudi : Gaspard\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr21_brocante",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Combien de lignes dans inscrits_brocante.txt ? Ajoute ensuite « Mme Lefort :"
            " vaisselle ancienne » à la fin, puis recompte.",
            "inscrits_brocante.txt",
            "Mme Lefort : vaisselle ancienne",
        ),
    ),
    Case(
        "fr21_livraisons_annecy",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Combien de lignes de livraisons.csv concernent Annecy ? Compte-les avec une"
            " commande, s'il te plaît.",
            "livraisons.csv",
            "Annecy",
            ["Chambéry", "Albertville", "Thonon"],
        ),
    ),
)
