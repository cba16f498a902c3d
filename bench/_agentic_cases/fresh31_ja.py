"""Thirty-first fresh Japanese cases: written at once for the held-out-31 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("十文字", "薬袋", "一番ヶ瀬", "能登谷", "鴨志田")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: sed -n with 12p on tanka.txt, awk printing NR==12 of it (lower case, as the check
#: compares), or head -n 12 of it piped into tail -n 1.
_FILE = r"['\"]?(?:[\w~./-]*/)?tanka\.txt['\"]?(?![a-z0-9_.-])"
_LINE = (
    rf"(?<![a-z0-9_-])sed\s+(?:-\S+\s+)*-n\s+['\"]?12p['\"]?\s+{_FILE}"
    rf"|(?<![a-z0-9_-])awk\s+['\"]nr\s*==\s*12\s*(?:\{{\s*print(?:\s+\$0)?\s*;?\s*\}})?['\"]"
    rf"\s+{_FILE}"
    rf"|(?<![a-z0-9_-])head\s+(?:-n\s*)?-?12\s+{_FILE}\s*\|\s*tail\s+(?:-n\s*)?-?1(?!\d)"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja31_kisei",
        "action",
        LANGUAGE,
        forms.append_line(
            "お盆の帰省の持ち物リスト kisei_mochimono.txt の最後に「{line}」を1行追加してくれる？"
            "ほかの行はそのままでね。",
            "kisei_mochimono.txt",
            ["お土産の和菓子", "子どもの水着", "スマホの充電器"],
            "{name}さんに借りたクーラーボックス",
        ),
    ),
    Case(
        "ja31_nukadoko",
        "action",
        LANGUAGE,
        forms.remind(
            "3時間後に、ぬか床をかき混ぜるように声をかけてくれる？忘れるとすぐ酸っぱくなっちゃうの。",
            3,
            "ぬか",
            "糠",
            "nuka",
            "pickle",
            "漬",
        ),
    ),
    Case(
        "ja31_yokushitsu",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "浴室乾燥機のタイマーが長すぎて電気代がもったいない。yokushitsu_kansou.conf の timer"
            " を 180 から 120 にして。新しい行は足さずに、今ある行を書き換えてね。",
            "yokushitsu_kansou.conf",
            ["mode = kansou", "timer = 180", "unit = {n}"],
            ["mode = kansou", "timer = 120", "unit = {n}"],
        ),
    ),
    Case(
        "ja31_sumaho_shuuri",
        "recall",
        LANGUAGE,
        forms.remember(
            "スマホを修理に出してきたんだけど、受付番号は{code}だって。覚えといてくれる？",
            "スマホの修理の受付番号って何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja31_umeboshi",
        "no-tool",
        LANGUAGE,
        forms.number(
            "梅干しを漬けたいんだけど、レシピは梅2kgに塩360gなの。梅を5kgにしたら、塩は何g"
            "用意すればいい？",
            900,
            "九百",
            "nine hundred",
            "neunhundert",
            "novecientos",
            "neuf cents",
        ),
    ),
    Case(
        "ja31_saru_mo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "息子がテストで凡ミスして、先生に「猿も木から落ちるだね」って言われたんだって。"
            "これってどういう意味？",
            "名人|達人|上手|得意|専門家|プロ|失敗|間違",
        ),
    ),
    Case(
        "ja31_tanka",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "tanka.txt の12行目だけを表示したいんだけど、どんなコマンドを使えばいい？"
            "実行はしないで、コマンドだけ教えて。",
            {"memo.txt": "切手 {n}枚\n再配達 {code}\n"},
            _LINE,
            "a sed -n 12p tanka.txt command",
        ),
    ),
    Case(
        "ja31_shashin_reikai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "写真サークルの例会に出られなかったんだけど、reikai.txt には何て書いてある？"
            "あと、秋の撮影旅行のバスは誰が手配してくれるの？",
            {
                "reikai.txt": "写真サークル 例会メモ（第{n}回）\n"
                "次の展示会は市民ギャラリーで11月に開く。\n"
                "秋の撮影旅行のバスは{name}さんが手配する。\n"
                "会費は今年から年3000円に上がる。\n"
                "次の例会は第二日曜の午後。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja31_soroban",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "soroban.txt を読んで、そろばん教室の時間を16時から17時に変えて、そのあともう一回"
            "読んでちゃんと変わったか見せてくれる？",
            "soroban.txt",
            ["そろばん教室（生徒番号{n}）", "時間: 16時", "持ち物: 月謝袋"],
            ["そろばん教室（生徒番号{n}）", "時間: 17時", "持ち物: 月謝袋"],
            "時間: 17時",
        ),
    ),
    Case(
        "ja31_yosegaki",
        "command",
        LANGUAGE,
        forms.count_lines(
            "yosegaki.txt に、退職する先輩への寄せ書きに参加した人が1行に1人ずつ書いてあるの。"
            "何人いるか、コマンドで行数を数えてくれる？",
            "yosegaki.txt",
        ),
    ),
)
