"""Thirty-fourth fresh French cases: written at once for the held-out-34 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "fr"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Aldric", "Mahaut", "Onésime", "Zéphirine", "Théodoric")

#: When the plane lands, Lisbon time: 9 h 05 (9:05, 09h05, 9 heures 05), or in words.
_ATTERRISSAGE = r"(?<![\d.:])0?9\s*(?:[:.h]|heures?)\s*05(?!\d)|neuf heures cinq(?![a-z-])"

#: The commands that show the default gateway (the box's address): ip route (ip r, ip -4 route
#: show default...), route -n (or route alone), netstat -r, routel, nmcli's device show or its
#: ip4.gateway field, or a traceroute (tracepath, mtr) whose first hop is the box.
_PASSERELLE = (
    r"(?<![\w-])ip\s+(?:-\S+\s+)*r(?:o(?:u(?:te?)?)?)?(?![\w-])"
    r"|(?<![\w-])route\s+(?:-\S+\s+)*-[a-z]*n[a-z]*(?![\w-])"
    r"|`(?:sudo\s+)?route`"
    r"|(?<![\w-])routel(?![\w-])"
    r"|(?<![\w-])netstat\s+(?:-\S+\s+)*-[a-z]*r[a-z]*(?![\w-])"
    r"|(?<![\w-])nmcli\s+(?:-\S+\s+)*d(?:ev(?:ice)?)?\s+show(?![\w-])"
    r"|(?<![\w-])nmcli\s[^`]*?ip4\.gateway"
    r"|(?<![\w-])(?:traceroute|tracepath|mtr)\s+(?:-\S+\s+)*[\w.]"
)

CASES: tuple[Case, ...] = (
    Case(
        "fr34_encombrants",
        "action",
        LANGUAGE,
        forms.write_file(
            "Note dans encombrants.txt que le rendez-vous pour le ramassage des encombrants est"
            " pris au nom de {name} et que le numéro de demande est {code}.",
            "encombrants.txt",
        ),
    ),
    Case(
        "fr34_pate_a_crepes",
        "action",
        LANGUAGE,
        forms.remind(
            "Rappelle-moi dans deux heures de sortir la pâte à crêpes du frigo, c'est pour le"
            " goûter des enfants.",
            2,
            "crepe",
            "pate",
            "pancake",
            "pfannkuchen",
            "batter",
            "teig",
            "masa",
            "frigo",
            "クレープ",
        ),
    ),
    Case(
        "fr34_simulateur_aube",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Je me réveille encore dans le noir. Dans simulateur_aube.conf, passe duree_aube de"
            " 20 à 30 ; change la ligne qui existe, n'en rajoute pas une autre.",
            "simulateur_aube.conf",
            ["son = oiseaux", "duree_aube = 20", "numero = {n}"],
            ["son = oiseaux", "duree_aube = 30", "numero = {n}"],
        ),
    ),
    Case(
        "fr34_licence_badminton",
        "recall",
        LANGUAGE,
        forms.remember(
            "Retiens mon numéro de licence au club de badminton : {code}. On me le demande à"
            " chaque tournoi.",
            "C'est quoi déjà, mon numéro de licence de badminton ?",
        ),
    ),
    Case(
        "fr34_vol_lisbonne",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mon vol pour Lisbonne décolle de Paris à 7 h 40 et dure 2 h 25. Comme Lisbonne a"
            " une heure de moins que Paris, à quelle heure locale est-ce que j'atterris ?",
            _ATTERRISSAGE,
            "9 h 05",
            stream=True,
        ),
    ),
    Case(
        "fr34_chambre_italien",
        "no-tool",
        LANGUAGE,
        forms.words(
            "On part à Florence en juin et je compte réserver sur place. Comment on dit « Je"
            " voudrais une chambre pour deux nuits » en italien ?",
            "camera|stanza",
            "due notti|2 notti",
        ),
    ),
    Case(
        "fr34_passerelle",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Je voudrais connaître l'adresse de ma box, c'est-à-dire la passerelle par défaut de"
            " mon PC sous Linux. Quelle commande me la donne ? Montre-la-moi sans la lancer.",
            {"a_faire.txt": "Rappeler l'opérateur, dossier {code}\nPiles x{n}\n"},
            _PASSERELLE,
            "an ip route (or route -n, netstat -rn) command",
        ),
    ),
    Case(
        "fr34_comite_jumelage",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Je n'ai pas pu aller à la réunion du comité de jumelage mardi. Qu'est-ce qu'il y a"
            " dans comite_jumelage.txt ? Et qui s'occupe d'accueillir la délégation allemande ?",
            {
                "comite_jumelage.txt": "Réunion du comité de jumelage, {n} membres présents\n"
                "On a validé le programme de la visite de septembre.\n"
                "La mairie a accepté de prêter la salle polyvalente pour le repas.\n"
                "C'est {name} qui a accepté d'accueillir la délégation allemande à la gare.\n"
                "Les cours d'allemand pour les familles ont repris en janvier.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "fr34_atelier_compost",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dans inscrits_compost.txt, il y a un inscrit par ligne pour l'atelier compostage."
            " Compte les lignes avec wc -l, ajoute « Maëlle Courtois » à la fin, puis recompte"
            " pour que je voie le nouveau total.",
            "inscrits_compost.txt",
            "Maëlle Courtois",
        ),
    ),
    Case(
        "fr34_pleins_essence",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Je note chaque plein d'essence dans pleins.csv avec le nom de la station. Combien"
            " de fois j'ai fait le plein chez Leclerc cette année ? Compte-le avec une commande.",
            "pleins.csv",
            "Leclerc",
            ("Total", "Intermarche", "Auchan", "Carrefour"),
        ),
    ),
)
