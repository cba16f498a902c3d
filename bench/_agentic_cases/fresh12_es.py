"""Twelfth fresh Spanish cases: written at once for the held-out-12 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Maximiliano", "Inmaculada", "Bartolomé", "Encarnación", "Leopoldina")

CASES: tuple[Case, ...] = (
    Case(
        "es12_abono_transporte",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de hora y media que recargue el abono transporte.",
            1.5,
            "abono",
            "transporte",
            "travel pass",
            "bus pass",
            "fahrkarte",
            "monatskarte",
            "navigo",
            "titre de transport",
            "定期券",
            "交通",
        ),
    ),
    Case(
        "es12_cristalero",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo llamado cristalero.txt que diga que el cristalero viene el jueves"
            " a cambiar el cristal roto de la cocina, que hay que preguntar por {name} y que el"
            " presupuesto es el número {code}.",
            "cristalero.txt",
        ),
    ),
    Case(
        "es12_bascula",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En bascula.conf cambia la unidad de lb a kg y no toques nada más.",
            "bascula.conf",
            ["unidad = lb", "usuario = {name}", "memoria = {n}"],
            ["unidad = kg", "usuario = {name}", "memoria = {n}"],
        ),
    ),
    Case(
        "es12_contrato_agua",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que mi número de contrato con la compañía del agua es el {code}.",
            "¿Cuál era mi número de contrato del agua?",
        ),
    ),
    Case(
        "es12_ukelele",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántas cuerdas tiene un ukelele?",
            4,
            "cuatro",
            "four",
            "vier",
            "quatre",
            "四本",
        ),
    ),
    Case(
        "es12_joven_perla",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién pintó «La joven de la perla»?",
            "vermeer|フェルメール",
            stream=True,
        ),
    ),
    Case(
        "es12_permisos_claves",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo cambio los permisos de claves.txt para que solo yo pueda leerlo y"
            " escribirlo? Enséñame el comando, pero no lo ejecutes.",
            {"claves.txt": "router {code}\n"},
            r"(?<![a-z])chmod\s+(?:0?600|u=rw,go=|u=rw,g=,o=)\s+(?:\./)?claves\.txt",
            "a chmod 600 command on claves.txt",
        ),
    ),
    Case(
        "es12_prestamos_cocina",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Mira prestamos_cocina.txt y dime quién tiene la fuente de porcelana.",
            {
                "prestamos_cocina.txt": "Préstamos de cocina {n}\nOlla exprés: Remedios\n"
                "Fuente de porcelana: {name}\nJarra de cristal: Tomás\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es12_tallas_equipacion",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lee tallas_equipacion.txt, cambia la talla del capitán de M a XL y vuelve a leerlo"
            " para comprobar que ha quedado bien.",
            "tallas_equipacion.txt",
            ["Equipación temporada {n}", "portero: L", "capitán: M"],
            ["Equipación temporada {n}", "portero: L", "capitán: XL"],
            "capitán: XL",
        ),
    ),
    Case(
        "es12_averias_albacete",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Con un comando, cuenta cuántas líneas de averias.csv son de Albacete.",
            "averias.csv",
            "Albacete",
            ["Soria", "Segovia", "Lugo"],
        ),
    ),
)
