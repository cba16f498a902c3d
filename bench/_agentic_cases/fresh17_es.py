"""Seventeenth fresh Spanish cases: written at once for the held-out-17 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Anunciación", "Bernardino", "Fructuoso", "Florencio", "Eulogio")

CASES: tuple[Case, ...] = (
    Case(
        "es17_panaderia",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame en media hora que baje a por el pan antes de que cierre la panadería.",
            0.5,
            "pan",
            "bread",
            "bakery",
            "brot",
            "backer",
            "pain",
            "boulang",
            "パン",
        ),
    ),
    Case(
        "es17_peluqueria_perro",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea peluqueria_perro.txt con esto: la peluquera del perro es {name} y el código de"
            " cliente es {code}.",
            "peluqueria_perro.txt",
        ),
    ),
    Case(
        "es17_cafetera",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En cafetera.ini la dureza del agua está en 2 y tiene que ser 3. Cambia esa línea;"
            " no añadas otra.",
            "cafetera.ini",
            ["dureza_agua = 2", "taza = grande", "apagado_min = {n}"],
            ["dureza_agua = 3", "taza = grande", "apagado_min = {n}"],
        ),
    ),
    Case(
        "es17_casa_rural",
        "recall",
        LANGUAGE,
        forms.remember(
            "Oye, quédate con esto: la reserva de la casa rural de Semana Santa es la número"
            " {code}.",
            "¿Qué número tenía la reserva de la casa rural?",
        ),
    ),
    Case(
        "es17_vuelta_completa",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos grados tiene una vuelta completa?",
            360,
            "trescientos sesenta",
            "three hundred and sixty",
            "three hundred sixty",
            "dreihundertsechzig",
            "trois cent soixante",
            "三百六十",
        ),
    ),
    Case(
        "es17_alhambra",
        "no-tool",
        LANGUAGE,
        forms.words("¿En qué ciudad está la Alhambra?", "granada|グラナダ", stream=True),
    ),
    Case(
        "es17_alias_ll",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Qué tengo que escribir para crear un alias ll que haga ls -la? Dímelo, pero no lo"
            " ejecutes tú.",
            {"bashrc_notas.txt": "Cambios en la terminal, versión {n}\n"},
            r"(?<![\w-])alias\s+ll\s*=\s*['\"]ls\s+(?:-la|-al|-l\s+-a|-a\s+-l)['\"]",
            "an alias ll='ls -la' line",
        ),
    ),
    Case(
        "es17_boda_javi",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Hazme un resumen de boda_javi.txt y dime quién hizo el brindis.",
            {
                "boda_javi.txt": "Boda de mi primo Javi, {n} invitados\n"
                "La ceremonia fue en la ermita del pueblo.\n"
                "{name} hizo un brindis que emocionó a todo el mundo.\n"
                "La fiesta terminó a las cuatro de la mañana.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es17_turnos_barra",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas hay en turnos_barra_fiestas.txt? Mete a Iker Goñi al final y"
            " vuelve a contar.",
            "turnos_barra_fiestas.txt",
            "Iker Goñi",
        ),
    ),
    Case(
        "es17_ambulancias_getafe",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Usa un comando para contar cuántas líneas de salidas_ambulancia.csv son de Getafe.",
            "salidas_ambulancia.csv",
            "Getafe",
            ["Leganes", "Fuenlabrada", "Alcorcon"],
        ),
    ),
)
