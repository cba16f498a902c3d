"""Fifth fresh Spanish cases: written at once for the held-out-5 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"
#: Names for the question about a file: none of them hides in an everyday Spanish word.
NOMBRES = ("Rodrigo", "Begoña", "Marisa", "Jacinto", "Leire", "Fermín")

CASES: tuple[Case, ...] = (
    Case(
        "es5_paquete_correos",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de dos horas que pase por Correos a recoger un paquete.",
            2,
            "paquete",
            "correos",
            "parcel",
            "package",
            "paket",
            "colis",
            "荷物",
            "郵便",
        ),
    ),
    Case(
        "es5_reforma_cocina",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo llamado reforma_cocina.txt y apunta que el presupuesto de la"
            " cocina lo lleva {name} y que el número de expediente es el {code}.",
            "reforma_cocina.txt",
        ),
    ),
    Case(
        "es5_zoom_mapa",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En mapas.ini, súmale dos niveles al zoom: ahora está en 12 y tiene que quedar en"
            " 14. No toques lo demás.",
            "mapas.ini",
            ["mapa = peninsula", "zoom = 12", "cache_mb = {n}"],
            ["mapa = peninsula", "zoom = 14", "cache_mb = {n}"],
        ),
    ),
    Case(
        "es5_pedido_cortinas",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate, por favor: el pedido de las cortinas es el número {code}.",
            "¿Qué número tenía el pedido de las cortinas?",
        ),
    ),
    Case(
        "es5_meses_31",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos meses del año tienen 31 días?",
            7,
            "siete",
            "seven",
            "sieben",
            "sept",
            "七",
        ),
    ),
    Case(
        "es5_machu_picchu",
        "no-tool",
        LANGUAGE,
        forms.words("¿En qué país está Machu Picchu?", "peru|ペルー"),
    ),
    Case(
        "es5_fecha_sistema",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo la fecha y la hora del sistema en la terminal? Solo dímelo,"
            " no lo ejecutes.",
            {"equipo.txt": "portátil, {n} GB libres\n"},
            r"\b(date|timedatectl)\b",
            "a date command",
        ),
    ),
    Case(
        "es5_turno_escalera",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Mira limpieza.txt y dime a quién le toca limpiar la escalera esta semana.",
            {"limpieza.txt": "Portal {n}\nescalera: {name}\npatio: 2ºA\ncubos de basura: 3ºB\n"},
            "{name}",
            names=NOMBRES,
        ),
    ),
    Case(
        "es5_cambio_aula",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Enséñame clase.txt, cambia el aula 12 por la 14 y luego vuelve a enseñármelo para"
            " comprobar que ha quedado bien.",
            "clase.txt",
            ["asignatura: historia", "aula: 12", "alumnos: {n}"],
            ["asignatura: historia", "aula: 14", "alumnos: {n}"],
            "aula: 14",
        ),
    ),
    Case(
        "es5_reservas_zamora",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántas de las reservas de reservas.csv son de Zamora? Cuéntalas con grep.",
            "reservas.csv",
            "Zamora",
            ("Soria", "Lugo", "Teruel"),
        ),
    ),
)
