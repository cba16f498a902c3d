"""Twenty-fifth fresh Japanese cases: written at once for the held-out-25 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("鬼頭", "舟越", "水無瀬", "蓮見", "百瀬")

#: The end of the film, 19:35 plus 2 hours 8 minutes: 21時43分 or 21:43, not part of a longer
#: time.
_SHUEN = r"(?<![\d:.])21\s*(?:時|:)\s*43(?!\d)"

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: grep (or rg) with its options on the word TODO (lower case, as the check compares).
_GREP = r"(?<![a-z0-9_-])(?:grep|rg)\s+(?:-\S+\s+)*['\"]?todo['\"]?(?![a-z0-9_])"

CASES: tuple[Case, ...] = (
    Case(
        "ja25_aikagi",
        "action",
        LANGUAGE,
        forms.write_file(
            "合鍵を{name}さんに預けたことと、宅配ボックスの暗証番号が{code}だってことを、"
            "aikagi.txt にメモしておいてくれる？",
            "aikagi.txt",
        ),
    ),
    Case(
        "ja25_eikaiwa",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後にオンライン英会話のレッスンがあるから、その時間になったら知らせてくれる？",
            2,
            "英会話",
            "レッスン",
            "lesson",
            "english",
            "englisch",
            "unterricht",
            "inglés",
            "clase",
            "anglais",
            "cours",
        ),
    ),
    Case(
        "ja25_denki_pot",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "お茶をいれるのにお湯が熱すぎるから、pot.conf の keep_temp を 98 から 80 に変えて。"
            "行を足すんじゃなくて、今ある行を書き換えてね。",
            "pot.conf",
            ["mode = saving", "keep_temp = 98", "lock_seconds = {n}"],
            ["mode = saving", "keep_temp = 80", "lock_seconds = {n}"],
        ),
    ),
    Case(
        "ja25_kenshin",
        "recall",
        LANGUAGE,
        forms.remember(
            "健康診断の受付番号は{value}番だって。覚えといてね。",
            "健康診断の受付番号って何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja25_eiga",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "19時35分から始まる映画で、上映時間が2時間8分なんだけど、終わるのは何時何分？",
            _SHUEN,
            "21:43",
        ),
    ),
    Case(
        "ja25_samidare",
        "no-tool",
        LANGUAGE,
        forms.words(
            "本を読んでたら「五月雨」って漢字が出てきたんだけど、これってなんて読むの？",
            "さみだれ|サミダレ|samidare",
        ),
    ),
    Case(
        "ja25_todo_grep",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このフォルダの中で「TODO」って書いてあるファイルを探したいんだけど、"
            "コマンドだけ教えて。自分で打つから実行はしないでね。",
            {"todo_memo.txt": "TODO: 見積もり{code}を送る\n会議室{n}を予約\n"},
            _GREP,
            "a grep TODO command",
        ),
    ),
    Case(
        "ja25_shinnenkai",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "shinnenkai.txt を見て、新年会のお店の予約を誰がやってくれるのか教えて。",
            {
                "shinnenkai.txt": "営業部 新年会（{n}名）\n"
                "乾杯の挨拶: 部長\n"
                "お店の予約: {name}\n"
                "会計: 山本\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja25_shain_ryokou",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "shain_ryokou.txt が今何行あるか数えてから、最後に「高田 健一」を追加して、"
            "もう一回数えて増えたのを見せて。",
            "shain_ryokou.txt",
            "高田 健一",
        ),
    ),
    Case(
        "ja25_okurijou_kitami",
        "command",
        LANGUAGE,
        forms.grep_count(
            "okurijou.csv の送り状のうち、届け先が「Kitami」になっているのは何件？"
            "コマンドで数えて。",
            "okurijou.csv",
            "Kitami",
            ["Abashiri", "Nemuro", "Wakkanai"],
        ),
    ),
)
