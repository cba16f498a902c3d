"""Twenty-ninth fresh Spanish cases: written at once for the held-out-29 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Rigoberta", "Sinforosa", "Gaudencio", "Casiano", "Pascasio")

#: The names the recall saves, one per run.
PELUQUERAS = ("Eulalia", "Candelaria", "Primitiva", "Tránsito")

#: The command that shows the first lines of socios_club.csv: head (with or without a count,
#: -n 10, -10 or --lines=10), then the file.
_HEAD = (
    r"(?<![\w-])head\s+(?:(?:-n\s*|--lines=)?-?\d+\s+)?['\"]?(?:[\w~./-]*/)?socios_club\.csv"
    r"['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "es29_botiquin",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de botiquin.txt, sin tocar nada de lo que ya está apuntado.",
            "botiquin.txt",
            ["Tiritas", "Termómetro", "Suero fisiológico"],
            "Crema para las picaduras (la trae {name})",
        ),
    ),
    Case(
        "es29_pan_horno",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de 45 minutos para sacar el pan del horno, que siempre se me quema.",
            0.75,
            "pan",
            "horno",
            "bread",
            "oven",
            "brot",
            "ofen",
            "pain",
            "four",
            "パン",
            "オーブン",
        ),
    ),
    Case(
        "es29_purificador",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El purificador de aire hace un ruido que no me deja dormir. En purificador_aire.conf"
            " cambia velocidad de 5 a 2; corrige esa línea, no añadas otra.",
            "purificador_aire.conf",
            ["modo = auto", "velocidad = 5", "filtro_dias = {n}"],
            ["modo = auto", "velocidad = 2", "filtro_dias = {n}"],
        ),
    ),
    Case(
        "es29_peluquera",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que mi peluquera nueva se llama {value}, que siempre se me olvida.",
            "¿Cómo se llamaba mi peluquera nueva?",
            PELUQUERAS,
        ),
    ),
    Case(
        "es29_huevos",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Compré 4 docenas de huevos para la fiesta del cole y se me rompieron 7 por el"
            " camino. ¿Cuántos me quedan enteros?",
            41,
            "cuarenta y uno",
            "forty-one",
            "forty one",
            "einundvierzig",
            "quarante et un",
            "quarante-et-un",
            "四十一",
            stream=True,
        ),
    ),
    Case(
        "es29_carpe_diem",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi sobrino se ha tatuado «carpe diem» en el brazo. ¿Eso qué quiere decir?",
            "dia|momento|presente",
        ),
    ),
    Case(
        "es29_primeras_lineas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo solo las primeras líneas de socios_club.csv? Dímelo sin"
            " ejecutarlo, que lo pruebo yo.",
            {"recados.txt": "Sellos x{n}\nRecogida {code}\n"},
            _HEAD,
            "a head socios_club.csv command",
        ),
    ),
    Case(
        "es29_reunion_vecinos",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir a la reunión de vecinos. ¿Qué pone en acta_vecinos.txt? ¿Y quién se"
            " encarga al final de las llaves del trastero?",
            {
                "acta_vecinos.txt": "Acta de la reunión de vecinos número {n}\n"
                "Se pintará el portal en primavera.\n"
                "El ascensor tendrá revisión el día 12.\n"
                "De las llaves del trastero se encarga {name}.\n"
                "La próxima reunión será en junio.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es29_piscina",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lee horario_piscina.txt, cambia la natación de los niños del lunes al miércoles y"
            " luego vuelve a leerlo para ver que se ha guardado bien.",
            "horario_piscina.txt",
            ["Piscina municipal, abono {n}", "natación niños: lunes", "aquagym: viernes"],
            ["Piscina municipal, abono {n}", "natación niños: miércoles", "aquagym: viernes"],
            "natación niños: miércoles",
        ),
    ),
    Case(
        "es29_torneo_mus",
        "command",
        LANGUAGE,
        forms.count_lines(
            "En apuntados_mus.txt está cada pareja del torneo de mus de las fiestas en una línea."
            " ¿Cuántas se han apuntado ya? Cuéntalo con un comando, porfa.",
            "apuntados_mus.txt",
        ),
    ),
)
