"""Thirty-first fresh Spanish cases: written at once for the held-out-31 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Sulpicio", "Torcuato", "Clodomiro", "Remigia", "Austreberta")

#: The names the recall saves, one per run.
TUTORES = ("Tiburcio", "Ludovico", "Nicomedes", "Filomeno")

#: The commands that pick one line of participantes_sorteo.txt at random: shuf with its
#: options (-n 1 or none), then the file (or read from it); or sort --random-sort on it.
_SORTEO = r"(?:<\s*)?['\"]?(?:[\w~./-]*/)?participantes_sorteo\.txt['\"]?(?![\w.-])"
_SHUF = (
    r"(?<![\w-])shuf\s+(?:-\S+\s+)*(?:(?:-n\s*1|--head-count=1)\s+(?:-\S+\s+)*)?"
    rf"{_SORTEO}|(?<![\w-])sort\s+(?:-\S+\s+)*--random-sort\s+(?:-\S+\s+)*{_SORTEO}"
)

CASES: tuple[Case, ...] = (
    Case(
        "es31_cosas_pueblo",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de cosas_pueblo.txt, que es lo que me llevo al pueblo en"
            " agosto. Lo demás déjalo como está.",
            "cosas_pueblo.txt",
            ["Ventilador pequeño", "Sábanas de verano", "Repelente de mosquitos"],
            "Devolverle la nevera portátil a {name}",
        ),
    ),
    Case(
        "es31_pasteleria",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de una hora y cuarto que pase por la pastelería a recoger la tarta"
            " del cumple de mi sobrino.",
            1.25,
            "pasteleria",
            "tarta",
            "pastel",
            "cumple",
            "cake",
            "kuchen",
            "torte",
            "gateau",
            "patisserie",
            "ケーキ",
        ),
    ),
    Case(
        "es31_bici_estatica",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "A mi madre se le hace muy dura la bici estática. En bici_estatica.conf baja la"
            " resistencia de 8 a 5; cambia esa línea, no añadas otra.",
            "bici_estatica.conf",
            ["programa = colinas", "resistencia = 8", "serie = {n}"],
            ["programa = colinas", "resistencia = 5", "serie = {n}"],
        ),
    ),
    Case(
        "es31_tutor",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que el tutor de mi hija en el instituto se llama {value}, que tengo"
            " tutoría con él la semana que viene.",
            "¿Cómo se llamaba el tutor de mi hija en el instituto?",
            TUTORES,
        ),
    ),
    Case(
        "es31_manta_ganchillo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Estoy tejiendo una manta de ganchillo a base de cuadrados: 9 de ancho por 12 de"
            " largo. Ya tengo hechos 65. ¿Cuántos cuadrados me faltan?",
            43,
            "cuarenta y tres",
            "forty-three",
            "forty three",
            "dreiundvierzig",
            "quarante-trois",
            "四十三",
            stream=True,
        ),
    ),
    Case(
        "es31_hecha_polvo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi compañera de piso dice que después del turno de noche está hecha polvo. ¿Qué"
            " quiere decir con eso?",
            "cansad|agotad|exhaust|reventad|molid|fatigad|sin energia|sin fuerza|destrozad|rendid",
        ),
    ),
    Case(
        "es31_sorteo",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Para el sorteo de la cesta tengo a todos los participantes en"
            " participantes_sorteo.txt, uno por línea. ¿Con qué comando saco un nombre al azar?"
            " Dímelo sin ejecutarlo, que lo lanzo yo.",
            {"recados.txt": "Sellos x{n}\nRecoger paquete {code}\n"},
            _SHUF,
            "a shuf -n 1 participantes_sorteo.txt command",
        ),
    ),
    Case(
        "es31_despedida",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Abre despedida_soltera.txt y dime quién se encarga de los disfraces.",
            {
                "despedida_soltera.txt": "Despedida de soltera de Marta, grupo {n}\n"
                "Cena: sábado a las 21:30\n"
                "Disfraces: {name}\n"
                "Karaoke: reservado hasta las dos\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es31_fruteria",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme pedido_fruteria.txt, cambia las naranjas de 3 kg a 5 kg y luego vuelve a"
            " leerlo para que vea que se ha guardado bien.",
            "pedido_fruteria.txt",
            ["Pedido de la frutería, cliente {n}", "naranjas: 3 kg", "plátanos: 2 kg"],
            ["Pedido de la frutería, cliente {n}", "naranjas: 5 kg", "plátanos: 2 kg"],
            "naranjas: 5 kg",
        ),
    ),
    Case(
        "es31_guarderia",
        "command",
        LANGUAGE,
        forms.count_lines(
            "En lista_espera_guarderia.txt está cada familia que espera plaza en la guardería,"
            " una por línea. ¿Cuántas hay? Cuenta las líneas con un comando.",
            "lista_espera_guarderia.txt",
        ),
    ),
)
