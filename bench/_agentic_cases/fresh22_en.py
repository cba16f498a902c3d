"""Twenty-second fresh English cases: written at once for the held-out-22 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Ebenezer", "Rosamund", "Cornelius", "Henrietta", "Montgomery")

#: The plumbers' names the recall saves, one per run.
PLUMBERS = ("Desmond", "Rosalind", "Fitzgerald", "Marguerite")

#: The commands that show which process holds port 8080, as an answer may write them: lsof on
#: the port, ss or netstat with their process option (filtered to the port), fuser on it.
_PORT = "|".join(
    (
        r"(?<![\w-])lsof\s[^\n|;&`]*?-i\s*['\"]?(?:tcp|udp)?(?:@[\w.]*)?:8080(?!\d)",
        r"(?<![\w-])(?:ss|netstat)\s+(?:-[a-z]+\s+)*-[a-z]*p[a-z]*[^\n`]*?(?<!\d)8080(?!\d)",
        r"(?<![\w-])fuser\s+(?:-\S+\s+)*8080/tcp",
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "en22_parcel_neighbour",
        "action",
        LANGUAGE,
        forms.write_file(
            "Can you make a file called parcel.txt saying my parcel was left with {name} next"
            " door and the collection code is {code}?",
            "parcel.txt",
        ),
    ),
    Case(
        "en22_lamb_freezer",
        "action",
        LANGUAGE,
        forms.remind(
            "Can you remind me in two hours to take the lamb out of the freezer for tomorrow's"
            " roast?",
            2,
            "lamb",
            "freezer",
            "roast",
            "defrost",
            "thaw",
            "lamm",
            "gefrier",
            "tiefkühl",
            "tiefkuhl",
            "auftau",
            "cordero",
            "congelador",
            "descongel",
            "agneau",
            "congélateur",
            "congelateur",
            "décongel",
            "decongel",
            "ラム",
            "冷凍",
            "解凍",
        ),
    ),
    Case(
        "en22_garden_lights",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The garden lights are bothering the neighbours. In garden_lights.cfg, change off_time"
            " from 23:30 to 22:00 - edit the line that's there, don't tack a new one on.",
            "garden_lights.cfg",
            ["zone = patio", "off_time = 23:30", "controller = {n}"],
            ["zone = patio", "off_time = 22:00", "controller = {n}"],
        ),
    ),
    Case(
        "en22_plumber_name",
        "recall",
        LANGUAGE,
        forms.remember(
            "Can you remember something for me? The plumber who fixed our leak last winter was"
            " called {value}, and he was brilliant.",
            "What was the name of that plumber who fixed the leak?",
            PLUMBERS,
        ),
    ),
    Case(
        "en22_press_ups",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I'm doing 40 press-ups every day for the whole of March. How many is that altogether?",
            1240,
            "one thousand two hundred and forty",
            "one thousand two hundred forty",
            "twelve hundred and forty",
            "twelve hundred forty",
            "eintausendzweihundertvierzig",
            "tausendzweihundertvierzig",
            "mil doscientos cuarenta",
            "mil doscientas cuarenta",
            "mille deux cent quarante",
            "mille deux-cent-quarante",
            "千二百四十",
            stream=True,
        ),
    ),
    Case(
        "en22_station_spanish",
        "no-tool",
        LANGUAGE,
        forms.words(
            "How do I say 'where is the train station?' in Spanish?",
            "dónde|donde",
            "estación|estacion",
        ),
    ),
    Case(
        "en22_port_8080",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Something's already sitting on port 8080 and my dev server won't start. How do I"
            " find out which process it is? Just give me the command, I'll run it myself.",
            {"devserver/config.ini": "port = 8080\nworkers = {n}\n"},
            _PORT,
            "an lsof -i :8080 (or ss -ltnp | grep 8080, fuser 8080/tcp) command",
        ),
    ),
    Case(
        "en22_hall_keys",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Check hall_keys.txt and tell me who's got the spare key to the village hall.",
            {
                "hall_keys.txt": "Village hall keys, set {n}\n"
                "Front door: the caretaker\n"
                "Spare key: {name}\n"
                "Kitchen store: Pauline\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en22_raffle",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "How many lines has raffle_entries.txt got at the moment? Then add 'Dorothy Finch'"
            " on the end and count them again.",
            "raffle_entries.txt",
            "Dorothy Finch",
        ),
    ),
    Case(
        "en22_cheese_orders",
        "command",
        LANGUAGE,
        forms.count_lines(
            "Could you run a command to count how many lines are in cheese_orders.txt?",
            "cheese_orders.txt",
        ),
    ),
)
