"""Thirtieth fresh Spanish cases: written at once for the held-out-30 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Telesforo", "Ruperto", "Ciriaco", "Sisebuto", "Recaredo")

#: The commands that copy the whole folder apuntes_oposiciones to apuntes_copia: cp with a
#: recursive option (-r, -R, -a ...), or rsync; the folder, then the copy.
_CARPETAS = (
    r"['\"]?(?:\./)?apuntes_oposiciones/?['\"]?\s+['\"]?(?:\./)?apuntes_copia/?['\"]?(?![\w.-])"
)
_CP = (
    r"(?<![\w-])cp\s+(?:-\S+\s+)*(?:-[a-z]*[ra][a-z]*|--recursive|--archive)\s+(?:-\S+\s+)*"
    rf"{_CARPETAS}|(?<![\w-])rsync\s+(?:-\S+\s+)*{_CARPETAS}"
)

#: The next feed: 18:15 (or 6:15, 18h15), or in words.
_TOMA = r"(?<![\d.:])(?:18|6)\s*[:.h]\s*15(?!\d)|seis y cuarto"

CASES: tuple[Case, ...] = (
    Case(
        "es30_taller_bici",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apúntame en taller_bici.txt que he dejado la bici en el taller de {name} y que el"
            " número del resguardo es {code}.",
            "taller_bici.txt",
        ),
    ),
    Case(
        "es30_canarios",
        "action",
        LANGUAGE,
        forms.remind(
            "¿Me recuerdas dentro de 4 horas que les cambie el agua a los canarios? Con este"
            " calor se les acaba enseguida.",
            4,
            "canario",
            "agua",
            "pajaro",
            "jaula",
            "bird",
            "canar",
            "vogel",
            "kanarien",
            "oiseau",
            "鳥",
            "カナリア",
        ),
    ),
    Case(
        "es30_patinete",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Me han dicho que por el carril bici el patinete no puede ir a más de 20. En"
            " patinete.conf cambia velocidad_max de 25 a 20; modifica esa línea, no metas otra.",
            "patinete.conf",
            ["modo = sport", "velocidad_max = 25", "bateria_id = {n}"],
            ["modo = sport", "velocidad_max = 20", "bateria_id = {n}"],
        ),
    ),
    Case(
        "es30_consigna",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que el código de la consigna de la estación es {code}, que vuelvo a"
            " por la maleta esta noche.",
            "¿Cuál era el código de la consigna de la estación?",
        ),
    ),
    Case(
        "es30_biberon",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mi bebé toma el biberón cada tres horas y media y la última toma fue a las 14:45."
            " ¿A qué hora le toca la siguiente?",
            _TOMA,
            "18:15",
            stream=True,
        ),
    ),
    Case(
        "es30_en_las_nubes",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi jefe dice que siempre estoy en las nubes. ¿Eso qué significa exactamente?",
            "distra|despist|atencion|ensimism|absort",
        ),
    ),
    Case(
        "es30_copia_apuntes",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo hago una copia de la carpeta apuntes_oposiciones entera, con todo lo que tiene"
            " dentro, en apuntes_copia? Solo dime el comando, no lo ejecutes.",
            {"lista_compra.txt": "Leche x{n}\nPedido {code}\n"},
            _CP,
            "a cp -r apuntes_oposiciones apuntes_copia command",
        ),
    ),
    Case(
        "es30_cronica_partido",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir al partido de mi hijo el sábado. ¿Qué cuenta cronica_partido.txt? ¿Y"
            " quién marcó el gol del empate?",
            {
                "cronica_partido.txt": "Crónica del partido, jornada {n}\n"
                "Empezamos perdiendo por un gol en la primera parte.\n"
                "El portero paró un penalti justo antes del descanso.\n"
                "{name} marcó el gol del empate en el minuto 80.\n"
                "Al final quedamos uno a uno y los chavales salieron contentos.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es30_taller_ceramica",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "En inscritos_ceramica.txt hay una persona por línea para el taller de cerámica."
            " Cuenta las líneas con wc -l, añade «Maripaz Echeverría» al final y vuelve a"
            " contarlas para ver el total nuevo.",
            "inscritos_ceramica.txt",
            "Maripaz Echeverría",
        ),
    ),
    Case(
        "es30_mercadona",
        "command",
        LANGUAGE,
        forms.grep_count(
            "En compras_mes.csv cada línea es una compra con la tienda y el importe. ¿Cuántas"
            " veces he ido a Mercadona este mes? Cuéntalo con un comando.",
            "compras_mes.csv",
            "Mercadona",
            ("Lidl", "Carrefour", "Eroski", "Alcampo"),
        ),
    ),
)
