"""Twenty-eighth fresh Spanish cases: written at once for the held-out-28 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eleuterio", "Filomena", "Bonifacio", "Escolástica", "Hilario")

#: The names the recall saves, one per run.
FONTANEROS = ("Gumersindo", "Nicanor", "Segismundo", "Casimiro")

#: The command that makes the facturas_2024 folder: mkdir with its options, then the folder (a
#: trailing slash allowed).
_MKDIR = r"(?<![\w-])mkdir\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?facturas_2024/?['\"]?(?![\w.-])"

CASES: tuple[Case, ...] = (
    Case(
        "es28_invitados_boda",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de invitados_boda.txt sin tocar a los que ya están.",
            "invitados_boda.txt",
            ["Tía Remedios", "Primos de Cuenca", "Compañeros del trabajo"],
            "Vecina del quinto, {name}",
        ),
    ),
    Case(
        "es28_macetas",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de cuatro horas para regar las macetas del balcón, que hoy hace un"
            " calor tremendo.",
            4,
            "macetas",
            "regar",
            "balcón",
            "balcon",
            "plants",
            "water",
            "pflanzen",
            "gießen",
            "plantes",
            "arroser",
            "植木",
        ),
    ),
    Case(
        "es28_timbre",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "El timbre suena tan fuerte que despierta al bebé. En timbre.conf baja volumen de 9"
            " a 4; cambia la línea que ya hay, no añadas otra.",
            "timbre.conf",
            ["melodia = clasica", "volumen = 9", "repeticiones = {n}"],
            ["melodia = clasica", "volumen = 4", "repeticiones = {n}"],
        ),
    ),
    Case(
        "es28_fontanero",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate que el fontanero que nos arregló la caldera se llama {value}, que es muy"
            " majo y cobra bien.",
            "¿Cómo se llamaba el fontanero que nos arregló la caldera?",
            FONTANEROS,
        ),
    ),
    Case(
        "es28_excursion",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Para la excursión del cole vamos 4 clases de 23 alumnos cada una y 6 profes."
            " ¿Cuántas personas somos en total?",
            98,
            "noventa y ocho",
            "ninety-eight",
            "ninety eight",
            "achtundneunzig",
            "quatre-vingt-dix-huit",
            "九十八",
            stream=True,
        ),
    ),
    Case(
        "es28_bon_appetit",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi compañero de piso francés siempre dice «bon appétit» antes de comer. ¿Qué"
            " significa?",
            "buen provecho|que aproveche|aproveche",
        ),
    ),
    Case(
        "es28_facturas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo creo desde la terminal una carpeta que se llame facturas_2024? Dime solo el"
            " comando, que ya lo escribo yo.",
            {"recados.txt": "Barras de pan: {n}\nCódigo del portal: {code}\n"},
            _MKDIR,
            "a mkdir facturas_2024 command",
        ),
    ),
    Case(
        "es28_pena_ciclista",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir a la reunión de la peña ciclista. ¿Qué pone en acta_pena.txt y quién"
            " lleva el coche de apoyo en la salida del domingo?",
            {
                "acta_pena.txt": "Acta de la peña ciclista, reunión {n}\n"
                "La cuota sube cinco euros a partir de enero.\n"
                "Se encargan maillots nuevos con el logo del bar.\n"
                "El coche de apoyo del domingo lo lleva {name}.\n"
                "La ruta sale a las ocho desde la plaza.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es28_gimnasio",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Lee horario_gimnasio.txt, pasa el spinning del martes al jueves y vuelve a leerlo"
            " para ver que ha quedado bien.",
            "horario_gimnasio.txt",
            ["Gimnasio, socio {n}", "spinning: martes", "pilates: viernes"],
            ["Gimnasio, socio {n}", "spinning: jueves", "pilates: viernes"],
            "spinning: jueves",
        ),
    ),
    Case(
        "es28_voluntarios",
        "command",
        LANGUAGE,
        forms.count_lines(
            "En voluntarios_carrera.txt hay un voluntario por línea para la carrera solidaria."
            " ¿Cuántos son? Cuéntalos con un comando, porfa.",
            "voluntarios_carrera.txt",
        ),
    ),
)
