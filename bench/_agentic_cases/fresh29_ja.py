"""Twenty-ninth fresh Japanese cases: written at once for the held-out-29 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("曽我部", "我孫子", "鷹司", "善知鳥", "日下部")

#: The names the recall saves, one per run.
SENSEI = ("鬼龍院", "不知火", "花山院", "伊集院")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: ls with an option that shows hidden files (-a, -la, -A ...: lower case, as the check
#: compares), then the folder omoide.
_LS = (
    r"(?<![a-z0-9_-])ls\s+(?:-\S+\s+)*-[a-z]*a[a-z]*\s+(?:-\S+\s+)*['\"]?(?:\./)?omoide/?"
    r"['\"]?(?![a-z0-9_.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja29_oosouji",
        "action",
        LANGUAGE,
        forms.append_line(
            "oosouji_todo.txt の最後に「{line}」を一行追加しておいて。ほかの行は触らないでね。",
            "oosouji_todo.txt",
            ["換気扇の油汚れ", "窓ふき", "冷蔵庫の中の整理"],
            "{name}さんに借りた脚立を返す",
        ),
    ),
    Case(
        "ja29_hachiue",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後に、ベランダの鉢植えに水をあげるよう声をかけてくれる？",
            2,
            "鉢植え",
            "水",
            "plant",
            "pflanze",
            "planta",
            "plante",
        ),
    ),
    Case(
        "ja29_hot_carpet",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "ホットカーペットが熱すぎて低温やけどしそう。hot_carpet.conf の level を 5 から 2 に"
            "して。新しい行は足さないで、今ある行を書き換えてね。",
            "hot_carpet.conf",
            ["area = zenmen", "level = 5", "serial = {n}"],
            ["area = zenmen", "level = 2", "serial = {n}"],
        ),
    ),
    Case(
        "ja29_piano",
        "recall",
        LANGUAGE,
        forms.remember(
            "娘のピアノの先生は{value}先生っていうの。覚えておいてくれる？",
            "娘のピアノの先生って、何先生だったっけ？",
            SENSEI,
            stream=True,
        ),
    ),
    Case(
        "ja29_senbazuru",
        "no-tool",
        LANGUAGE,
        forms.number(
            "千羽鶴を作ってて、1日25羽ずつ6日間折ったんだけど、1000羽まであと何羽折ればいい？",
            850,
            "八百五十",
            "eight hundred fifty",
            "eight hundred and fifty",
            "achthundertfünfzig",
            "ochocientos cincuenta",
            "huit cent cinquante",
        ),
    ),
    Case(
        "ja29_tgif",
        "no-tool",
        LANGUAGE,
        forms.words(
            "同僚が金曜の夕方になると「TGIF!」って言うんだけど、あれってどういう意味？",
            "thank god|thank goodness|やっと金曜|ようやく金曜|花金|金曜日だ|金曜だ",
        ),
    ),
    Case(
        "ja29_kakushi",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "omoide フォルダの中身を、隠しファイルも含めて全部一覧で見たいんだけど、どんな"
            "コマンドを打てばいい？教えてくれるだけでいいよ、実行はしないで。",
            {"memo.txt": "卵 {n}個\n宅配ロッカー {code}\n"},
            _LS,
            "an ls -a omoide command",
        ),
    ),
    Case(
        "ja29_hanchoukai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "自治会の班長会に出られなかったんだけど、hanchoukai.txt には何て書いてある？"
            "あと、秋の清掃活動の道具は誰が用意することになったの？",
            {
                "hanchoukai.txt": "自治会 班長会メモ（第{n}回）\n"
                "回覧板は毎月第一月曜に回す。\n"
                "公園の街灯が一本切れているので市に連絡する。\n"
                "秋の清掃活動の道具は{name}さんが用意する。\n"
                "次回の班長会は再来週の土曜。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja29_suiei",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "suiei.txt を読んで、スイミングの曜日を水曜から金曜に変えて、そのあともう一回読んで"
            "ちゃんと変わったか見せてくれる？",
            "suiei.txt",
            ["スイミング教室（会員番号{n}）", "曜日: 水曜", "持ち物: ゴーグル"],
            ["スイミング教室（会員番号{n}）", "曜日: 金曜", "持ち物: ゴーグル"],
            "曜日: 金曜",
        ),
    ),
    Case(
        "ja29_shochu_mimai",
        "command",
        LANGUAGE,
        forms.count_lines(
            "shochu_mimai.txt に暑中見舞いを出す相手が1行に1人ずつ書いてあるの。今年は何枚"
            "いるか、コマンドで行数を数えてくれる？",
            "shochu_mimai.txt",
        ),
    ),
)
