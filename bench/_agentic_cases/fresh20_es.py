"""Twentieth fresh Spanish cases: written at once for the held-out-20 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "es"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Maximiliano", "Encarnación", "Bartolomé", "Leocadia", "Florentino")

CASES: tuple[Case, ...] = (
    Case(
        "es20_tomates",
        "action",
        LANGUAGE,
        forms.remind(
            "Recuérdame dentro de tres horas que tengo que regar los tomates del huerto.",
            3,
            "tomate",
            "regar",
            "riego",
            "huerto",
            "tomato",
            "garden",
            "gießen",
            "giessen",
            "arroser",
            "トマト",
            "水やり",
        ),
    ),
    Case(
        "es20_llaves_vecina",
        "action",
        LANGUAGE,
        forms.write_file(
            "Hazme un archivo llaves_vecina.txt que diga que la copia de las llaves la tiene la"
            " vecina {name} y que la combinación del candado del trastero es {code}.",
            "llaves_vecina.txt",
        ),
    ),
    Case(
        "es20_horno",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "En horno.cfg la temperatura está puesta a 200; bájala a 180. Cambia esa línea, no"
            " añadas otra.",
            "horno.cfg",
            ["modo = conveccion", "temperatura = 200", "temporizador = {n}"],
            ["modo = conveccion", "temperatura = 180", "temporizador = {n}"],
        ),
    ),
    Case(
        "es20_taquilla",
        "recall",
        LANGUAGE,
        forms.remember(
            "Apúntate esto, porfa: el número de mi taquilla del gimnasio es el {code}.",
            "¿Qué número tenía mi taquilla del gimnasio?",
        ),
    ),
    Case(
        "es20_pastillas",
        "no-tool",
        LANGUAGE,
        forms.number(
            "Me han mandado una pastilla cada 8 horas durante 10 días. ¿Cuántas pastillas son"
            " en total?",
            30,
            "treinta",
            "thirty",
            "dreißig",
            "dreissig",
            "trente",
            "三十",
            stream=True,
        ),
    ),
    Case(
        "es20_egipto",
        "no-tool",
        LANGUAGE,
        forms.words("¿En qué continente está Egipto?", "africa|afrika|アフリカ"),
    ),
    Case(
        "es20_espacio_fotos",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "¿Con qué comando veo cuánto ocupa la carpeta fotos_viaje? No lo ejecutes, solo"
            " dímelo.",
            {
                "fotos_viaje/playa_01.jpg": "jpeg {code}\n",
                "fotos_viaje/notas.txt": "Cádiz, día {n}\n",
            },
            r"(?<![\w-])(?:du|ncdu)\s+(?:-\S+\s+)*['\"]?(?:[\w~./-]*/)?fotos_viaje(?![\w-])",
            "a du -sh fotos_viaje command",
        ),
    ),
    Case(
        "es20_turnos_tienda",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Mírate turnos_tienda.txt y dime quién abre la tienda el sábado.",
            {
                "turnos_tienda.txt": "Turnos de apertura, semana {n}\n"
                "viernes: Rigoberto\n"
                "sábado: {name}\n"
                "domingo: cerrado\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "es20_carrera_popular",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "¿Cuántas líneas tiene inscritos_carrera.txt? Luego añade al final la línea 'dorsal"
            " 214: Marisol Vega' y vuelve a contarlas.",
            "inscritos_carrera.txt",
            "dorsal 214: Marisol Vega",
        ),
    ),
    Case(
        "es20_cestas_zaragoza",
        "command",
        LANGUAGE,
        forms.grep_count(
            "¿Cuántas líneas de reparto_cestas.csv son de Zaragoza? Cuéntalas con un comando,"
            " porfa.",
            "reparto_cestas.csv",
            "Zaragoza",
            ["Huesca", "Teruel", "Calatayud"],
        ),
    ),
)
