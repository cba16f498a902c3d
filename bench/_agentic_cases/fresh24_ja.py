"""Twenty-fourth fresh Japanese cases: written at once for the held-out-24 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("五十嵐", "勅使河原", "宇佐美", "東海林", "長谷部")

#: The names the recall saves, one per run.
HAMSTERS = ("きなこ", "もなか", "だいふく", "わらび")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: ping with its options (a count may follow one) on the host.
_PING = r"(?<![a-z0-9_-])ping\s+(?:-\S+\s+(?:\d+\s+)?)*['\"]?(?:https?://)?google\.com"

CASES: tuple[Case, ...] = (
    Case(
        "ja24_bichiku",
        "action",
        LANGUAGE,
        forms.append_line(
            "bichiku.txtの最後に「{line}」を一行足しておいて。ほかの行はそのままでお願い。",
            "bichiku.txt",
            ["水 2L×6本", "カセットボンベ 3本", "乾電池 単3×8"],
            "{name}さんから借りたランタン",
        ),
    ),
    Case(
        "ja24_shiyakusho",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間後に、市役所に電話しなきゃいけないことを思い出させて。",
            1,
            "市役所",
            "役所",
            "city hall",
            "town hall",
            "council",
            "rathaus",
            "ayuntamiento",
            "mairie",
        ),
    ),
    Case(
        "ja24_suihanki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "炊飯器の設定ファイル suihanki.conf の reserve_time を 06:00 から 05:30 に変えて。"
            "行を足すんじゃなくて、その行を書き換えてね。",
            "suihanki.conf",
            ["menu = hakumai", "reserve_time = 06:00", "keep_warm = {n}"],
            ["menu = hakumai", "reserve_time = 05:30", "keep_warm = {n}"],
        ),
    ),
    Case(
        "ja24_hamster",
        "recall",
        LANGUAGE,
        forms.remember(
            "新しくお迎えしたハムスターの名前は「{value}」にしたよ。覚えておいてね。",
            "うちのハムスターの名前、なんだったっけ？",
            HAMSTERS,
        ),
    ),
    Case(
        "ja24_relay",
        "no-tool",
        LANGUAGE,
        forms.number(
            "クラス対抗リレーで1人200mずつ走ります。クラス全員の28人で走ったら、全部で何メートルになる？",
            5600,
            "五千六百",
            stream=True,
        ),
    ),
    Case(
        "ja24_fujisan",
        "no-tool",
        LANGUAGE,
        forms.words(
            "ちょっと確認なんだけど、富士山って何県にあるんだっけ？",
            "静岡",
            "山梨",
        ),
    ),
    Case(
        "ja24_ping",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "google.comにちゃんとつながってるか確かめるコマンドだけ教えて。実行はしなくていいよ。",
            {"memo.txt": "ルーター再起動 {n}回目\n問い合わせ番号 {code}\n"},
            _PING,
            "a ping google.com command",
        ),
    ),
    Case(
        "ja24_seisou",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "昨日の町内清掃の報告がseisou_houkoku.txtにあるから、誰が何をしたかも含めてざっくりまとめて。",
            {
                "seisou_houkoku.txt": "町内清掃 第{n}回\n"
                "朝8時に公民館前に集合しました。\n"
                "ゴミ袋と軍手は{name}さんが用意してくれました。\n"
                "公園と川沿いを回って、ゴミを45袋集めました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja24_pta",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "pta_yakuin.txtを読んで、場所を体育館から音楽室に直して、そのあともう一回読んで中身を見せて。",
            "pta_yakuin.txt",
            ["PTA役員会 第{n}回", "場所: 体育館", "時間: 19:00"],
            ["PTA役員会 第{n}回", "場所: 音楽室", "時間: 19:00"],
            "場所: 音楽室",
        ),
    ),
    Case(
        "ja24_shucchou_nagano",
        "command",
        LANGUAGE,
        forms.grep_count(
            "出張記録のshucchou.csvで、行き先が「Nagano」の行はいくつある？コマンドで数えてほしい。",
            "shucchou.csv",
            "Nagano",
            ["Niigata", "Toyama", "Kanazawa"],
        ),
    ),
)
