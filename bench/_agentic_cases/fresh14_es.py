"""Fourteenth fresh Spanish cases: written at once for the held-out-14 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anunciación", "Sinforoso", "Eleuterio", "Visitación", "Desamparados")

CASES: tuple[Case, ...] = (
    Case(
        "es14_macetas",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de cinco horas que tengo que regar las macetas del balcón.",
            5,
            "macetas",
            "regar",
            "balcon",
            "plantas",
            "plants",
            "water",
            "pflanzen",
            "giessen",
            "plantes",
            "arroser",
            "植木",
            "水やり",
        ),
    ),
    Case(
        "es14_mecanico",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apúntame en un archivo nuevo, mecanico.txt, que el coche entra en el taller el"
            " jueves, que el mecánico se llama {name} y que el número del presupuesto es {code}.",
            "mecanico.txt",
        ),
    ),
    Case(
        "es14_depuradora",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En depuradora.conf cambia las horas de filtrado de 6 a 8, modificando esa línea"
            " sin añadir otra.",
            "depuradora.conf",
            ["horas = 6", "modo = auto", "caudal = {n}"],
            ["horas = 8", "modo = auto", "caudal = {n}"],
        ),
    ),
    Case(
        "es14_solicitud_beca",
        "recall",
        LANGUAGE,
        forms.remember(
            "Quiero que recuerdes que el número de solicitud de la beca de mi hija es el {code}.",
            "Oye, ¿cuál era el número de solicitud de la beca de mi hija?",
        ),
    ),
    Case(
        "es14_dias_anio",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos días tiene un año que no es bisiesto?",
            365,
            "trescientos sesenta y cinco",
            "three hundred and sixty-five",
            "three hundred sixty-five",
            "dreihundertfunfundsechzig",
            "trois cent soixante-cinq",
            "trois cents soixante-cinq",
            "三百六十五",
        ),
    ),
    Case(
        "es14_paco_de_lucia",
        "no-tool",
        LANGUAGE,
        forms.words("¿Qué instrumento tocaba Paco de Lucía?", "guitar|gitarre|ギター", stream=True),
    ),
    Case(
        "es14_apagar_equipo",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando apago el ordenador desde la terminal de Linux? Dímelo sin"
            " ejecutarlo, ¿eh?",
            {"pendiente.txt": "Apagar el portátil antes de las {hour}:00\n"},
            r"(?<![\w-])(?:shutdown|poweroff|systemctl\s+poweroff|halt|init\s+0)(?![\w-])",
            "a shutdown or poweroff command",
        ),
    ),
    Case(
        "es14_cata_vinos",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Hazme un resumen de cata_vinos.txt y dime quién trajo el queso.",
            {
                "cata_vinos.txt": "Cata de vinos, {n} botellas abiertas\n"
                "Empezamos a las ocho en casa de Pilar.\n"
                "{name} trajo el queso manchego para acompañar.\n"
                "El tinto de Rioja fue el favorito de casi todos.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es14_socios_huerto",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dime cuántas líneas tiene socios_huerto.txt, agrega «Tomás Vidal» como última línea"
            " y cuéntalas otra vez.",
            "socios_huerto.txt",
            "Tomás Vidal",
        ),
    ),
    Case(
        "es14_avisos_lugo",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Con un comando, cuenta las líneas de avisos_grua.csv que son de Lugo.",
            "avisos_grua.csv",
            "Lugo",
            ["Ferrol", "Vigo", "Monforte"],
        ),
    ),
)
