"""The English cases of the agentic benchmark (the suite's first thirty)."""

from __future__ import annotations

import json
import random
import re

from bench._agentic_cases.effects import (
    after_tool,
    answer_has,
    answer_matches,
    both,
    date_in,
    file_has,
    file_is,
    file_lines_after,
    file_matches,
    listing,
    read_text,
    short,
    task_due,
    weekday_in,
    without_tools,
)
from bench._agentic_cases.script import (
    EXEC,
    FILES,
    SAVE,
    SCHEDULE,
    Case,
    Outcome,
    Script,
    act,
    chat,
    look,
)
from bench._agentic_checks import normalized

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August")
UNRELATED = (
    chat("What is the capital of France? One word."),
    chat("Give me one synonym for 'happy'."),
)
NAMES = ("Ana", "Bruno", "Chen", "Dana", "Emil", "Farah", "Goran", "Hana", "Ivo", "Jun")
CITIES = ("Lisbon", "Oslo", "Krakow", "Porto", "Lyon", "Ghent", "Turin", "Bergen")
ITEMS = ("rye bread", "green apples", "coffee beans", "basil", "lemons", "rice noodles")
TEAS = ("jasmine tea", "rooibos", "sencha", "earl grey", "oolong", "chamomile")
IDEAS = ("a bike repair class", "a shared tool library", "a street piano", "a seed swap")
WORDS = ("apple", "river", "copper", "violet", "falcon", "maple", "harbor", "pepper")


def _write_note(rng: random.Random) -> Script:
    item = rng.choice(ITEMS)
    return Script(
        (
            act(
                f"Write a note to notes.txt that says: buy oat milk and {item}.", FILES, stream=True
            ),
        ),
        file_has("notes.txt", "oat milk", item),
    )


def _write_hello(rng: random.Random) -> Script:
    name = rng.choice(NAMES)
    return Script(
        (act(f"Create a file hello.txt containing exactly this text: Hello, {name}!", FILES),),
        file_is("hello.txt", f"Hello, {name}!"),
    )


def _append_todo(rng: random.Random) -> Script:
    task = f"- book the {rng.choice(CITIES)} train"
    old = ["- call the bank", "- water the plants"]
    return Script(
        (act(f"Append the line '{task}' to todo.txt.", FILES),),
        file_lines_after("todo.txt", old, task),
        {"todo.txt": "\n".join(old) + "\n"},
    )


def _append_after_chat(rng: random.Random) -> Script:
    entry = f"Met {rng.choice(NAMES)} about the roof"
    old = ["Mon: rain all day", "Tue: fixed the gate"]
    return Script(
        (*UNRELATED, act(f"Add '{entry}' as a new last line of journal.txt.", FILES)),
        file_lines_after("journal.txt", old, entry),
        {"journal.txt": "\n".join(old) + "\n"},
    )


def _write_json(rng: random.Random) -> Script:
    port = rng.randint(3000, 9999)

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, "config.json")
        if text is None:
            return f"no config.json (files: {listing(outcome.workdir)})"
        try:
            data = json.loads(text)
        except ValueError:
            return f"config.json is not JSON: {short(text)}"
        if not isinstance(data, dict) or str(data.get("port")) != str(port):
            return f"config.json has no port {port}: {short(text)}"
        return None

    return Script(
        (act(f'Create config.json holding a JSON object whose key "port" is {port}.', FILES),),
        check,
    )


def _write_subdir(rng: random.Random) -> Script:
    idea = rng.choice(IDEAS)
    return Script(
        (
            act(
                f"Create drafts/ideas.md with the heading '# Ideas' and one bullet point: {idea}.",
                FILES,
            ),
        ),
        file_has("drafts/ideas.md", "# ideas", idea),
    )


def _edit_setting(rng: random.Random) -> Script:
    lang = rng.choice(("en", "de", "pt", "fr"))

    def check(outcome: Outcome) -> str | None:
        text = read_text(outcome, "settings.ini")
        if text is None:
            return f"no settings.ini (files: {listing(outcome.workdir)})"
        flat = normalized(text)
        for pattern in (r"theme\s*=\s*dark", rf"language\s*=\s*{lang}\b", r"font_size\s*=\s*12"):
            if re.search(pattern, flat) is None:
                return f"settings.ini lacks {pattern!r}: {short(text)}"
        if "light" in flat:
            return f"settings.ini still says light: {short(text)}"
        return None

    return Script(
        (
            act(
                "In settings.ini, change the theme to dark and keep the other settings"
                " as they are.",
                FILES,
                3,
            ),
        ),
        check,
        {"settings.ini": f"theme = light\nlanguage = {lang}\nfont_size = 12\n"},
    )


def _shopping_file(rng: random.Random) -> Script:
    x, y = rng.sample(ITEMS, 2)
    return Script(
        (
            chat("I'm cooking dinner for friends tonight."),
            act(f"Please put this shopping list in shopping.txt: eggs, {x}, {y}.", FILES),
        ),
        file_has("shopping.txt", "eggs", x, y),
    )


def _trip_two_turns(rng: random.Random) -> Script:
    city, day = rng.choice(CITIES), rng.randint(3, 27)
    month = rng.choice(MONTHS)
    return Script(
        (
            chat(f"I'm going to {city} on {month} {day} for a conference."),
            act("Write that trip down in trip.txt, with the city and the date.", FILES),
        ),
        both(
            file_has("trip.txt", city),
            file_matches("trip.txt", rf"\b0?{day}\b", f"the day {day}"),
        ),
    )


def _copy_file(rng: random.Random) -> Script:
    code = f"{rng.choice(WORDS)}-{rng.randint(1000, 9999)}"
    return Script(
        (act("Copy the contents of source.txt into a new file backup.txt.", FILES | EXEC),),
        file_has("backup.txt", code),
        {"source.txt": f"release code: {code}\n"},
    )


def _date_to_file(rng: random.Random) -> Script:
    return Script(
        (act("Write today's date (UTC) into today.txt.", FILES, 3),),
        date_in("UTC", "today.txt"),
    )


def _remember_birthday(rng: random.Random) -> Script:
    name, month, day = rng.choice(NAMES), rng.choice(MONTHS), rng.randint(2, 28)
    return Script(
        (
            act(f"Remember that my sister {name}'s birthday is on {month} {day}.", SAVE),
            look(f"When is my sister {name}'s birthday?", 1, session="b"),
        ),
        both(
            answer_has(month),
            answer_matches(rf"\b0?{day}(st|nd|rd|th)?\b", f"the day {day}"),
        ),
    )


def _remember_tea(rng: random.Random) -> Script:
    tea = rng.choice(TEAS)
    return Script(
        (
            *UNRELATED,
            act(f"Please remember for the future: my favourite tea is {tea}.", SAVE),
            look("What's my favourite tea?", 1, session="b", stream=True),
        ),
        answer_has(tea),
    )


def _remember_code(rng: random.Random) -> Script:
    city, code = rng.choice(CITIES), str(rng.randint(1000, 9999))
    return Script(
        (
            act(
                "Save this in your long-term memory: "
                f"the door code of the {city} office is {code}.",
                SAVE,
            ),
            look(f"What is the door code of the {city} office?", 1, session="b"),
        ),
        answer_has(code),
    )


def _weekday_tokyo(rng: random.Random) -> Script:
    return Script(
        (look("What day of the week is it in Tokyo right now?", stream=True),),
        weekday_in("Asia/Tokyo"),
    )


def _weekday_after_chat(rng: random.Random) -> Script:
    return Script(
        (*UNRELATED, look("And what weekday is it now in New York?")),
        weekday_in("America/New_York"),
    )


def _utc_date(rng: random.Random) -> Script:
    return Script((look("What is today's date in UTC?"),), date_in("UTC"))


def _read_setting(rng: random.Random) -> Script:
    timeout = rng.randint(11, 97)
    return Script(
        (look("What is the timeout set to in app.conf?"),),
        answer_has(str(timeout)),
        {"app.conf": f"[server]\nhost = 0.0.0.0\ntimeout = {timeout}\nretries = 3\n"},
    )


def _list_files(rng: random.Random) -> Script:
    names = [f"{w}.txt" for w in rng.sample(WORDS, 2)] + [f"{rng.choice(WORDS)}_plan.md"]
    return Script(
        (look("What files are in your workdir?"),),
        answer_has(*names),
        {name: f"{name}\n" for name in names},
    )


def _first_line(rng: random.Random) -> Script:
    first = f"The {rng.choice(WORDS)} sings at dawn"
    return Script(
        (look("What's the first line of poem.txt?", stream=True),),
        answer_has(first),
        {"poem.txt": f"{first}\nand the sea replies\nwith salt and light\n"},
    )


def _list_then_read(rng: random.Random) -> Script:
    word, locker = rng.choice(WORDS), rng.randint(10, 99)
    return Script(
        (
            look("Which files do you have in your workdir?"),
            look("What does the file in the notes folder say?"),
        ),
        answer_has(word, str(locker)),
        {
            "notes/reminder.txt": f"Pick up the {word} key from locker {locker}.\n",
            "readme.md": "# My files\n",
        },
    )


def _remind_later(rng: random.Random) -> Script:
    chore, hours = rng.choice(("call the dentist", "water the plants", "pay the rent")), 2
    return Script(
        (act(f"Remind me in {hours} hours to {chore}.", SCHEDULE),),
        task_due(hours, chore.split()[-1]),
    )


def _count_lines(rng: random.Random) -> Script:
    count = rng.randint(5, 14)
    lines = "".join(f"{rng.choice(WORDS)} {i}\n" for i in range(count))
    return Script(
        (
            act(
                "Run a shell command that counts the lines of data.txt, and tell me the number.",
                EXEC,
            ),
        ),
        after_tool("exec", answer_matches(rf"\b{count}\b", f"{count} lines")),
        {"data.txt": lines},
    )


def _run_script(rng: random.Random) -> Script:
    token = f"{rng.choice(WORDS)}-{rng.randint(100, 999)}"
    return Script(
        (act("Run the script greet.sh with sh and tell me what it prints.", EXEC),),
        after_tool("exec", answer_has(token)),
        {"greet.sh": f'printf "%s-%s\\n" "{token.split("-")[0]}" "{token.split("-")[1]}"\n'},
    )


def _two_plus_two(rng: random.Random) -> Script:
    return Script((chat("What is 2+2?"),), without_tools(answer_matches(r"\b(4|four)\b", "4")))


def _good_morning(rng: random.Random) -> Script:
    return Script(
        (chat("Translate 'good morning' into Spanish.", stream=True),),
        without_tools(answer_has("buenos dias")),
    )


def _capital(rng: random.Random) -> Script:
    return Script((chat("What is the capital of Japan?"),), without_tools(answer_has("tokyo")))


def _python_len(rng: random.Random) -> Script:
    return Script(
        (chat("In Python, what does len([1, 2, 3]) return?"),),
        without_tools(answer_matches(r"\b(3|three)\b", "3")),
    )


def _thank_you(rng: random.Random) -> Script:
    return Script(
        (chat("How do you say 'thank you' in French?"),), without_tools(answer_has("merci"))
    )


def _chat_after_tools(rng: random.Random) -> Script:
    return Script(
        (
            look("List the files in your workdir."),
            chat("Thanks! Unrelated question: what is 7 times 8?"),
        ),
        without_tools(answer_matches(r"\b(56|fifty-six|fifty six)\b", "56")),
        {"a.txt": "a\n", "b.txt": "b\n"},
    )


CASES: tuple[Case, ...] = (
    Case("write_note", "action", "en", _write_note),
    Case("write_hello", "action", "en", _write_hello),
    Case("append_todo", "action", "en", _append_todo),
    Case("append_after_chat", "action", "en", _append_after_chat),
    Case("write_json", "action", "en", _write_json),
    Case("write_subdir", "action", "en", _write_subdir),
    Case("edit_setting", "action", "en", _edit_setting),
    Case("shopping_file", "action", "en", _shopping_file),
    Case("trip_two_turns", "action", "en", _trip_two_turns),
    Case("copy_file", "action", "en", _copy_file),
    Case("date_to_file", "action", "en", _date_to_file),
    Case("remind_later", "action", "en", _remind_later),
    Case("remember_birthday", "recall", "en", _remember_birthday),
    Case("remember_tea", "recall", "en", _remember_tea),
    Case("remember_code", "recall", "en", _remember_code),
    Case("weekday_tokyo", "info", "en", _weekday_tokyo),
    Case("weekday_after_chat", "info", "en", _weekday_after_chat),
    Case("utc_date", "info", "en", _utc_date),
    Case("read_setting", "info", "en", _read_setting),
    Case("list_files", "info", "en", _list_files),
    Case("first_line", "info", "en", _first_line),
    Case("list_then_read", "info", "en", _list_then_read),
    Case("count_lines", "command", "en", _count_lines),
    Case("run_script", "command", "en", _run_script),
    Case("two_plus_two", "no-tool", "en", _two_plus_two),
    Case("good_morning", "no-tool", "en", _good_morning),
    Case("capital", "no-tool", "en", _capital),
    Case("python_len", "no-tool", "en", _python_len),
    Case("thank_you", "no-tool", "en", _thank_you),
    Case("chat_after_tools", "after-tool", "en", _chat_after_tools),
)
