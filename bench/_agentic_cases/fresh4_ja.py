"""四つ目の新しい日本語のケース: written at once for the held-out-4 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
SURNAMES = ("佐々木", "石井", "岡田", "西村", "大野")

CASES: tuple[Case, ...] = (
    Case(
        "ja4_hanami_mochimono",
        "action",
        LANGUAGE,
        forms.append_line(
            "「{line}」を hanami.txt の最後に書き足しておいて。",
            "hanami.txt",
            ["レジャーシート: 佐藤", "お茶: 鈴木", "紙皿: 田中"],
            "おにぎり{n}個: 高橋",
        ),
    ),
    Case(
        "ja4_mukae",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間後に、駅まで娘を迎えに行くのをリマインドして。",
            1,
            "迎え",
            "娘",
            "pick",
            "daughter",
            "abhol",
            "tochter",
            "recoger",
            "hija",
            "chercher",
            "fille",
        ),
    ),
    Case(
        "ja4_bucket_tokyo",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "storage.ini の bucket の値の後ろに「-tokyo」を付け足して。"
            "ほかの行はそのままでお願い。",
            "storage.ini",
            ["bucket = kaisha-docs", "region = ap-northeast-1", "keep_days = {n}"],
            ["bucket = kaisha-docs-tokyo", "region = ap-northeast-1", "keep_days = {n}"],
        ),
    ),
    Case(
        "ja4_naisen",
        "recall",
        LANGUAGE,
        forms.remember(
            "覚えておいて。新しい職場での私の内線番号は{code}です。",
            "私の内線番号って何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja4_sankakkei",
        "no-tool",
        LANGUAGE,
        forms.number(
            "三角形の内角の和って何度だっけ？",
            180,
            "百八十",
            "hundred and eighty",
            "hundred eighty",
            "hundertachtzig",
            "ciento ochenta",
            "cent quatre-vingts",
        ),
    ),
    Case(
        "ja4_nagai_kawa",
        "no-tool",
        LANGUAGE,
        forms.words("日本で一番長い川はどこ？", "信濃|shinano"),
    ),
    Case(
        "ja4_cal_miseru",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "今月のカレンダーをターミナルで表示するコマンドを教えて。実行はしなくていいよ。",
            {"kaigi.txt": "会議 {n}日\n"},
            r"(?<![a-z])n?cal(?![a-z])",
            "a cal command",
        ),
    ),
    Case(
        "ja4_bunkasai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "bunkasai.txt に文化祭の反省会の記録があるんだけど、何があったのかまとめて教えて。",
            {
                "bunkasai.txt": "文化祭反省会の記録\n反省会は金曜の放課後に開かれた。"
                "模擬店の売り上げは{n}万円だった。来年の実行委員長には{name}さんが選ばれた。"
                "雨の日は廊下が混雑したという意見が多く出た。\n"
            },
            "{name}|{n}",
            names=SURNAMES,
        ),
    ),
    Case(
        "ja4_yoyaku_ninzu",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "予約の人数が4人から6人に増えたので、yoyaku.txt を読んで人数の行を6に直して、"
            "そのあともう一度ファイルを読んで確認させて。",
            "yoyaku.txt",
            ["店: さくら亭", "人数: 4", "席番号: {n}"],
            ["店: さくら亭", "人数: 6", "席番号: {n}"],
            "人数: 6",
        ),
    ),
    Case(
        "ja4_furima_gyosu",
        "command",
        LANGUAGE,
        forms.count_lines(
            "フリマに出す物を shuppin.txt にまとめてあるんだけど、何行ある？ wc -l で数えて。",
            "shuppin.txt",
        ),
    ),
)
