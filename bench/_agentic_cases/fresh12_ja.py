"""Twelfth fresh Japanese cases: written at once for the held-out-12 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("長谷川", "小野寺", "五十嵐", "宇佐美", "佐々木")

CASES: tuple[Case, ...] = (
    Case(
        "ja12_kairanban",
        "action",
        LANGUAGE,
        forms.remind(
            "3時間後に、回覧板をお隣さんに回すようリマインドして。",
            3,
            "回覧",
            "kairanban",
            "circular",
            "umlauf",
            "circulaire",
        ),
    ),
    Case(
        "ja12_shiroari",
        "action",
        LANGUAGE,
        forms.write_file(
            "shiroari.txt というファイルを作って、シロアリ駆除の業者が土曜の朝に来ること、"
            "担当は{name}さん、見積番号は{code}だと書いておいて。",
            "shiroari.txt",
        ),
    ),
    Case(
        "ja12_ebike",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "ebike.ini のアシストモードを eco から power に変えて。ほかの行はそのままでお願い。",
            "ebike.ini",
            ["assist = eco", "light = auto", "odo = {n}"],
            ["assist = power", "light = auto", "odo = {n}"],
        ),
    ),
    Case(
        "ja12_point_card",
        "recall",
        LANGUAGE,
        forms.remember(
            "ドラッグストアのポイントカードの番号は{code}だから、覚えておいて。",
            "ドラッグストアのポイントカードの番号、何番だったっけ？",
        ),
    ),
    Case(
        "ja12_goban",
        "no-tool",
        LANGUAGE,
        forms.number(
            "囲碁の正式な碁盤って、縦と横それぞれ何本の線でできているの？",
            19,
            "十九本",
            "nineteen",
            "neunzehn",
            "diecinueve",
            "dix-neuf",
        ),
    ),
    Case(
        "ja12_ginga_tetsudo",
        "no-tool",
        LANGUAGE,
        forms.words(
            "『銀河鉄道の夜』を書いた作家は誰？",
            "宮沢賢治|宮澤賢治|miyazawa",
            stream=True,
        ),
    ),
    Case(
        "ja12_touch",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "shiryou.txt の更新日時だけを今の時刻にしたいんだけど、どのコマンドを使えばいい？"
            "実行はしないで、コマンドだけ見せて。",
            {"shiryou.txt": "会議資料 {n}\n"},
            r"(?<![a-z])touch\s+(?:-\S+\s+)*(?:\./)?shiryou\.txt",
            "a touch command on shiryou.txt",
        ),
    ),
    Case(
        "ja12_dousoukai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "dousoukai.txt の内容を要約して。会場を予約してくれたのは誰だった？",
            {
                "dousoukai.txt": "同窓会報告（参加者{n}名）\n"
                "同窓会は駅前のホテルで無事に終わりました。\n"
                "幹事の{name}さんが会場を予約してくれました。\n"
                "二次会はカラオケでした。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja12_shukudai",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "shukudai.txt を読んでから、英語の提出日を 6月3日 から 6月10日 に直して、"
            "もう一度読んで確かめて。",
            "shukudai.txt",
            ["宿題一覧 {n}", "英語: 6月3日", "数学: 6月5日"],
            ["宿題一覧 {n}", "英語: 6月10日", "数学: 6月5日"],
            "英語: 6月10日",
        ),
    ),
    Case(
        "ja12_hakodate",
        "command",
        LANGUAGE,
        forms.grep_count(
            "raiten.csv の中で Hakodate を含む行がいくつあるか、コマンドで数えて。",
            "raiten.csv",
            "Hakodate",
            ["Otaru", "Asahikawa", "Obihiro"],
        ),
    ),
)
