"""Thirteenth fresh Japanese cases: written at once for the held-out-13 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("小早川", "久保田", "大河内", "早乙女", "東海林")

CASES: tuple[Case, ...] = (
    Case(
        "ja13_touyu",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間たったら、灯油を買いに行くのを思い出させて。",
            2,
            "灯油",
            "とうゆ",
            "kerosene",
            "paraffin",
            "heating oil",
            "heizol",
            "petroleo",
            "queroseno",
            "petrole",
        ),
    ),
    Case(
        "ja13_kyuutouki",
        "action",
        LANGUAGE,
        forms.write_file(
            "kyuutouki.txt というファイルに、給湯器の点検が金曜の午後にあること、"
            "担当は{name}さんで受付番号は{code}だということをメモしておいて。",
            "kyuutouki.txt",
        ),
    ),
    Case(
        "ja13_yuka_danbou",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "yuka_danbou.ini の温度を 25 から 22 に書き換えて。行は増やさないでね。",
            "yuka_danbou.ini",
            ["temp = 25", "off_timer = {n}", "child_lock = on"],
            ["temp = 22", "off_timer = {n}", "child_lock = on"],
        ),
    ),
    Case(
        "ja13_chuurinjou",
        "recall",
        LANGUAGE,
        forms.remember(
            "駅前の駐輪場の契約番号は{code}。覚えておいてね。",
            "駅前の駐輪場の契約番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja13_trump",
        "no-tool",
        LANGUAGE,
        forms.number(
            "トランプって、ジョーカーを除くと全部で何枚あるの？",
            52,
            "五十二枚",
            "fifty-two",
            "fifty two",
            "zweiundfunfzig",
            "zweiundfünfzig",
            "cincuenta y dos",
            "cinquante-deux",
        ),
    ),
    Case(
        "ja13_fujisan_ken",
        "no-tool",
        LANGUAGE,
        forms.words(
            "富士山は何県と何県にまたがっているか教えて。",
            "静岡|shizuoka",
            "山梨|yamanashi",
            stream=True,
        ),
    ),
    Case(
        "ja13_cat_matome",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "memo_a.txt と memo_b.txt をつなげて matome.txt という一つのファイルにしたい。"
            "どんなコマンドになる？書くだけにして、実行はしないで。",
            {"memo_a.txt": "前半 {n}\n", "memo_b.txt": "後半 {code}\n"},
            r"(?<![a-z])cat\s+(?:-\S+\s+)*(?:\./)?memo_a\.txt\s+(?:\./)?memo_b\.txt\s*>>?\s*"
            r"(?:\./)?matome\.txt",
            "a cat command joining memo_a.txt and memo_b.txt into matome.txt",
        ),
    ),
    Case(
        "ja13_bazaar",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "bazaar_houkoku.txt をざっとまとめて。売上金を数えてくれたのは誰だった？",
            {
                "bazaar_houkoku.txt": "バザー報告（来場者{n}名）\n"
                "当日は雨でしたが、バザーは予定どおり開かれました。\n"
                "会計の{name}さんが売上金を数えてくれました。\n"
                "売れ残った品物は近くの施設に寄付しました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja13_meibo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "kaiin_meibo.txt の行数を数えて、最後に「藤原」を一行足してから、もう一度数え直して。",
            "kaiin_meibo.txt",
            "藤原",
        ),
    ),
    Case(
        "ja13_bihin",
        "command",
        LANGUAGE,
        forms.count_lines(
            "bihin.txt が何行あるか、コマンドを使って数えてくれる？",
            "bihin.txt",
        ),
    ),
)
