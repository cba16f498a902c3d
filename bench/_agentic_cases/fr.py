"""Les cas en français : every kind of the suite, worded as a French speaker would ask."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"
CONFIG = ["[app]", "name = boutique", "port = 80{n}", "debug=true"]

CASES: tuple[Case, ...] = (
    Case(
        "fr_memo",
        "action",
        LANGUAGE,
        forms.write_file(
            "Écris dans memo.txt : récupérer le colis de {name}, code de retrait {code}.",
            "memo.txt",
        ),
    ),
    Case(
        "fr_ajout_ligne",
        "action",
        LANGUAGE,
        forms.append_line(
            "Ajoute la ligne « {line} » à la fin de courses.txt.",
            "courses.txt",
            ["- pain", "- lait"],
            "- un cadeau pour {name}",
        ),
    ),
    Case(
        "fr_rappel",
        "action",
        LANGUAGE,
        forms.remind("Rappelle-moi dans 2 heures d'appeler le plombier.", 2, "plombier", "plumber"),
    ),
    Case(
        "fr_code_velo",
        "recall",
        LANGUAGE,
        forms.remember(
            "Souviens-toi que le code de mon antivol de vélo est {code}.",
            "C'est quoi déjà, le code de mon antivol de vélo ?",
        ),
    ),
    Case(
        "fr_jour_montreal",
        "info",
        LANGUAGE,
        forms.weekday(
            "On est quel jour de la semaine à Montréal en ce moment ?",
            "America/Toronto",
            stream=True,
        ),
    ),
    Case(
        "fr_lire_timeout",
        "info",
        LANGUAGE,
        forms.read_value(
            "Quelle est la valeur de timeout dans app.conf ?",
            "app.conf",
            "[serveur]\nhote = 0.0.0.0\ntimeout = {n}\n",
        ),
    ),
    Case(
        "fr_compter_lignes",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Compte les lignes de donnees.txt avec une commande shell et dis-moi combien"
            " il y en a.",
            "donnees.txt",
        ),
    ),
    Case(
        "fr_traduire",
        "no-tool",
        LANGUAGE,
        forms.words("Comment dit-on « papillon » en anglais ?", "butterfly"),
    ),
    Case(
        "fr_derniere_ligne",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans la dernière ligne de config.ini, remplace debug=true par debug=false.",
            "config.ini",
            CONFIG,
            [*CONFIG[:-1], "debug=false"],
        ),
    ),
    Case(
        "fr_a_noter",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "À noter : le compte rendu de la réunion est dans reunion.txt. À quel jour la"
            " réunion a-t-elle été déplacée ?",
            {
                "reunion.txt": "La réunion d'équipe a été déplacée du mardi au mercredi."
                " Salle {n}.\n"
            },
            "mercredi|wednesday",
        ),
    ),
    Case(
        "fr_resume",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume notes.md en deux phrases.",
            {
                "notes.md": "# La semaine dernière\nNous avons déménagé le serveur de"
                " sauvegarde à Lyon. {name} a mis à jour les règles du pare-feu et a écrit"
                " les notes de version. Nous avons économisé {code} euros d'hébergement.\n"
            },
            "lyon|{name}",
        ),
    ),
    Case(
        "fr_montrer",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Montre-moi quelle commande supprimerait tous les fichiers .log d'ici, sans"
            " l'exécuter.",
            {"app.log": "demarrage\n", "erreurs.log": "erreur {n}\n", "garder.txt": "ok\n"},
            r"\brm\b|-delete\b",
            "an rm or find -delete command",
        ),
    ),
    Case(
        "fr_relire",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis mode.conf, remplace mode=lent par mode=rapide, puis relis le fichier et"
            " montre-moi ce qu'il contient maintenant.",
            "mode.conf",
            ["mode=lent", "niveau={n}"],
            ["mode=rapide", "niveau={n}"],
            "mode=rapide",
        ),
    ),
    Case(
        "fr_cad",
        "dotted",
        LANGUAGE,
        forms.words("Que veut dire « c.-à-d. » ?", "c'est-a-dire|c'est a dire|that is"),
    ),
    Case(
        "fr_apres_outil",
        "after-tool",
        LANGUAGE,
        forms.after_tools(
            "Quelle heure est-il à Paris ?",
            {},
            "Merci ! Et comment dit-on « bonne nuit » en espagnol ?",
            "buenas noches",
        ),
    ),
)
