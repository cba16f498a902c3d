"""Twenty-sixth fresh French cases: written at once for the held-out-26 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Sidonie", "Amaury", "Ombeline", "Tancrède", "Philéas")

#: The names the recall saves, one per run.
KINES = ("Romuald", "Aymeric", "Norbert", "Evrard")

#: The time the bread is ready, 21h45 plus 2 h 50: 0h35 (00:35, 0.35 or "minuit trente-cinq"),
#: not part of a longer time such as 10h35.
_PRET = r"(?<![\d:.])0?0\s*[h:.]\s*35(?!\d)|minuit\s+(?:et\s+)?(?:trente-cinq|35)"

#: The command that gives sauvegarde_nas.img's MD5 sum: md5sum (or md5, or openssl's md5) with
#: its options, then the file.
_MD5 = (
    r"(?<![\w-])(?:md5sum\s+(?:-\S+\s+)*|md5\s+(?:-\S+\s+)*"
    r"|openssl\s+(?:dgst\s+-md5|md5)\s+(?:-\S+\s+)*)"
    r"['\"]?(?:[\w~./-]*/)?sauvegarde_nas\.img['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr26_reparateur",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans reparation_telephone.txt que mon téléphone est chez le réparateur {name}"
            " et que le numéro du ticket de dépôt est {code}, sinon je vais l'oublier.",
            "reparation_telephone.txt",
        ),
    ),
    Case(
        "fr26_cordonnier",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans trois heures de passer chez le cordonnier récupérer mes bottes.",
            3,
            "cordonnier",
            "bottes",
            "chaussures",
            "cobbler",
            "boots",
            "shoe",
            "schuster",
            "stiefel",
            "zapatero",
            "botas",
            "靴",
        ),
    ),
    Case(
        "fr26_cafetiere",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Le café n'est jamais prêt quand je me lève. Dans cafetiere.conf, passe heure_depart"
            " de 07:15 à 06:45 en modifiant la ligne qui existe, sans en ajouter une.",
            "cafetiere.conf",
            ["tasses = 4", "heure_depart = 07:15", "maintien_chaud = {n}"],
            ["tasses = 4", "heure_depart = 06:45", "maintien_chaud = {n}"],
        ),
    ),
    Case(
        "fr26_kine",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le kiné de mon père s'appelle {value}, je ne m'en souviens jamais.",
            "Comment il s'appelle déjà, le kiné de mon père ?",
            KINES,
        ),
    ),
    Case(
        "fr26_machine_pain",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "J'ai lancé la machine à pain à 21h45 et le programme complet dure 2 h 50. Le pain"
            " sera prêt à quelle heure ?",
            _PRET,
            "0h35",
            stream=True,
        ),
    ),
    Case(
        "fr26_knackered",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Dans une série anglaise, un personnage rentre du boulot et dit « I'm knackered ». Ça"
            " veut dire quoi, en français ?",
            "crevé|crevée|épuisé|épuisée|fatigué|fatiguée|vanné|lessivé|claqué|naze"
            "|mort de fatigue",
        ),
    ),
    Case(
        "fr26_md5_nas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Le site donne une somme MD5 pour vérifier sauvegarde_nas.img. Quelle commande me"
            " calcule celle de mon fichier ? Donne-la-moi seulement, ne la lance pas.",
            {"a_verifier.txt": "Transfert du NAS, lot {n}\nRéférence {code}\n"},
            _MD5,
            "a md5sum sauvegarde_nas.img command",
        ),
    ),
    Case(
        "fr26_amap",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Jette un œil à planning_amap.txt et dis-moi qui s'occupe de la distribution des"
            " paniers jeudi.",
            {
                "planning_amap.txt": "AMAP du quartier, saison {n}\n"
                "Mardi : réception des légumes, Maëlle\n"
                "Jeudi : distribution des paniers, {name}\n"
                "Samedi : tenue des comptes, Hervé\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr26_scrabble",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Combien de lignes a inscrits_scrabble.txt ? Ajoute ensuite « Solène Marchetti » à la"
            " fin et recompte, que je voie qu'il y en a une de plus.",
            "inscrits_scrabble.txt",
            "Solène Marchetti",
        ),
    ),
    Case(
        "fr26_livraisons_niort",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans livraisons_fromagerie.csv, chaque ligne est une livraison. Combien sont parties"
            " à Niort ? Compte-les avec une commande, s'il te plaît.",
            "livraisons_fromagerie.csv",
            "Niort",
            ["Saintes", "Cognac", "Royan"],
        ),
    ),
)
