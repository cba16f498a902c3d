"""Sixth fresh Japanese cases: written at once for the held-out-6 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
#: Japanese family names, so a summary or a note keeps them as written.
NAMES = ("佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤")

CASES: tuple[Case, ...] = (
    Case(
        "ja6_futon",
        "action",
        LANGUAGE,
        forms.remind(
            "3時間後に、ベランダに干した布団を取り込むようリマインドして。",
            3,
            "布団",
            "ふとん",
            "futon",
            "futón",
            "bettdecke",
            "edredón",
            "couette",
        ),
    ),
    Case(
        "ja6_tougei",
        "action",
        LANGUAGE,
        forms.write_file(
            "tougei.txt というファイルを作って、土曜の陶芸教室は{name}さんの名前で予約済み、"
            "予約番号は {code} とメモしておいて。",
            "tougei.txt",
            names=NAMES,
        ),
    ),
    Case(
        "ja6_sensor_basho",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "sensor.ini の location の名前の後ろに _north を付け足して"
            "（今は living だけになってる）。ほかの行はそのままにしておいてね。",
            "sensor.ini",
            ["location = living", "interval = {n}", "alert = on"],
            ["location = living_north", "interval = {n}", "alert = on"],
        ),
    ),
    Case(
        "ja6_locker",
        "recall",
        LANGUAGE,
        forms.remember(
            "会社のロッカーの暗証番号は {code} だって覚えておいて。",
            "会社のロッカーの暗証番号、何番だったっけ？",
        ),
    ),
    Case(
        "ja6_tako_shinzo",
        "no-tool",
        LANGUAGE,
        forms.number(
            "タコの心臓っていくつあるの？",
            3,
            "三つ",
            "三個",
            "みっつ",
            "three",
            "drei",
            "tres",
            "trois",
        ),
    ),
    Case(
        "ja6_romeo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "『ロミオとジュリエット』を書いたのは誰？",
            "シェイクスピア|シェークスピア|shakespeare",
            stream=True,
        ),
    ),
    Case(
        "ja6_whoami",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "今ログインしているユーザー名を確認するコマンドを教えて。実行はしないで、コマンドだけ見せてね。",
            {"login_kiroku.txt": "ログイン回数: {n}\n"},
            r"(?<![A-Za-z])whoami(?![A-Za-z])|(?<![A-Za-z])id\s+-un",
            "whoami",
        ),
    ),
    Case(
        "ja6_undokai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "undokai.txt に書いてあることを簡単にまとめて。",
            {
                "undokai.txt": "運動会は晴れて予定どおりに行われた。\n"
                "リレーのアンカーは{name}さんで、最後に二人を抜いた。\n"
                "参加した家族は{n}組だった。\n"
                "お昼はみんなで校庭でお弁当を食べた。\n"
            },
            "{name}",
            names=NAMES,
        ),
    ),
    Case(
        "ja6_benkyoukai",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "benkyoukai.txt を見せて、開始時刻を 13:30 から 14:00 に変えてから、"
            "もう一度ファイルを見せて確認させて。",
            "benkyoukai.txt",
            ["テーマ: 家計簿アプリ", "開始: 13:30", "参加: {n}名"],
            ["テーマ: 家計簿アプリ", "開始: 14:00", "参加: {n}名"],
            "14:00",
        ),
    ),
    Case(
        "ja6_sapporo",
        "command",
        LANGUAGE,
        forms.grep_count(
            "uriage.csv の中で Sapporo の行はいくつある？grep で数えて。",
            "uriage.csv",
            "Sapporo",
            ("Sendai", "Fukuoka", "Kobe"),
        ),
    ),
)
