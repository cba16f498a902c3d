"""Eleventh fresh Spanish cases: written at once for the held-out-11 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Encarnación", "Bartolomé", "Remedios", "Segismundo", "Fulgencio")

CASES: tuple[Case, ...] = (
    Case(
        "es11_gestoria",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de una hora que llame a la gestoría por lo de la declaración de"
            " la renta.",
            1,
            "gestor",
            "declaración",
            "renta",
            "tax",
            "steuer",
            "impôt",
            "確定申告",
            "税",
        ),
    ),
    Case(
        "es11_cerrajero",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo cerrajero.txt con una nota: el cerrajero viene el lunes a cambiar"
            " la cerradura; el contacto es {name} y el número de presupuesto es {code}.",
            "cerrajero.txt",
        ),
    ),
    Case(
        "es11_termo",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En termo.conf baja la temperatura del agua de 60 a 55 grados y deja lo demás igual.",
            "termo.conf",
            ["temperatura = 60", "modo = eco", "antilegionela = {n}"],
            ["temperatura = 55", "modo = eco", "antilegionela = {n}"],
        ),
    ),
    Case(
        "es11_alarma_tienda",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que la clave de la alarma de la tienda es {code}, ¿vale?",
            "¿Cuál era la clave de la alarma de la tienda?",
        ),
    ),
    Case(
        "es11_pentagono",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos lados tiene un pentágono?",
            5,
            "cinco",
            "five",
            "funf",
            "fuenf",
            "cinq",
            "五つ",
        ),
    ),
    Case(
        "es11_casa_espiritus",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién escribió La casa de los espíritus?",
            "allende|アジェンデ",
            stream=True,
        ),
    ),
    Case(
        "es11_buscar_urgente",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Dime qué comando usaría para buscar la palabra «urgente» en pendientes.txt, pero"
            " no lo ejecutes.",
            {
                "pendientes.txt": "Pagar la luz\nurgente: renovar el DNI\nComprar {n} sellos\n"
                "Llamar al banco\n"
            },
            r"(?<![a-z])grep\s+(?:-\S+\s+)*['\"]?urgente['\"]?\s+(?:-\S+\s+)*\S*pendientes\.txt",
            "a grep command",
        ),
    ),
    Case(
        "es11_entrenamiento",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Qué se habló en el último entrenamiento del equipo? Tengo las notas en"
            " entrenamiento.txt.",
            {
                "entrenamiento.txt": "Entrenamiento alevines, {n} niños\nPortero titular: {name}\n"
                "Se cambia el horario al jueves\nFaltan balones nuevos\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es11_comida_navidad",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Cuenta las líneas de comida_navidad.txt, añade 'Marta Quiroga' al final y vuelve"
            " a contarlas.",
            "comida_navidad.txt",
            "Marta Quiroga",
        ),
    ),
    Case(
        "es11_asistencia",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Ejecuta un comando para saber cuántas líneas tiene asistencia.log.",
            "asistencia.log",
        ),
    ),
)
