"""Terceros casos nuevos en español: written at once for the held-out-3 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

CASES: tuple[Case, ...] = (
    Case(
        "es3_mudanza_llaves",
        "action",
        LANGUAGE,
        forms.append_line(
            "Añade «{line}» como última línea de mudanza.txt, sin tocar lo demás.",
            "mudanza.txt",
            ["embalar los libros", "desmontar la cama", "avisar al casero"],
            "recoger las llaves del trastero {n}",
        ),
    ),
    Case(
        "es3_bici_taller",
        "action",
        LANGUAGE,
        forms.write_file(
            "Apúntame en bici.txt que la bici de {name} está en el taller con el resguardo"
            " número {code}.",
            "bici.txt",
        ),
    ),
    Case(
        "es3_bajar_volumen",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En sonido.ini baja el volumen de 80 a 35; lo demás que se quede como está.",
            "sonido.ini",
            ["[sonido]", "volumen = 80", "salida = altavoz{n}"],
            ["[sonido]", "volumen = 35", "salida = altavoz{n}"],
        ),
    ),
    Case(
        "es3_socio_natacion",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate en la memoria que mi número de socio del club de natación es el {code}.",
            "¿Qué número de socio tengo en el club de natación?",
        ),
    ),
    Case(
        "es3_febrero_bisiesto",
        "no-tool",
        LANGUAGE,
        forms.number(
            "¿Cuántos días tiene febrero cuando el año es bisiesto?",
            29,
            "veintinueve",
            "twenty-nine",
            "neunundzwanzig",
            "vingt-neuf",
            "二十九",
        ),
    ),
    Case(
        "es3_planeta_rojo",
        "no-tool",
        LANGUAGE,
        forms.words("¿A qué planeta le llaman el planeta rojo?", "marte|mars|火星"),
    ),
    Case(
        "es3_ultimas_lineas",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Qué comando uso para ver las últimas 20 líneas de registro.log? Dímelo sin"
            " ejecutarlo.",
            {"registro.log": "arranque {n}\nerror de red\n"},
            r"\btail\b.*\b20\b",
            "a tail command for 20 lines",
        ),
    ),
    Case(
        "es3_boda",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir a la boda. ¿Qué cuenta boda.txt, más o menos?",
            {
                "boda.txt": "La boda fue en una finca cerca de Granada. {name} dio un discurso"
                " que hizo llorar a medio salón y el baile duró hasta las cuatro de la mañana."
                " Al final vinieron {n} invitados.\n"
            },
            "{name}|{n}|granada",
        ),
    ),
    Case(
        "es3_puerta_embarque",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Mira vuelo.txt: la puerta ha cambiado de B12 a C3. Corrígela y luego vuelve a"
            " abrir el archivo para comprobar que quedó bien.",
            "vuelo.txt",
            ["vuelo: IB{code}", "puerta: B12", "embarque: 10:40"],
            ["vuelo: IB{code}", "puerta: C3", "embarque: 10:40"],
            "puerta: C3",
        ),
    ),
    Case(
        "es3_alumnos_lineas",
        "command",
        LANGUAGE,
        forms.count_lines(
            "¿Cuántas líneas tiene alumnos.txt? Compruébalo con un comando, no a ojo.",
            "alumnos.txt",
        ),
    ),
)
