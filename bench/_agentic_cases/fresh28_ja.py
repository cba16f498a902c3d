"""Twenty-eighth fresh Japanese cases: written at once for the held-out-28 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("勘解由小路", "四十物", "一尺八寸", "左衛門三郎", "月見里")

#: The names the recall saves, one per run.
JUUI = ("一ノ瀬", "鬼頭", "南雲", "雲母")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: grep with its options, the word (quoted or not), then the file (lower case, as the check
#: compares).
_GREP = (
    r"(?<![a-z0-9_-])grep\s+(?:-\S+\s+)*['\"]?電気代['\"]?\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?kakeibo\.csv['\"]?(?![a-z0-9_.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja28_kondate",
        "action",
        LANGUAGE,
        forms.append_line(
            "kondate.txt の最後に「{line}」って一行足しておいて。ほかの行はそのままでね。",
            "kondate.txt",
            ["月曜 カレー", "火曜 焼き魚", "水曜 肉じゃが"],
            "木曜 {name}さんにもらった白菜で鍋",
        ),
    ),
    Case(
        "ja28_haisha",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間後に、歯医者さんに予約の電話をするよう声かけてくれる？",
            1,
            "歯医者",
            "予約",
            "電話",
            "dentist",
            "zahnarzt",
            "dentista",
            "dentiste",
        ),
    ),
    Case(
        "ja28_aircon",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "エアコンのおやすみタイマーが短くて夜中に暑くて目が覚めちゃう。aircon.conf の"
            " sleep_timer_min を 60 から 180 に変えて。行を足すんじゃなくて、その行を直してね。",
            "aircon.conf",
            ["mode = cool", "sleep_timer_min = 60", "filter_days = {n}"],
            ["mode = cool", "sleep_timer_min = 180", "filter_days = {n}"],
        ),
    ),
    Case(
        "ja28_juui",
        "recall",
        LANGUAGE,
        forms.remember(
            "うちの猫を診てもらってる獣医さん、{value}先生っていうの。覚えておいてね。",
            "うちの猫を診てくれてる獣医さんって、なんて名前だったっけ？",
            JUUI,
            stream=True,
        ),
    ),
    Case(
        "ja28_mochitsuki",
        "no-tool",
        LANGUAGE,
        forms.number(
            "町内会の餅つきで、1臼から30個お餅ができるとして、4臼ついたうえに近所の人から12個"
            "もらったら、全部で何個になる？",
            132,
            "百三十二",
            "one hundred thirty-two",
            "one hundred and thirty-two",
            "hundertzweiunddreißig",
            "ciento treinta y dos",
            "cent trente-deux",
        ),
    ),
    Case(
        "ja28_asap",
        "no-tool",
        LANGUAGE,
        forms.words(
            "取引先のメールに「ASAP」って書いてあったんだけど、これってどういう意味？",
            "至急|早急|できるだけ早く|なるべく早く|できる限り早く|as soon as possible",
        ),
    ),
    Case(
        "ja28_denkidai",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "kakeibo.csv の中から「電気代」って書いてある行だけ探したいんだけど、どんなコマンド"
            "を使えばいい？教えてくれるだけでいいよ、実行はしないでね。",
            {"kaimono.txt": "牛乳 {n}本\n宅配ボックス {code}\n"},
            _GREP,
            "a grep 電気代 kakeibo.csv command",
        ),
    ),
    Case(
        "ja28_rijikai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "マンションの理事会に出られなかったんだけど、rijikai_memo.txt には何て書いてある？"
            "それと、夏祭りの受付は誰がやることになったの？",
            {
                "rijikai_memo.txt": "マンション理事会メモ（第{n}回）\n"
                "駐輪場の屋根を秋に張り替える。\n"
                "ゴミ置き場に防犯カメラを付けることになった。\n"
                "夏祭りの受付は{name}さんが担当する。\n"
                "次の理事会は来月の第二日曜。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja28_juku",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "juku.txt を読んで、塾のお迎えを18時から19時に変えてから、もう一回読んでちゃんと"
            "変わったか見せて。",
            "juku.txt",
            ["塾メモ（会員番号{n}）", "お迎え: 18時", "曜日: 火・木"],
            ["塾メモ（会員番号{n}）", "お迎え: 19時", "曜日: 火・木"],
            "お迎え: 19時",
        ),
    ),
    Case(
        "ja28_bento",
        "command",
        LANGUAGE,
        forms.count_lines(
            "undoukai_bento.txt に運動会のお弁当を頼んだ人が1行に1人ずつ書いてあるよ。"
            "全部で何人分か、コマンドで数えてくれる？",
            "undoukai_bento.txt",
        ),
    ),
)
