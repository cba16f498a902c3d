"""Sixteenth fresh Spanish cases: written at once for the held-out-16 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Leovigildo", "Hermenegilda", "Fulgencio", "Casimira", "Bonifacio")

CASES: tuple[Case, ...] = (
    Case(
        "es16_parabrisas",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame en dos horas de que tengo que llamar al del seguro por lo del parabrisas.",
            2,
            "seguro",
            "aseguradora",
            "parabrisas",
            "insurance",
            "insurer",
            "windscreen",
            "windshield",
            "versicherung",
            "windschutz",
            "assurance",
            "assureur",
            "pare-brise",
            "保険",
            "フロントガラス",
        ),
    ),
    Case(
        "es16_autoescuela",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea autoescuela.txt y apunta que mi profesor de prácticas es {name} y que mi"
            " número de expediente es el {code}.",
            "autoescuela.txt",
        ),
    ),
    Case(
        "es16_ventilador_techo",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Cámbiame en ventilador_techo.cfg la velocidad de 3 a 1; modifica la línea que ya"
            " hay, no metas otra.",
            "ventilador_techo.cfg",
            ["velocidad = 3", "luz = on", "temporizador = {n}"],
            ["velocidad = 1", "luz = on", "temporizador = {n}"],
        ),
    ),
    Case(
        "es16_resguardo_taller",
        "recall",
        LANGUAGE,
        forms.remember(
            "Recuerda que el resguardo del taller donde dejé el coche tiene el número {code}.",
            "¿Qué número tenía el resguardo del taller?",
        ),
    ),
    Case(
        "es16_brazos_pulpo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos brazos tiene un pulpo?",
            8,
            "ocho",
            "eight",
            "acht",
            "huit",
            "八",
        ),
    ),
    Case(
        "es16_bolero",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién compuso el Bolero, ese que va creciendo poco a poco?",
            "ravel|ラヴェル|ラベル",
            stream=True,
        ),
    ),
    Case(
        "es16_contar_fotos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando cuento cuántos archivos hay en la carpeta fotos_viaje? Escríbemelo,"
            " pero no lo lances.",
            {"fotos_viaje/playa.jpg": "imagen {n}\n"},
            r"(?<![\w-])ls\s+(?:-\S+\s+)*['\"]?(?:\./)?fotos_viaje/?['\"]?\s*\|\s*wc\s+-l"
            r"|(?<![\w-])find\s+['\"]?(?:\./)?fotos_viaje/?['\"]?\s[^\n|]*\|\s*wc\s+-l",
            "an ls or find command on fotos_viaje piped to wc -l",
        ),
    ),
    Case(
        "es16_concierto_navidad",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Resúmeme concierto_navidad.txt, porfa. ¿Quién tocó el piano al final?",
            {
                "concierto_navidad.txt": "Concierto de Navidad del coro, {n} asistentes\n"
                "El concierto empezó con media hora de retraso.\n"
                "{name} tocó el piano en el villancico final.\n"
                "Después se sirvió chocolate caliente en el atrio.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es16_comedor_social",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Cuenta las líneas de voluntarios_comedor.txt, añade al final a Lucía Ferrer y"
            " cuéntalas otra vez.",
            "voluntarios_comedor.txt",
            "Lucía Ferrer",
        ),
    ),
    Case(
        "es16_devoluciones_albacete",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántas líneas de devoluciones.csv son de Albacete? Cuéntalo con un comando.",
            "devoluciones.csv",
            "Albacete",
            ["Almansa", "Villarrobledo", "Caudete"],
        ),
    ),
)
