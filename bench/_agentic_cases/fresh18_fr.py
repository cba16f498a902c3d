"""Eighteenth fresh French cases: written at once for the held-out-18 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eulalie", "Philibert", "Pétronille", "Anselme", "Bathilde")

CASES: tuple[Case, ...] = (
    Case(
        "fr18_trottinette",
        "action",
        LANGUAGE,
        forms.remind(
            "Dans un quart d'heure, rappelle-moi de mettre la trottinette à charger.",
            0.25,
            "trottinette",
            "scooter",
            "roller",
            "patinete",
            "キックボード",
            "charg",
            "akku",
            "batter",
            "充電",
        ),
    ),
    Case(
        "fr18_chasse_oeufs",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » tout en bas de chasse_aux_oeufs.txt, stp, sans rien enlever.",
            "chasse_aux_oeufs.txt",
            ["jardin de la mairie", "départ à 10h", "paniers en osier"],
            "chocolats fournis par {name}",
        ),
    ),
    Case(
        "fr18_yaourtiere",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans yaourtiere.conf, passe la durée de 8 à 10 heures ; modifie la ligne qui existe"
            " au lieu d'en ajouter une.",
            "yaourtiere.conf",
            ["duree = 8", "lait = entier", "recette = {n}"],
            ["duree = 10", "lait = entier", "recette = {n}"],
        ),
    ),
    Case(
        "fr18_numero_caf",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde ça en mémoire, tu veux bien : mon numéro d'allocataire CAF se termine par"
            " {code}.",
            "Mon numéro d'allocataire CAF, il se termine par quoi déjà ?",
        ),
    ),
    Case(
        "fr18_departements",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien y a-t-il de départements en France métropolitaine ?",
            96,
            "quatre-vingt-seize",
            "quatre vingt seize",
            "ninety-six",
            "ninety six",
            "sechsundneunzig",
            "noventa y seis",
            "九十六",
        ),
    ),
    Case(
        "fr18_monnaie_suisse",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "En Suisse, on paie avec quelle monnaie ?",
            r"\bfrancs?\b|\bfranken\b|\bfrancos?\b|\bchf\b|フラン",
            "the Swiss franc",
            stream=True,
        ),
    ),
    Case(
        "fr18_distribution_linux",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je sais quelle distribution Linux est installée sur ce PC, et en quelle"
            " version ? Donne-moi juste la commande, ne la lance pas.",
            {"poste.txt": "Poste de la salle {n}\n"},
            r"/etc/[\w-]*release|/etc/issue"
            r"|(?<![\w-])lsb_release(?![\w-])"
            r"|(?<![\w-])hostnamectl(?![\w-])"
            r"|(?<![\w-])(?:neo|fast)fetch(?![\w-])",
            "a cat /etc/os-release (or lsb_release -a, hostnamectl) command",
        ),
    ),
    Case(
        "fr18_fete_musique",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me faire un résumé de fete_musique.txt ? Et c'était qui, à l'accordéon ?",
            {
                "fete_musique.txt": "Fête de la musique du quartier, {n} musiciens\n"
                "La scène était installée devant la boulangerie.\n"
                "{name} a joué de l'accordéon jusqu'à minuit.\n"
                "Les voisins ont dansé sur la place jusqu'au bout.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr18_petanque",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis tournoi_petanque.txt, avance le début de 15h à 14h, puis relis-le pour que je"
            " vérifie.",
            "tournoi_petanque.txt",
            ["Tournoi de pétanque, édition {n}", "début : 15h", "lieu : boulodrome du Lavoir"],
            ["Tournoi de pétanque, édition {n}", "début : 14h", "lieu : boulodrome du Lavoir"],
            "début : 14h",
        ),
    ),
    Case(
        "fr18_fioul_vierzon",
        "command",
        LANGUAGE,
        forms.grep_count(
            "J'aimerais savoir combien de lignes de livraisons_fioul.csv concernent Vierzon."
            " Compte-les avec une commande.",
            "livraisons_fioul.csv",
            "Vierzon",
            ["Bourges", "Issoudun", "Sancerre"],
        ),
    ),
)
