"""Eleventh fresh French cases: written at once for the held-out-11 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bérengère", "Hippolyte", "Philomène", "Eustache", "Clotilde")

CASES: tuple[Case, ...] = (
    Case(
        "fr11_carte_bloquee",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans quatre heures d'appeler la banque au sujet de ma carte bloquée.",
            4,
            "banque",
            "bank",
            "banco",
            "銀行",
        ),
    ),
    Case(
        "fr11_ramonage",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crée un fichier ramonage.txt pour noter que le ramoneur passe mercredi matin ; le"
            " contact est {name} et le numéro de facture est {code}.",
            "ramonage.txt",
        ),
    ),
    Case(
        "fr11_ventilation",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans ventilation.conf, passe la vitesse de 2 à 3 sans toucher au reste.",
            "ventilation.conf",
            ["vitesse = 2", "minuterie = {n}", "mode = nuit"],
            ["vitesse = 3", "minuterie = {n}", "mode = nuit"],
        ),
    ),
    Case(
        "fr11_salle_escalade",
        "recall",
        LANGUAGE,
        forms.remember(
            "Note bien que mon numéro d'adhérent à la salle d'escalade est le {code}.",
            "Quel est déjà mon numéro d'adhérent à la salle d'escalade ?",
        ),
    ),
    Case(
        "fr11_pattes_araignee",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de pattes a une araignée ?",
            8,
            "huit",
            "eight",
            "acht",
            "ocho",
            "八本",
        ),
    ),
    Case(
        "fr11_lettre_elise",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Qui a composé la Lettre à Élise ?",
            "beethoven|ベートーヴェン|ベートーベン",
            stream=True,
        ),
    ),
    Case(
        "fr11_date_modif",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande m'indiquerait la date de dernière modification de bilan.txt ?"
            " Montre-la-moi, mais ne l'exécute pas.",
            {"bilan.txt": "Recettes : {n} euros\nDépenses : 40 euros\n"},
            r"(?<![a-z])(?:stat|ls\s+-[a-z]*l[a-z]*|date\s+-r)\s+(?:\S+\s+)*?\S*bilan\.txt",
            "a stat, ls -l or date -r command",
        ),
    ),
    Case(
        "fr11_chorale",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Qu'est-ce qui s'est dit à la dernière réunion de la chorale ? Le compte rendu est"
            " dans chorale.txt.",
            {
                "chorale.txt": "Réunion de la chorale, {n} présents\nNouveau chef de pupitre :"
                " {name}\nConcert de Noël à l'église Saint-Roch\nCotisation inchangée\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr11_tarifs",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Affiche-moi tarifs.txt, passe le tarif enfant de 6 à 5 euros, puis affiche de"
            " nouveau le fichier pour que je vérifie.",
            "tarifs.txt",
            ["adulte : 12 euros", "enfant : 6 euros", "groupe : {n} euros"],
            ["adulte : 12 euros", "enfant : 5 euros", "groupe : {n} euros"],
            "enfant : 5 euros",
        ),
    ),
    Case(
        "fr11_adherents_colmar",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Lance une commande pour compter combien de lignes du fichier adherents.csv"
            " concernent Colmar.",
            "adherents.csv",
            "Colmar",
            ["Metz", "Nancy", "Reims"],
        ),
    ),
)
