"""Deuxièmes nouveaux cas en français : written at once for the held-out-2 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

CASES: tuple[Case, ...] = (
    Case(
        "fr2_bricolage",
        "action",
        LANGUAGE,
        forms.append_line(
            "Tu peux ajouter « {line} » tout en bas de bricolage.txt ?",
            "bricolage.txt",
            ["vis de 4 mm", "colle à bois", "papier de verre"],
            "{n} chevilles",
        ),
    ),
    Case(
        "fr2_babysitter",
        "action",
        LANGUAGE,
        forms.write_file(
            "Écris dans babysitter.txt : {name} garde les enfants samedi soir, code de"
            " l'immeuble {code}.",
            "babysitter.txt",
        ),
    ),
    Case(
        "fr2_theme_sombre",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans affichage.conf, passe le thème de clair à sombre, sans toucher au reste.",
            "affichage.conf",
            ["theme = clair", "taille = {n}", "police = serif"],
            ["theme = sombre", "taille = {n}", "police = serif"],
        ),
    ),
    Case(
        "fr2_badge_bureau",
        "recall",
        LANGUAGE,
        forms.remember(
            "Garde ça en mémoire : mon badge pour entrer au bureau a le numéro {code}.",
            "C'est quoi déjà le numéro de mon badge du bureau ?",
        ),
    ),
    Case(
        "fr2_heures_semaine",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien y a-t-il d'heures dans une semaine ?",
            168,
            "cent soixante-huit",
            stream=True,
        ),
    ),
    Case(
        "fr2_parapluie",
        "no-tool",
        LANGUAGE,
        forms.words("Comment on dit « parapluie » en allemand ?", "regenschirm"),
    ),
    Case(
        "fr2_vieux_logs",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quelle commande trouverait les fichiers .log vieux de plus de 7 jours dans ce"
            " dossier ? Écris-la simplement, sans la lancer ni rien supprimer.",
            {"vieux.log": "erreur {n}\n", "recent.log": "ok\n"},
            r"\bfind\b.*-mtime",
            "a find -mtime command",
        ),
    ),
    Case(
        "fr2_compte_rendu",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi compte_rendu.txt en deux phrases, s'il te plaît.",
            {
                "compte_rendu.txt": "Le conseil s'est réuni jeudi soir. {name} a présenté"
                " le budget de l'association, qui a été adopté par {n} voix contre 3. La fête"
                " de quartier a été repoussée à septembre faute de bénévoles.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "fr2_horaires_relire",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Ouvre horaires.txt, remplace l'ouverture de 9h par 8h30, puis relis le fichier"
            " pour vérifier que c'est bon.",
            "horaires.txt",
            ["ouverture: 9h", "fermeture: 19h", "caisse: {n}"],
            ["ouverture: 8h30", "fermeture: 19h", "caisse: {n}"],
            "8h30",
        ),
    ),
    Case(
        "fr2_inscrits",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Il y a combien de lignes dans inscrits.txt ? Regarde avec wc -l.",
            "inscrits.txt",
        ),
    ),
)
