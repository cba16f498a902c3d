"""Eighth fresh Japanese cases: written at once for the held-out-8 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

CASES: tuple[Case, ...] = (
    Case(
        "ja8_biyoin",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間半後に、美容院に予約の電話をするようリマインドしてくれる？",
            1.5,
            "美容院",
            "美容室",
            "hairdresser",
            "hair salon",
            "friseur",
            "peluquer",
            "coiffeur",
        ),
    ),
    Case(
        "ja8_omiyage",
        "action",
        LANGUAGE,
        forms.append_line(
            "omiyage.txt の最後に「{line}」という行を追加しておいて。",
            "omiyage.txt",
            ["職場: クッキー", "実家: 日本酒", "友人: 手ぬぐい"],
            "お隣さん: せんべい{n}枚",
        ),
    ),
    Case(
        "ja8_aircon",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "aircon.conf の設定温度を 28 から 26 に変えて。ほかの行はそのままでお願い。",
            "aircon.conf",
            ["mode = cool", "temp = 28", "off_timer = {n}"],
            ["mode = cool", "temp = 26", "off_timer = {n}"],
        ),
    ),
    Case(
        "ja8_autolock",
        "recall",
        LANGUAGE,
        forms.remember(
            "マンションのオートロックの暗証番号は{code}です。覚えておいてください。",
            "オートロックの暗証番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja8_todofuken",
        "no-tool",
        LANGUAGE,
        forms.number(
            "日本の都道府県はいくつありますか？",
            47,
            "四十七",
            "forty-seven",
            "siebenundvierzig",
            "cuarenta y siete",
            "quarante-sept",
        ),
    ),
    Case(
        "ja8_hashire_merosu",
        "no-tool",
        LANGUAGE,
        forms.words(
            "『走れメロス』を書いたのは誰ですか？",
            "太宰|dazai",
            stream=True,
        ),
    ),
    Case(
        "ja8_sentou_gyou",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "memo.txt の先頭10行だけを表示するコマンドを教えて。実行はしなくていいよ。",
            {"memo.txt": "買い物メモ {n}\n牛乳\n卵\n"},
            r"head\s+(?:-n\s*10\s+|-10\s+|--lines=10\s+)?\S*memo\.txt"
            r"|sed\s+-n\s+['\"]?1,10p['\"]?\s+\S*memo\.txt",
            "a head command",
        ),
    ),
    Case(
        "ja8_pta_kaikei",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "pta_yakuin.txt を見て、会計係が誰か教えて。",
            {
                "pta_yakuin.txt": "PTA役員 第{n}期\n会長: 田中\n会計: {name}\n書記: 佐藤\n"
                "広報: 未定\n"
            },
            "{name}",
        ),
    ),
    Case(
        "ja8_kengaku_sanka",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "kengaku.txt の行数を数えて、最後に「山口 美咲」を追加してから、"
            "もう一度数えてください。",
            "kengaku.txt",
            "山口 美咲",
        ),
    ),
    Case(
        "ja8_chumon_kumamoto",
        "command",
        LANGUAGE,
        forms.grep_count(
            "grep で chumon.csv の中に Kumamoto を含む行がいくつあるか数えてください。",
            "chumon.csv",
            "Kumamoto",
            ("Nagasaki", "Oita", "Miyazaki"),
        ),
    ),
)
