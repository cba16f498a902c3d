"""Ninth fresh Spanish cases: written at once for the held-out-9 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es9_entradas_concierto",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de dos horas que tengo que imprimir las entradas del concierto.",
            2,
            "entradas",
            "concierto",
            "concert",
            "konzert",
            "billets",
            "コンサート",
            "チケット",
        ),
    ),
    Case(
        "es9_pintor_salon",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo llamado pintor.txt que diga que el pintor viene el lunes a pintar el"
            " salón, que se llama {name} y que el número del presupuesto es {code}.",
            "pintor.txt",
        ),
    ),
    Case(
        "es9_robot_aspirador",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En robot_aspirador.cfg cambia la potencia de normal a turbo y no toques nada más.",
            "robot_aspirador.cfg",
            ["potencia = normal", "horario = 10:00", "zonas = {n}"],
            ["potencia = turbo", "horario = 10:00", "zonas = {n}"],
        ),
    ),
    Case(
        "es9_reclamacion_luz",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que el número de referencia de mi reclamación a la compañía de la luz"
            " es {code}.",
            "¿Cuál era el número de referencia de mi reclamación a la compañía de la luz?",
        ),
    ),
    Case(
        "es9_docenas_huevos",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos huevos son dos docenas y media?",
            30,
            "treinta",
            "thirty",
            "dreißig",
            "dreissig",
            "trente",
            "三十個",
        ),
    ),
    Case(
        "es9_capital_hungria",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Cuál es la capital de Hungría?",
            "budapest|ブダペスト",
            stream=True,
        ),
    ),
    Case(
        "es9_buscar_factura",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo busco la palabra «factura» dentro de gastos.txt? Dime solo el comando, no lo"
            " ejecutes.",
            {"gastos.txt": "Mes {n}\nfactura luz: 54,20\nsupermercado: 130,00\n"},
            r"grep\s+(?:-\S+\s+)*['\"]?factura['\"]?\s+(?:-\S+\s+)*\S*gastos\.txt"
            r"|cat\s+\S*gastos\.txt\s*\|\s*grep\s+(?:-\S+\s+)*['\"]?factura['\"]?",
            "a grep command",
        ),
    ),
    Case(
        "es9_cena_antiguos_alumnos",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me haces un resumen de lo que pone en cena_antiguos_alumnos.txt?",
            {
                "cena_antiguos_alumnos.txt": "Cena de antiguos alumnos, promoción del {n}\n"
                "Vinimos 23 de los 30 de la clase.\nLa cena la organizó {name} en un restaurante"
                " del centro.\nAl final brindamos por la profesora de Historia.\n"
            },
            "{name}",
        ),
    ),
    Case(
        "es9_apuntados_teatro",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dime cuántas líneas tiene apuntados_teatro.txt, añade al final «Nerea Olaizola» y"
            " vuelve a contarlas.",
            "apuntados_teatro.txt",
            "Nerea Olaizola",
        ),
    ),
    Case(
        "es9_quejas_teruel",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Usa grep para contar cuántas líneas de quejas.csv contienen Teruel.",
            "quejas.csv",
            "Teruel",
            ("Soria", "Cuenca", "Lugo"),
        ),
    ),
)
