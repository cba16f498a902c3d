"""Sixth fresh Spanish cases: written at once for the held-out-6 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es6_lasana_horno",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de dos horas que saque la lasaña del horno.",
            2,
            "lasaña",
            "lasana",
            "lasagna",
            "lasagne",
            "horno",
            "oven",
            "ofen",
            "four",
            "ラザニア",
            "オーブン",
        ),
    ),
    Case(
        "es6_furgoneta_mudanza",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo llamado furgoneta.txt con una nota: la furgoneta de la mudanza"
            " está reservada a nombre de {name} y el código de reserva es {code}.",
            "furgoneta.txt",
        ),
    ),
    Case(
        "es6_perfil_pantalla",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En pantalla.cfg, añade _noche al final del nombre del perfil (ahora pone solo"
            " lectura). Las demás líneas déjalas como están.",
            "pantalla.cfg",
            ["perfil = lectura", "brillo = {n}", "auto = no"],
            ["perfil = lectura_noche", "brillo = {n}", "auto = no"],
        ),
    ),
    Case(
        "es6_socio_tenis",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que mi número de socio del club de tenis es el {code}.",
            "¿Cuál era mi número de socio del club de tenis?",
        ),
    ),
    Case(
        "es6_jugadores_futbol",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos jugadores tiene en el campo cada equipo en un partido de fútbol?",
            11,
            "once",
            "eleven",
            "elf",
            "onze",
            "十一",
        ),
    ),
    Case(
        "es6_guernica",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién pintó el Guernica?",
            "picasso|ピカソ",
            stream=True,
        ),
    ),
    Case(
        "es6_direccion_ip",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo la dirección IP de mi ordenador? Enséñamelo sin ejecutarlo,"
            " por favor.",
            {"red.txt": "router: 192.168.1.1\ndispositivos conectados: {n}\n"},
            r"\bip\s+(-\w+\s+)?a(ddr(ess)?)?\b|\bifconfig\b|\bhostname\s+-I\b",
            "ip addr",
        ),
    ),
    Case(
        "es6_turnos_piscina",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Mira turnos_piscina.txt y dime quién hace de socorrista el domingo.",
            {
                "turnos_piscina.txt": "Piscina municipal, temporada de verano\n"
                "socorrista domingo: {name}\ntaquillas libres: {n}\n"
                "apertura: 11:00\n"
            },
            "{name}",
        ),
    ),
    Case(
        "es6_cierre_ferreteria",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Enséñame horario.txt, cambia la hora de cierre de 20:00 a 21:30 y después"
            " vuelve a enseñármelo para comprobarlo.",
            "horario.txt",
            ["tienda: ferretería", "cierre: 20:00", "empleados: {n}"],
            ["tienda: ferretería", "cierre: 21:30", "empleados: {n}"],
            "21:30",
        ),
    ),
    Case(
        "es6_envios_burgos",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántas líneas de encargos.csv son de Burgos? Cuéntalas con grep.",
            "encargos.csv",
            "Burgos",
            ("Cuenca", "Soria", "Teruel"),
        ),
    ),
)
