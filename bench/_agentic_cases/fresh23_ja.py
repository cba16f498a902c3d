"""Twenty-third fresh Japanese cases: written at once for the held-out-23 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("小比類巻", "勘解由小路", "百目鬼", "御手洗", "左右田")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: the word searched for (quoted, or between the CSV's commas) and the file, as a command may
#: write them (Japanese text may follow the file name at once).
_START = r"(?<![a-z0-9_-])"
_WORD = r"['\"]?,?ランチ,?['\"]?"
_CSV = r"['\"]?(?:[\w~./-]*/)?kozukai\.csv(?![a-z0-9_.])"
_OPTS = r"(?:-\S+\s+)*"

#: The commands that print the lines of kozukai.csv holding ランチ, as an answer may write them:
#: grep (or egrep) or rg on the file, awk with the word as its pattern, or cat piped into grep.
_LANCHI = "|".join(
    (
        _START + r"(?:e?grep|rg)\s+" + _OPTS + _WORD + r"\s+" + _OPTS + _CSV,
        _START + r"awk\s+['\"]/,?ランチ,?/['\"]\s+" + _CSV,
        _START + r"cat\s+" + _CSV + r"\s*\|\s*(?:e?grep|rg)\s+" + _OPTS + _WORD,
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "ja23_gas_tenken",
        "action",
        LANGUAGE,
        forms.write_file(
            "gas_tenken.txt に、ガスの点検は{name}さんが来てくれて、お客様番号は{code}だって"
            "メモしといて。",
            "gas_tenken.txt",
        ),
    ),
    Case(
        "ja23_stew",
        "action",
        LANGUAGE,
        forms.remind(
            "シチューを煮込んでるから、1時間たったら火を止めるように声かけてくれる？",
            1,
            "シチュー",
            "火",
            "鍋",
            "煮込",
            "stew",
            "eintopf",
            "herd",
            "guiso",
            "estofado",
            "ragoût",
            "ragout",
            "pot",
        ),
    ),
    Case(
        "ja23_ac_bedroom",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "寝室のエアコン、朝方に冷えすぎるから、ac_bedroom.cfg の off_timer を180から90に"
            "変えてくれる？行を足すんじゃなくて、今ある行を書き換えてね。",
            "ac_bedroom.cfg",
            ["room = shinshitsu", "off_timer = 180", "unit_id = {n}"],
            ["room = shinshitsu", "off_timer = 90", "unit_id = {n}"],
        ),
    ),
    Case(
        "ja23_trunk_room",
        "recall",
        LANGUAGE,
        forms.remember(
            "トランクルームの契約番号は{code}だから、覚えといて。",
            "トランクルームの契約番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja23_jikyu",
        "no-tool",
        LANGUAGE,
        forms.number(
            "時給1100円のバイトで6時間働いたら、いくらになる？",
            6600,
            "六千六百",
            "six thousand six hundred",
            "sechstausendsechshundert",
            "seis mil seiscientos",
            "six mille six cents",
            "six mille six cent",
            stream=True,
        ),
    ),
    Case(
        "ja23_panda",
        "no-tool",
        LANGUAGE,
        forms.words("パンダってもともとどこの国の動物だっけ？", "中国|china"),
    ),
    Case(
        "ja23_grep_lunch",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "kozukai.csv から「ランチ」って書いてある行だけ出したいんだけど、どんなコマンドを"
            "使えばいい？自分で打つから、教えてくれるだけでいいよ。",
            {"kozukai.csv": "日付,項目,金額\n4/1,ランチ,{n}0\n4/2,電車,220\n4/3,本,{code}\n"},
            _LANCHI,
            "a grep ランチ kozukai.csv command",
        ),
    ),
    Case(
        "ja23_ohanami",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "ohanami.txt を見て、お花見の場所取りを誰がやるのか教えて。",
            {
                "ohanami.txt": "お花見の係（{n}期）\n"
                "場所取り: {name}\n"
                "飲み物: 高橋\n"
                "片付け: みんなで\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja23_bbq_sanka",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "bbq_sanka.txt って今何行ある？そのあと最後に「中村 陽介」を足して、もう一回"
            "数えてみて。",
            "bbq_sanka.txt",
            "中村 陽介",
        ),
    ),
    Case(
        "ja23_jusho",
        "command",
        LANGUAGE,
        forms.count_lines(
            "tomodachi_jusho.txt が何行あるか、コマンドで数えてもらえる？",
            "tomodachi_jusho.txt",
        ),
    ),
)
