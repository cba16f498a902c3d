"""Twenty-seventh fresh Spanish cases: written at once for the held-out-27 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Fructuoso", "Wenceslao", "Petronila", "Hermenegildo", "Leocadia")

#: The names the recall saves, one per run.
AFINADORES = ("Baldomero", "Eustaquio", "Anselmo", "Teodosio")

#: The command that shows the first 15 lines of registro_servidor.log: head with -n 15 (or -15,
#: or --lines=15), then the file.
_HEAD = (
    r"(?<![\w-])head\s+(?:-\S+\s+)*(?:-n\s*15|-15|--lines[= ]15)\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?registro_servidor\.log['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "es27_campamento",
        "action",
        LANGUAGE,
        forms.append_line(
            "Apunta «{line}» al final de material_campamento.txt y deja lo demás como está.",
            "material_campamento.txt",
            ["Sacos de dormir", "Linterna frontal", "Hornillo de gas"],
            "Tienda de campaña que presta {name}",
        ),
    ),
    Case(
        "es27_magdalenas",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de media hora para sacar las magdalenas del horno.",
            0.5,
            "magdalenas",
            "horno",
            "muffins",
            "cupcakes",
            "oven",
            "ofen",
            "four",
            "オーブン",
            "マフィン",
        ),
    ),
    Case(
        "es27_calentador",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El calentador nos deja el agua ardiendo. En calentador.ini pon temperatura a 55 en"
            " vez de 70; cambia esa línea, no añadas una nueva.",
            "calentador.ini",
            ["modo = eco", "temperatura = 70", "horas_valle = {n}"],
            ["modo = eco", "temperatura = 55", "horas_valle = {n}"],
        ),
    ),
    Case(
        "es27_afinador",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdame esto: el afinador que viene a ver el piano de mi hija se llama {value}.",
            "¿Cómo se llamaba el afinador del piano de mi hija?",
            AFINADORES,
            stream=True,
        ),
    ),
    Case(
        "es27_empanadillas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Para el cumpleaños compro 7 bandejas de empanadillas de 12 cada una, pero guardo 9"
            " en el congelador. ¿Cuántas empanadillas pongo en la mesa?",
            75,
            "setenta y cinco",
            "seventy-five",
            "seventy five",
            "fünfundsiebzig",
            "fuenfundsiebzig",
            "soixante-quinze",
            "七十五",
        ),
    ),
    Case(
        "es27_fabada",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi cuñado dice que la fabada es típica de Galicia y yo creo que no. ¿De qué región"
            " es la fabada?",
            "Asturias|asturiana|asturiano",
        ),
    ),
    Case(
        "es27_registro",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo solo las 15 primeras líneas de registro_servidor.log? Dímelo"
            " sin ejecutarlo, que lo lanzo yo.",
            {"tareas.txt": "Renovar dominio, plan {n}\nIncidencia {code}\n"},
            _HEAD,
            "a head -n 15 registro_servidor.log command",
        ),
    ),
    Case(
        "es27_cena_promocion",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Me perdí la reunión para organizar la cena de antiguos alumnos. ¿Qué pone en"
            " cena_promocion.txt? ¿Y quién se encarga de reservar el restaurante?",
            {
                "cena_promocion.txt": "Cena de la promoción, grupo {n}\n"
                "Se hará el primer sábado de diciembre.\n"
                "Cada uno pagará unos cuarenta euros.\n"
                "{name} se encarga de reservar el restaurante.\n"
                "Habrá que buscar a los que se fueron a vivir fuera.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es27_extraescolares",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme extraescolares.txt, pasa el judo del lunes al miércoles y vuelve a leérmelo"
            " para ver que está bien.",
            "extraescolares.txt",
            ["Extraescolares, curso {n}", "judo: lunes", "teatro: jueves"],
            ["Extraescolares, curso {n}", "judo: miércoles", "teatro: jueves"],
            "judo: miércoles",
        ),
    ),
    Case(
        "es27_cromos",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Mi hijo apunta en cromos_repetidos.txt cada cromo repetido en una línea. ¿Cuántos"
            " tiene ya? Cuéntalos con un comando, no a ojo.",
            "cromos_repetidos.txt",
        ),
    ),
)
