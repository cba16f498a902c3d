"""Twenty-sixth fresh Japanese cases: written at once for the held-out-26 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("一ノ瀬", "猿渡", "鬼塚", "羽生田", "有栖川")

#: The names the recall saves, one per run.
TANNIN = ("佐伯", "南雲", "久我", "桐生")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: iconv from Shift_JIS (or CP932) on juushoroku.csv, or nkf on it (lower case, as the check
#: compares).
_ICONV = (
    r"(?<![a-z0-9_-])(?:iconv\s[^\n]*?(?:-f\s*|--from-code[= ]\s*)['\"]?"
    r"(?:shift[_-]?jis|sjis|cp932|ms932|windows-31j)['\"]?\s[^\n]*?"
    r"|nkf\s+(?:-\S+\s+)*)['\"]?(?:[\w~./-]*/)?juushoroku\.csv['\"]?(?![a-z0-9_.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja26_ochugen",
        "action",
        LANGUAGE,
        forms.append_line(
            "ochugen.txt の最後に「{line}」って一行足しておいて。ほかの行はそのままにしてね。",
            "ochugen.txt",
            ["叔父さん 横浜 ビール", "恩師 京都 お茶", "大家さん 埼玉 素麺"],
            "{name}さん 仙台 ゼリー",
        ),
    ),
    Case(
        "ja26_mercari",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後に、メルカリで売れた本を発送しに行くのを思い出させてくれる？",
            2,
            "メルカリ",
            "発送",
            "売れた",
            "mercari",
            "ship",
            "versand",
            "envío",
            "envoi",
        ),
    ),
    Case(
        "ja26_robot_souji",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "ロボット掃除機が夜中に動き出してうるさいから、robot.conf の start を 03:00 から"
            " 10:00 に変えて。行を足さずに、今ある行を書き換えてね。",
            "robot.conf",
            ["suction = normal", "start = 03:00", "battery_min = {n}"],
            ["suction = normal", "start = 10:00", "battery_min = {n}"],
        ),
    ),
    Case(
        "ja26_tannin",
        "recall",
        LANGUAGE,
        forms.remember(
            "息子の新しい担任は{value}先生っていうの。覚えておいてね。",
            "息子の担任の先生って、なんていう名前だったっけ？",
            TANNIN,
        ),
    ),
    Case(
        "ja26_donut",
        "no-tool",
        LANGUAGE,
        forms.number(
            "1個240円のドーナツを7個と、1杯130円のコーヒーを2杯買ったら、全部でいくらになる？",
            1940,
            "千九百四十",
            "one thousand nine hundred and forty",
            "one thousand nine hundred forty",
            "eintausendneunhundertvierzig",
            "mil novecientos cuarenta",
            "mille neuf cent quarante",
            stream=True,
        ),
    ),
    Case(
        "ja26_tbd",
        "no-tool",
        LANGUAGE,
        forms.words(
            "取引先からの英語のメールに「TBD」って書いてあったんだけど、これってどういう意味？",
            "未定|決定|決め",
        ),
    ),
    Case(
        "ja26_mojibake",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Excelで保存した juushoroku.csv を開くと文字化けするんだけど、Shift_JIS から"
            " UTF-8 に変換するコマンドを教えて。自分で打つから、実行はしないでね。",
            {"nengajou.txt": "年賀状 {n}枚\n切手代 {code}円\n"},
            _ICONV,
            "an iconv -f SHIFT_JIS juushoroku.csv command",
        ),
    ),
    Case(
        "ja26_kumiai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "マンションの管理組合の総会に出られなかったんだけど、kumiai_memo.txt には何て"
            "書いてある？あと、駐輪場の整理は誰が引き受けたの？",
            {
                "kumiai_memo.txt": "管理組合 総会メモ（第{n}期）\n"
                "管理費の値上げは見送りになった。\n"
                "外壁の修繕は来年の春に始めることに決まった。\n"
                "駐輪場の整理は{name}さんが引き受けた。\n"
                "次の総会は秋に開く予定。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja26_camp",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "camp_yoyaku.txt を読んで、チェックインを13時から15時に直して、"
            "そのあともう一回読んで確認させて。",
            "camp_yoyaku.txt",
            ["キャンプ場予約（区画{n}）", "チェックイン: 13時", "チェックアウト: 11時"],
            ["キャンプ場予約（区画{n}）", "チェックイン: 15時", "チェックアウト: 11時"],
            "チェックイン: 15時",
        ),
    ),
    Case(
        "ja26_tanzaku",
        "command",
        LANGUAGE,
        forms.count_lines(
            "tanzaku.txt に七夕の短冊の願い事が1行に1つずつ書いてあるんだけど、全部でいくつ"
            "ある？コマンドで数えてね。",
            "tanzaku.txt",
        ),
    ),
)
