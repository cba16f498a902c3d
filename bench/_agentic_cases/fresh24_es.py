"""Twenty-fourth fresh Spanish cases: written at once for the held-out-24 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Leocadio", "Remigio", "Eustaquio", "Hermenegilda", "Clotilde")

#: The names the recall saves, one per run.
YEGUAS = ("Tormenta", "Duquesa", "Bizcocha", "Perla")

#: The two budgets, as an answer may write them (with a path or quoted).
_V1 = r"['\"]?(?:[\w~./-]*/)?presupuesto_v1\.txt['\"]?"
_V2 = r"['\"]?(?:[\w~./-]*/)?presupuesto_v2\.txt['\"]?"

#: The command that shows how the two budgets differ: diff (or sdiff, vimdiff, colordiff,
#: git diff --no-index) given both files, in either order.
_DIFF = (
    r"(?<![\w-])(?:git\s+diff\s+--no-index|(?:vim|color|s)?diff)\s+(?:-\S+\s+)*"
    rf"(?:{_V1}\s+{_V2}|{_V2}\s+{_V1})"
)

CASES: tuple[Case, ...] = (
    Case(
        "es24_fontanero",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apúntame en fontanero.txt que el fontanero que vino se llama {name} y que el número"
            " del presupuesto es {code}, que luego se me olvida.",
            "fontanero.txt",
        ),
    ),
    Case(
        "es24_invitados_cumple",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de invitados_cumple.txt, sin tocar lo que ya hay.",
            "invitados_cumple.txt",
            ["Tía Carmen", "Los vecinos del tercero", "Lucía y Marcos"],
            "Primo {name} y pareja",
        ),
    ),
    Case(
        "es24_termo",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El termo calienta el agua demasiado. En termo.conf cambia temperatura_agua de 65 a"
            " 55; modifica esa línea, no añadas otra nueva.",
            "termo.conf",
            ["modo = eco", "temperatura_agua = 65", "antilegionela_dias = {n}"],
            ["modo = eco", "temperatura_agua = 55", "antilegionela_dias = {n}"],
        ),
    ),
    Case(
        "es24_yegua",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate esto: la yegua que monta Lucía en la hípica se llama {value}.",
            "¿Cómo se llamaba la yegua que monta Lucía en la hípica?",
            YEGUAS,
        ),
    ),
    Case(
        "es24_pizzas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Hemos pedido 3 pizzas familiares cortadas en 12 trozos cada una y somos 9 en casa."
            " ¿Cuántos trozos le tocan a cada uno si repartimos a partes iguales?",
            4,
            "cuatro",
            "four",
            "vier",
            "quatre",
            "四",
        ),
    ),
    Case(
        "es24_asap",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi jefe me ha puesto «ASAP» al final de un correo. ¿Qué quiere decir eso?",
            "lo antes posible|cuanto antes|as soon as possible|lo más pronto posible",
            stream=True,
        ),
    ),
    Case(
        "es24_comparar_presupuestos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Tengo presupuesto_v1.txt y presupuesto_v2.txt. ¿Con qué comando veo en qué se"
            " diferencian? Solo dímelo, no lo ejecutes.",
            {
                "presupuesto_v1.txt": "Cocina: {n}00 €\nBaño: 2300 €\nRef. {code}\n",
                "presupuesto_v2.txt": "Cocina: {n}50 €\nBaño: 2300 €\nRef. {code}\n",
            },
            _DIFF,
            "a diff presupuesto_v1.txt presupuesto_v2.txt command",
        ),
    ),
    Case(
        "es24_camino",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Resúmeme lo que pasó ayer en la etapa del Camino, lo tengo apuntado en"
            " diario_camino.txt.",
            {
                "diario_camino.txt": "Etapa {n}: de Sarria a Portomarín\n"
                "Salimos a las siete con mucha niebla.\n"
                "A {name} le salió una ampolla y tuvimos que parar en Barbadelo.\n"
                "Comimos pulpo en Mercadoiro y llegamos agotados al albergue.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es24_voluntarios",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Cuenta cuántas líneas tiene voluntarios.txt, añade «Nieves Carrasco» al final y"
            " vuelve a contarlas para ver que ha subido.",
            "voluntarios.txt",
            "Nieves Carrasco",
        ),
    ),
    Case(
        "es24_salidas_cuenca",
        "command",
        LANGUAGE,
        forms.grep_count(
            "En salidas.csv cada línea es una excursión del club de senderismo. ¿Cuántas fueron"
            " a Cuenca? Cuéntalo con un comando, porfa.",
            "salidas.csv",
            "Cuenca",
            ["Teruel", "Soria", "Segovia"],
        ),
    ),
)
