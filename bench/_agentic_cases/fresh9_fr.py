"""Ninth fresh French cases: written at once for the held-out-9 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr9_electricien",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier electricien.txt pour noter que l'électricien passe mardi matin"
            " refaire le tableau, qu'il s'appelle {name} et que le numéro du devis est {code}.",
            "electricien.txt",
        ),
    ),
    Case(
        "fr9_opticien",
        "action",
        LANGUAGE,
        forms.remind(
            "Tu peux me rappeler dans une heure d'aller chercher mes lunettes chez l'opticien ?",
            1,
            "opticien",
            "lunettes",
            "optician",
            "glasses",
            "optiker",
            "brille",
            "óptica",
            "gafas",
            "眼鏡",
            "メガネ",
        ),
    ),
    Case(
        "fr9_poele_granules",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans poele.conf, passe la puissance de 3 à 4, sans toucher au reste.",
            "poele.conf",
            ["puissance = 3", "consigne = 20", "minuterie = {n}"],
            ["puissance = 4", "consigne = 20", "minuterie = {n}"],
        ),
    ),
    Case(
        "fr9_reservation_camping",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens que le numéro de ma réservation au camping est le {code}.",
            "C'était quoi, déjà, le numéro de ma réservation au camping ?",
        ),
    ),
    Case(
        "fr9_zeros_million",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de zéros y a-t-il dans un million ?",
            6,
            "six",
            "sechs",
            "seis",
            "六個",
            "六つ",
        ),
    ),
    Case(
        "fr9_petit_prince",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Qui a écrit Le Petit Prince ?",
            "exupery|テグジュペリ",
            stream=True,
        ),
    ),
    Case(
        "fr9_trier_noms",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Comment trier les lignes de noms.txt par ordre alphabétique ? Donne-moi juste la"
            " commande, ne la lance pas.",
            {"noms.txt": "Rémi\nAgathe\nLoïc {n}\n"},
            r"sort\s+(?:-[a-qs-z]+\s+)*\S*noms\.txt"
            r"|cat\s+\S*noms\.txt\s*\|\s*sort(?!\s+-\S*r)",
            "a sort command",
        ),
    ),
    Case(
        "fr9_fete_voisins",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Tu peux me résumer ce que raconte fete_voisins.txt ?",
            {
                "fete_voisins.txt": "Fête des voisins, immeuble {n}\nNous étions une trentaine"
                " dans la cour.\nC'est {name} qui a apporté le barbecue.\nLa soirée s'est"
                " terminée vers minuit sous la pluie.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "fr9_salles_reunion",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Dans salles.txt, change la salle de la réunion projet de B12 à C04, puis relis-moi"
            " le fichier pour vérifier.",
            "salles.txt",
            ["réunion projet : B12", "formation : A03", "pot de départ : cafétéria, table {n}"],
            ["réunion projet : C04", "formation : A03", "pot de départ : cafétéria, table {n}"],
            "réunion projet : C04",
        ),
    ),
    Case(
        "fr9_signalements",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Compte avec wc le nombre de lignes de signalements.log, s'il te plaît.",
            "signalements.log",
        ),
    ),
)
