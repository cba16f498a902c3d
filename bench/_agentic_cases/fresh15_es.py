"""Fifteenth fresh Spanish cases: written at once for the held-out-15 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eustaquio", "Gumersinda", "Nicasio", "Anacleto", "Petronila")

CASES: tuple[Case, ...] = (
    Case(
        "es15_antibiotico",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de seis horas que me toca la siguiente pastilla del antibiótico.",
            6,
            "antibioti",
            "pastilla",
            "medicina",
            "medicamento",
            "pill",
            "medication",
            "tablette",
            "comprime",
            "medikament",
            "抗生",
            "薬",
        ),
    ),
    Case(
        "es15_canguro",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo nuevo, canguro.txt, y apunta que el viernes por la noche se queda"
            " con los niños {name} y que su móvil acaba en {code}.",
            "canguro.txt",
        ),
    ),
    Case(
        "es15_nevera",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En nevera.conf pon la temperatura a 4 en vez de 6, cambiando esa línea y sin"
            " añadir ninguna.",
            "nevera.conf",
            ["temperatura = 6", "modo = eco", "aviso_puerta = {n}"],
            ["temperatura = 4", "modo = eco", "aviso_puerta = {n}"],
        ),
    ),
    Case(
        "es15_cliente_gas",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate en la memoria que mi número de cliente de la compañía del gas es el {code}.",
            "¿Cuál era mi número de cliente del gas?",
        ),
    ),
    Case(
        "es15_lustro",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Oye, un lustro, ¿cuántos años son?",
            5,
            "cinco",
            "five",
            "funf",
            "cinq",
            "五",
        ),
    ),
    Case(
        "es15_relojes_blandos",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién pintó «La persistencia de la memoria», el cuadro de los relojes blandos?",
            "dali|ダリ",
            stream=True,
        ),
    ),
    Case(
        "es15_zip_facturas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo meto la carpeta facturas en un zip desde la terminal? Dime solo el comando,"
            " no lo ejecutes.",
            {"facturas/enero.txt": "Factura {n}\n"},
            r"(?<![\w-])zip\s+(?:-\S+\s+)*-[a-z0-9]*r[a-z0-9]*\s+(?:-\S+\s+)*['\"]?\S*facturas"
            r"(?:\.zip)?['\"]?\s+['\"]?(?:\./)?facturas"
            r"|(?<![\w-])7za?\s+a\s+(?:-\S+\s+)*['\"]?\S*\.zip['\"]?\s+['\"]?(?:\./)?facturas",
            "a zip -r (or 7z a) command for the facturas folder",
        ),
    ),
    Case(
        "es15_fin_de_curso",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me resumes fiesta_fin_curso.txt? Y dime quién montó el castillo hinchable.",
            {
                "fiesta_fin_curso.txt": "Fiesta de fin de curso, {n} familias\n"
                "Empezó a las seis en el patio del colegio.\n"
                "{name} montó el castillo hinchable para los pequeños.\n"
                "Al final hubo chocolate con churros para todos.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es15_inscritos_carrera",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene inscritos_carrera.txt? Añade «Raúl Pineda» al final y vuelve"
            " a contarlas.",
            "inscritos_carrera.txt",
            "Raúl Pineda",
        ),
    ),
    Case(
        "es15_recogidas_ponferrada",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Con un comando, dime cuántas líneas de recogidas.csv son de Ponferrada.",
            "recogidas.csv",
            "Ponferrada",
            ["Astorga", "Bembibre", "Villablino"],
        ),
    ),
)
