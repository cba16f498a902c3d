"""Thirty-third fresh Japanese cases: written at once for the held-out-33 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("御手洗", "月見里", "薬袋", "神余", "鬼頭")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: file (any options) or mimetype on tenpu_shiryou, or xdg-mime query filetype on it.
_FILE = r"['\"]?(?:[\w~./-]*/)?tenpu_shiryou['\"]?(?![a-z0-9_.-])"
_SHURUI = (
    rf"(?<![a-z0-9_-])(?:file|mimetype)\s+(?:-\S+\s+)*{_FILE}"
    rf"|(?<![a-z0-9_-])xdg-mime\s+query\s+filetype\s+{_FILE}"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja33_megane",
        "action",
        LANGUAGE,
        forms.write_file(
            "メガネ屋さんで担当してくれたのは{name}さんで、引換番号は{code}だった。"
            " megane.txt にメモしておいてくれる？",
            "megane.txt",
        ),
    ),
    Case(
        "ja33_kuromame",
        "action",
        LANGUAGE,
        forms.remind(
            "お正月用の黒豆を水につけたから、5時間後に煮始めるように声をかけてくれる？",
            5,
            "黒豆",
            "豆",
            "kuromame",
            "bean",
            "bohnen",
            "frijol",
            "judias",
            "haricot",
        ),
    ),
    Case(
        "ja33_washlet",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "寒くなってトイレの便座が冷たいの。washlet.conf の zaon を 2 から 3 に上げてくれる？"
            "新しい行を足すんじゃなくて、今ある行を書き換えてね。",
            "washlet.conf",
            ["mode = eco", "zaon = 2", "serial = {n}"],
            ["mode = eco", "zaon = 3", "serial = {n}"],
        ),
    ),
    Case(
        "ja33_hoikuen_card",
        "recall",
        LANGUAGE,
        forms.remember(
            "保育園のお迎えカードの番号が{code}になったから、覚えておいてくれる？",
            "保育園のお迎えカードの番号って何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja33_kodomokai",
        "no-tool",
        LANGUAGE,
        forms.number(
            "子ども会のクリスマス会の会費を集めるの。子どもは1人800円、大人は1人1500円で、"
            "子どもが14人、大人が6人参加するんだけど、全部でいくら集まる？",
            20200,
            "2万200",
            "二万二百",
            "twenty thousand two hundred",
            "zwanzigtausendzweihundert",
            "veinte mil doscientos",
            "vingt mille deux cents",
        ),
    ),
    Case(
        "ja33_yakeishi",
        "no-tool",
        LANGUAGE,
        forms.words(
            "今月の赤字、私のお小遣いを少し削ったくらいじゃ焼け石に水だって夫に言われた。"
            "これってどういう意味？",
            "効果がな|効果はな|効果もな|効果が薄|効果は薄|効果がほとんど|効果はほとんど"
            "|効果がまったく|効果が全く|効果はまったく|効果は全く|ほとんど効果|まったく効果"
            "|全く効果|効き目がな|効き目はな|効き目がほとんど|ほとんど効き目|役に立たな"
            "|役には立たな|足りな|足しにならな|少なすぎ|追いつかな|意味がな|意味はな|無駄"
            "|むだ|解決しな|どうにもならな",
        ),
    ),
    Case(
        "ja33_tenpu",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "メールの添付を保存したら、拡張子のない tenpu_shiryou っていうファイルになっちゃった。"
            "何の種類のファイルか調べるには、どんなコマンドを使えばいい？"
            "実行はしないで、教えてくれるだけでいいよ。",
            {"yarukoto.txt": "電池 {n}本\n受付番号 {code}\n"},
            _SHURUI,
            "a file tenpu_shiryou command",
        ),
    ),
    Case(
        "ja33_shouboudan",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "消防団の会合に行けなかったんだけど、shouboudan.txt には何て書いてある？"
            "あと、年末の夜回りの当番表は誰が作ることになったの？",
            {
                "shouboudan.txt": "消防団 第{n}分団 会合メモ\n"
                "新しいホースを三本買うことが決まった。\n"
                "年末の夜回りの当番表は{name}さんが作ることになった。\n"
                "出初式の集合は朝7時に決まった。\n"
                "団員の飲み会は来月に延期された。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja33_gasshoudan",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "合唱団の団員が gasshoudan.txt に1行に1人ずつ書いてあるの。wc -l で数えてから、"
            "最後に「日比野すみれ」を1行足して、もう一回数えてくれる？",
            "gasshoudan.txt",
            "日比野すみれ",
        ),
    ),
    Case(
        "ja33_gaishoku",
        "command",
        LANGUAGE,
        forms.grep_count(
            "外食した日を gaishoku.csv に記録してるんだけど、お店が「Saizeriya」だった日は"
            "何回ある？コマンドで数えてくれる？",
            "gaishoku.csv",
            "Saizeriya",
            ("Gusto", "Yoshinoya", "Sukiya", "Matsuya"),
        ),
    ),
)
