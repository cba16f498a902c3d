"""Thirty-second fresh French cases: written at once for the held-out-32 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Philomène", "Anatole", "Eulalie", "Séraphin", "Clotilde")

#: The commands that list the empty files of the ordonnances folder: find on that folder with
#: -empty (or -size 0, -size -1), whatever tests come between.
_DOSSIER = r"['\"]?(?:\./)?ordonnances/?['\"]?"
_VIDES = (
    rf"(?<![\w-])find\s+{_DOSSIER}\s+(?:[^|;&\n]*?\s)?"
    r"(?:-empty|-size\s+0[ck]?|-size\s+-1[ck]?)(?![\w-])"
)

#: When to leave: 7h34 (or 7:34, 07.34), or in words.
_DEPART = r"(?<![\d.:])0?7\s*[h:.]\s*34(?!\d)|sept heures trente-quatre|sept heures trente quatre"

CASES: tuple[Case, ...] = (
    Case(
        "fr32_carte_grise",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans carte_grise.txt que ma demande de carte grise est suivie par {name} au"
            " garage et que le numéro de la demande est {code}.",
            "carte_grise.txt",
        ),
    ),
    Case(
        "fr32_voter",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures et demie d'aller voter, je ne veux pas oublier comme"
            " la dernière fois.",
            2.5,
            "vote",
            "election",
            "scrutin",
            "wahl",
            "votar",
            "elecciones",
            "投票",
        ),
    ),
    Case(
        "fr32_store_banne",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Le store banne de la terrasse se replie au moindre coup de vent. Dans"
            " store_banne.conf, passe vent_max de 30 à 45 ; modifie la ligne qui existe, n'en"
            " rajoute pas.",
            "store_banne.conf",
            ["mode = auto", "vent_max = 30", "moteur = {n}"],
            ["mode = auto", "vent_max = 45", "moteur = {n}"],
        ),
    ),
    Case(
        "fr32_bois_de_chauffage",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le numéro de ma commande de bois de chauffage est {code}, le livreur"
            " doit passer la semaine prochaine.",
            "C'était quoi déjà, le numéro de commande pour le bois de chauffage ?",
        ),
    ),
    Case(
        "fr32_car_scolaire",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Le car scolaire passe à 7h52 et mon fils met 18 minutes à pied pour aller jusqu'à"
            " l'arrêt. À quelle heure il doit partir de la maison ?",
            _DEPART,
            "7h34",
            stream=True,
        ),
    ),
    Case(
        "fr32_poil_dans_la_main",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mon beau-père répète que mon frère a un poil dans la main. Qu'est-ce que ça veut"
            " dire ?",
            "paresse|paresseu|faineant|feignant|flemm|n'aime pas travailler"
            "|pas envie de travailler|ne fait rien|rien faire|pas travailler|pas bosser"
            "|l'effort",
        ),
    ),
    Case(
        "fr32_fichiers_vides",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Après le transfert depuis mon vieux téléphone, certains fichiers du dossier"
            " ordonnances sont vides (0 octet). Quelle commande me les listerait ? Montre-la-moi"
            " sans la lancer.",
            {"a_faire.txt": "Timbres x{n}\nRetrait colis {code}\n"},
            _VIDES,
            "a find ordonnances -empty command",
        ),
    ),
    Case(
        "fr32_philatelie",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Je n'ai pas pu aller à l'assemblée du club de philatélie. Qu'est-ce qu'il y a dans"
            " ag_philatelie.txt ? Et qui va tenir le stand à la bourse aux timbres ?",
            {
                "ag_philatelie.txt": "Assemblée générale du club de philatélie, {n} adhérents"
                " présents\n"
                "La cotisation a été maintenue à 25 euros.\n"
                "On a voté l'achat d'un nouveau catalogue de cotation.\n"
                "{name} a accepté de tenir le stand à la bourse aux timbres.\n"
                "Le club a reçu un don d'albums de la part d'un ancien membre.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr32_secourisme",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dans inscrits_secourisme.txt, il y a une personne par ligne pour la formation aux"
            " premiers secours. Compte les lignes avec wc -l, ajoute « Maëlys Guérin » à la fin,"
            " puis recompte pour que je voie le nouveau nombre.",
            "inscrits_secourisme.txt",
            "Maëlys Guérin",
        ),
    ),
    Case(
        "fr32_garde_chiens",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans gardes_chiens.csv, je note chaque journée où je garde un chien, avec son nom."
            " Combien de journées j'ai gardé Pistache ce mois-ci ? Compte-le avec une commande.",
            "gardes_chiens.csv",
            "Pistache",
            ("Filou", "Caramel", "Biscotte", "Moka"),
        ),
    ),
)
