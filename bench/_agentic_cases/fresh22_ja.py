"""Twenty-second fresh Japanese cases: written at once for the held-out-22 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("五十嵐", "宇佐美", "勅使河原", "東海林", "長宗我部")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: a mode that lets the owner run the file (symbolic with x added, or octal with the owner's
#: digit odd), and the file, as a command may write them.
_START = r"(?<![a-z0-9_-])"
_MODE = (
    r"(?:[ugoa]*[+=][rwxst]*x[rwxst]*(?:,[ugoa]*[+=-][rwxst]*)*"
    r"|0?[1357][0-7]{2}(?![0-7]))"
)
_SH = r"['\"]?(?:[\w~./-]*/)?backup\.sh(?![\w.])"

#: The commands that make backup.sh executable, as an answer may write them.
_JIKKOU = _START + r"chmod\s+(?:-\S+\s+)*" + _MODE + r"\s+" + _SH

CASES: tuple[Case, ...] = (
    Case(
        "ja22_takkyubin",
        "action",
        LANGUAGE,
        forms.write_file(
            "takkyubin.txt に、荷物は{name}さんが預かってくれてて、問い合わせ番号は{code}って"
            "メモしといて。",
            "takkyubin.txt",
        ),
    ),
    Case(
        "ja22_chusha",
        "action",
        LANGUAGE,
        forms.remind(
            "コインパーキングに停めてる車、2時間半たったら移動させないといけないから、その時に"
            "知らせてくれる？",
            2.5,
            "車",
            "駐車",
            "パーキング",
            "移動",
            "car",
            "parking",
            "auto",
            "wagen",
            "parken",
            "coche",
            "aparca",
            "voiture",
            "stationnement",
        ),
    ),
    Case(
        "ja22_wifi_channel",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "電子レンジを使うとWi-Fiが切れるから、router.cfg の wifi_channel を6から11に"
            "変えてくれる？新しい行は足さないで、その行を書き換えてね。",
            "router.cfg",
            ["ssid = uchi_no_wifi", "wifi_channel = 6", "router_id = {n}"],
            ["ssid = uchi_no_wifi", "wifi_channel = 11", "router_id = {n}"],
        ),
    ),
    Case(
        "ja22_suitcase",
        "recall",
        LANGUAGE,
        forms.remember(
            "覚えといてほしいんだけど、スーツケースのダイヤル錠の番号は{code}ね。",
            "スーツケースの鍵の番号って何だったっけ？",
        ),
    ),
    Case(
        "ja22_dokusho",
        "no-tool",
        LANGUAGE,
        forms.number(
            "360ページの本を毎日20ページずつ読んだら、何日で読み終わる？",
            18,
            "十八",
            "eighteen",
            "achtzehn",
            "dieciocho",
            "dix-huit",
            "dix huit",
            stream=True,
        ),
    ),
    Case(
        "ja22_kagakushiki",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "水の化学式ってなんだっけ？", r"(?<![a-z0-9])h2o(?![a-z0-9])", "H2O (H₂O)"
        ),
    ),
    Case(
        "ja22_chmod",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "backup.sh を実行できるようにしたいんだけど、どういうコマンドを打てばいい？"
            "自分でやるから、コマンドだけ教えて。",
            {"backup.sh": "#!/bin/sh\ncp -r ~/shashin /mnt/usb/backup_{n}\n"},
            _JIKKOU,
            "a chmod +x backup.sh command",
        ),
    ),
    Case(
        "ja22_souji_touban",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "souji_touban.txt を見て、金曜のゴミ置き場の掃除当番が誰か教えて。",
            {
                "souji_touban.txt": "ゴミ置き場 掃除当番表（{n}号棟）\n"
                "月曜: 山本\n"
                "金曜: {name}\n"
                "日曜: お休み\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja22_yakiniku",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "yoyaku.txt の中身を見せて。それから人数を4人から6人に直して、もう一回読んで"
            "確認させて。",
            "yoyaku.txt",
            ["焼肉 予約番号{n}", "人数: 4人", "時間: 19時"],
            ["焼肉 予約番号{n}", "人数: 6人", "時間: 19時"],
            "人数: 6人",
        ),
    ),
    Case(
        "ja22_meibo",
        "command",
        LANGUAGE,
        forms.count_lines(
            "kaiin_meibo.txt が何行あるか、コマンドで数えてくれる？",
            "kaiin_meibo.txt",
        ),
    ),
)
