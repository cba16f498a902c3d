"""Thirty-third fresh Spanish cases: written at once for the held-out-33 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Bonifacio", "Ambrosio", "Fulgencio", "Encarnación", "Hermenegildo")

#: The commands that find veterinario in agenda_2025.txt with its line number: grep (or rg)
#: with -n (--line-number) before or after the word, on the file; the file numbered by cat -n
#: or nl and fed to grep; awk printing NR on the lines that match; or sed printing the number.
_AGENDA = r"['\"]?(?:[\w~./-]*/)?agenda_2025\.txt['\"]?(?![\w.-])"
_N = r"(?:-[a-z]*n[a-z]*|--line-number)"
_VET = r"['\"]?veterinario['\"]?"
_CON_LINEA = (
    rf"(?<![\w-])(?:grep|rg)\s+(?:-\S+\s+)*{_N}\s+(?:-\S+\s+)*{_VET}\s+(?:-\S+\s+)*{_AGENDA}"
    rf"|(?<![\w-])grep\s+(?:-\S+\s+)*{_VET}\s+{_AGENDA}\s+(?:-\S+\s+)*{_N}(?![\w-])"
    rf"|(?<![\w-])(?:cat\s+-n|nl(?:\s+-\S+)*)\s+{_AGENDA}\s*\|\s*grep\s+(?:-\S+\s+)*{_VET}"
    rf"|(?<![\w-])awk\s+'/veterinario/\s*\{{[^'\n]*\bnr\b[^'\n]*\}}'\s+{_AGENDA}"
    rf"|(?<![\w-])sed\s+-n\s+['\"]/veterinario/\s*=['\"]\s+{_AGENDA}"
)

#: When she gets home: 15:10 (or 3:10, 15.10, 15h10), or in words.
_LLEGADA = r"(?<![\d.:])(?:15|0?3)\s*[:.h]\s*10(?!\d)|tres y diez"

CASES: tuple[Case, ...] = (
    Case(
        "es33_perito",
        "action",
        LANGUAGE,
        forms.write_file(
            "Ha venido el perito del seguro por la gotera del baño. Apunta en perito_gotera.txt"
            " que se llama {name} y que el número de siniestro es {code}.",
            "perito_gotera.txt",
        ),
    ),
    Case(
        "es33_gasolina",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de una hora que tengo que echar gasolina, que la gasolinera del"
            " pueblo cierra pronto los domingos.",
            1,
            "gasolina",
            "repostar",
            "combustible",
            "petrol",
            "fuel",
            "gas station",
            "tanken",
            "benzin",
            "essence",
            "carburant",
            "ガソリン",
            "給油",
        ),
    ),
    Case(
        "es33_aire_acondicionado",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "La factura de la luz se nos está disparando. En aire_acondicionado.conf sube la"
            " temperatura de 21 a 24; cambia la línea que ya hay, no añadas otra.",
            "aire_acondicionado.conf",
            ["modo = frío", "temperatura = 21", "equipo = {n}"],
            ["modo = frío", "temperatura = 24", "equipo = {n}"],
        ),
    ),
    Case(
        "es33_parking_aeropuerto",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate que he dejado el coche en el parking del aeropuerto, en la plaza {code},"
            " que a la vuelta no me voy a acordar.",
            "¿En qué plaza dejé el coche en el parking del aeropuerto?",
            stream=True,
        ),
    ),
    Case(
        "es33_instituto",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "Mi hija coge el bus del instituto a las 14:35, tarda 25 minutos hasta nuestra"
            " parada y luego camina otros 10 minutos. ¿A qué hora llega a casa?",
            _LLEGADA,
            "15:10",
        ),
    ),
    Case(
        "es33_pelos_en_la_lengua",
        "no-tool",
        LANGUAGE,
        forms.words(
            "Mi marido dice que su madre no tiene pelos en la lengua. ¿Qué quiere decir?",
            "sin rodeos|directa|directo|franca|franco|franqueza|sincera|sincero|sinceridad"
            "|lo que piensa|lo que opina|lo que siente|lo que le parece|sin filtro|sin tapujos"
            "|sin reparos|claramente|habla claro|sin miedo|sin cortarse|no se corta|no se calla"
            "|sin callarse|sin morderse|honesta|dice las cosas|las verdades|a la cara"
            "|outspoken|blunt",
        ),
    ),
    Case(
        "es33_agenda_veterinario",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando busco la palabra veterinario en agenda_2025.txt de forma que me"
            " diga también en qué número de línea está? No lo ejecutes, solo dime el comando.",
            {"recados.txt": "Recoger receta {code}\nComprar {n} pilas\n"},
            _CON_LINEA,
            "a grep -n veterinario agenda_2025.txt command",
        ),
    ),
    Case(
        "es33_club_montana",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "No pude ir a la reunión del club de montaña del jueves. ¿Qué pone en"
            " acta_club_montana.txt? ¿Y quién se encargó del autobús para la salida a Gredos?",
            {
                "acta_club_montana.txt": "Reunión del club de montaña, {n} socios asistentes\n"
                "Se aprobó comprar dos cuerdas nuevas para la escuela de escalada.\n"
                "La cuota anual subió a 40 euros.\n"
                "{name} se encargó de alquilar el autobús para la salida a Gredos.\n"
                "Se decidió pasar la cena de fin de temporada a junio.\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es33_taller_reciclaje",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "En inscritos_taller_reciclaje.txt hay una persona apuntada por línea. Cuenta las"
            " líneas con wc -l, añade «Maricruz Echevarría» al final y vuelve a contar para ver"
            " cuántos somos ahora.",
            "inscritos_taller_reciclaje.txt",
            "Maricruz Echevarría",
        ),
    ),
    Case(
        "es33_puertos_bici",
        "command",
        LANGUAGE,
        forms.grep_count(
            "En puertos_bici.csv apunto cada salida en bici con el puerto que subo. ¿Cuántas"
            " veces he subido Navacerrada este año? Cuéntalo con un comando.",
            "puertos_bici.csv",
            "Navacerrada",
            ("Cotos", "Morcuera", "Canencia", "Abantos"),
        ),
    ),
)
