"""Twentieth fresh Japanese cases: written at once for the held-out-20 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("五十嵐", "長谷川", "宇佐美", "小笠原", "久保田")

#: Names the note to the dentist's may give (a Japanese user writes a Japanese name).
DENTISTS = ("松本", "井上", "木村", "清水", "山口")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: the word searched for, and the file it is searched in, as a command may write them.
_START = r"(?<![a-z0-9_-])"
_SHIMEKIRI = r"['\"]?[^\s'\"]*締切[^\s'\"]*['\"]?"
_MEMO = r"['\"]?(?:[\w~./-]*/)?memo\.txt"

#: The commands that show the lines holding 締切, as an answer may write them.
_SAGASU = "|".join(
    (
        _START
        + r"(?:grep|egrep|fgrep|rg)\s+(?:-\S+\s+)*"
        + _SHIMEKIRI
        + r"\s+(?:-\S+\s+)*"
        + _MEMO,
        r"memo\.txt['\"]?\s*\|\s*(?:grep|rg)\s+(?:-\S+\s+)*" + _SHIMEKIRI,
        _START + r"awk\s+['\"]/[^/]*締切[^/]*/(?:\s*\{\s*print[^}]*\})?['\"]\s+" + _MEMO,
        _START + r"sed\s+-n\s+['\"]/[^/]*締切[^/]*/p['\"]\s+" + _MEMO,
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "ja20_toshokan",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間半後に、図書館に本を返しに行くのをリマインドして。",
            1.5,
            "図書館",
            "返却",
            "本を返",
            "library",
            "bibliothek",
            "biblioteca",
            "bibliotheque",
            "book",
            "libro",
            "livre",
            "buch",
        ),
    ),
    Case(
        "ja20_haisha",
        "action",
        LANGUAGE,
        forms.write_file(
            "haisha_yoyaku.txt というファイルを作って、歯医者の予約メモを残しておいて。"
            "担当は{name}先生で、診察券番号は{code}。",
            "haisha_yoyaku.txt",
            names=DENTISTS,
        ),
    ),
    Case(
        "ja20_kashitsuki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "加湿器の設定ファイル kashitsuki.cfg の shitsudo = 60 を 50 に変えて。"
            "新しい行を足すんじゃなくて、その行を直してね。",
            "kashitsuki.cfg",
            ["mode = auto", "shitsudo = 60", "timer = {n}"],
            ["mode = auto", "shitsudo = 50", "timer = {n}"],
        ),
    ),
    Case(
        "ja20_takuhai_box",
        "recall",
        LANGUAGE,
        forms.remember(
            "覚えといて。マンションの宅配ボックスの暗証番号は{code}だよ。",
            "宅配ボックスの暗証番号って、何番だったっけ？",
        ),
    ),
    Case(
        "ja20_okome",
        "no-tool",
        LANGUAGE,
        forms.number(
            "毎日お米を2合炊くとしたら、30日で全部で何合になる？",
            60,
            "六十",
            "sixty",
            "sechzig",
            "sesenta",
            stream=True,
        ),
    ),
    Case(
        "ja20_biwako",
        "no-tool",
        LANGUAGE,
        forms.words("日本でいちばん大きい湖ってどこだっけ？", "琵琶湖|biwa"),
    ),
    Case(
        "ja20_shimekiri_grep",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "memo.txt から「締切」って書いてある行だけを探すコマンドを教えて。"
            "実行はしなくていいよ、コマンドだけ見せて。",
            {"memo.txt": "買い物: 牛乳と卵\n締切: 報告書 第{n}版\n歯医者: 火曜の午後\n"},
            _SAGASU,
            "a grep 締切 memo.txt command",
        ),
    ),
    Case(
        "ja20_bounenkai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "bounenkai.txt の中身をざっくりまとめて。幹事は誰になった？",
            {
                "bounenkai.txt": "忘年会の打ち合わせ（第{n}回）\n"
                "会場は駅前の居酒屋に決まった。\n"
                "幹事は{name}さんが引き受けてくれた。\n"
                "会費は一人五千円で集めることになった。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja20_sodai_gomi",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "sodai_gomi.txt を読んでから、回収日を12月10日から12月17日に書き換えて、"
            "もう一度読んで確認させて。",
            "sodai_gomi.txt",
            ["粗大ごみ 受付番号 {n}", "回収日: 12月10日", "品目: 本棚"],
            ["粗大ごみ 受付番号 {n}", "回収日: 12月17日", "品目: 本棚"],
            "12月17日",
        ),
    ),
    Case(
        "ja20_undoukai",
        "command",
        LANGUAGE,
        forms.count_lines(
            "undoukai_sankasha.txt って何行ある？コマンドで数えてみて。",
            "undoukai_sankasha.txt",
        ),
    ),
)
