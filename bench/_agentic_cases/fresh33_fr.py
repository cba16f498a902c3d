"""Thirty-third fresh French cases: written at once for the held-out-33 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Léopoldine", "Hippolyte", "Gontran", "Euphrasie", "Ambroisine")

#: The names the recall saves, one per run.
PROFS = ("Barnabé", "Gaspard", "Anselme", "Théophile")

#: The commands that add the line to the end of pense_bete.txt from the terminal (compared
#: lower case, without accents): echo or printf of it (quoted or not) appended with >>, or
#: piped into tee -a (--append); or sed -i with $a.
_PENSE_BETE = r"['\"]?(?:[\w~./-]*/)?pense_bete\.txt['\"]?(?![\w.-])"
_LIGNE = r"['\"]?racheter des ampoules(?:\\n)?['\"]?"
_PRINT = rf"(?<![\w-])(?:echo|printf)\s+(?:-\S+\s+)*(?:['\"]%s\\n['\"]\s+)?{_LIGNE}"
_AJOUT = (
    rf"{_PRINT}\s*>>\s*{_PENSE_BETE}"
    rf"|{_PRINT}\s*\|\s*(?:sudo\s+)?tee\s+(?:-\S+\s+)*(?:-[a-z]*a[a-z]*|--append)\s+"
    rf"(?:-\S+\s+)*{_PENSE_BETE}"
    rf"|(?<![\w-])sed\s+(?:-\S+\s+)*['\"]\$\s*a\\?\s*racheter des ampoules['\"]\s+{_PENSE_BETE}"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr33_liste_naissance",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » à la fin de liste_naissance.txt, c'est la liste de naissance"
            " pour le bébé de ma sœur. Ne touche pas au reste.",
            "liste_naissance.txt",
            ["Body en coton bio 3 mois", "Tapis d'éveil", "Thermomètre de bain"],
            "Gigoteuse offerte par {name}",
        ),
    ),
    Case(
        "fr33_collyre",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans six heures de remettre mes gouttes dans les yeux, l'ophtalmo a"
            " bien insisté pour que je n'oublie pas.",
            6,
            "goutte",
            "collyre",
            "yeux",
            "oeil",
            "ophtalmo",
            "eye",
            "drops",
            "tropfen",
            "gotas",
            "colirio",
            "目薬",
        ),
    ),
    Case(
        "fr33_imprimante_3d",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Mes impressions 3D se décollent du plateau. Dans imprimante3d.conf, monte"
            " temperature_plateau de 55 à 60 ; modifie la ligne existante, n'en ajoute pas une"
            " nouvelle.",
            "imprimante3d.conf",
            ["filament = PLA", "temperature_plateau = 55", "numero_serie = {n}"],
            ["filament = PLA", "temperature_plateau = 60", "numero_serie = {n}"],
        ),
    ),
    Case(
        "fr33_prof_trompette",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le nouveau prof de trompette de ma fille s'appelle {value}, je confonds"
            " toujours son nom avec celui de l'ancien.",
            "Comment il s'appelle déjà, le prof de trompette de ma fille ?",
            PROFS,
        ),
    ),
    Case(
        "fr33_natation",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Ma fille a trois entraînements de natation par semaine, d'une heure et demie"
            " chacun. Ça fait combien d'heures sur une saison de 36 semaines ?",
            162,
            "cent soixante-deux",
            "cent soixante deux",
            "one hundred sixty-two",
            "one hundred and sixty-two",
            "hundertzweiundsechzig",
            "ciento sesenta y dos",
            "百六十二",
        ),
    ),
    Case(
        "fr33_tomber_dans_les_pommes",
        "no-tool",
        LANGUAGE,
        forms.words(
            "D'après ma tante, ma grand-mère est tombée dans les pommes hier à la pharmacie."
            " Ça veut dire quoi, exactement ?",
            "evanoui|perdu connaissance|perte de connaissance|perdre connaissance"
            "|perd connaissance|malaise|syncope|tourne de l'oeil|tourne de l'œil"
            "|perdu conscience|inconsciente|faint",
        ),
    ),
    Case(
        "fr33_pense_bete",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment ajouter la ligne « Racheter des ampoules » à la fin de pense_bete.txt"
            " directement dans le terminal, sans ouvrir d'éditeur ? Montre-moi juste la"
            " commande, ne la lance pas.",
            {"courses.txt": "Farine x{n}\nColis {code}\n"},
            _AJOUT,
            "an echo 'Racheter des ampoules' >> pense_bete.txt command",
        ),
    ),
    Case(
        "fr33_sortie_peche",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Ouvre sortie_peche.txt et dis-moi qui emmène les enfants jusqu'au lac samedi.",
            {
                "sortie_peche.txt": "Sortie pêche du club, groupe {n}\n"
                "Rendez-vous : samedi à 6h30 devant la mairie\n"
                "Transport des enfants jusqu'au lac : {name}\n"
                "Cannes et épuisettes : fournies par le club\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr33_trail",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis-moi inscription_trail.txt, passe la distance de 12 km à 23 km, puis relis-le-moi"
            " pour vérifier que c'est bien enregistré.",
            "inscription_trail.txt",
            ["Trail des Crêtes, dossard {n}", "distance: 12 km", "ravitaillement: 2"],
            ["Trail des Crêtes, dossard {n}", "distance: 23 km", "ravitaillement: 2"],
            "distance: 23 km",
        ),
    ),
    Case(
        "fr33_candidatures",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Chaque ligne de candidatures_stage.txt est une entreprise à qui mon fils a envoyé"
            " sa demande de stage de troisième. Ça fait combien ? Compte les lignes avec une"
            " commande, s'il te plaît.",
            "candidatures_stage.txt",
        ),
    ),
)
