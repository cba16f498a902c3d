"""Nineteenth fresh Spanish cases: written at once for the held-out-19 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anacleto", "Eufrasia", "Bonifacio", "Leocadia", "Fulgencio")

CASES: tuple[Case, ...] = (
    Case(
        "es19_cocido",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de tres cuartos de hora que tengo que apagar el fuego del cocido.",
            0.75,
            "cocido",
            "fuego",
            "olla",
            "stew",
            "stove",
            "eintopf",
            "herd",
            "pot-au-feu",
            "ragout",
            "feu",
            "煮込み",
            "鍋",
            "火",
        ),
    ),
    Case(
        "es19_paella",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» como última línea de paella_domingo.txt y deja lo demás como está.",
            "paella_domingo.txt",
            ["arroz bomba: un kilo", "garrofó y judía verde", "azafrán"],
            "el conejo lo trae {name}",
        ),
    ),
    Case(
        "es19_camara_portal",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La cámara del portal guarda 30 días de grabaciones y con 14 me sobra. Cambia ese"
            " valor en camara_portal.ini: modifica la línea que ya hay, sin añadir otra.",
            "camara_portal.ini",
            ["dias_grabacion = 30", "deteccion = alta", "canal = {n}"],
            ["dias_grabacion = 14", "deteccion = alta", "canal = {n}"],
        ),
    ),
    Case(
        "es19_seguridad_social",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate que mi número de la Seguridad Social acaba en {code}, que siempre se me"
            " olvida.",
            "¿En qué acababa mi número de la Seguridad Social?",
        ),
    ),
    Case(
        "es19_croquetas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Si reparto 96 croquetas a partes iguales entre 8 personas, ¿cuántas le tocan a"
            " cada una?",
            12,
            "doce",
            "twelve",
            "zwolf",
            "douze",
            "十二",
        ),
    ),
    Case(
        "es19_cumpleanos_ingles",
        "no-tool",
        LANGUAGE,
        forms.words("¿Cómo se dice «cumpleaños» en inglés?", "birthday", stream=True),
    ),
    Case(
        "es19_arbol_carpetas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo en forma de árbol todo lo que hay dentro de la carpeta"
            " proyecto_reforma? Dímelo solo, no lo ejecutes.",
            {"proyecto_reforma/presupuesto.txt": "Presupuesto de la reforma: {n} mil euros\n"},
            r"(?<![\w-])tree\s+(?:-\S+\s+)*['\"]?(?:\./)?proyecto_reforma(?![\w-])"
            r"|proyecto_reforma['\"]?\s*(?:&&|;)\s*tree(?![\w-])",
            "a tree proyecto_reforma command",
        ),
    ),
    Case(
        "es19_belen_viviente",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Abre reparto_belen.txt y dime quién hace de San José este año.",
            {
                "reparto_belen.txt": "Belén viviente de la parroquia, {n} figurantes\n"
                "Virgen María: Lucía\nSan José: {name}\nPastor: el hijo del panadero\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es19_padel",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme reserva_padel.txt, cambia la pista 3 por la 5 y luego vuelve a leérmelo para"
            " comprobar que está bien.",
            "reserva_padel.txt",
            ["Reserva de pádel, socio {n}", "pista: 3", "hora: 19:30"],
            ["Reserva de pádel, socio {n}", "pista: 5", "hora: 19:30"],
            "pista: 5",
        ),
    ),
    Case(
        "es19_gruas_talavera",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántas líneas de servicios_grua.csv son de Talavera? Cuéntalas con un comando.",
            "servicios_grua.csv",
            "Talavera",
            ["Toledo", "Illescas", "Torrijos"],
        ),
    ),
)
