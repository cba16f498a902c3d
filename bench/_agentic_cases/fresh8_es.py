"""Eighth fresh Spanish cases: written at once for the held-out-8 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es8_llamar_abuela",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de una hora que tengo que llamar a mi abuela.",
            1,
            "abuela",
            "grandma",
            "grandmother",
            "großmutter",
            "grand-mère",
            "mamie",
            "祖母",
            "おばあ",
        ),
    ),
    Case(
        "es8_tecnico_lavadora",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea el archivo tecnico_lavadora.txt y apunta que el técnico de la lavadora viene"
            " el viernes por la mañana, que se llama {name} y que el número de aviso es {code}.",
            "tecnico_lavadora.txt",
        ),
    ),
    Case(
        "es8_letra_ebook",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En ebook.cfg sube el tamaño de letra de 12 a 16 y no toques nada más.",
            "ebook.cfg",
            ["fuente = serif", "tamano_letra = 12", "brillo = {n}"],
            ["fuente = serif", "tamano_letra = 16", "brillo = {n}"],
        ),
    ),
    Case(
        "es8_tarjeta_sanitaria",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate, por favor, de que mi tarjeta sanitaria termina en {code}.",
            "¿En qué números termina mi tarjeta sanitaria?",
        ),
    ),
    Case(
        "es8_octogono",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos lados tiene un octógono?",
            8,
            "ocho",
            "eight",
            "acht",
            "huit",
            "八",
        ),
    ),
    Case(
        "es8_meninas",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién pintó Las Meninas?",
            "velázquez|velazquez|ベラスケス",
            stream=True,
        ),
    ),
    Case(
        "es8_version_node",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo qué versión de Node tengo instalada? Solo dímelo, no lo"
            " ejecutes.",
            {"package.json": '{{"name": "tienda", "version": "1.{n}.0"}}\n'},
            r"node(?:js)?\s+(?:--version|-v)(?![\w-])",
            "a node --version command",
        ),
    ),
    Case(
        "es8_obra_bano",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me haces un resumen rápido de lo que pone en obra_bano.txt?",
            {
                "obra_bano.txt": "Reforma del baño, semana {n}\nfontanero: {name}\n"
                "pendiente: alicatar la ducha\nentrega prevista: a finales de mes\n"
            },
            "{name}",
        ),
    ),
    Case(
        "es8_voluntarios_mercadillo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene voluntarios_mercadillo.txt? Después añade «Rocío Benítez»"
            " al final y vuelve a contarlas.",
            "voluntarios_mercadillo.txt",
            "Rocío Benítez",
        ),
    ),
    Case(
        "es8_incidencias_palencia",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Usa grep para contar cuántas líneas de incidencias.csv son de Palencia.",
            "incidencias.csv",
            "Palencia",
            ("Segovia", "Ávila", "Valladolid"),
        ),
    ),
)
