"""Thirty-first fresh French cases: written at once for the held-out-31 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hermance", "Théophraste", "Anselmine", "Polycarpe", "Scholastique")

#: The commands that count the votes for each cake in votes_gateaux.txt: the file sorted
#: (sort on it, or cat into sort), then uniq with a count (-c, --count).
_FILE = r"['\"]?(?:[\w~./-]*/)?votes_gateaux\.txt['\"]?"
_UNIQ = r"\|\s*uniq\s+(?:-\S+\s+)*(?:-[a-z]*c[a-z]*|--count)(?![\w-])"
_COMPTE = (
    rf"(?<![\w-])sort\s+(?:-\S+\s+)*(?:<\s*)?{_FILE}\s*{_UNIQ}"
    rf"|(?<![\w-])cat\s+{_FILE}\s*\|\s*sort(?:\s+-\S+)*\s*{_UNIQ}"
)

#: When to set off: 7h45 (or 7:45, 07.45), or in words.
_DEPART = r"(?<![\d.:])0?7\s*[h:.]\s*45(?!\d)|huit heures moins le quart|sept heures quarante-cinq"

CASES: tuple[Case, ...] = (
    Case(
        "fr31_plainte_velo",
        "action",
        LANGUAGE,
        forms.write_file(
            "On m'a volé mon vélo devant la gare. Note dans plainte_velo.txt que l'agent qui a"
            " pris ma plainte s'appelle {name} et que le numéro de la plainte est {code}.",
            "plainte_velo.txt",
        ),
    ),
    Case(
        "fr31_meringues",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans une demi-heure de sortir les meringues du four, sinon elles vont"
            " brunir.",
            0.5,
            "meringue",
            "four",
            "oven",
            "ofen",
            "horno",
            "baiser",
            "メレンゲ",
            "オーブン",
        ),
    ),
    Case(
        "fr31_seche_serviettes",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Le sèche-serviettes de la salle de bain tourne deux heures tous les matins, c'est"
            " trop. Dans seche_serviettes.conf, passe duree de 120 à 60 ; modifie la ligne qui"
            " existe, n'en ajoute pas d'autre.",
            "seche_serviettes.conf",
            ["mode = eco", "duree = 120", "appareil = {n}"],
            ["mode = eco", "duree = 60", "appareil = {n}"],
        ),
    ),
    Case(
        "fr31_fourriere",
        "recall",
        LANGUAGE,
        forms.remember(
            "Ma voiture est partie à la fourrière. Retiens que le numéro du procès-verbal est"
            " {code}, il me le faudra pour la récupérer.",
            "C'était quoi, le numéro du procès-verbal pour la fourrière ?",
        ),
    ),
    Case(
        "fr31_decheterie",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "La déchetterie ouvre à 8h30 et il y a toujours la queue, alors je veux y être 10"
            " minutes avant l'ouverture. Avec la remorque, il me faut 35 minutes de route. Je"
            " dois partir à quelle heure ?",
            _DEPART,
            "7h45",
            stream=True,
        ),
    ),
    Case(
        "fr31_poser_un_lapin",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Ma fille est rentrée furieuse parce que son copain lui a posé un lapin. Ça veut dire"
            " quoi, exactement ?",
            "pas venu|ne pas venir|ne vient pas|pas present|rendez-vous|rdv|faux bond",
        ),
    ),
    Case(
        "fr31_votes_gateaux",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Pour le concours de gâteaux de la fête du village, votes_gateaux.txt contient un"
            " vote par ligne, avec le nom du gâteau. Quelle commande me donnerait le nombre de"
            " votes pour chaque gâteau ? Montre-la-moi sans la lancer.",
            {"courses.txt": "Beurre x{n}\nColis en relais {code}\n"},
            _COMPTE,
            "a sort votes_gateaux.txt | uniq -c command",
        ),
    ),
    Case(
        "fr31_reunion_ape",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Je n'ai pas pu aller à la réunion des parents d'élèves. Qu'est-ce qu'il y a dans"
            " reunion_ape.txt ? Et qui s'occupe du ravitaillement pour le cross ?",
            {
                "reunion_ape.txt": "Réunion des parents d'élèves, {n} présents\n"
                "Le cross de l'école aura lieu un mercredi d'octobre.\n"
                "Le ravitaillement pour le cross sera assuré par {name}.\n"
                "On vendra des sapins en décembre pour financer la classe verte.\n"
                "Prochaine réunion après les vacances de la Toussaint.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr31_atelier_couture",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dans inscrits_couture.txt, il y a une personne par ligne pour l'atelier couture du"
            " samedi. Compte les lignes avec wc -l, ajoute « Apolline Kerbrat » à la fin, puis"
            " recompte pour que je voie le nouveau total.",
            "inscrits_couture.txt",
            "Apolline Kerbrat",
        ),
    ),
    Case(
        "fr31_camping",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans nuits_camping.csv, chaque ligne est une nuit de nos vacances avec la ville du"
            " camping. Combien de nuits on a passées à Quiberon cet été ? Compte-le avec une"
            " commande.",
            "nuits_camping.csv",
            "Quiberon",
            ("Carnac", "Erquy", "Pornic", "Binic"),
        ),
    ),
)
