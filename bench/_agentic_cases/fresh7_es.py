"""Seventh fresh Spanish cases: written at once for the held-out-7 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es7_pollo_congelador",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de hora y media para sacar el pollo del congelador.",
            1.5,
            "pollo",
            "congelador",
            "chicken",
            "hähnchen",
            "poulet",
            "鶏",
            "チキン",
        ),
    ),
    Case(
        "es7_cita_veterinario",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo cita_veterinario.txt donde ponga que la cita del perro en el"
            " veterinario es el jueves, que la veterinaria se llama {name} y que el número de"
            " cita es {code}.",
            "cita_veterinario.txt",
        ),
    ),
    Case(
        "es7_canal_wifi",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En punto_acceso.conf cambia el canal de la wifi del 6 al 11 y no toques las demás"
            " líneas.",
            "punto_acceso.conf",
            ["canal = 6", "ssid = casa_{n}", "banda = 2.4"],
            ["canal = 11", "ssid = casa_{n}", "banda = 2.4"],
        ),
    ),
    Case(
        "es7_matricula_moto",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate, por favor, de que la matrícula de mi moto termina en {code}.",
            "¿En qué números termina la matrícula de mi moto?",
        ),
    ),
    Case(
        "es7_baloncesto",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos jugadores de cada equipo hay a la vez en la pista en un partido de"
            " baloncesto?",
            5,
            "cinco",
            "five",
            "fünf",
            "cinq",
        ),
    ),
    Case(
        "es7_cien_anos_soledad",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién escribió «Cien años de soledad»?",
            "garcia marquez|gabo|ガルシア",
            stream=True,
        ),
    ),
    Case(
        "es7_tamano_descargas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo cuánto ocupa en total la carpeta descargas? Enséñamelo, pero"
            " no lo ejecutes.",
            {"descargas/lista.txt": "archivo {n}\n"},
            r"(?<![a-z])du\s+(?:-\S+\s+)*\S*descargas",
            "a du command",
        ),
    ),
    Case(
        "es7_jubilacion",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Hazme un resumen de lo que pone en jubilacion_pepe.txt.",
            {
                "jubilacion_pepe.txt": "Fiesta de jubilación de Pepe\ninvitados: {n}\n"
                "lugar: el bar de la plaza\nregalo: un reloj\nla colecta la organiza: {name}\n"
            },
            "{name}",
        ),
    ),
    Case(
        "es7_clases_pilates",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Abre clases_pilates.txt, pasa la clase del miércoles de las 20:00 a las 18:45 y"
            " después enséñame otra vez el archivo para comprobar el cambio.",
            "clases_pilates.txt",
            ["lunes: 19:00", "miércoles: 20:00", "plazas: {n}"],
            ["lunes: 19:00", "miércoles: 18:45", "plazas: {n}"],
            "18:45",
        ),
    ),
    Case(
        "es7_socios_huesca",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Usa grep para contar cuántas líneas de socios.csv son de Huesca.",
            "socios.csv",
            "Huesca",
            ("Teruel", "Soria", "Jaca"),
        ),
    ),
)
