"""Twenty-third fresh French cases: written at once for the held-out-23 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Théophile", "Bérénice", "Aurélien", "Philomène", "Maximilien")

#: The folder photos_bapteme and the USB stick, as an answer may write them (with a path or
#: quoted; "clé" is normalized to "cle").
_PHOTOS = r"['\"]?(?:[\w~./-]*/)?photos_bapteme/?['\"]?"
_CLE = r"['\"]?/media/cle(?![\w.-])"
#: The recursive (or archive) option of cp and rsync, alone or among others.
_RECURSIF = r"(?:-(?!-)[a-z]*[ra][a-z]*|--recursive|--archive)"

#: The commands that copy the whole folder photos_bapteme onto the stick, as an answer may
#: write them: cp or rsync with a recursive option.
_COPIE = "|".join(
    (
        rf"(?<![\w-])cp\s+(?:-\S+\s+)*{_RECURSIF}\s+(?:-\S+\s+)*{_PHOTOS}\s+{_CLE}",
        rf"(?<![\w-])rsync\s+(?:-\S+\s+)*{_RECURSIF}\s+(?:-\S+\s+)*{_PHOTOS}\s+{_CLE}",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "fr23_nounou",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier nounou.txt où tu notes que la nounou des petits s'appelle {name} et"
            " que son numéro d'agrément est le {code}.",
            "nounou.txt",
        ),
    ),
    Case(
        "fr23_courses_anniversaire",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute « {line} » tout en bas de courses_anniversaire.txt, sans rien effacer de ce"
            " qu'il y a déjà.",
            "courses_anniversaire.txt",
            ["Bougies : 8", "Ballons de baudruche", "Jus de pomme : 3 bouteilles"],
            "Gâteau à récupérer chez {name}",
        ),
    ),
    Case(
        "fr23_veilleuse",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La veilleuse empêche le petit de dormir tellement elle éclaire. Dans veilleuse.cfg,"
            " baisse luminosite de 80 à 30 : change la ligne qui existe, n'en ajoute pas.",
            "veilleuse.cfg",
            ["chambre = Louis", "luminosite = 80", "prise = {n}"],
            ["chambre = Louis", "luminosite = 30", "prise = {n}"],
        ),
    ),
    Case(
        "fr23_club_bridge",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens ça pour moi : le numéro d'adhérente de ma mère au club de bridge, c'est le"
            " {code}.",
            "Tu te rappelles le numéro d'adhérente de ma mère au bridge ?",
        ),
    ),
    Case(
        "fr23_argent_poche",
        "no-tool",
        LANGUAGE,
        forms.number(
            "J'ai trois enfants et chacun a 4 € d'argent de poche par semaine. Sur 4 semaines,"
            " ça me fait combien en tout ?",
            48,
            "quarante-huit",
            "quarante huit",
            "forty-eight",
            "forty eight",
            "achtundvierzig",
            "cuarenta y ocho",
            "四十八",
        ),
    ),
    Case(
        "fr23_citrouille",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Ma fille prépare Halloween en anglais à l'école : comment on dit « citrouille » en"
            " anglais ?",
            "pumpkin",
        ),
    ),
    Case(
        "fr23_cle_usb",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment je copie tout le dossier photos_bapteme sur ma clé USB, qui est montée dans"
            " /media/cle ? Montre-moi juste la commande, ne fais rien toi-même.",
            {
                "photos_bapteme/eglise.jpg": "JPEG {code}\n",
                "photos_bapteme/repas/dessert.jpg": "JPEG\n",
            },
            _COPIE,
            "a cp -r photos_bapteme /media/cle command",
        ),
    ),
    Case(
        "fr23_rando",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu me résumes carnet_rando.txt ? Et qui a porté le sac de Léa dans la montée ?",
            {
                "carnet_rando.txt": "Randonnée dans les Vosges, étape {n}\n"
                "On est partis du col à 8 h dans le brouillard.\n"
                "{name} a porté le sac de Léa pendant toute la montée.\n"
                "Le refuge était complet, on a dormi sous la tente.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr23_telethon",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Il y a combien de lignes dans benevoles_telethon.txt en ce moment ? Ajoute ensuite"
            " « Odile Mercier » tout en bas, puis recompte.",
            "benevoles_telethon.txt",
            "Odile Mercier",
        ),
    ),
    Case(
        "fr23_sapins_chamonix",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Dans livraisons_sapins.csv, chaque ligne est une livraison de sapins. Combien sont"
            " parties à Chamonix ? Compte-les avec une commande.",
            "livraisons_sapins.csv",
            "Chamonix",
            ["Annemasse", "Megève", "Sallanches"],
        ),
    ),
)
