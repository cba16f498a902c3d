"""Twenty-ninth fresh French cases: written at once for the held-out-29 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aldebert", "Gaspardine", "Clotaire", "Radegonde", "Wandrille")

#: The names the recall saves, one per run.
ORTHOPHONISTES = ("Célestin", "Ildefonse", "Gratien", "Théodebert")

#: The command that lists archives_photos.tar.gz without unpacking it: tar with a t (list)
#: option or --list, its other options, then the archive.
_TAR = (
    r"(?<![\w-])tar\s+(?:-?[a-z]*t[a-z]*|--list)\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?"
    r"archives_photos\.tar\.gz['\"]?(?![\w.-])"
)

#: When the cake comes out: 16h35 (or 16:35, 16.35).
_SORTIE = r"(?<![\d.:])16\s*[h:.]\s*35(?!\d)"

CASES: tuple[Case, ...] = (
    Case(
        "fr29_arrosage",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans arrosage_plantes.txt que {name} vient arroser mes plantes pendant les"
            " vacances et que le code de l'immeuble est {code}.",
            "arrosage_plantes.txt",
        ),
    ),
    Case(
        "fr29_controle_technique",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans 3 heures d'appeler le garage pour le contrôle technique de la"
            " voiture.",
            3,
            "garage",
            "controle technique",
            "voiture",
            "car",
            "auto",
            "coche",
            "werkstatt",
            "車",
        ),
    ),
    Case(
        "fr29_radiateur",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Il fait beaucoup trop chaud dans le salon et la facture va exploser. Dans"
            " radiateur_salon.conf, passe la consigne de 23 à 20. Corrige la ligne qui existe,"
            " n'en rajoute pas une.",
            "radiateur_salon.conf",
            ["mode = confort", "consigne = 23", "piece_id = {n}"],
            ["mode = confort", "consigne = 20", "piece_id = {n}"],
        ),
    ),
    Case(
        "fr29_orthophoniste",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que l'orthophoniste de mon fils s'appelle {value}, j'oublie son nom à"
            " chaque fois.",
            "Comment s'appelle l'orthophoniste de mon fils, déjà ?",
            ORTHOPHONISTES,
        ),
    ),
    Case(
        "fr29_gateau_four",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "J'ai mis le gâteau au four à 15h50 et il doit cuire 45 minutes. Je le sors à"
            " quelle heure ?",
            _SORTIE,
            "16h35",
        ),
    ),
    Case(
        "fr29_hygge",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Ma collègue danoise parle tout le temps de « hygge ». Ça veut dire quoi, au juste ?",
            "confort|cosy|cozy|cocooning|chaleur|douillet|convivial|bien-etre",
        ),
    ),
    Case(
        "fr29_archives_photos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je peux voir ce qu'il y a dans archives_photos.tar.gz sans l'extraire ?"
            " Donne-moi juste la commande, ne la lance pas.",
            {"courses.txt": "Yaourts x{n}\nRetrait colis {code}\n"},
            _TAR,
            "a tar -tzf archives_photos.tar.gz command",
        ),
    ),
    Case(
        "fr29_fete_ecole",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Ouvre fete_ecole.txt et dis-moi qui apporte le dessert.",
            {
                "fete_ecole.txt": "Fête de l'école, classe {n}\n"
                "Stand crêpes : les CM1\n"
                "Dessert : apporté par {name}\n"
                "Début : 14h dans la cour\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr29_loto",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dans inscrits_loto.txt, il y a une personne par ligne pour le loto du club. Compte"
            " les lignes avec wc -l, ajoute « Odette Lamoricière » à la fin, puis recompte pour"
            " que je voie le nouveau total.",
            "inscrits_loto.txt",
            "Odette Lamoricière",
        ),
    ),
    Case(
        "fr29_sorties_velo",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans sorties_velo.csv, chaque ligne est une sortie avec le col grimpé. Combien de"
            " fois j'ai monté le Galibier cette saison ? Compte-le avec une commande.",
            "sorties_velo.csv",
            "Galibier",
            ("Tourmalet", "Ventoux", "Izoard", "Aubisque"),
        ),
    ),
)
