"""Tenth fresh Japanese cases: written at once for the held-out-10 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Family names the Japanese files and requests use (none is part of another).
NAMES = ("佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "加藤", "吉田")

CASES: tuple[Case, ...] = (
    Case(
        "ja10_kakitome",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後に、郵便局へ書留を受け取りに行くようリマインドして。",
            2,
            "書留",
            "郵便局",
            "registered",
            "post office",
            "einschreiben",
            "postamt",
            "certificad",
            "correos",
            "recommand",
            "bureau de poste",
        ),
    ),
    Case(
        "ja10_tatami",
        "action",
        LANGUAGE,
        forms.write_file(
            "tatami.txt というファイルを作って、来週の火曜日に畳の張り替えの業者が来ると"
            "書いておいて。担当は{name}さんで、見積番号は{code}です。",
            "tatami.txt",
            names=NAMES,
        ),
    ),
    Case(
        "ja10_kashitsuki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "kashitsuki.ini の湿度の設定を 50 から 60 に変えてください。ほかの行はそのままで。",
            "kashitsuki.ini",
            ["humidity = 50", "timer = {n}", "light = off"],
            ["humidity = 60", "timer = {n}", "light = off"],
        ),
    ),
    Case(
        "ja10_gym_kaiin",
        "recall",
        LANGUAGE,
        forms.remember(
            "ジムの会員番号は{code}なので、覚えておいてください。",
            "ジムの会員番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja10_yakyu_ninzu",
        "no-tool",
        LANGUAGE,
        forms.number(
            "野球では、守備につく選手は1チーム何人ですか？",
            9,
            "九人",
            "nine",
            "neun",
            "nueve",
            "neuf",
        ),
    ),
    Case(
        "ja10_kokucho",
        "no-tool",
        LANGUAGE,
        forms.words(
            "日本の国鳥は何ですか？",
            "キジ|雉|pheasant|fasan|faisan",
            stream=True,
        ),
    ),
    Case(
        "ja10_memo_sakujo",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "old_memo.txt を削除するコマンドを教えて。実行はしないでね。",
            {"old_memo.txt": "牛乳 {n}本\n電池\n"},
            r"(?<![a-z])rm\s+(?:-\S+\s+)*\S*old_memo\.txt",
            "an rm command",
        ),
    ),
    Case(
        "ja10_haitatsu",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "haitatsu.txt を開いて、冷蔵庫を届けてくれるのが誰か教えて。",
            {"haitatsu.txt": "配送予定 第{n}便\nテレビ: 松本\n冷蔵庫: {name}\n洗濯機: 井上\n"},
            "{name}",
            names=NAMES,
        ),
    ),
    Case(
        "ja10_sankasha",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "sankasha.txt の行数を数えてから、最後の行に「小林 健太」を追加して、もう一度"
            "行数を確認して。",
            "sankasha.txt",
            "小林 健太",
        ),
    ),
    Case(
        "ja10_uketsuke_log",
        "command",
        LANGUAGE,
        forms.count_lines(
            "コマンドを実行して、uketsuke.log が何行あるか調べてくれる？",
            "uketsuke.log",
        ),
    ),
)
