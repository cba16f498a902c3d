"""Eleventh fresh Japanese cases: written at once for the held-out-11 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Family names the Japanese files and requests use (none is part of another).
NAMES = ("佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "加藤", "吉田")

CASES: tuple[Case, ...] = (
    Case(
        "ja11_shiyakusho",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後に、市役所へ電話するのを忘れないようにリマインドして。",
            2,
            "市役所",
            "city hall",
            "town hall",
            "city office",
            "rathaus",
            "stadtverwaltung",
            "ayuntamiento",
            "mairie",
        ),
    ),
    Case(
        "ja11_amido",
        "action",
        LANGUAGE,
        forms.write_file(
            "amido.txt というファイルを作って、土曜日の午前に網戸の修理の人が来ると書いて"
            "おいて。担当は{name}さんで、受付番号は{code}です。",
            "amido.txt",
            names=NAMES,
        ),
    ),
    Case(
        "ja11_kotatsu",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "kotatsu.conf の温度の設定を 3 から 2 に下げてください。ほかの行は変えないで。",
            "kotatsu.conf",
            ["heat = 3", "off_timer = {n}", "fan = auto"],
            ["heat = 2", "off_timer = {n}", "fan = auto"],
        ),
    ),
    Case(
        "ja11_nyukansho",
        "recall",
        LANGUAGE,
        forms.remember(
            "会社の入館証の番号は{code}です。覚えておいてもらえますか。",
            "入館証の番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja11_shuu_suu",
        "no-tool",
        LANGUAGE,
        forms.number(
            "1年はおよそ何週間ですか？",
            52,
            "五十二",
            "fifty-two",
            "zweiundfuenfzig",
            "zweiundfunfzig",
            "cincuenta y dos",
            "cinquante-deux",
        ),
    ),
    Case(
        "ja11_maihime",
        "no-tool",
        LANGUAGE,
        forms.words(
            "『舞姫』を書いた作家は誰ですか？",
            "鷗外|鴎外|ogai",
            stream=True,
        ),
    ),
    Case(
        "ja11_unzip",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "shashin.zip を展開するコマンドを教えて。実行はしなくていいよ。",
            {"shashin.zip": "PK {n}\n"},
            r"(?<![a-z])(?:unzip|7z\s+[xe]|bsdtar\s+-?x\S*f|python3?\s+-m\s+zipfile\s+-e)\s+"
            r"(?:\S+\s+)*?\S*shashin\.zip",
            "an unzip command",
        ),
    ),
    Case(
        "ja11_kashidashi",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "kashidashi.txt を開いて、テントを借りているのが誰か教えて。",
            {"kashidashi.txt": "備品の貸出 第{n}回\n寝袋: 森\nテント: {name}\nランタン: 石川\n"},
            "{name}",
            names=NAMES,
        ),
    ),
    Case(
        "ja11_shift",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "shift.txt を読んでから、水曜日の担当を石川から小野に変えて、もう一度読んで確認して。",
            "shift.txt",
            ["月曜日: 森", "水曜日: 石川", "金曜日: 岡田", "合計 {n}時間"],
            ["月曜日: 森", "水曜日: 小野", "金曜日: 岡田", "合計 {n}時間"],
            "水曜日: 小野",
        ),
    ),
    Case(
        "ja11_houmon",
        "command",
        LANGUAGE,
        forms.count_lines(
            "houmon.csv が何行あるか、コマンドで数えてもらえる？",
            "houmon.csv",
        ),
    ),
)
