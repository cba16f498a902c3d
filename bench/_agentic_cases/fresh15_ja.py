"""Fifteenth fresh Japanese cases: written at once for the held-out-15 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("小鳥遊", "勘解由小路", "百目鬼", "東雲", "薬師寺")

CASES: tuple[Case, ...] = (
    Case(
        "ja15_curry_nabe",
        "action",
        LANGUAGE,
        forms.remind(
            "30分後に、カレーの鍋の火を止めるよう知らせてくれる？",
            0.5,
            "カレー",
            "鍋",
            "火",
            "curry",
            "stove",
            "pot",
            "herd",
            "topf",
            "olla",
            "fuego",
            "feu",
        ),
    ),
    Case(
        "ja15_juku_mendan",
        "action",
        LANGUAGE,
        forms.write_file(
            "juku.txt に、次の塾の面談は{name}先生が担当で、受付番号は{code}だと書いておいて。",
            "juku.txt",
        ),
    ),
    Case(
        "ja15_denki_moufu",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "denki_moufu.ini の強さを 3 から 2 に下げて。行は増やさずに、今ある行を書き換えてね。",
            "denki_moufu.ini",
            ["level = 3", "timer = on", "auto_off = {n}"],
            ["level = 2", "timer = on", "auto_off = {n}"],
        ),
    ),
    Case(
        "ja15_kenketsu_card",
        "recall",
        LANGUAGE,
        forms.remember(
            "献血カードの番号は{code}です。覚えておいてくれる？",
            "献血カードの番号って何番だった？",
        ),
    ),
    Case(
        "ja15_haiku_on",
        "no-tool",
        LANGUAGE,
        forms.number(
            "俳句って、全部で何音でできているんだっけ？",
            17,
            "十七",
            "seventeen",
            "siebzehn",
            "diecisiete",
            "dix-sept",
        ),
    ),
    Case(
        "ja15_okinawa_kencho",
        "no-tool",
        LANGUAGE,
        forms.words("沖縄県の県庁所在地はどこですか？", "那覇|naha", stream=True),
    ),
    Case(
        "ja15_hostname",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このパソコンのホスト名を確認するコマンドを教えて。自分で打つから、実行はしないでね。",
            {"pc_memo.txt": "購入から{n}か月\n"},
            r"(?<![\w-])(?:hostnamectl|hostname|uname\s+-n|cat\s+/etc/hostname)(?![\w-])",
            "a hostname (or uname -n) command",
        ),
    ),
    Case(
        "ja15_mochitsuki",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "mochitsuki_kiroku.txt の内容をまとめてくれる？臼と杵を貸してくれたのは誰だったっけ？",
            {
                "mochitsuki_kiroku.txt": "餅つき大会の記録（参加{n}名）\n"
                "朝九時から自治会館の前で始めました。\n"
                "{name}さんが臼と杵を貸してくれました。\n"
                "つきたてのお餅は、きなことあんこで食べました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja15_rajio_taisou",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "rajio_taisou.txt の行数を数えてから、最後に「三浦」を1行足して、"
            "もう一度数えてくれる？",
            "rajio_taisou.txt",
            "三浦",
        ),
    ),
    Case(
        "ja15_zousho",
        "command",
        LANGUAGE,
        forms.count_lines(
            "zousho_list.txt が何行あるか、コマンドで数えてもらえる？",
            "zousho_list.txt",
        ),
    ),
)
