"""Segundos casos nuevos en español: written at once for the held-out-2 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es2_reserva_cumple",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea cumple.txt y pon dentro: cumpleaños de {name}, número de reserva del"
            " restaurante {code}.",
            "cumple.txt",
        ),
    ),
    Case(
        "es2_riego_limonero",
        "action",
        LANGUAGE,
        forms.append_line(
            "Agrega «{line}» al final de riego.txt, porfa.",
            "riego.txt",
            ["lunes: helechos", "miércoles: cactus", "viernes: orquídeas"],
            "domingo: limonero, {n} ml",
        ),
    ),
    Case(
        "es2_idioma_perfil",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En perfil.ini cambia el idioma de en a es; lo demás déjalo igual.",
            "perfil.ini",
            ["[perfil]", "usuario = {name}", "idioma = en"],
            ["[perfil]", "usuario = {name}", "idioma = es"],
        ),
    ),
    Case(
        "es2_taquilla",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate esto: la combinación del candado de mi taquilla del gimnasio es {code}.",
            "¿Cuál era la combinación del candado de la taquilla?",
        ),
    ),
    Case(
        "es2_semanas_anio",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Pregunta tonta: ¿cuántas semanas completas tiene un año?",
            52,
            "cincuenta y dos",
            "fifty-two",
        ),
    ),
    Case(
        "es2_capital_australia",
        "no-tool",
        LANGUAGE,
        forms.words("¿Cuál es la capital de Australia?", "canberra|キャンベラ"),
    ),
    Case(
        "es2_descomprimir",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando descomprimo fotos.zip en la terminal? Escríbemelo nada más,"
            " no lo ejecutes tú.",
            {"fotos.zip": "PK{code}\n"},
            r"\b(unzip|7z|bsdtar)\b|zipfile",
            "an unzip command",
        ),
    ),
    Case(
        "es2_excursion",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me cuentas en dos líneas qué pasó según diario.txt?",
            {
                "diario.txt": "El sábado subimos a la sierra con {name}. Llegamos al refugio"
                " a mediodía, comimos allí y empezó a llover, así que bajamos corriendo: {n}"
                " minutos hasta el coche.\n"
            },
            "{name}|{n}",
        ),
    ),
    Case(
        "es2_invitados_recuento",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "Mira con wc -l cuántas líneas tiene invitados.txt, luego pon 'Lucía' en una línea"
            " nueva al final y vuelve a pasar wc -l. Quiero los dos números.",
            "invitados.txt",
            "Lucía",
        ),
    ),
    Case(
        "es2_envios_madrid",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿En cuántas líneas de envios.csv sale Madrid? Cuéntalas con grep.",
            "envios.csv",
            "Madrid",
            ("Cádiz", "León", "Vigo", "Toledo"),
        ),
    ),
)
