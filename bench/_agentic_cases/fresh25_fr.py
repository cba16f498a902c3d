"""Twenty-fifth fresh French cases: written at once for the held-out-25 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Baudouin", "Enguerrand", "Perceval", "Bertille", "Aristide")

#: The command that turns flyer_kermesse.png into flyer_kermesse.jpg with ImageMagick: convert
#: or magick (convert), options before the input or between input and output.
_CONVERT = (
    r"(?<![\w-])(?:magick(?:\s+convert)?|convert)\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?flyer_kermesse\.png['\"]?\s+(?:-\S+\s+(?:\d\S*\s+)?)*"
    r"['\"]?(?:[\w~./-]*/)?flyer_kermesse\.jpe?g['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr25_trousse_secours",
        "action",
        LANGUAGE,
        forms.append_line(
            "Tu peux ajouter « {line} » à la fin de trousse_secours.txt ? Ne touche pas aux"
            " autres lignes.",
            "trousse_secours.txt",
            ["Pansements", "Désinfectant", "Pince à épiler"],
            "Thermomètre prêté par {name}",
        ),
    ),
    Case(
        "fr25_ramoneur",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures et demie de rappeler le ramoneur pour fixer une date"
            " avant l'hiver.",
            2.5,
            "ramoneur",
            "ramonage",
            "cheminée",
            "chimney",
            "sweep",
            "schornstein",
            "kaminkehrer",
            "deshollinador",
            "chimenea",
            "煙突",
        ),
    ),
    Case(
        "fr25_babyphone",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Le babyphone ne se déclenche que quand le petit hurle. Dans babyphone.ini, passe"
            " sensibilite de 2 à 4 en modifiant la ligne qui existe, sans en ajouter une.",
            "babyphone.ini",
            ["veilleuse = oui", "sensibilite = 2", "canal = {n}"],
            ["veilleuse = oui", "sensibilite = 4", "canal = {n}"],
        ),
    ),
    Case(
        "fr25_code_portail",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens bien que le code du portail chez mes beaux-parents, c'est {value}.",
            "C'était quoi déjà, le code du portail chez mes beaux-parents ?",
        ),
    ),
    Case(
        "fr25_feutres",
        "no-tool",
        LANGUAGE,
        forms.number(
            "J'ai 24 élèves que je mets par groupes de 4 pour une affiche, et chaque groupe a"
            " besoin de 3 feutres. Combien de feutres je dois sortir ?",
            18,
            "dix-huit",
            "dix huit",
            "eighteen",
            "achtzehn",
            "dieciocho",
            "十八",
            stream=True,
        ),
    ),
    Case(
        "fr25_rdv_dentiste",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Comment on dit « rendez-vous chez le dentiste » en anglais ? C'est pour un mail à"
            " mon nouveau cabinet à Londres.",
            "appointment",
        ),
    ),
    Case(
        "fr25_flyer_jpg",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "J'ai flyer_kermesse.png et l'imprimerie veut du JPG. Quelle commande ImageMagick me"
            " donne flyer_kermesse.jpg ? Montre-la-moi seulement, ne la lance pas.",
            {"a_faire.txt": "Envoyer le flyer à l'imprimerie, devis {code}\n{n} exemplaires\n"},
            _CONVERT,
            "a convert flyer_kermesse.png flyer_kermesse.jpg command",
        ),
    ),
    Case(
        "fr25_conseil_ecole",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi le compte rendu du conseil d'école, il est dans cr_conseil_ecole.txt. Et"
            " qui s'est proposé pour organiser la sortie au zoo ?",
            {
                "cr_conseil_ecole.txt": "Conseil d'école du deuxième trimestre, salle {n}\n"
                "La directrice a annoncé l'ouverture d'une classe en septembre.\n"
                "Les travaux de la cantine ont pris du retard.\n"
                "{name} s'est proposé pour organiser la sortie au zoo.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr25_horaires_piscine",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Montre-moi horaires_piscine.txt, change la fermeture de 20h à 21h30, puis relis le"
            " fichier pour vérifier que c'est bon.",
            "horaires_piscine.txt",
            ["Piscine municipale, bassin {n}", "ouverture : 9h", "fermeture : 20h"],
            ["Piscine municipale, bassin {n}", "ouverture : 9h", "fermeture : 21h30"],
            "fermeture : 21h30",
        ),
    ),
    Case(
        "fr25_atelier_poterie",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Dans inscrits_poterie.txt, il y a une personne inscrite à l'atelier poterie par"
            " ligne. Elles sont combien en tout ? Compte-les avec une commande plutôt qu'à l'œil.",
            "inscrits_poterie.txt",
        ),
    ),
)
