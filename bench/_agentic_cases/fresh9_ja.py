"""Ninth fresh Japanese cases: written at once for the held-out-9 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

CASES: tuple[Case, ...] = (
    Case(
        "ja9_ofuro",
        "action",
        LANGUAGE,
        forms.remind(
            "30分後に、お風呂のお湯を止めるのを知らせてくれる？",
            0.5,
            "風呂",
            "お湯",
            "bath",
            "badewanne",
            "badewasser",
            "bañera",
            "baignoire",
            "bain",
        ),
    ),
    Case(
        "ja9_kondate",
        "action",
        LANGUAGE,
        forms.append_line(
            "kondate.txt の最後に「{line}」という行を足しておいて。",
            "kondate.txt",
            ["月曜: カレー", "火曜: 焼き魚", "水曜: 親子丼"],
            "木曜: 餃子{n}個",
        ),
    ),
    Case(
        "ja9_senpuki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "fan.conf の speed を 2 から 3 に上げて。ほかの行は変えないでね。",
            "fan.conf",
            ["speed = 2", "swing = on", "timer = {n}"],
            ["speed = 3", "swing = on", "timer = {n}"],
        ),
    ),
    Case(
        "ja9_bijutsukan",
        "recall",
        LANGUAGE,
        forms.remember(
            "美術館の年間パスの番号は{code}です。覚えておいてもらえますか。",
            "美術館の年間パスの番号、何番だったっけ？",
        ),
    ),
    Case(
        "ja9_sanjou",
        "no-tool",
        LANGUAGE,
        forms.number(
            "4の3乗はいくつですか？",
            64,
            "六十四",
            "sixty-four",
            "vierundsechzig",
            "sesenta y cuatro",
            "soixante-quatre",
        ),
    ),
    Case(
        "ja9_mizuumi",
        "no-tool",
        LANGUAGE,
        forms.words(
            "日本でいちばん大きい湖はどこですか？",
            "琵琶湖|びわ湖|biwa",
            stream=True,
        ),
    ),
    Case(
        "ja9_log_kanshi",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "access.log に追記されていく内容をリアルタイムで見続けるコマンドを教えて。"
            "実行はしないでね。",
            {"access.log": "GET /index.html 200 {n}\n"},
            r"tail\s+(?:-n\s*\d+\s+)?(?:-f|--follow(?:=\w+)?)\s+(?:-n\s*\d+\s+)?\S*access\.log"
            r"|tail\s+-\d*f\s+\S*access\.log"
            r"|less\s+\+f\s+\S*access\.log",
            "a tail -f command",
        ),
    ),
    Case(
        "ja9_kyushoku_touban",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "kyushoku_touban.txt を開いて、水曜日の給食当番が誰か教えて。",
            {
                "kyushoku_touban.txt": "給食当番 {n}組\n月曜: 佐々木\n火曜: 高橋\n"
                "水曜: {name}\n木曜: 伊藤\n金曜: 渡辺\n"
            },
            "{name}",
        ),
    ),
    Case(
        "ja9_bousai_kunren",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "bousai_kunren.txt の行数を数えて、最後に「中村 大輔」を足してから、"
            "もう一度行数を数えて。",
            "bousai_kunren.txt",
            "中村 大輔",
        ),
    ),
    Case(
        "ja9_haisou_sendai",
        "command",
        LANGUAGE,
        forms.grep_count(
            "grep を使って、haisou.csv の中で Sendai を含む行が何行あるか調べて。",
            "haisou.csv",
            "Sendai",
            ("Morioka", "Akita", "Yamagata"),
        ),
    ),
)
