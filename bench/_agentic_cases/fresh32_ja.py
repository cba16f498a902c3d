"""Thirty-second fresh Japanese cases: written at once for the held-out-32 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("勅使河原", "五百旗頭", "小鳥遊", "東海林", "百目鬼")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: sort with a numeric option (-n, -g, -h or the long names; lower case, as the check
#: compares) and no reverse (-r) on taijuu.txt, or cat of it piped into such a sort.
_FILE = r"['\"]?(?:[\w~./-]*/)?taijuu\.txt['\"]?(?![a-z0-9_.-])"
_OPT = r"(?:(?!-[a-z]*r|--reverse)-\S+\s+)*"
_NUMERIC = (
    r"(?:-[a-qs-z]*[ngh][a-qs-z]*|--numeric-sort|--general-numeric-sort|--human-numeric-sort)"
)
_SORT = (
    rf"(?<![a-z0-9_-])sort\s+{_OPT}{_NUMERIC}\s+{_OPT}{_FILE}"
    rf"|(?<![a-z0-9_-])cat\s+{_FILE}\s*\|\s*sort\s+{_OPT}{_NUMERIC}(?![a-z0-9_-])"
    rf"(?!\s+{_OPT}(?:-[a-z]*r|--reverse))"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja32_shugei",
        "action",
        LANGUAGE,
        forms.append_line(
            "手芸の材料リスト shugei_zairyou.txt の最後に「{line}」って1行足しておいてくれる？"
            "ほかの行は消さないでね。",
            "shugei_zairyou.txt",
            ["刺しゅう糸（紺）", "フェルト 10枚", "くるみボタン"],
            "{name}さんに頼まれたレース",
        ),
    ),
    Case(
        "ja32_yogurt",
        "action",
        LANGUAGE,
        forms.remind(
            "8時間後に、ヨーグルトメーカーからヨーグルトを出して冷蔵庫に入れるように声をかけて"
            "くれる？",
            8,
            "ヨーグルト",
            "yogurt",
            "yoghurt",
            "joghurt",
            "yogur",
            "yaourt",
        ),
    ),
    Case(
        "ja32_home_bakery",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "ホームベーカリーで焼くパンがいつも焦げ気味なの。home_bakery.conf の yakiiro を 3"
            " から 2 にして。行は足さないで、今ある行を書き換えてね。",
            "home_bakery.conf",
            ["course = shokupan", "yakiiro = 3", "serial = {n}"],
            ["course = shokupan", "yakiiro = 2", "serial = {n}"],
        ),
    ),
    Case(
        "ja32_net_super",
        "recall",
        LANGUAGE,
        forms.remember(
            "ネットスーパーで注文したんだけど、注文番号は{code}だって。覚えといてくれる？",
            "ネットスーパーの注文番号って何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja32_otoshidama",
        "no-tool",
        LANGUAGE,
        forms.number(
            "お正月に甥っ子3人に2000円ずつ、姪っ子2人に1500円ずつお年玉をあげるんだけど、"
            "全部でいくら用意すればいい？",
            9000,
            "九千",
            "9千",
            "nine thousand",
            "neuntausend",
            "nueve mil",
            "neuf mille",
        ),
    ),
    Case(
        "ja32_neko_ni_koban",
        "no-tool",
        LANGUAGE,
        forms.words(
            "夫の誕生日に高い万年筆をあげたら、母に「猫に小判ね」って言われたの。"
            "これってどういう意味？",
            "価値|ありがたみ|有り難み|良さ|値打ち|もったいない|無駄|意味がない|意味が無い"
            "|役に立たない",
        ),
    ),
    Case(
        "ja32_taijuu",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "毎朝の体重を taijuu.txt に1行に1つずつ書いてるんだけど、軽い順に並べて表示するには"
            "どんなコマンドを使えばいい？実行はしないで、コマンドだけ教えて。",
            {"kaimono.txt": "卵 {n}個\n引換番号 {code}\n"},
            _SORT,
            "a sort -n taijuu.txt command",
        ),
    ),
    Case(
        "ja32_soba_uchi",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "そば打ち同好会の集まりを休んじゃったんだけど、soba_uchi.txt には何て書いてある？"
            "あと、年越しそばの会の材料は誰が買ってくるの？",
            {
                "soba_uchi.txt": "そば打ち同好会 集まりのメモ（第{n}回）\n"
                "新しいのし棒を二本買うことに決まった。\n"
                "年越しそばの会の材料は{name}さんが買ってくることになった。\n"
                "会費は据え置きで、月500円のままになった。\n"
                "次の集まりは公民館の調理室に決まった。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja32_ryouri_kyoushitsu",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "ryouri_kyoushitsu.txt を読んで、料理教室の日にちを8日から15日に変えてから、"
            "もう一回読んでちゃんと変わったか見せてくれる？",
            "ryouri_kyoushitsu.txt",
            ["料理教室の予約（会員番号{n}）", "日にち: 8日", "メニュー: 筑前煮"],
            ["料理教室の予約（会員番号{n}）", "日にち: 15日", "メニュー: 筑前煮"],
            "日にち: 15日",
        ),
    ),
    Case(
        "ja32_kouyou_bus",
        "command",
        LANGUAGE,
        forms.count_lines(
            "kouyou_bus.txt に、紅葉狩りのバスツアーに申し込んだ人が1行に1人ずつ書いてあるの。"
            "今何人になってるか、コマンドで行数を数えてくれる？",
            "kouyou_bus.txt",
        ),
    ),
)
