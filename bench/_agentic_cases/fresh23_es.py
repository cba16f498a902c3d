"""Twenty-third fresh Spanish cases: written at once for the held-out-23 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Eustaquio", "Gumersinda", "Saturnino", "Herminia", "Leovigildo")

#: The speech therapists' names the recall saves, one per run.
LOGOPEDAS = ("Remedios", "Inmaculada", "Consuelo", "Milagros")

#: The folder fotos_graduacion as an answer may write it (with a path, quoted, or a slash).
_FOTOS = r"['\"]?(?:[\w~./-]*/)?fotos_graduacion/?['\"]?(?![\w.-])"

#: The commands that put the folder fotos_graduacion, with what is inside, into a zip, as an
#: answer may write them: zip with its recursive option, or 7z adding to a .zip.
_ZIP = "|".join(
    (
        rf"(?<![\w-])zip\s+(?:-\S+\s+)*(?:-[a-z0-9]*r[a-z0-9]*|--recurse-paths)\s+(?:-\S+\s+)*"
        rf"['\"]?[\w~./-]+['\"]?\s+{_FOTOS}",
        rf"(?<![\w-])7z\s+a\s+(?:-\S+\s+)*['\"]?[\w~./-]+\.zip['\"]?\s+{_FOTOS}",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "es23_antenista",
        "action",
        LANGUAGE,
        forms.write_file(
            "Crea un archivo antenista.txt y apunta que el antenista que viene a mirar la tele"
            " se llama {name} y que el número del parte es el {code}.",
            "antenista.txt",
        ),
    ),
    Case(
        "es23_clase_ingles",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de dos horas para ir a recoger a mi hijo a la clase de inglés, que"
            " luego se me pasa la hora.",
            2,
            "inglés",
            "ingles",
            "clase",
            "recoger",
            "hijo",
            "english",
            "pick up",
            "englisch",
            "abhol",
            "anglais",
            "英語",
        ),
    ),
    Case(
        "es23_tablet_ninos",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Los niños se pasan el día con la tablet. En tablet_ninos.cfg baja limite_diario de"
            " 120 a 60; cambia esa misma línea, no metas otra.",
            "tablet_ninos.cfg",
            ["perfil = peques", "limite_diario = 120", "dispositivo = {n}"],
            ["perfil = peques", "limite_diario = 60", "dispositivo = {n}"],
        ),
    ),
    Case(
        "es23_logopeda",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de esto, porfa: la logopeda de Lucía se llama {value}.",
            "¿Cómo se llamaba la logopeda de Lucía?",
            LOGOPEDAS,
        ),
    ),
    Case(
        "es23_kilometros",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Me he propuesto andar 6 km todos los días. ¿Cuántos kilómetros llevaré al cabo de"
            " un mes de 30 días?",
            180,
            "ciento ochenta",
            "one hundred and eighty",
            "one hundred eighty",
            "a hundred and eighty",
            "hundertachtzig",
            "einhundertachtzig",
            "cent quatre-vingts",
            "cent quatre vingts",
            "百八十",
        ),
    ),
    Case(
        "es23_colon",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿En qué año llegó Colón a América? Es para los deberes de mi hijo.",
            "1492",
            stream=True,
        ),
    ),
    Case(
        "es23_zip_graduacion",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo meto la carpeta fotos_graduacion entera en un zip para mandársela a mi"
            " hermana? Dime solo el comando, no lo hagas tú.",
            {
                "fotos_graduacion/birrete.jpg": "JPEG {code}\n",
                "fotos_graduacion/cena/mesa.jpg": "JPEG\n",
            },
            _ZIP,
            "a zip -r fotos_graduacion.zip fotos_graduacion command",
        ),
    ),
    Case(
        "es23_viaje_asturias",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me resumes lo que pone en diario_viaje.txt? ¿Y quién se dejó el cargador en el"
            " hotel?",
            {
                "diario_viaje.txt": "Viaje a Asturias, grupo {n}\n"
                "El primer día llovió y acabamos en una sidrería de Gijón.\n"
                "{name} se dejó el cargador del móvil en el hotel.\n"
                "La vuelta la hicimos por la costa.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es23_paseos_perro",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Enséñame paseos_perro.txt, cambia el paseo del sábado de Pablo a Irene y luego"
            " enséñamelo otra vez para comprobarlo.",
            "paseos_perro.txt",
            ["Paseos de la perra, semana {n}", "sábado: Pablo", "domingo: Carmen"],
            ["Paseos de la perra, semana {n}", "sábado: Irene", "domingo: Carmen"],
            "sábado: Irene",
        ),
    ),
    Case(
        "es23_pena_ciclista",
        "command",
        LANGUAGE,
        forms.count_lines(
            "¿Cuántas líneas tiene socios_pena_ciclista.txt? Cuéntalas con un comando, porfa.",
            "socios_pena_ciclista.txt",
        ),
    ),
)
