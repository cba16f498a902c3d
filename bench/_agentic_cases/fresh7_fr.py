"""Seventh fresh French cases: written at once for the held-out-7 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr7_releves_compteur",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute à la fin de releves_compteur.txt la ligne « {line} ».",
            "releves_compteur.txt",
            ["janvier : 4512", "février : 4630"],
            "mars : 47{n}",
        ),
    ),
    Case(
        "fr7_coussins",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans six heures de rentrer les coussins du salon de jardin.",
            6,
            "coussin",
            "cushion",
            "kissen",
            "cojin",
            "クッション",
        ),
    ),
    Case(
        "fr7_volets",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans volets.conf, décale la fermeture de 21:00 à 22:15 sans toucher au reste.",
            "volets.conf",
            ["ouverture = 07:30", "fermeture = 21:00", "inclinaison = {n}"],
            ["ouverture = 07:30", "fermeture = 22:15", "inclinaison = {n}"],
        ),
    ),
    Case(
        "fr7_boite_a_cles",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le code de la boîte à clés du gîte est {code}, s'il te plaît.",
            "C'est quoi déjà, le code de la boîte à clés du gîte ?",
        ),
    ),
    Case(
        "fr7_cordes_violon",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de cordes a un violon ?",
            4,
            "quatre",
            "four",
            "vier",
            "cuatro",
        ),
    ),
    Case(
        "fr7_marrakech",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Dans quel pays se trouve Marrakech ?",
            "maroc|morocco|marokko|marruecos|モロッコ",
        ),
    ),
    Case(
        "fr7_peripheriques_usb",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande liste les périphériques USB branchés sur la machine ? Montre-la-moi"
            " seulement, ne la lance pas.",
            {"materiel.txt": "poste {n}\n"},
            r"(?<![a-z])lsusb(?![a-z])",
            "lsusb",
        ),
    ),
    Case(
        "fr7_creche",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Regarde planning_creche.txt et dis-moi qui récupère les enfants mercredi.",
            {
                "planning_creche.txt": "Crèche Les Lutins, semaine {n}\n"
                "mercredi, récupération : {name}\nvendredi : papi\nsortie au parc : jeudi\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr7_inscrits_atelier",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Compte les lignes de inscrits_atelier.txt, ajoute « Inès Caron » à la fin, puis"
            " recompte pour vérifier.",
            "inscrits_atelier.txt",
            "Inès Caron",
        ),
    ),
    Case(
        "fr7_colis_limoges",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Avec grep, compte combien de lignes de colis.csv concernent Limoges.",
            "colis.csv",
            "Limoges",
            ("Brive", "Tulle", "Guéret"),
        ),
    ),
)
