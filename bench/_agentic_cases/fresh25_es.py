"""Twenty-fifth fresh Spanish cases: written at once for the held-out-25 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Sagrario", "Anselmo", "Covadonga", "Macarena", "Pancracio")

#: The names the recall saves, one per run.
PEDIATRAS = ("Leandro", "Gervasio", "Teodoro", "Arsenio")

#: The landing time, 23:40 plus 3 hours 35 minutes: 03:15 (3:15, 3.15, 3h15 or "las tres y
#: cuarto"), not part of a longer time such as 13:15.
_ATERRIZAJE = r"(?<![\d:.])0?3\s*[:.h]\s*15(?!\d)|tres y cuarto"

#: The command that unpacks fotos_boda.tar.gz: tar with an extract option (x in a bundle, or
#: --extract), other options around it, then the archive (after -f or --file= or not).
_TAR = (
    r"(?<![\w-])tar\s+(?:-{0,2}[a-z=-]+\s+)*?(?:-?[a-z]*x[a-z]*|--extract)\s+"
    r"(?:-{0,2}[a-z=-]+\s+)*(?:--file=)?['\"]?(?:[\w~./-]*/)?fotos_boda\.tar\.gz['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "es25_notaria",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apúntame en cita_notaria.txt que la firma del piso es con el notario {name} y que"
            " el número de expediente es el {code}, que luego no me acuerdo.",
            "cita_notaria.txt",
        ),
    ),
    Case(
        "es25_recibo_agua",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de media hora que tengo que pagar el recibo del agua, que vence"
            " hoy.",
            0.5,
            "recibo",
            "agua",
            "factura",
            "water",
            "bill",
            "wasser",
            "rechnung",
            "facture",
            "eau",
            "水道",
        ),
    ),
    Case(
        "es25_lavavajillas",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El lavavajillas deja los vasos con manchas. En lavavajillas.conf cambia"
            " dosis_abrillantador de 2 a 4, pero modificando esa línea, no añadiendo otra.",
            "lavavajillas.conf",
            ["programa = eco", "dosis_abrillantador = 2", "inicio_diferido = {n}"],
            ["programa = eco", "dosis_abrillantador = 4", "inicio_diferido = {n}"],
        ),
    ),
    Case(
        "es25_pediatra",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate que el pediatra nuevo de los niños se llama {value}, que siempre se me"
            " olvida.",
            "Oye, ¿cómo se llamaba el pediatra nuevo de los niños?",
            PEDIATRAS,
        ),
    ),
    Case(
        "es25_hora_aterrizaje",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Si mi vuelo sale a las 23:40 y dura 3 horas y 35 minutos, ¿a qué hora aterrizo?"
            " Sin contar cambios de zona horaria.",
            _ATERRIZAJE,
            "03:15",
        ),
    ),
    Case(
        "es25_capital_australia",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Una duda tonta: ¿cuál es la capital de Australia? Siempre digo Sídney y creo que no"
            " es.",
            "Canberra",
            stream=True,
        ),
    ),
    Case(
        "es25_descomprimir_boda",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Me han pasado las fotos de la boda en fotos_boda.tar.gz. ¿Con qué comando lo"
            " descomprimo? Dímelo sin ejecutarlo, que prefiero hacerlo yo.",
            {"pendientes.txt": "Imprimir {n} fotos para la abuela\nPagar al fotógrafo: {code}\n"},
            _TAR,
            "a tar -xzf fotos_boda.tar.gz command",
        ),
    ),
    Case(
        "es25_turnos_piso",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Échale un ojo a turnos_piso.txt y dime a quién le toca fregar los platos esta semana.",
            {
                "turnos_piso.txt": "Turnos del piso, semana {n}\n"
                "Barrer y fregar el suelo: Lucía\n"
                "Fregar los platos: {name}\n"
                "Bajar la basura: Marcos\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es25_excursion",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene apuntados_excursion.txt? Luego añade «Maite Urrutia» al final"
            " y vuelve a contarlas, para ver que ha subido una.",
            "apuntados_excursion.txt",
            "Maite Urrutia",
        ),
    ),
    Case(
        "es25_repartos_alcobendas",
        "command",
        LANGUAGE,
        forms.grep_count(
            "En repartos.csv apunto cada reparto en una línea. ¿Cuántos fueron a Alcobendas?"
            " Cuéntalo con un comando, por favor.",
            "repartos.csv",
            "Alcobendas",
            ["Coslada", "Pinto", "Parla"],
        ),
    ),
)
