"""Seventeenth fresh Japanese cases: written at once for the held-out-17 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("綿貫", "百武", "宇佐美", "猪狩", "城之内")

CASES: tuple[Case, ...] = (
    Case(
        "ja17_oven_pan",
        "action",
        LANGUAGE,
        forms.remind(
            "45分後に、オーブンのパンの焼け具合を見に行くよう声をかけてくれる？",
            0.75,
            "パン",
            "オーブン",
            "bread",
            "oven",
            "brot",
            "ofen",
            "horno",
            "pain",
            "four",
        ),
    ),
    Case(
        "ja17_shounen_yakyuu",
        "action",
        LANGUAGE,
        forms.write_file(
            "yakyuu_shiai.txt に、日曜の少年野球の車出しは{name}さんで、"
            "グラウンドの予約番号は{code}だって書いておいてくれる？",
            "yakyuu_shiai.txt",
        ),
    ),
    Case(
        "ja17_shokusenki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "shokusenki.ini の乾燥時間を 60 から 40 に変えて。"
            "新しく行を書き足すんじゃなくて、その行を直して。",
            "shokusenki.ini",
            ["kansou = 60", "eco = on", "yoyaku = {n}"],
            ["kansou = 40", "eco = on", "yoyaku = {n}"],
        ),
    ),
    Case(
        "ja17_karaoke_kaiin",
        "recall",
        LANGUAGE,
        forms.remember(
            "カラオケ店の会員番号は{code}です。覚えといてもらえますか。",
            "カラオケの会員番号、何番だっけ？",
        ),
    ),
    Case(
        "ja17_tokyo_tower",
        "no-tool",
        LANGUAGE,
        forms.number(
            "東京タワーの高さって何メートルだったっけ？",
            333,
            "三百三十三",
            "three hundred and thirty-three",
            "three hundred thirty-three",
        ),
    ),
    Case(
        "ja17_menseki_ichiban",
        "no-tool",
        LANGUAGE,
        forms.words("日本で一番面積が大きい都道府県ってどこ？", "北海道|hokkaido", stream=True),
    ),
    Case(
        "ja17_moji_code",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "shinsei.txt の文字コードが何か調べるコマンドを教えて。"
            "実行はしなくていいので、コマンドだけお願い。",
            {"shinsei.txt": "申請書の下書き 第{n}版\n"},
            r"(?<![\w-])(?:file|uchardet|enca|chardetect)\s+(?:-\S+\s+)*(?:\./)?['\"]?"
            r"shinsei\.txt"
            r"|(?<![\w-])nkf\s+(?:-\S+\s+)*(?:-g|--guess)\S*\s+(?:-\S+\s+)*(?:\./)?['\"]?"
            r"shinsei\.txt",
            "a file -i (or nkf --guess, uchardet, enca) command for shinsei.txt",
        ),
    ),
    Case(
        "ja17_chiku_seisou",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "chiku_seisou.txt をまとめてくれる？草刈り機を持ってきてくれたのは誰だっけ？",
            {
                "chiku_seisou.txt": "地区の一斉清掃の記録（参加{n}名）\n"
                "朝七時に公園の入口に集まりました。\n"
                "{name}さんが草刈り機を持ってきてくれました。\n"
                "集めたごみは四十袋になりました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja17_takkyu_sanka",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "卓球大会の参加者リスト takkyu_sanka.txt の行数を教えて。"
            "それから最後に「岡本」を追加して、追加後の行数ももう一回数えてね。",
            "takkyu_sanka.txt",
            "岡本",
        ),
    ),
    Case(
        "ja17_tsumitate",
        "command",
        LANGUAGE,
        forms.count_lines(
            "積立の記録 tsumitate.txt が何行になってるか、コマンドで確かめてほしい。",
            "tsumitate.txt",
        ),
    ),
)
