"""Seventeenth fresh French cases: written at once for the held-out-17 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Athanase", "Capucine", "Gontran", "Honorine", "Séraphin")

CASES: tuple[Case, ...] = (
    Case(
        "fr17_vaccin_chat",
        "action",
        LANGUAGE,
        forms.remind(
            "Fais-moi penser dans deux heures à appeler le véto pour le vaccin du chat.",
            2,
            "veto",
            "veterinaire",
            "vaccin",
            "vet",
            "vaccine",
            "tierarzt",
            "impf",
            "veterinario",
            "vacuna",
            "獣医",
            "ワクチン",
            "予防接種",
        ),
    ),
    Case(
        "fr17_menu_reveillon",
        "action",
        LANGUAGE,
        forms.append_line(
            "Rajoute « {line} » à la fin de menu_reveillon.txt.",
            "menu_reveillon.txt",
            ["huîtres", "chapon aux marrons", "bûche au chocolat"],
            "foie gras apporté par {name}",
        ),
    ),
    Case(
        "fr17_velo_appartement",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Dans velo_appartement.cfg, mets la résistance à 5 au lieu de 8 ; corrige juste cette"
            " ligne, pas de ligne en plus.",
            "velo_appartement.cfg",
            ["resistance = 8", "programme = colline", "duree = {n}"],
            ["resistance = 5", "programme = colline", "duree = {n}"],
        ),
    ),
    Case(
        "fr17_carte_sim",
        "recall",
        LANGUAGE,
        forms.remember(
            "Souviens-toi pour moi : le code PIN de la nouvelle carte SIM de ma fille, c'est"
            " {code}.",
            "C'était quoi, le code PIN de la SIM de ma fille ?",
        ),
    ),
    Case(
        "fr17_alexandrin",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Combien de pieds compte un alexandrin ?",
            12,
            "douze",
            "twelve",
            "zwolf",
            "doce",
            "十二",
        ),
    ),
    Case(
        "fr17_sommet_alpes",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Quel est le plus haut sommet des Alpes ?",
            "mont blanc|mont-blanc|montblanc|monte bianco|モンブラン",
            stream=True,
        ),
    ),
    Case(
        "fr17_extinction_auto",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je veux que l'ordinateur s'éteigne tout seul dans 30 minutes. Quelle commande je"
            " tape ? Donne-la-moi, mais surtout ne l'exécute pas.",
            {"film.txt": "Film du soir, épisode {n}\n"},
            r"(?<![\w-])shutdown\s+(?:-\S+\s+)*\+30(?!\d)"
            r"|(?<![\w-])sleep\s+(?:1800s?|30m)\s*(?:&&|;)\s*(?:sudo\s+)?"
            r"(?:shutdown|poweroff|systemctl\s+poweroff)"
            r"|(?<![\w-])(?:shutdown|poweroff)[^\n|]*\|\s*(?:sudo\s+)?at\s+now\s*\+\s*30\s*min"
            r"|(?<![\w-])systemd-run\s+(?:-\S+\s+)*--on-active=(?:30m|30min|1800s?)\s+"
            r"[^\n]*?(?:shutdown|poweroff)",
            "a shutdown +30 (or sleep 1800, at or systemd-run, then poweroff) command",
        ),
    ),
    Case(
        "fr17_vendanges",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Résume-moi vendanges.txt, et dis-moi qui conduisait le tracteur.",
            {
                "vendanges.txt": "Vendanges chez les Martin, {n} vendangeurs\n"
                "On a commencé à l'aube dans la parcelle du haut.\n"
                "{name} a conduit le tracteur toute la journée.\n"
                "Le soir, tout le monde a partagé une grande paella.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr17_match_handball",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lis match_handball.txt, remplace le gymnase Jean-Moulin par le gymnase Pasteur,"
            " et relis le fichier ensuite pour contrôle.",
            "match_handball.txt",
            [
                "Match des moins de 13 ans, journée {n}",
                "lieu : gymnase Jean-Moulin",
                "heure : 10h30",
            ],
            ["Match des moins de 13 ans, journée {n}", "lieu : gymnase Pasteur", "heure : 10h30"],
            "gymnase Pasteur",
        ),
    ),
    Case(
        "fr17_kayak_ruoms",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Combien de lignes de locations_kayak.csv concernent Ruoms ? Utilise une commande"
            " pour compter.",
            "locations_kayak.csv",
            "Ruoms",
            ["Aubenas", "Vallon", "Privas"],
        ),
    ),
)
