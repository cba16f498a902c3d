"""Tenth fresh Spanish cases: written at once for the held-out-10 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Marisol", "Begoña", "Inmaculada", "Rigoberto", "Leocadia")

CASES: tuple[Case, ...] = (
    Case(
        "es10_bombillas",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de cuatro horas que tengo que comprar bombillas para el pasillo.",
            4,
            "bombilla",
            "bulb",
            "glühbirne",
            "gluehbirne",
            "leuchtmittel",
            "ampoule",
            "電球",
        ),
    ),
    Case(
        "es10_jardinero",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo jardinero.txt que diga que el jardinero viene el jueves a podar los"
            " setos; la persona de contacto es {name} y el número de presupuesto es el {code}.",
            "jardinero.txt",
        ),
    ),
    Case(
        "es10_persianas",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En persianas.cfg cambia la hora de bajada de las 21:00 a las 22:30 y deja lo demás"
            " como está.",
            "persianas.cfg",
            ["bajada = 21:00", "subida = 08:00", "posicion = {n}"],
            ["bajada = 22:30", "subida = 08:00", "posicion = {n}"],
        ),
    ),
    Case(
        "es10_poliza_seguro",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate, por favor, de que el número de póliza del seguro del coche es el {code}.",
            "¿Cuál era el número de póliza del seguro del coche?",
        ),
    ),
    Case(
        "es10_angulos_triangulo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos grados suman los ángulos interiores de un triángulo?",
            180,
            "ciento ochenta",
            "hundred and eighty",
            "hundred eighty",
            "hundertachtzig",
            "cent quatre-vingts",
            "百八十",
        ),
    ),
    Case(
        "es10_bernarda_alba",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Quién escribió La casa de Bernarda Alba?",
            "lorca|ロルカ",
            stream=True,
        ),
    ),
    Case(
        "es10_comprimir_informe",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo comprimo informe.txt con gzip? Enséñame el comando, pero no lo ejecutes.",
            {"informe.txt": "Informe trimestral {n}\nVentas: estables\nResponsable: {name}\n"},
            r"gzip\s+(?:-(?![-a-z]*d)\S+\s+)*\S*informe\.txt(?!\.gz)",
            "a gzip command",
        ),
    ),
    Case(
        "es10_club_lectura",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Resúmeme qué se decidió en la última reunión del club de lectura; lo tienes en"
            " club_lectura.txt.",
            {
                "club_lectura.txt": "Club de lectura, sesión {n}\n"
                "Libro del mes: La sombra del viento\nModerará la próxima sesión: {name}\n"
                "Cuota: sin cambios\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es10_senderismo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene senderismo.txt? Luego añade 'Lucía Ferrer' al final, en una"
            " línea nueva, y vuelve a contarlas.",
            "senderismo.txt",
            "Lucía Ferrer",
        ),
    ),
    Case(
        "es10_envios_ourense",
        "command",
        LANGUAGE,
        forms.grep_count(
            "Cuenta con un comando cuántas líneas de envios.csv son de Ourense.",
            "envios.csv",
            "Ourense",
            ["Vigo", "Ferrol", "Monforte"],
        ),
    ),
)
