"""Eighteenth fresh Japanese cases: written at once for the held-out-18 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("神宮寺", "鷲尾", "八乙女", "都築", "相楽")

CASES: tuple[Case, ...] = (
    Case(
        "ja18_nengajou",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間半後に、年賀状をポストに出しに行くのを思い出させてくれる？",
            2.5,
            "年賀状",
            "ポスト",
            "投函",
            "card",
            "karte",
            "tarjeta",
            "carte",
            "new year",
            "neujahr",
            "ano nuevo",
            "nouvel an",
        ),
    ),
    Case(
        "ja18_sodai_gomi",
        "action",
        LANGUAGE,
        forms.write_file(
            "sodai_gomi.txt に、粗大ごみの受付番号は{code}で、当日の運び出しは"
            "{name}さんが手伝ってくれるって書いといて。",
            "sodai_gomi.txt",
        ),
    ),
    Case(
        "ja18_water_server",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "water_server.ini のお湯の温度を 90 から 80 に下げてほしい。"
            "追記じゃなくて、元の行を直す形でお願い。",
            "water_server.ini",
            ["onsui = 90", "reisui = 6", "sleep = {n}"],
            ["onsui = 80", "reisui = 6", "sleep = {n}"],
        ),
    ),
    Case(
        "ja18_kaigo_hoken",
        "recall",
        LANGUAGE,
        forms.remember(
            "母の介護保険証の番号、下4桁は{code}なので覚えておいてください。",
            "母の介護保険証の下4桁って何番だったっけ？",
        ),
    ),
    Case(
        "ja18_eto",
        "no-tool",
        LANGUAGE,
        forms.number(
            "干支の動物って、全部で何種類いるんだっけ？",
            12,
            "十二",
            "twelve",
            "zwolf",
            "doce",
            "douze",
        ),
    ),
    Case(
        "ja18_osakajou",
        "no-tool",
        LANGUAGE,
        forms.words("大阪城を最初に建てたのは誰？", "秀吉|hideyoshi", stream=True),
    ),
    Case(
        "ja18_clear",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "ターミナルの画面がごちゃごちゃしてきたから、表示をきれいに消すコマンドを教えて。"
            "自分で打つので、実行はしないで。",
            {"sagyou_memo.txt": "作業メモ その{n}\n"},
            r"(?<![\w-])(?:clear|reset|cls|tput\s+clear)(?![\w-])"
            r"|ctrl\s*[+-]\s*l(?![a-z])|\^l(?![a-z])",
            "a clear (or reset, Ctrl+L) command",
        ),
    ),
    Case(
        "ja18_imohori",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "imohori.txt をかいつまんで教えて。一番大きなさつまいもを掘ったのは誰だった？",
            {
                "imohori.txt": "町内の芋掘り会の記録（参加{n}名）\n"
                "朝九時に集会所からバスで畑へ向かいました。\n"
                "{name}さんが一番大きなさつまいもを掘り当てました。\n"
                "帰りに焼き芋をみんなで食べました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja18_shodou_meibo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "shodou_meibo.txt（書道教室の名簿）の行数をまず数えて。"
            "そのあと末尾に「藤田」を書き足して、行数が増えたかもう一度確かめてくれる？",
            "shodou_meibo.txt",
            "藤田",
        ),
    ),
    Case(
        "ja18_ryoushuusho",
        "command",
        LANGUAGE,
        forms.count_lines(
            "領収書の控え ryoushuusho.txt って何行あるか、ターミナルのコマンドで数えてくれる？",
            "ryoushuusho.txt",
        ),
    ),
)
