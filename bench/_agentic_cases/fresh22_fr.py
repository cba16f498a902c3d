"""Twenty-second fresh French cases: written at once for the held-out-22 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Barnabé", "Clémence", "Anatole", "Ségolène", "Hippolyte")

#: The commands that print the installed Python's version, as an answer may write them: python
#: or python3 (or py) with --version or -V, or printing sys.version.
_VERSION = "|".join(
    (
        r"(?<![\w-])(?:python(?:3(?:\.\d+)?)?|py)\s+(?:--version|-v)(?![\w-])",
        r"(?<![\w-])python(?:3(?:\.\d+)?)?\s+-c\s+['\"][^'\"\n]*sys\.version",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "fr22_garagiste",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans trois heures d'appeler le garagiste pour savoir si ma voiture"
            " est prête.",
            3,
            "garagiste",
            "garage",
            "voiture",
            "mechanic",
            "werkstatt",
            "mecánico",
            "mecanico",
            "taller",
            "coche",
            "整備",
            "車",
        ),
    ),
    Case(
        "fr22_kermesse",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » à la fin de benevoles_kermesse.txt, sans toucher au reste de la"
            " liste.",
            "benevoles_kermesse.txt",
            ["Stand gâteaux : Mme Roux", "Pêche à la ligne : M. Blanc", "Buvette : les Martin"],
            "Tombola : {name}",
        ),
    ),
    Case(
        "fr22_aquarium",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Les poissons ont l'air d'avoir froid. Dans aquarium.cfg, monte temperature de 24"
            " à 26 : modifie la ligne qui existe, n'en rajoute pas une autre.",
            "aquarium.cfg",
            ["bac = salon", "temperature = 24", "filtre = {n}"],
            ["bac = salon", "temperature = 26", "filtre = {n}"],
        ),
    ),
    Case(
        "fr22_casier_piscine",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde ça en mémoire : mon casier à la piscine, c'est le numéro {code}.",
            "C'était quoi déjà, le numéro de mon casier à la piscine ?",
        ),
    ),
    Case(
        "fr22_trajet_litres",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Ma voiture consomme 6 litres aux 100 km. Pour un trajet de 450 km, il me faut"
            " combien de litres ?",
            27,
            "vingt-sept",
            "vingt sept",
            "twenty-seven",
            "twenty seven",
            "siebenundzwanzig",
            "veintisiete",
            "二十七",
        ),
    ),
    Case(
        "fr22_bon_appetit",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Comment on dit « bon appétit » en allemand ?",
            "guten appetit|mahlzeit",
        ),
    ),
    Case(
        "fr22_version_python",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je vois quelle version de Python est installée sur ma machine ? Montre-moi"
            " juste la commande, ne la lance pas.",
            {"calcul_budget.py": "print({n} * 12)\n"},
            _VERSION,
            "a python3 --version command",
        ),
    ),
    Case(
        "fr22_chantier",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer reunion_chantier.txt ? Qui devait rappeler l'électricien ?",
            {
                "reunion_chantier.txt": "Réunion de chantier n° {n}\n"
                "La dalle du garage a été coulée la semaine dernière.\n"
                "Le plombier a signalé un retard de livraison.\n"
                "{name} a promis de rappeler l'électricien avant vendredi.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr22_covoiturage",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Affiche-moi covoiturage.txt, remplace le départ de 7h30 par 7h15, puis relis-moi"
            " le fichier pour que je vérifie.",
            "covoiturage.txt",
            ["Covoiturage pour le lycée, voiture {n}", "départ : 7h30", "conducteur : Hervé"],
            ["Covoiturage pour le lycée, voiture {n}", "départ : 7h15", "conducteur : Hervé"],
            "7h15",
        ),
    ),
    Case(
        "fr22_judo",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Il y a combien de lignes dans inscriptions_judo.txt ? Compte-les avec une commande.",
            "inscriptions_judo.txt",
        ),
    ),
)
