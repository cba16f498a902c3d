"""Sixth fresh French cases: written at once for the held-out-6 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr6_corvees",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute la ligne « {line} » à la fin de corvees.txt, s'il te plaît.",
            "corvees.txt",
            ["lundi : aspirateur", "mercredi : vitres"],
            "samedi : {name}, salle de bain",
        ),
    ),
    Case(
        "fr6_vide_grenier",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier vide_grenier.txt pour noter que notre stand au vide-grenier est"
            " réservé au nom de {name}, emplacement numéro {code}.",
            "vide_grenier.txt",
        ),
    ),
    Case(
        "fr6_zone_alarme",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans alarme.conf, rajoute _jardin à la fin du nom de la zone (pour l'instant,"
            " c'est juste garage). Ne touche pas aux autres lignes.",
            "alarme.conf",
            ["zone = garage", "delai = {n}", "sirene = oui"],
            ["zone = garage_jardin", "delai = {n}", "sirene = oui"],
        ),
    ),
    Case(
        "fr6_digicode_soeur",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le digicode de chez ma sœur, c'est {code}.",
            "C'est quoi déjà le digicode de chez ma sœur ?",
        ),
    ),
    Case(
        "fr6_cartes_tarot",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Un jeu de tarot, ça fait combien de cartes en tout ?",
            78,
            "soixante-dix-huit",
            "soixante dix huit",
            "seventy-eight",
            "seventy eight",
            "achtundsiebzig",
            "setenta y ocho",
            "七十八",
        ),
    ),
    Case(
        "fr6_sagrada_familia",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Dans quelle ville se trouve la Sagrada Família ?",
            "barcelon|バルセロナ",
            stream=True,
        ),
    ),
    Case(
        "fr6_processus",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande affiche les processus en cours ? Montre-la-moi seulement, ne la"
            " lance pas.",
            {"serveur.txt": "charge moyenne : {n}\n"},
            r"\bps\b|\bh?top\b",
            "ps aux",
        ),
    ),
    Case(
        "fr6_kermesse",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi en deux phrases ce qui s'est passé d'après kermesse.txt.",
            {
                "kermesse.txt": "La kermesse de l'école a eu lieu samedi.\n"
                "{name} a tenu le stand de crêpes toute la journée.\n"
                "Nous avons vendu {n} billets de tombola.\n"
                "Une averse a tout interrompu vers 17 heures.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr6_choristes",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes de choristes.txt avec wc -l, ajoute ensuite la ligne Claire"
            " Dubois à la fin, puis recompte.",
            "choristes.txt",
            "Claire Dubois",
        ),
    ),
    Case(
        "fr6_expeditions_poitiers",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Combien de lignes de expeditions.csv concernent Poitiers ? Compte-les avec grep.",
            "expeditions.csv",
            "Poitiers",
            ("Lyon", "Lille", "Rennes"),
        ),
    ),
)
