"""Thirtieth fresh Japanese cases: written at once for the held-out-30 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("一寸木", "栗花落", "五月女", "纐纈", "勘米良")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: wc with a character count (-m, --chars; not -c, which counts bytes) on sakubun.txt, or
#: the file piped into it.
_FILE = r"['\"]?(?:[\w~./-]*/)?sakubun\.txt['\"]?"
_CHARS = r"(?:-[a-z]*m[a-z]*|--chars)"
_WC = (
    rf"(?<![a-z0-9_-])wc\s+(?:-\S+\s+)*{_CHARS}\s+(?:-\S+\s+)*{_FILE}(?![a-z0-9_.-])"
    rf"|(?<![a-z0-9_-])cat\s+{_FILE}\s*\|\s*wc\s+(?:-\S+\s+)*{_CHARS}(?![a-z0-9_.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja30_hogoneko",
        "action",
        LANGUAGE,
        forms.write_file(
            "保護猫の譲渡会で担当してくれたのは{name}さんで、受付番号は{code}だったの。"
            "hogoneko.txt にメモしておいてくれる？",
            "hogoneko.txt",
        ),
    ),
    Case(
        "ja30_hakkou",
        "action",
        LANGUAGE,
        forms.remind(
            "パン生地の一次発酵があと30分で終わるから、30分後に声をかけてくれる？",
            0.5,
            "発酵",
            "生地",
            "パン",
            "dough",
            "teig",
            "masa",
            "pate",
            "bread",
        ),
    ),
    Case(
        "ja30_dashcam",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "ドラレコのSDカードがすぐいっぱいになっちゃう。dashcam.conf の quality を high から"
            " standard に変えて。行を足すんじゃなくて、今ある行を書き換えてね。",
            "dashcam.conf",
            ["gsensor = on", "quality = high", "device = {n}"],
            ["gsensor = on", "quality = standard", "device = {n}"],
        ),
    ),
    Case(
        "ja30_keybox",
        "recall",
        LANGUAGE,
        forms.remember(
            "実家の玄関のキーボックスの番号は{code}だから、覚えといてくれる？",
            "実家のキーボックスの番号って何番だっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja30_mikan",
        "no-tool",
        LANGUAGE,
        forms.number(
            "12個入りのみかんを7箱買って、ご近所に30個おすそ分けしたら、手元にはいくつ残る？",
            54,
            "五十四",
            "fifty-four",
            "fifty four",
            "vierundfünfzig",
            "cincuenta y cuatro",
            "cinquante-quatre",
        ),
    ),
    Case(
        "ja30_neko_no_te",
        "no-tool",
        LANGUAGE,
        forms.words(
            "年末の職場で先輩が「猫の手も借りたい」って言ってたんだけど、どういう意味？",
            "忙し|手が足りな|人手|busy",
        ),
    ),
    Case(
        "ja30_sakubun",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "sakubun.txt の文字数を数えたいんだけど、どんなコマンドを使えばいい？"
            "打つのは自分でやるから、教えるだけにしてね。",
            {"kaimono.txt": "牛乳 {n}本\n再配達 {code}\n"},
            _WC,
            "a wc -m sakubun.txt command",
        ),
    ),
    Case(
        "ja30_moushiokuri",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "昨日の夜勤の申し送り、moushiokuri.txt に何が書いてあるかざっくり教えて。"
            "あと、業者に電話してくれたのは誰だった？",
            {
                "moushiokuri.txt": "夜勤申し送り（{n}号棟）\n"
                "21時ごろ、2階のトイレが詰まった。\n"
                "{name}さんが業者に電話してくれた。\n"
                "3時に207号室の方がナースコールを押したが、特に異常はなかった。\n"
                "朝までほかに大きなトラブルはなかった。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja30_mikoshi",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "mikoshi.txt に秋祭りのお神輿の担ぎ手が1行に1人ずつ書いてあるから、wc -l で数えて、"
            "「鶴見ふさ江」を最後に1行足して、もう一回数え直してくれる？",
            "mikoshi.txt",
            "鶴見ふさ江",
        ),
    ),
    Case(
        "ja30_sanpo",
        "command",
        LANGUAGE,
        forms.grep_count(
            "犬の散歩の記録 sanpo_log.csv で、行き先が「Kamogawa」の日は何回ある？"
            "コマンドで数えてくれる？",
            "sanpo_log.csv",
            "Kamogawa",
            ("Okazaki", "Demachi", "Shimogamo", "Takano"),
        ),
    ),
)
