"""Twenty-eighth fresh English cases: written at once for the held-out-28 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "en"

#: Names the file questions use: long enough that no other word of an answer holds one.
HOLDERS = ("Algernon", "Philippa", "Cornelius", "Rosalind", "Octavia")

#: The names the recall saves, one per run.
SWEEPS = ("Fitzgerald", "Thaddeus", "Lysander", "Percival")

#: The command that makes backup.sh executable: chmod with +x (for anyone) or an octal mode
#: whose owner digit allows running, then the script.
_CHMOD = (
    r"(?<![\w-])chmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rw]*x[rw]*|0?[1357][0-7]{2})\s+"
    r"['\"]?(?:[\w~./-]*/)?backup\.sh['\"]?(?![\w.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "en28_seed_order",
        "action",
        LANGUAGE,
        forms.append_line(
            "Please add '{line}' to the bottom of seed_order.txt and leave everything else in"
            " there as it is.",
            "seed_order.txt",
            ["Runner beans", "Carrots (Nantes)", "Sweet peas"],
            "Courgette seeds from {name}",
        ),
    ),
    Case(
        "en28_vet_call",
        "action",
        LANGUAGE,
        forms.remind(
            "Remind me in an hour to phone the vet about booking the dog in for his jab.",
            1,
            "vet",
            "dog",
            "jab",
            "tierarzt",
            "hund",
            "veterinario",
            "perro",
            "vétérinaire",
            "chien",
            "獣医",
        ),
    ),
    Case(
        "en28_snooze",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "The snooze on my alarm is far too long, I keep being late. In alarm_clock.cfg change"
            " snooze_minutes from 10 to 5 - fix the line that's there, don't add a new one.",
            "alarm_clock.cfg",
            ["volume = 6", "snooze_minutes = 10", "brightness = {n}"],
            ["volume = 6", "snooze_minutes = 5", "brightness = {n}"],
        ),
    ),
    Case(
        "en28_chimney_sweep",
        "recall",
        LANGUAGE,
        forms.remember(
            "Could you remember that the chimney sweep who did our flue in March is called"
            " {value}? I'll want him again next year.",
            "What was the name of the chimney sweep who did our flue?",
            SWEEPS,
        ),
    ),
    Case(
        "en28_coach_trip",
        "no-tool",
        LANGUAGE,
        forms.number(
            "I'm sorting out the club outing: 3 minibuses with 16 seats each, all full, plus 9"
            " people driving themselves. How many people are coming altogether?",
            57,
            "fifty-seven",
            "fifty seven",
            "siebenundfünfzig",
            "cincuenta y siete",
            "cinquante-sept",
            "五十七",
            stream=True,
        ),
    ),
    Case(
        "en28_feierabend",
        "no-tool",
        LANGUAGE,
        forms.words(
            "My German colleague says 'Feierabend!' every evening when she logs off. What does"
            " it mean?",
            "work|evening|day",
        ),
    ),
    Case(
        "en28_backup_script",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "How do I make my backup.sh script executable? Just give me the command, I'll run it"
            " myself.",
            {"shopping.txt": "Eggs x{n}\nParcel locker {code}\n"},
            _CHMOD,
            "a chmod +x backup.sh command",
        ),
    ),
    Case(
        "en28_book_club",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "Have a look in book_club.txt and tell me who's hosting next month.",
            {
                "book_club.txt": "Book club, meeting {n}\n"
                "Book: The Remains of the Day\n"
                "Host next month: {name}\n"
                "Bring: something to nibble\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "en28_car_colour",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "Show me car_details.txt, then change the colour from silver to blue and show it to"
            " me again so I can check it before I send off the parking permit form.",
            "car_details.txt",
            ["Car details, permit {n}", "colour: silver", "make: Skoda"],
            ["Car details, permit {n}", "colour: blue", "make: Skoda"],
            "colour: blue",
        ),
    ),
    Case(
        "en28_raffle",
        "command",
        LANGUAGE,
        forms.count_lines(
            "raffle_tickets.txt has one ticket per line for the school fair raffle. How many have"
            " we sold so far? Count them with a command, please.",
            "raffle_tickets.txt",
        ),
    ),
)
