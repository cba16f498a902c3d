"""Thirty-fourth fresh Japanese cases: written at once for the held-out-34 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("四方田", "小日向", "眞栄田", "京極", "雲類鷲")

#: How much chicken: 2100 g (2,100), 2.1 kg (2.1キロ), or in kanji.
_GRAM = rf"{forms.number_pattern(2100)}|(?<![\d.,])2[.,]1\s*(?:kg|キロ)|二千百|2千100"

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: upower -i on the battery's device (or upower -d, which dumps it); acpi (-b); the battery's
#: capacity (or uevent) under /sys/class/power_supply read with cat, head, less or more; inxi
#: -B; or tlp-stat -b.
_START = r"(?<![a-z0-9_-])"
_ZANRYOU = (
    rf"{_START}upower\s+(?:-\S+\s+)*(?:-i|--show-info)\s+[^`]*?bat"
    rf"|{_START}upower\s+(?:-\S+\s+)*(?:-d|--dump)(?![a-z0-9_-])"
    rf"|{_START}acpi(?:\s+-[a-z]+)*(?![a-z0-9_-])"
    rf"|{_START}(?:cat|head|less|more)\s+(?:-\S+\s+)*\S*/sys/class/power_supply/[^\s`]*"
    r"(?:capacity|uevent)"
    rf"|{_START}inxi\s+(?:-\S+\s+)*-[a-z]*b[a-z]*(?![a-z0-9_-])"
    rf"|{_START}tlp-stat\s+(?:-\S+\s+)*(?:-b|--battery)(?![a-z0-9_-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja34_kateisaien",
        "action",
        LANGUAGE,
        forms.append_line(
            "家庭菜園で今年植えたいものを kateisaien.txt に書いてるんだけど、最後に「{line}」"
            "を1行足してくれる？ほかの行はそのままでね。",
            "kateisaien.txt",
            ["ミニトマト", "きゅうり", "大葉"],
            "{name}さんおすすめの枝豆",
        ),
    ),
    Case(
        "ja34_contact",
        "action",
        LANGUAGE,
        forms.remind(
            "6時間後に、コンタクトを外すように声をかけてくれる？新しいレンズだから、まだ長くは"
            "つけていられないの。",
            6,
            "コンタクト",
            "レンズ",
            "contact",
            "lens",
            "linse",
            "lentilla",
            "lente",
            "lentille",
        ),
    ),
    Case(
        "ja34_massage_chair",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "マッサージチェアのもみ玉が強すぎて痛いの。massage_chair.conf の tsuyosa を 3 から"
            " 2 に下げてくれる？行を足すんじゃなくて、今ある行を書き換えてね。",
            "massage_chair.conf",
            ["course = kata", "tsuyosa = 3", "serial = {n}"],
            ["course = kata", "tsuyosa = 2", "serial = {n}"],
        ),
    ),
    Case(
        "ja34_jaf",
        "recall",
        LANGUAGE,
        forms.remember(
            "JAFの会員番号の下4桁が{code}なんだけど、覚えといてくれる？",
            "JAFの会員番号の下4桁って何だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja34_toriniku",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "4人分のレシピで鶏もも肉が600gなんだけど、14人分作るなら何g用意すればいい？",
            _GRAM,
            "2100g",
        ),
    ),
    Case(
        "ja34_tanabota",
        "no-tool",
        LANGUAGE,
        forms.words(
            "引っ越したら、前の人が置いていった新品のエアコンをそのまま使っていいことになったの。"
            "母に「棚からぼたもちね」って言われたんだけど、どういう意味？",
            "思いがけな|思いがけず|思いもよらな|思いもかけな|予想外|予期せぬ|予期しな|偶然"
            "|たまたま|運よく|運良く|運がい|運が良|幸運|ラッキー|苦労せず|苦労しないで"
            "|努力せず|努力しないで|何もしないで|何もせず|労せず|思わぬ|転がり込",
        ),
    ),
    Case(
        "ja34_battery",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "Linux のノートパソコンで、バッテリーの残量をターミナルから確認するにはどんなコマンドを"
            "使えばいい？実行はしないで、教えてくれるだけでいいよ。",
            {"todo.txt": "クリーニング 引換 {code}\n牛乳 {n}本\n"},
            _ZANRYOU,
            "an upower -i (or acpi -b) command",
        ),
    ),
    Case(
        "ja34_keirokai",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "keirokai.txt を見て、敬老会の記念品を誰が用意するのか教えて。",
            {
                "keirokai.txt": "敬老会の係（第{n}回）\n"
                "司会: 自治会長\n"
                "記念品の用意: {name}\n"
                "お弁当: 仕出し屋さん\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja34_omiyamairi",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "omiyamairi.txt を読んで、お宮参りの予約時間を11時から13時に変えたあと、もう一回"
            "読んでちゃんと変わったか見せてくれる？",
            "omiyamairi.txt",
            ["お宮参りの予約（受付番号{n}）", "予約時間: 11時", "場所: 八幡神社"],
            ["お宮参りの予約（受付番号{n}）", "予約時間: 13時", "場所: 八幡神社"],
            "予約時間: 13時",
        ),
    ),
    Case(
        "ja34_nobotta_yama",
        "command",
        LANGUAGE,
        forms.count_lines(
            "今まで登った山を nobotta_yama.txt に1行に1つずつ書いてるの。全部でいくつになったか、"
            "コマンドで行数を数えてくれる？",
            "nobotta_yama.txt",
        ),
    ),
)
