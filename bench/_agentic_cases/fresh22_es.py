"""Twenty-second fresh Spanish cases: written at once for the held-out-22 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bonifacio", "Encarnación", "Florentino", "Purificación", "Anacleto")

#: The word searched for, the folder searched (as given or with a path) and options of a command.
_PALABRA = r"['\"]?chorizo['\"]?"
_RECETAS = r"['\"]?(?:[\w~./-]*/)?recetas/?['\"]?(?![\w.-])"
_OPTS = r"(?:-\S+\s+)*"
#: grep's recursive option, alone or among others (-r, -R, -rl, --recursive).
_RECURSIVO = r"(?:-(?!-)[a-z]*r[a-z]*|--recursive|--dereference-recursive)"

#: The commands that list the files under recetas (subfolders included) that hold "chorizo",
#: as an answer may write them: grep recursive, rg, or find handing the files to grep.
_BUSCAR = "|".join(
    (
        rf"(?<![\w-])grep\s+{_OPTS}{_RECURSIVO}\s+{_OPTS}{_PALABRA}\s+{_OPTS}{_RECETAS}",
        rf"(?<![\w-])rg\s+{_OPTS}{_PALABRA}\s+{_OPTS}{_RECETAS}",
        rf"(?<![\w-])find\s+{_RECETAS}[^\n`]*?grep\s+{_OPTS}{_PALABRA}",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "es22_bizcocho_horno",
        "action",
        LANGUAGE,
        forms.remind(
            "Avísame dentro de 40 minutos para sacar el bizcocho del horno, que siempre se me"
            " olvida.",
            40 / 60,
            "bizcocho",
            "horno",
            "tarta",
            "cake",
            "oven",
            "kuchen",
            "ofen",
            "gâteau",
            "gateau",
            "ケーキ",
            "オーブン",
        ),
    ),
    Case(
        "es22_lista_regalos",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» como última línea de lista_regalos.txt y no toques lo demás.",
            "lista_regalos.txt",
            ["Abuela: bufanda de lana", "Papá: libro de cocina", "Lucía: auriculares"],
            "Primo {name}: puzle de mil piezas",
        ),
    ),
    Case(
        "es22_riego",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Las tomateras se me están secando. En riego.cfg cambia duracion de 10 a 15;"
            " edita esa línea, no añadas otra.",
            "riego.cfg",
            ["zona = huerto", "duracion = 10", "programa = {n}"],
            ["zona = huerto", "duracion = 15", "programa = {n}"],
        ),
    ),
    Case(
        "es22_biblioteca",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate esto, porfa: el número de socia de la biblioteca de mi hija es el {code}.",
            "¿Cuál era el número de socia de la biblioteca de mi hija?",
        ),
    ),
    Case(
        "es22_pastillas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "El médico me ha mandado una pastilla cada 8 horas durante 12 días. ¿Cuántas"
            " pastillas me tomo en total?",
            36,
            "treinta y seis",
            "thirty-six",
            "thirty six",
            "sechsunddreißig",
            "sechsunddreissig",
            "trente-six",
            "trente six",
            "三十六",
        ),
    ),
    Case(
        "es22_oceano",
        "no-tool",
        LANGUAGE,
        forms.words(
            "¿Cuál es el océano más grande del planeta?",
            "pacífico|pacifico|pacific|pazifik|太平洋",
            stream=True,
        ),
    ),
    Case(
        "es22_buscar_chorizo",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Cómo busco en qué archivos de la carpeta recetas sale la palabra chorizo,"
            " subcarpetas incluidas? Solo dime el comando, no lo ejecutes.",
            {
                "recetas/cocido.txt": "garbanzos, chorizo, morcilla y {n} g de tocino\n",
                "recetas/postres/flan.txt": "huevos, leche, azúcar\n",
            },
            _BUSCAR,
            "a grep -rl chorizo recetas (or rg -l chorizo recetas) command",
        ),
    ),
    Case(
        "es22_comunidad",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "¿Me resumes acta_comunidad.txt? ¿Y quién salió elegido presidente al final?",
            {
                "acta_comunidad.txt": "Junta de la comunidad de vecinos, portal {n}\n"
                "Se aprobó pintar la escalera en primavera.\n"
                "{name} salió elegido presidente de la comunidad.\n"
                "Se acordó cambiar el portero automático.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es22_mercadillo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene ahora mismo voluntarios_mercadillo.txt? Después añade"
            " «Marisa Ortega» al final y vuelve a contarlas.",
            "voluntarios_mercadillo.txt",
            "Marisa Ortega",
        ),
    ),
    Case(
        "es22_casa_rural",
        "command",
        LANGUAGE,
        forms.grep_count(
            "En reservas_casa_rural.csv, ¿cuántas reservas son de gente de Cuenca? Cuéntalas"
            " con un comando.",
            "reservas_casa_rural.csv",
            "Cuenca",
            ["Teruel", "Soria", "Segovia"],
        ),
    ),
)
