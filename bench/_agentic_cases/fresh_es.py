"""Casos nuevos en español: written at once after both halves had been read for failures, so
no rule was tuned on them; split by the committed seed like every case."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"
DOGS = ("Toby", "Canela", "Rocky", "Lola", "Thor", "Nala")

CASES: tuple[Case, ...] = (
    Case(
        "es_nombre_perro",
        "recall",
        LANGUAGE,
        forms.remember(
            "Que no se te olvide: mi perro se llama {value}.",
            "Oye, ¿cómo se llamaba mi perro?",
            DOGS,
        ),
    ),
    Case(
        "es_hexagono",
        "no-tool",
        LANGUAGE,
        forms.number("¿Cuántos lados tiene un hexágono?", 6, "seis", "six", "六"),
    ),
    Case(
        "es_luna",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Una duda rápida: ¿en qué año llegó el ser humano a la Luna por primera vez?", 1969
        ),
    ),
    Case(
        "es_renombrar_mostrar",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo renombrarías informe.txt a informe_final.txt desde la terminal? Solo"
            " enséñame el comando, no lo ejecutes.",
            {"informe.txt": "Ventas del trimestre: {code} euros\n"},
            r"informe_final\.txt",
            "a command naming informe_final.txt",
        ),
    ),
    Case(
        "es_https_delante",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En sitio.ini, añade https:// delante de la dirección de la línea web, que ahora"
            " no lo lleva.",
            "sitio.ini",
            ["[sitio]", "nombre = panaderia", "web = panaderia-{n}.es"],
            ["[sitio]", "nombre = panaderia", "web = https://panaderia-{n}.es"],
        ),
    ),
    Case(
        "es_acta",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿De qué va acta.txt? Resúmemelo en una frase, porfa.",
            {
                "acta.txt": "Reunión de vecinos, 12 de febrero.\nSe votó pintar la fachada en"
                " primavera. {name} presentó tres presupuestos y se eligió el más barato,"
                " de {code} euros. El ascensor se revisará en abril.\n"
            },
            "fachada|facade|{name}|{code}",
        ),
    ),
    Case(
        "es_eeuu",
        "dotted",
        LANGUAGE,
        forms.words("¿Qué significa «EE. UU.»?", "estados unidos|united states"),
    ),
    Case(
        "es_pedidos_sevilla",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Necesito saber cuántos pedidos de pedidos.csv son de Sevilla: cuenta las líneas"
            " con grep y dime el número.",
            "pedidos.csv",
            "Sevilla",
            ("Bilbao", "Valencia", "Murcia", "Zaragoza"),
        ),
    ),
)
