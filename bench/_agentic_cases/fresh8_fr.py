"""Eighth fresh French cases: written at once for the held-out-8 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr8_jardinier",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée jardinier.txt et note que le jardinier passe tailler la haie jeudi, qu'il"
            " s'appelle {name} et que le numéro du devis est {code}.",
            "jardinier.txt",
        ),
    ),
    Case(
        "fr8_mediatheque",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans cinq heures de rendre les livres à la médiathèque.",
            5,
            "livre",
            "médiathèque",
            "mediatheque",
            "library",
            "books",
            "bücher",
            "bibliothek",
            "libro",
            "図書館",
        ),
    ),
    Case(
        "fr8_aquarium",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans aquarium.cfg, passe la température de 24 à 26 et ne touche à rien d'autre.",
            "aquarium.cfg",
            ["temperature = 24", "eclairage = 10h", "filtre = {n}"],
            ["temperature = 26", "eclairage = 10h", "filtre = {n}"],
        ),
    ),
    Case(
        "fr8_portail_parents",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le code du portail chez mes parents, c'est {code}.",
            "C'est quoi déjà le code du portail chez mes parents ?",
        ),
    ),
    Case(
        "fr8_pentagone",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de côtés a un pentagone ?",
            5,
            "cinq",
            "five",
            "fünf",
            "cinco",
            "五",
        ),
    ),
    Case(
        "fr8_quatre_saisons",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Qui a composé Les Quatre Saisons ?",
            "vivaldi|ヴィヴァルディ|ビバルディ",
            stream=True,
        ),
    ),
    Case(
        "fr8_lister_archive",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je peux voir ce qu'il y a dans photos.tar.gz sans l'extraire ? Donne-moi"
            " juste la commande, ne la lance pas.",
            {"photos.tar.gz": "archive {n}\n"},
            r"tar\s+-?[a-z]*t[a-z]*\s+(?:-\S+\s+)*\S*photos\.tar\.gz"
            r"|tar\s+(?:-\S+\s+)*--list\s+(?:-\S+\s+)*\S*photos\.tar\.gz",
            "a tar -t command",
        ),
    ),
    Case(
        "fr8_club_photo",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer ce qu'il y a dans reunion_club_photo.txt ?",
            {
                "reunion_club_photo.txt": "Réunion du club photo, {n} membres présents\n"
                "nouvelle trésorière : {name}\nprochaine expo : en juin à la mairie\n"
                "cotisation inchangée\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr8_menu_cantine",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Dans menu_cantine.txt, remplace « lundi : lasagnes » par « lundi : gratin de"
            " courgettes », puis relis-moi le fichier pour que je vérifie.",
            "menu_cantine.txt",
            ["lundi : lasagnes", "mardi : poisson pané", "jeudi : couscous", "repas : {n}"],
            [
                "lundi : gratin de courgettes",
                "mardi : poisson pané",
                "jeudi : couscous",
                "repas : {n}",
            ],
            "lundi : gratin de courgettes",
        ),
    ),
    Case(
        "fr8_reservations_gite",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Avec wc, dis-moi combien de lignes contient reservations_gite.txt.",
            "reservations_gite.txt",
        ),
    ),
)
