"""Cuartos casos nuevos en español: written at once for the held-out-4 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es4_profe_guitarra",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo guitarra.txt y apunta que mi profesora de guitarra se llama {name}"
            " y que el código del portal de su casa es el {code}.",
            "guitarra.txt",
        ),
    ),
    Case(
        "es4_farmacia",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de cuatro horas que llame a la farmacia por lo de la receta.",
            4,
            "farmacia",
            "receta",
            "pharmacy",
            "prescription",
            "apotheke",
            "rezept",
            "pharmacie",
            "ordonnance",
            "薬局",
        ),
    ),
    Case(
        "es4_ferreteria_nombre",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En tienda.ini, al nombre de la tienda le falta «e Hijos»: añádelo al final de esa"
            " línea y no toques nada más.",
            "tienda.ini",
            ["nombre = Ferretería Ruiz", "codigo_postal = 280{n}", "abre = 9:00"],
            ["nombre = Ferretería Ruiz e Hijos", "codigo_postal = 280{n}", "abre = 9:00"],
        ),
    ),
    Case(
        "es4_pasaporte",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate esto: los cuatro últimos números de mi pasaporte son {code}.",
            "¿Cuáles eran los cuatro últimos números de mi pasaporte?",
            stream=True,
        ),
    ),
    Case(
        "es4_siglo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Una pregunta tonta: ¿cuántos años tiene un siglo?",
            100,
            "cien",
            "hundred",
            "hundert",
            "cent",
            "百",
        ),
    ),
    Case(
        "es4_quijote",
        "no-tool",
        LANGUAGE,
        forms.words("¿Quién escribió el Quijote?", "cervantes|セルバンテス"),
    ),
    Case(
        "es4_historial",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo los últimos comandos que he escrito en la terminal?"
            " Enséñamelo, pero no lo ejecutes.",
            {"sesion.txt": "sesión {n}\n"},
            r"\bhistory\b",
            "a history command",
        ),
    ),
    Case(
        "es4_buzon_tercero",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Recuérdame quién vive en el 3.º C, que lo tienes en buzones.txt.",
            {"buzones.txt": "1.º A: Rosa Gil\n2.º B: Andrés Peña\n3.º C: {name} Ortega\n"},
            "{name}",
        ),
    ),
    Case(
        "es4_coro_recuento",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Cuenta las líneas de coro.txt, añade al final a Marina Soto y vuelve a contarlas"
            " para ver que hay una más.",
            "coro.txt",
            "Marina Soto",
        ),
    ),
    Case(
        "es4_partidos_huelva",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántos partidos de partidos.csv se jugaron en Huelva? Cuenta las líneas con grep.",
            "partidos.csv",
            "Huelva",
            ("Jaén", "Almería", "Málaga", "Córdoba"),
        ),
    ),
)
