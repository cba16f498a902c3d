"""Eighteenth fresh Spanish cases: written at once for the held-out-18 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Wenceslao", "Herminia", "Saturnino", "Gregoria", "Primitivo")

CASES: tuple[Case, ...] = (
    Case(
        "es18_caseta_feria",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de caseta_feria.txt, sin tocar lo que ya hay.",
            "caseta_feria.txt",
            ["manzanilla: seis cajas", "sillas plegables", "altavoz pequeño"],
            "farolillos de {name}",
        ),
    ),
    Case(
        "es18_comunion",
        "action",
        LANGUAGE,
        forms.write_file(
            "Hazme un archivo comunion_sobrina.txt y apunta que la madrina de la comunión es"
            " {name} y que el código de reserva del salón es el {code}.",
            "comunion_sobrina.txt",
        ),
    ),
    Case(
        "es18_freidora",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Oye, en freidora_aire.ini la temperatura está a 200 y la quiero a 180. Modifica"
            " esa línea, sin añadir otra.",
            "freidora_aire.ini",
            ["temperatura = 200", "tiempo = 15", "programa = {n}"],
            ["temperatura = 180", "tiempo = 15", "programa = {n}"],
        ),
    ),
    Case(
        "es18_decimo_loteria",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate esto, que no quiero perderlo: el décimo de la lotería de Navidad que"
            " compré acaba en {code}.",
            "¿En qué número acababa el décimo de Navidad que te dije?",
        ),
    ),
    Case(
        "es18_bodas_oro",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Mis suegros celebran este verano sus bodas de oro. ¿Cuántos años llevan casados?",
            50,
            "cincuenta",
            "fifty",
            "funfzig",
            "cinquante",
            "五十",
        ),
    ),
    Case(
        "es18_guadalquivir",
        "no-tool",
        LANGUAGE,
        forms.words("¿Qué río pasa por Sevilla?", "guadalquivir|グアダルキビール", stream=True),
    ),
    Case(
        "es18_al_reves",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Quiero ver diario_obra.txt al revés, con la última línea la primera. ¿Qué comando"
            " uso? Dímelo nada más, no lo ejecutes.",
            {
                "diario_obra.txt": "Día 1: tirar el tabique\n"
                "Día 2: fontanería, {n} metros de tubo\nDía 3: yeso\n"
            },
            r"(?<![\w-])tac\s+(?:-\S+\s+)*['\"]?(?:\./)?diario_obra\.txt"
            r"|(?<![\w-])tail\s+-r\s+['\"]?(?:\./)?diario_obra\.txt"
            r"|diario_obra\.txt['\"]?\s*\|\s*tac(?![\w-])",
            "a tac diario_obra.txt command",
        ),
    ),
    Case(
        "es18_cabalgata",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me haces un resumen de cabalgata_reyes.txt? ¿Y quién salió de Baltasar?",
            {
                "cabalgata_reyes.txt": "Cabalgata de Reyes del barrio, {n} voluntarios\n"
                "Salimos de la plaza a las seis de la tarde.\n"
                "{name} fue de Baltasar y tiró caramelos desde la carroza.\n"
                "Al final hubo chocolate con roscón para todos.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es18_porra_liga",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Dime cuántas líneas tiene porra_liga.txt, añade a Nerea Etxeberria en una línea"
            " nueva al final y cuéntalas otra vez.",
            "porra_liga.txt",
            "Nerea Etxeberria",
        ),
    ),
    Case(
        "es18_calderas_plasencia",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Saca con un comando cuántas líneas de revisiones_calderas.csv corresponden a"
            " Plasencia.",
            "revisiones_calderas.csv",
            "Plasencia",
            ["Caceres", "Trujillo", "Coria"],
        ),
    ),
)
