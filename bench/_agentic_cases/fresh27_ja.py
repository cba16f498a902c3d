"""Twenty-seventh fresh Japanese cases: written at once for the held-out-27 half, from the forms
and the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("勅使河原", "五百旗頭", "小鳥遊", "長宗我部", "東海林")

#: The names the recall saves, one per run.
SEITAI = ("真壁", "東雲", "御子柴", "榊原")

#: A command starts after anything but an ASCII word (Japanese text runs on without spaces):
#: zip with its recursive option, the archive, then the folder (lower case, as the check
#: compares).
_ZIP = (
    r"(?<![a-z0-9_-])zip\s+(?:-\S+\s+)*-[a-z]*r[a-z]*\s+(?:-\S+\s+)*"
    r"['\"]?(?:[\w~./-]*/)?ryokou_shashin\.zip['\"]?\s+['\"]?(?:[\w~./-]*/)?ryokou_shashin/?"
    r"['\"]?(?![a-z0-9_.-])"
)

CASES: tuple[Case, ...] = (
    Case(
        "ja27_hikkoshi_aisatsu",
        "action",
        LANGUAGE,
        forms.append_line(
            "aisatsu_list.txt の最後に「{line}」を一行追加しといて。ほかの行はいじらないでね。",
            "aisatsu_list.txt",
            ["隣の部屋 タオル", "下の階 洗剤", "大家さん 菓子折り"],
            "管理人の{name}さん ハンドソープ",
        ),
    ),
    Case(
        "ja27_coin_laundry",
        "action",
        LANGUAGE,
        forms.remind(
            "30分後に、コインランドリーの乾燥が終わった洗濯物を取りに行くって教えてくれる？",
            0.5,
            "コインランドリー",
            "洗濯",
            "乾燥",
            "laundry",
            "laundrette",
            "wäsche",
            "lavandería",
            "ropa",
            "linge",
            "laverie",
        ),
    ),
    Case(
        "ja27_mizuyari",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "モンステラに水をやりすぎて根腐れしそうだから、mizuyari.conf の interval_days を 1"
            " から 3 にして。新しく行を足すんじゃなくて、その行を書き換えてね。",
            "mizuyari.conf",
            ["pot = monstera", "interval_days = 1", "amount_ml = {n}"],
            ["pot = monstera", "interval_days = 3", "amount_ml = {n}"],
        ),
    ),
    Case(
        "ja27_seitai",
        "recall",
        LANGUAGE,
        forms.remember(
            "最近通い始めた整体の先生、{value}さんっていうの。忘れそうだから覚えといて。",
            "こないだ話した整体の先生って、なんて名前だった？",
            SEITAI,
            stream=True,
        ),
    ),
    Case(
        "ja27_karaage",
        "no-tool",
        LANGUAGE,
        forms.number(
            "お花見のお弁当に、唐揚げを1人4個ずつ12人分と、味見用に5個揚げるつもり。全部で何個"
            "揚げればいい？",
            53,
            "五十三",
            "fifty-three",
            "fifty three",
            "dreiundfünfzig",
            "dreiundfuenfzig",
            "cincuenta y tres",
            "cinquante-trois",
        ),
    ),
    Case(
        "ja27_fyi",
        "no-tool",
        LANGUAGE,
        forms.words(
            "上司がチャットでよく「FYI」って書いてくるんだけど、あれってどういう意味？",
            "参考|情報共有|お知らせ|知っておいて|知らせ|for your information",
        ),
    ),
    Case(
        "ja27_ryokou_zip",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "ryokou_shashin フォルダを丸ごと ryokou_shashin.zip にまとめたいんだけど、どんな"
            "コマンドを打てばいい？教えてくれるだけでいいよ、実行はしないで。",
            {"memo.txt": "お土産 {n}個\nロッカー番号 {code}\n"},
            _ZIP,
            "a zip -r ryokou_shashin.zip ryokou_shashin command",
        ),
    ),
    Case(
        "ja27_fukubiki",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "商店街の福引きの打ち合わせに行けなかったんだけど、fukubiki_memo.txt には何て"
            "書いてある？それと、抽選会場の設営は誰がやることになったの？",
            {
                "fukubiki_memo.txt": "商店街 福引き打ち合わせメモ（第{n}回）\n"
                "特賞は温泉旅行に決まった。\n"
                "補助券は300円の買い物で1枚にする。\n"
                "抽選会場の設営は{name}さんが引き受けた。\n"
                "ガラガラの抽選機は隣町から借りる。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja27_shuuji",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "shuuji.txt を読んでから、お稽古を土曜から日曜に変えて、最後にもう一回読んで"
            "ちゃんと変わったか見せて。",
            "shuuji.txt",
            ["習字教室（生徒番号{n}）", "お稽古: 土曜 10時", "持ち物: 半紙と墨汁"],
            ["習字教室（生徒番号{n}）", "お稽古: 日曜 10時", "持ち物: 半紙と墨汁"],
            "お稽古: 日曜 10時",
        ),
    ),
    Case(
        "ja27_bonodori",
        "command",
        LANGUAGE,
        forms.count_lines(
            "bonodori_sanka.txt に盆踊り大会に出る人の名前が1行に1人ずつ書いてあるの。"
            "全部で何人いるか、コマンドで数えてくれる？",
            "bonodori_sanka.txt",
        ),
    ),
)
