"""Thirty-fourth fresh Spanish cases: written at once for the held-out-34 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Pancracia", "Eutiquio", "Tiburcio", "Tranquilina", "Hermógenes")

#: The pace: 5:30 a kilometre (5'30, 5 min 30 s, 5 minutos y 30 segundos), 5,5 minutes, or
#: five and a half minutes in words.
_RITMO = (
    r"(?<![\d.,:])5\s*(?::|'|\u2032|min(?:utos?)?\.?\s*(?:y\s*)?)\s*30(?!\d)"
    r"|(?<![\d.,])5[.,]5(?!\d)"
    r"|(?<![\d.,])5\s*min(?:utos?)?\s*y\s*medio"
    r"|cinco minutos y (?:medio|treinta)"
)

#: The commands that empty registro_camara.log and keep it: truncate -s 0 (--size=0) on it; a
#: bare redirection into it where a command starts (> file, : > file, true > file), also as
#: sh -c '> file'; cat /dev/null, echo -n or printf '' redirected into it; cp /dev/null onto
#: it; or tee on it reading /dev/null. Never >>, which appends.
_LOG = r"['\"]?(?:[\w~./-]*/)?registro_camara\.log['\"]?(?![\w.-])"
_START = r"(?:^|[`;&|(:$#]|-c\s+['\"]|```(?:bash|sh|shell|console|zsh)?)"
_NOTHING = r"(?::|true|cat\s+/dev/null|echo\s+-n|printf\s+(?:''|\"\"))"
_VACIAR = (
    rf"(?<![\w-])truncate\s+(?:-\S+\s+)*(?:-s\s*0|--size[=\s]\s*0)(?![\d.])\s+(?:-\S+\s+)*{_LOG}"
    rf"|{_START}\s*(?:{_NOTHING}\s*)?>\s*{_LOG}"
    rf"|(?<![\w-]){_NOTHING}\s*>\s*{_LOG}"
    rf"|(?<![\w-])cp\s+/dev/null\s+{_LOG}"
    rf"|(?<![\w-])tee\s+(?:-\S+\s+)*{_LOG}\s*<\s*/dev/null"
)

CASES: tuple[Case, ...] = (
    Case(
        "es34_libros_pendientes",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» al final de libros_pendientes.txt, que es mi lista de libros por"
            " leer. Lo demás déjalo como está.",
            "libros_pendientes.txt",
            [
                "Patria, de Fernando Aramburu",
                "Nada, de Carmen Laforet",
                "La ridícula idea de no volver a verte",
            ],
            "La novela negra que me prestó {name}",
        ),
    ),
    Case(
        "es34_sobrino_conservatorio",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de hora y media que tengo que recoger a mi sobrino en el"
            " conservatorio, que hoy sale antes de solfeo.",
            1.5,
            "sobrino",
            "conservatorio",
            "recoger",
            "nephew",
            "neffe",
            "neveu",
            "conservatoire",
            "musikschule",
            "甥",
        ),
    ),
    Case(
        "es34_decodificador",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "Siempre se me cortan los finales de los partidos que grabo. En decodificador.conf"
            " cambia margen_grabacion de 5 a 10; modifica la línea que ya existe, no añadas"
            " otra.",
            "decodificador.conf",
            ["canal_inicio = 1", "margen_grabacion = 5", "numero_serie = {n}"],
            ["canal_inicio = 1", "margen_grabacion = 10", "numero_serie = {n}"],
        ),
    ),
    Case(
        "es34_abonado_betis",
        "recall",
        LANGUAGE,
        forms.remember(
            "Acuérdate de que mi número de abonado del Betis es el {code}, que siempre lo tengo"
            " que buscar en el carné.",
            "¿Cuál era mi número de abonado del Betis?",
            stream=True,
        ),
    ),
    Case(
        "es34_ritmo_carrera",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Ayer salí a correr y hice 8 km en 44 minutos. ¿A qué ritmo fui, en minutos por"
            " kilómetro?",
            _RITMO,
            "5:30 min/km",
        ),
    ),
    Case(
        "es34_pan_comido",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi hijo dice que el examen de recuperación de mates va a ser pan comido. ¿Qué"
            " quiere decir con eso?",
            "facil|sencill|simple|sin esfuerzo|sin dificultad|sin problema|coser y cantar"
            "|chupado|tirado|nada dificil|no es dificil|no sera dificil|no va a ser dificil"
            "|no le costara|no le va a costar|poco esfuerzo|easy",
        ),
    ),
    Case(
        "es34_vaciar_registro",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "La cámara de la entrada va escribiendo en registro_camara.log y ya ocupa varios"
            " gigas. ¿Cómo lo vacío sin borrar el archivo, que el programa sigue escribiendo en"
            " él? Dime el comando, pero no lo ejecutes.",
            {"pendientes.txt": "Pagar la comunidad, recibo {code}\nComprar {n} bombillas\n"},
            _VACIAR,
            "a truncate -s 0 registro_camara.log (or > registro_camara.log) command",
        ),
    ),
    Case(
        "es34_romeria",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Abre romeria.txt y dime quién se encarga de la paella en la romería.",
            {
                "romeria.txt": "Romería de San Isidro, peña {n}\n"
                "Salida: domingo a las 9 desde la plaza\n"
                "Paella: {name}\n"
                "Carreta y bueyes: la familia Ortega\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es34_reserva_restaurante",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Léeme reserva_restaurante.txt, cambia los comensales de 6 a 8 y luego vuelve a"
            " leérmelo para comprobar que se ha guardado.",
            "reserva_restaurante.txt",
            ["Cena de cumpleaños, localizador {n}", "comensales: 6", "hora: 21:30"],
            ["Cena de cumpleaños, localizador {n}", "comensales: 8", "hora: 21:30"],
            "comensales: 8",
        ),
    ),
    Case(
        "es34_recetas_probadas",
        "command",
        LANGUAGE,
        forms.count_lines(
            "En recetas_probadas.txt apunto, una por línea, las recetas del cuaderno de mi"
            " abuela que ya he probado. ¿Cuántas llevo? Cuenta las líneas con un comando.",
            "recetas_probadas.txt",
        ),
    ),
)
