"""Fourteenth fresh Japanese cases: written at once for the held-out-14 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("勅使河原", "御手洗", "長宗我部", "一条寺", "西園寺")

CASES: tuple[Case, ...] = (
    Case(
        "ja14_sentakumono",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間後に、ベランダの洗濯物を取り込むよう知らせてくれる？",
            1,
            "洗濯",
            "せんたく",
            "laundry",
            "washing",
            "wasche",
            "ropa",
            "linge",
        ),
    ),
    Case(
        "ja14_shinkansen",
        "action",
        LANGUAGE,
        forms.write_file(
            "shinkansen.txt に、来週水曜の新幹線は{name}さんの分も指定席を取ってあって、"
            "予約番号は{code}だと書いておいて。",
            "shinkansen.txt",
        ),
    ),
    Case(
        "ja14_shower_ondo",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "shower.ini のお湯の温度を 42 から 40 に直してほしい。新しい行は足さないで、"
            "今の行を書き換えて。",
            "shower.ini",
            ["temp = 42", "mode = eco", "limit = {n}"],
            ["temp = 40", "mode = eco", "limit = {n}"],
        ),
    ),
    Case(
        "ja14_furusato_nouzei",
        "recall",
        LANGUAGE,
        forms.remember(
            "ふるさと納税の申込番号は{code}です。忘れないように覚えておいてください。",
            "ふるさと納税の申込番号って何番だった？",
        ),
    ),
    Case(
        "ja14_saikoro",
        "no-tool",
        LANGUAGE,
        forms.number(
            "サイコロの向かい合った面の目を足すと、いくつになる？",
            7,
            "sieben",
            "siete",
        ),
    ),
    Case(
        "ja14_rashomon",
        "no-tool",
        LANGUAGE,
        forms.words("『羅生門』を書いた作家は誰ですか？", "芥川|akutagawa", stream=True),
    ),
    Case(
        "ja14_kakeibo_grep",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "kakeibo.csv から「食費」が入っている行だけを表示するコマンドを教えて。"
            "実行はしなくていいからね。",
            {"kakeibo.csv": "日付,項目,金額\n12/1,食費,{n}00\n12/2,交通費,{code}\n"},
            r"(?<![a-z])grep\s+(?:-\S+\s+)*['\"「]?食費['\"」]?\s+(?:-\S+\s+)*(?:\./)?kakeibo\.csv"
            r"|(?<![a-z])cat\s+(?:\./)?kakeibo\.csv\s*\|\s*grep\s+(?:-\S+\s+)*['\"「]?食費",
            "a grep command for 食費 in kakeibo.csv",
        ),
    ),
    Case(
        "ja14_natsumatsuri",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "natsumatsuri_hansei.txt の内容をまとめて。かき氷の機械を貸してくれたのは誰だっけ？",
            {
                "natsumatsuri_hansei.txt": "夏祭り反省会（参加{n}名）\n"
                "今年は天気に恵まれ、例年より人出が多かった。\n"
                "{name}さんがかき氷の機械を貸してくれました。\n"
                "来年はごみ箱の数を増やすことになりました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja14_kouminkan",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "kouminkan_yoyaku.txt が何行あるか数えて、末尾に「村上」を一行足したら、"
            "もう一度数えてみて。",
            "kouminkan_yoyaku.txt",
            "村上",
        ),
    ),
    Case(
        "ja14_okurimono",
        "command",
        LANGUAGE,
        forms.count_lines(
            "okurimono_list.txt って何行ある？コマンドで確かめてほしい。",
            "okurimono_list.txt",
        ),
    ),
)
