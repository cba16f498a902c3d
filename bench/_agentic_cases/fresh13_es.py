"""Thirteenth fresh Spanish cases: written at once for the held-out-13 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Hermenegildo", "Purificación", "Filomena", "Evaristo", "Casimiro")

CASES: tuple[Case, ...] = (
    Case(
        "es13_merluza",
        "action",
        LANGUAGE,
        forms.remind(
            "Dentro de cuatro horas recuérdame sacar la merluza del congelador para la cena.",
            4,
            "merluza",
            "congelador",
            "hake",
            "freezer",
            "fish",
            "seehecht",
            "gefrier",
            "merlu",
            "congelateur",
            "冷凍",
            "魚",
        ),
    ),
    Case(
        "es13_fontanero",
        "action",
        LANGUAGE,
        forms.write_file(
            "Guárdame en un archivo nuevo, fontanero.txt, que el fontanero viene el lunes por la"
            " fuga del baño, que se llama {name} y que la referencia del aviso es {code}.",
            "fontanero.txt",
        ),
    ),
    Case(
        "es13_emisora",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Apunta en radio.conf la emisora 101.3 en lugar de la 98.5; no añadas líneas nuevas.",
            "radio.conf",
            ["emisora = 98.5", "volumen = {n}", "despertador = 07:30"],
            ["emisora = 101.3", "volumen = {n}", "despertador = 07:30"],
        ),
    ),
    Case(
        "es13_pedido_lavadora",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guarda en la memoria que el número de pedido de la lavadora nueva es el {code}.",
            "¿Qué número de pedido tenía la lavadora nueva?",
        ),
    ),
    Case(
        "es13_tres_cuartos",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos gramos son tres cuartos de kilo?",
            750,
            "setecientos cincuenta",
            "seven hundred and fifty",
            "seven hundred fifty",
            "siebenhundertfunfzig",
            "siebenhundertfünfzig",
            "sept cent cinquante",
            "sept cents cinquante",
            "七百五十",
        ),
    ),
    Case(
        "es13_oporto",
        "no-tool",
        LANGUAGE,
        forms.words("¿En qué país está la ciudad de Oporto?", "portugal|ポルトガル", stream=True),
    ),
    Case(
        "es13_matar_proceso",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Tengo un programa colgado con el PID 4821. ¿Con qué comando lo cierro? Solo dímelo,"
            " no lo ejecutes tú.",
            {"apuntes.txt": "Programa colgado otra vez, van {n}\n"},
            r"(?<![a-z])kill\s+(?:-\S+\s+(?:[a-z]+\s+)?)*4821(?!\d)",
            "a kill command on PID 4821",
        ),
    ),
    Case(
        "es13_asamblea_vecinos",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Resúmeme lo que pone en asamblea_vecinos.txt. ¿Quién se ofreció a pintar el portal?",
            {
                "asamblea_vecinos.txt": "Asamblea de vecinos, {n} asistentes\n"
                "Se aprobó cambiar la puerta del garaje.\n"
                "{name} se ofreció a pintar el portal en primavera.\n"
                "Se acordó que la próxima reunión sería en marzo.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es13_lista_excursion",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Cuenta las líneas de lista_excursion.txt, añade «Lucía Ferrer» al final y vuelve a"
            " contarlas.",
            "lista_excursion.txt",
            "Lucía Ferrer",
        ),
    ),
    Case(
        "es13_donaciones_cuenca",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Usa un comando para contar cuántas filas de donaciones.csv son de Cuenca.",
            "donaciones.csv",
            "Cuenca",
            ["Toledo", "Talavera", "Guadalajara"],
        ),
    ),
)
