"""Seventh fresh Japanese cases: written at once for the held-out-7 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

CASES: tuple[Case, ...] = (
    Case(
        "ja7_suihanki",
        "action",
        LANGUAGE,
        forms.remind(
            "二時間半後に、炊飯器のスイッチを入れるよう知らせてください。",
            2.5,
            "炊飯器",
            "rice cooker",
            "reiskocher",
            "arrocera",
            "cuiseur",
        ),
    ),
    Case(
        "ja7_hikkoshi",
        "action",
        LANGUAGE,
        forms.write_file(
            "引っ越しの件で、hikkoshi.txt というファイルを作って、業者の担当者は{name}さん、"
            "見積もり番号は{code}だと書いておいてください。",
            "hikkoshi.txt",
        ),
    ),
    Case(
        "ja7_kettle_hoon",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "kettle.conf の保温温度を 80 から 90 に変えてください。ほかの行はそのままで。",
            "kettle.conf",
            ["keep_warm = 80", "timer = {n}", "beep = off"],
            ["keep_warm = 90", "timer = {n}", "beep = off"],
        ),
    ),
    Case(
        "ja7_bouhan_touroku",
        "recall",
        LANGUAGE,
        forms.remember(
            "自転車の防犯登録番号の下4桁は{code}なので、覚えておいてください。",
            "自転車の防犯登録番号の下4桁って何だったっけ？",
        ),
    ),
    Case(
        "ja7_soccer_jikan",
        "no-tool",
        LANGUAGE,
        forms.number(
            "サッカーの試合は、延長戦なしだと前後半合わせて何分ですか？",
            90,
            "九十",
            "ninety",
            "neunzig",
            "noventa",
            "quatre-vingt-dix",
            "quatre vingt dix",
        ),
    ),
    Case(
        "ja7_genji",
        "no-tool",
        LANGUAGE,
        forms.words(
            "『源氏物語』の作者は誰ですか？",
            "紫式部|murasaki",
            stream=True,
        ),
    ),
    Case(
        "ja7_cpu_joho",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このマシンのCPUの情報を確認するコマンドを教えてください。実行はしないでね。",
            {"kiki.txt": "管理番号 {n}\n"},
            r"(?<![a-z])lscpu(?![a-z])|/proc/cpuinfo",
            "lscpu",
        ),
    ),
    Case(
        "ja7_bonenkai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "bonenkai_memo.txt の内容をざっとまとめてもらえますか？",
            {
                "bonenkai_memo.txt": "忘年会の計画（{n}人）\n会場: 駅前の居酒屋\n"
                "会費: 5000円\n受付係: {name}\n二次会は未定\n"
            },
            "{name}",
        ),
    ),
    Case(
        "ja7_hayaban",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "shift_kinmu.txt の早番の開始を 7:00 から 6:30 に変えて、変更後のファイルを"
            "もう一度見せてください。",
            "shift_kinmu.txt",
            ["早番: 7:00", "遅番: 15:00", "人数: {n}"],
            ["早番: 6:30", "遅番: 15:00", "人数: {n}"],
            "6:30",
        ),
    ),
    Case(
        "ja7_zaiko_matsue",
        "command",
        LANGUAGE,
        forms.grep_count(
            "grep を使って、zaiko.csv の中で Matsue を含む行がいくつあるか数えてください。",
            "zaiko.csv",
            "Matsue",
            ("Izumo", "Tottori", "Yonago"),
        ),
    ),
)
