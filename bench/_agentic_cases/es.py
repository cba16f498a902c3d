"""Los casos en español: every kind of the suite, worded as a Spanish speaker would ask."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"
CONFIG = ["[app]", "name = tienda", "port = 80{n}", "debug=true"]
COLOURS = ("verde", "azul", "morado", "naranja", "amarillo", "turquesa")

CASES: tuple[Case, ...] = (
    Case(
        "es_nota",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apunta en nota.txt: recoger el paquete de {name}, código {code}.", "nota.txt"
        ),
    ),
    Case(
        "es_anadir_linea",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade la línea '{line}' al final de tareas.txt.",
            "tareas.txt",
            ["- pagar la luz", "- llamar al banco"],
            "- comprar un regalo para {name}",
        ),
    ),
    Case(
        "es_recordatorio",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de 2 horas que tengo que sacar la basura.",
            2,
            "basura",
            "trash",
            "garbage",
            "rubbish",
        ),
    ),
    Case(
        "es_color_favorito",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que mi color favorito es el {value}.",
            "¿Cuál es mi color favorito?",
            COLOURS,
            stream=True,
        ),
    ),
    Case(
        "es_dia_semana",
        "info",
        LANGUAGE,
        forms.weekday(
            "¿Qué día de la semana es ahora mismo en Ciudad de México?", "America/Mexico_City"
        ),
    ),
    Case(
        "es_leer_valor",
        "info",
        LANGUAGE,
        forms.read_value(
            "¿Cuántos reintentos tiene configurados app.conf?",
            "app.conf",
            "[red]\ntimeout = 30\nreintentos = {n}\n",
        ),
    ),
    Case(
        "es_contar_lineas",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Cuenta las líneas de datos.txt con un comando de shell y dime cuántas son.",
            "datos.txt",
        ),
    ),
    Case(
        "es_traducir",
        "no-tool",
        LANGUAGE,
        forms.words("¿Cómo se dice «mariposa» en inglés?", "butterfly"),
    ),
    Case(
        "es_ultima_linea",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En la última línea de config.ini cambia debug=true por debug=false.",
            "config.ini",
            CONFIG,
            [*CONFIG[:-1], "debug=false"],
        ),
    ),
    Case(
        "es_ojo_pregunta",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Ojo: las notas de la reunión están en reunion.txt. ¿A qué día se ha movido"
            " la reunión?",
            {
                "reunion.txt": "La reunión del equipo se ha movido del martes al viernes."
                " Sala {n}.\n"
            },
            "viernes|friday",
        ),
    ),
    Case(
        "es_resumen",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Resume notas.md en dos frases.",
            {
                "notas.md": "# La semana pasada\nTrasladamos el servidor de copias a Oporto."
                " {name} actualizó las reglas del cortafuegos y escribió las notas de la"
                " versión. Ahorramos {code} euros en alojamiento.\n"
            },
            "oporto|porto|{name}",
        ),
    ),
    Case(
        "es_solo_mostrar",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Enséñame un ejemplo de cómo crearías el archivo borrador.txt con el texto"
            " 'hola {name}', pero no lo hagas de verdad.",
            {},
            r"borrador\.txt",
            "the example naming borrador.txt",
        ),
    ),
    Case(
        "es_anadir_contar",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Ejecuta wc -l lista.txt, luego añade la línea 'peras' a lista.txt y vuelve a"
            " ejecutar wc -l lista.txt. Dime los dos números.",
            "lista.txt",
            "peras",
        ),
    ),
    Case(
        "es_etc",
        "dotted",
        LANGUAGE,
        forms.words(
            "¿Qué significa la abreviatura «etc.»?",
            "etcetera|et cetera|y lo demas|y demas|y otros|y otras|and so on",
        ),
    ),
    Case(
        "es_tras_herramienta",
        "after-tool",
        LANGUAGE,
        forms.after_tools(
            "¿Qué archivos hay en tu carpeta de trabajo?",
            {"fotos.txt": "3 fotos\n", "recetas.md": "# Recetas\n"},
            "Gracias. Otra cosa: ¿cuánto es 12 por 7?",
            "84|ochenta y cuatro",
        ),
    ),
)
