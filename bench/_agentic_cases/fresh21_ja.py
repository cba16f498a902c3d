"""Twenty-first fresh Japanese cases: written at once for the held-out-21 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("佐々木", "大久保", "長谷部", "西園寺", "小野田")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces);
#: the file, and the five last lines asked of tail, as a command may write them.
_START = r"(?<![a-z0-9_-])"
_NIKKI = r"['\"]?(?:[\w~./-]*/)?nikki\.txt"
_OPTS = r"(?:-\S+\s+)*"
_GO = r"(?:-n\s*['\"]?[-+]?5['\"]?|-5|--lines[= ]['\"]?5['\"]?)(?![\d.,])"

#: The commands that show the last five lines of nikki.txt, as an answer may write them.
_SAIGO = "|".join(
    (
        _START + r"tail\s+" + _OPTS + _GO + r"\s+" + _OPTS + r"(?:<\s*)?" + _NIKKI,
        _START + r"tail\s+" + _OPTS + _NIKKI + r"['\"]?\s+" + _GO,
        r"nikki\.txt['\"]?\s*\|\s*tail\s+" + _OPTS + _GO,
    )
)

CASES: tuple[Case, ...] = (
    Case(
        "ja21_ofuro",
        "action",
        LANGUAGE,
        forms.remind(
            "30分たったら、お風呂のお湯を止めるように知らせて。",
            0.5,
            "風呂",
            "お湯",
            "湯",
            "bath",
            "badewanne",
            "wanne",
            "bano",
            "baño",
            "banera",
            "bañera",
            "bain",
            "baignoire",
        ),
    ),
    Case(
        "ja21_hanami",
        "action",
        LANGUAGE,
        forms.append_line(
            "hanami_junbi.txt の一番下に「{line}」って一行足しておいて。ほかの行はいじらないでね。",
            "hanami_junbi.txt",
            ["場所取り: 朝7時から", "レジャーシート: 3枚", "飲み物: 各自持参"],
            "参加人数: {n}人",
        ),
    ),
    Case(
        "ja21_snooze",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "alarm.cfg のスヌーズを5分から10分に延ばしたい。snooze_minutes の行を書き換えて、"
            "行は増やさないでね。",
            "alarm.cfg",
            ["sound = kotori", "snooze_minutes = 5", "alarm_id = {n}"],
            ["sound = kotori", "snooze_minutes = 10", "alarm_id = {n}"],
        ),
    ),
    Case(
        "ja21_bouhan_touroku",
        "recall",
        LANGUAGE,
        forms.remember(
            "メモっといて。自転車の防犯登録番号、下4桁は{code}だから。",
            "自転車の防犯登録番号の下4桁って何だったっけ？",
        ),
    ),
    Case(
        "ja21_juice",
        "no-tool",
        LANGUAGE,
        forms.number(
            "1本150円のジュースを8本買ったら、合計いくらになる？",
            1200,
            "千二百",
            "せんにひゃく",
            "twelve hundred",
            "one thousand two hundred",
            "eintausendzweihundert",
            "tausendzweihundert",
            "mil doscientos",
            "mille deux cents",
            "mille deux-cents",
        ),
    ),
    Case(
        "ja21_nagai_kawa",
        "no-tool",
        LANGUAGE,
        forms.words("日本で一番長い川ってなんだっけ？", "信濃川|しなのがわ|shinano", stream=True),
    ),
    Case(
        "ja21_tail_nikki",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "nikki.txt の最後の5行だけ表示したいんだけど、コマンドはどう書けばいい？"
            "実行はしないで、書き方だけ教えて。",
            {"nikki.txt": "月曜: 雨\n火曜: 晴れ、散歩{n}分\n水曜: 曇り\n"},
            _SAIGO,
            "a tail -n 5 nikki.txt command",
        ),
    ),
    Case(
        "ja21_chonaikai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "chonaikai.txt に何が書いてあるか簡単にまとめて。防災訓練の担当は誰に決まった？",
            {
                "chonaikai.txt": "町内会の定例会（第{n}回）\n"
                "秋祭りの収支報告があった。\n"
                "防災訓練の担当は{name}さんに決まった。\n"
                "次回は公民館で集まることになった。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja21_bingo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "bingo_sankasha.txt って今何行ある？そのあと最後に「田村 花子」を一行追加して、"
            "もう一回数えてみて。",
            "bingo_sankasha.txt",
            "田村 花子",
        ),
    ),
    Case(
        "ja21_sendai",
        "command",
        LANGUAGE,
        forms.grep_count(
            "shukka_log.csv で、行き先が Sendai になってる行はいくつある？コマンドで数えて。",
            "shukka_log.csv",
            "Sendai",
            ["Morioka", "Yamagata", "Fukushima"],
        ),
    ),
)
