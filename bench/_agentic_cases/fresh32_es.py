"""Thirty-second fresh Spanish cases: written at once for the held-out-32 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eulalia", "Casimiro", "Petronila", "Evaristo", "Leocadia")

#: The names the recall saves, one per run.
MATRONAS = ("Covadonga", "Inmaculada", "Almudena", "Visitación")

#: The commands that print gastos_comunidad.csv without its first line: tail from line 2
#: (-n +2, +2, --lines=+2) on the file or fed it by cat, sed deleting line 1 (1d) or printing
#: from line 2 (-n '2,$p'), or awk with NR>1 (or NR>=2, NR!=1).
_GASTOS = r"['\"]?(?:[\w~./-]*/)?gastos_comunidad\.csv['\"]?(?![\w.-])"
_TAIL = r"tail\s+(?:-n\s*|--lines[= ])?['\"]?\+2['\"]?"
_SIN_CABECERA = (
    rf"(?<![\w-]){_TAIL}\s+{_GASTOS}"
    rf"|(?<![\w-])cat\s+{_GASTOS}\s*\|\s*{_TAIL}(?!\d)"
    rf"|(?<![\w-])sed\s+(?:-\S+\s+)*['\"]?1\s*d['\"]?\s+{_GASTOS}"
    rf"|(?<![\w-])sed\s+-n\s+['\"]?2\s*,\s*\$\s*p['\"]?\s+{_GASTOS}"
    rf"|(?<![\w-])awk\s+['\"]nr\s*(?:>\s*1|>=\s*2|!=\s*1)\s*(?:\{{[^'\"]*\}})?['\"]\s+{_GASTOS}"
)

CASES: tuple[Case, ...] = (
    Case(
        "es32_acampada",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de lista_acampada.txt, que es lo que tengo que llevar a la"
            " acampada de los scouts. No toques lo demás.",
            "lista_acampada.txt",
            ["Esterilla", "Linterna frontal", "Cantimplora"],
            "Tienda de campaña que nos deja {name}",
        ),
    ),
    Case(
        "es32_brasero",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de dos horas que apague el brasero de la mesa camilla, que luego"
            " me quedo dormida en el sofá y se me olvida.",
            2,
            "brasero",
            "camilla",
            "heater",
            "heizung",
            "heizstrahler",
            "chauffage",
            "radiateur",
            "ヒーター",
            "こたつ",
        ),
    ),
    Case(
        "es32_comedero",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El gato está cogiendo peso. En comedero.conf baja las raciones de 4 a 3; cambia esa"
            " línea y no añadas ninguna nueva.",
            "comedero.conf",
            ["primera_comida = 07:00", "raciones = 4", "dispositivo = {n}"],
            ["primera_comida = 07:00", "raciones = 3", "dispositivo = {n}"],
        ),
    ),
    Case(
        "es32_matrona",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate que la matrona que me lleva el embarazo en el centro de salud se llama"
            " {value}, que siempre se me olvida.",
            "¿Cómo se llamaba mi matrona del centro de salud?",
            MATRONAS,
        ),
    ),
    Case(
        "es32_polvorones",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Estoy envolviendo polvorones para el mercadillo solidario del cole: son 7 bandejas"
            " de 18 y ya llevo 49 envueltos. ¿Cuántos me quedan por envolver?",
            77,
            "setenta y siete",
            "seventy-seven",
            "seventy seven",
            "siebenundsiebzig",
            "soixante-dix-sept",
            "七十七",
            stream=True,
        ),
    ),
    Case(
        "es32_ojo_de_la_cara",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi vecina dice que el arreglo del coche le ha costado un ojo de la cara. ¿Qué quiere"
            " decir?",
            "caro|carisim|dineral|mucho dinero|muchisimo dinero|paston|precio muy alto"
            "|precio altisimo|costosisim|costado muchisimo|costo muchisimo|rinon|expensive",
        ),
    ),
    Case(
        "es32_cabecera_csv",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "En gastos_comunidad.csv la primera línea son los nombres de las columnas. ¿Con qué"
            " comando veo todo el archivo menos esa primera línea? No lo ejecutes, solo dime el"
            " comando.",
            {"notas.txt": "Derrama: {n} euros\nRecibo {code}\n"},
            _SIN_CABECERA,
            "a tail -n +2 gastos_comunidad.csv (or sed 1d) command",
        ),
    ),
    Case(
        "es32_comida_empresa",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Abre comida_empresa.txt y dime quién se ha encargado de reservar el restaurante.",
            {
                "comida_empresa.txt": "Comida de Navidad de la empresa, departamento {n}\n"
                "Fecha: viernes 19 a las 14:00\n"
                "Reserva del restaurante: {name}\n"
                "Amigo invisible: máximo 15 euros\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es32_guardias",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme cuadrante_guardias.txt, cambia la guardia de Marisa del día 12 al día 19 y"
            " luego vuelve a leerlo para que vea que se ha guardado bien.",
            "cuadrante_guardias.txt",
            ["Cuadrante de guardias, planta {n}", "Marisa: día 12", "Javier: día 14"],
            ["Cuadrante de guardias, planta {n}", "Marisa: día 19", "Javier: día 14"],
            "Marisa: día 19",
        ),
    ),
    Case(
        "es32_mus",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Cada línea de parejas_mus.txt es una pareja apuntada al campeonato de mus de las"
            " fiestas. ¿Cuántas parejas hay ya? Cuenta las líneas con un comando, porfa.",
            "parejas_mus.txt",
        ),
    ),
)
