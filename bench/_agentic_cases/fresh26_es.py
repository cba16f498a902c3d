"""Twenty-sixth fresh Spanish cases: written at once for the held-out-26 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Crisanto", "Nepomuceno", "Heliodoro", "Eduviges", "Rosendo")

#: The command that removes the empty folder borradores_viejos: rmdir, or rm with a recursive
#: or directory option, then the folder (a trailing slash allowed).
_BORRAR = (
    r"(?<![\w-])(?:rmdir\s+(?:-\S+\s+)*"
    r"|rm\s+(?:-\S+\s+)*(?:-[a-z]*[rd][a-z]*|--recursive|--dir)\s+(?:-\S+\s+)*)"
    r"['\"]?(?:[\w~./-]*/)?borradores_viejos/?['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "es26_verbena",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de verbena_barrio.txt, sin tocar lo que ya hay apuntado.",
            "verbena_barrio.txt",
            ["Farolillos de papel", "Vasos de plástico", "Dos barriles de cerveza"],
            "Piñata que trae {name}",
        ),
    ),
    Case(
        "es26_sastre",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de cuatro horas que pase por el sastre a recoger el traje"
            " arreglado.",
            4,
            "sastre",
            "traje",
            "tailor",
            "suit",
            "schneider",
            "anzug",
            "tailleur",
            "costume",
            "仕立て",
            "スーツ",
        ),
    ),
    Case(
        "es26_impresora",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La impresora saca las copias muy claritas. En impresora.ini cambia densidad_toner"
            " de 3 a 5, pero cambiando esa línea, no añadiendo otra.",
            "impresora.ini",
            ["bandeja = A4", "densidad_toner = 3", "apagado_minutos = {n}"],
            ["bandeja = A4", "densidad_toner = 5", "apagado_minutos = {n}"],
        ),
    ),
    Case(
        "es26_caja_fuerte",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate por mí: el código de la caja fuerte del hotel es {code}.",
            "Oye, ¿qué código le pusimos a la caja fuerte del hotel?",
            stream=True,
        ),
    ),
    Case(
        "es26_academia_ingles",
        "no-tool",
        LANGUAGE,
        forms.number(
            "La academia de inglés de mi hijo cuesta 38 euros al mes y el curso va de septiembre"
            " a junio, ambos incluidos. ¿Cuánto pago en total?",
            380,
            "trescientos ochenta",
            "three hundred and eighty",
            "three hundred eighty",
            "dreihundertachtzig",
            "trois cent quatre-vingts",
            "三百八十",
        ),
    ),
    Case(
        "es26_park_guell",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Este verano vamos a Barcelona con los niños. ¿Quién diseñó el Park Güell?",
            "Gaudí|Gaudi",
        ),
    ),
    Case(
        "es26_borrar_carpeta",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quiero quitar la carpeta borradores_viejos, que ya está vacía. ¿Qué comando uso? No"
            " la borres tú, solo dime cómo.",
            {"notas.txt": "Revisar capítulo {n}\nLlamar a la editorial: {code}\n"},
            _BORRAR,
            "a rmdir borradores_viejos command",
        ),
    ),
    Case(
        "es26_chirigota",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir al último ensayo de la chirigota. ¿Qué pasó según ensayo_chirigota.txt?"
            " ¿Y quién se ofreció a coser los disfraces?",
            {
                "ensayo_chirigota.txt": "Ensayo de la chirigota, local {n}\n"
                "El director trajo las letras nuevas del pasodoble.\n"
                "Se decidió el tipo: saldremos de bomberos jubilados.\n"
                "{name} se ofreció a coser los disfraces.\n"
                "El del bombo llegó tarde y ensayamos sin él.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es26_menu_semana",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Enséñame menu_semana.txt, cambia la cena del jueves de lentejas a merluza al horno"
            " y luego vuelve a enseñármelo para comprobar que ha quedado bien.",
            "menu_semana.txt",
            ["Menú de la semana {n}", "miércoles: tortilla de patatas", "jueves: lentejas"],
            ["Menú de la semana {n}", "miércoles: tortilla de patatas", "jueves: merluza al horno"],
            "jueves: merluza al horno",
        ),
    ),
    Case(
        "es26_firmas_parque",
        "command",
        LANGUAGE,
        forms.count_lines(
            "En firmas_parque.txt hay una firma por línea para pedir que arreglen los columpios"
            " del parque. ¿Cuántas llevamos? Cuéntalas con un comando, no a ojo.",
            "firmas_parque.txt",
        ),
    ),
)
