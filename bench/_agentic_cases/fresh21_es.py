"""Twenty-first fresh Spanish cases: written at once for the held-out-21 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eustaquio", "Remedios", "Gumersindo", "Inmaculada", "Severiano")

#: The commands that list a folder's hidden files too, as an answer may write them: ls with -a
#: or -A among its options (or --all, --almost-all), or ls of the dot files' glob.
_OCULTOS = "|".join(
    (
        r"(?<![\w-])ls(?:[ \t]+[^\s|;&`]+)*?[ \t]+(?:-(?!-)[a-z]*a[a-z]*|--all|--almost-all)"
        r"(?![\w-])",
        r"(?<![\w-])ls(?:[ \t]+-\S+)*[ \t]+['\"]?(?:[\w~./-]*/)?\.\*",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "es21_gestoria",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de una hora que tengo que llamar a la gestoría por lo de la"
            " declaración de la renta.",
            1,
            "gestor",
            "renta",
            "declaraci",
            "accountant",
            "tax",
            "steuer",
            "comptable",
            "impot",
            "impôt",
            "税理士",
            "確定申告",
        ),
    ),
    Case(
        "es21_comida_domingo",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade la línea «{line}» al final de comida_domingo.txt, y lo demás déjalo como está.",
            "comida_domingo.txt",
            [
                "Paella: la abuela",
                "Pan y bebidas: Rocío",
                "Sillas plegables: el tío Paco",
            ],
            "Postre: {name} trae flan",
        ),
    ),
    Case(
        "es21_camara_fps",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La cámara del portal graba a saltos. En camara.cfg sube fps de 30 a 60;"
            " modifica esa misma línea, no metas una nueva.",
            "camara.cfg",
            ["resolucion = 1080p", "fps = 30", "camara = {n}"],
            ["resolucion = 1080p", "fps = 60", "camara = {n}"],
        ),
    ),
    Case(
        "es21_portal_suegros",
        "recall",
        LANGUAGE,
        forms.remember(
            "Guárdate esto: el código del portal de casa de mis suegros es el {code}.",
            "Oye, ¿cuál era el código del portal de mis suegros?",
        ),
    ),
    Case(
        "es21_packs_agua",
        "no-tool",
        LANGUAGE,
        forms.number(
            "En el súper el agua viene en packs de 6 botellas. Si me llevo 9 packs, ¿cuántas"
            " botellas son?",
            54,
            "cincuenta y cuatro",
            "fifty-four",
            "fifty four",
            "vierundfunfzig",
            "vierundfünfzig",
            "cinquante-quatre",
            "cinquante quatre",
            "五十四",
        ),
    ),
    Case(
        "es21_machu_picchu",
        "no-tool",
        LANGUAGE,
        forms.words("¿En qué país está Machu Picchu?", "peru|perú|ペルー", stream=True),
    ),
    Case(
        "es21_archivos_ocultos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo veo también los archivos ocultos de la carpeta web_tienda? Dime solo el"
            " comando, no hace falta que lo ejecutes.",
            {
                "web_tienda/.env": "CLAVE_PAGO={code}\n",
                "web_tienda/index.html": "<h1>Tienda {n}</h1>\n",
            },
            _OCULTOS,
            "an ls -a web_tienda (or ls -la, ls -A) command",
        ),
    ),
    Case(
        "es21_excursion",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "Hazme un resumen de excursion_sierra.txt. ¿Quién se torció el tobillo al final?",
            {
                "excursion_sierra.txt": "Excursión a la sierra con el club de montaña,"
                " {n} participantes\n"
                "Salimos a las ocho y llegamos a la cima a mediodía.\n"
                "{name} se torció el tobillo en la bajada.\n"
                "Volvimos en autobús y cenamos todos juntos en el pueblo.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es21_cita_itv",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme cita_itv.txt, cambia la hora de las 9:30 a las 11:00 y luego vuelve a"
            " leérmelo para comprobarlo.",
            "cita_itv.txt",
            ["Cita ITV, expediente {n}", "hora: 9:30", "estación: Getafe"],
            ["Cita ITV, expediente {n}", "hora: 11:00", "estación: Getafe"],
            "11:00",
        ),
    ),
    Case(
        "es21_invitados_boda",
        "command",
        LANGUAGE,
        forms.count_lines(
            "¿Cuántos invitados hay en invitados_boda.txt? Hay uno por línea, así que cuenta"
            " las líneas con un comando.",
            "invitados_boda.txt",
        ),
    ),
)
