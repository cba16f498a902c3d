"""Sixteenth fresh Japanese cases: written at once for the held-out-16 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("西園寺", "五十嵐", "九十九", "長谷部", "勅使河原")

CASES: tuple[Case, ...] = (
    Case(
        "ja16_fuzaihyou",
        "action",
        LANGUAGE,
        forms.remind(
            "4時間後に、不在票の荷物を郵便局まで取りに行くのを知らせてね。",
            4,
            "不在",
            "荷物",
            "郵便",
            "parcel",
            "package",
            "post office",
            "paket",
            "paquete",
            "correos",
            "colis",
            "la poste",
        ),
    ),
    Case(
        "ja16_pet_hotel",
        "action",
        LANGUAGE,
        forms.write_file(
            "pet_hotel.txt に、連休中に犬を預けるペットホテルの担当は{name}さんで、"
            "予約番号は{code}だとメモしておいて。",
            "pet_hotel.txt",
        ),
    ),
    Case(
        "ja16_kuuki_seijouki",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "kuuki_seijouki.ini の風量を 4 から 2 に変えて。"
            "新しい行は足さないで、その行を直してね。",
            "kuuki_seijouki.ini",
            ["fuuryou = 4", "ion = on", "filter_days = {n}"],
            ["fuuryou = 2", "ion = on", "filter_days = {n}"],
        ),
    ),
    Case(
        "ja16_kutsu_shuuri",
        "recall",
        LANGUAGE,
        forms.remember(
            "靴の修理に出した預かり証の番号は{code}。忘れないように覚えておいてもらえる？",
            "靴の修理の預かり番号って何番だった？",
        ),
    ),
    Case(
        "ja16_shougiban",
        "no-tool",
        LANGUAGE,
        forms.number(
            "将棋盤のマスって全部でいくつあるの？",
            81,
            "八十一",
            "eighty-one",
            "eighty one",
            "einundachtzig",
            "ochenta y uno",
            "quatre-vingt-un",
        ),
    ),
    Case(
        "ja16_kinkakuji",
        "no-tool",
        LANGUAGE,
        forms.words_matching(
            "金閣寺って何県にあるの？", "(?<!東)京都|kyoto", "京都 (not 東京都)", stream=True
        ),
    ),
    Case(
        "ja16_mitsumori_grep",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このフォルダ以下で「見積」という文字が入っているファイルを全部探すコマンドを教えて。"
            "実行はしないでいいよ。",
            {"mitsumori/gaiheki.txt": "外壁塗装の見積 {n}万円\n"},
            r"(?<![\w-])grep\s+(?:-\S+\s+)*(?:-[a-z]*r[a-z]*|--recursive|--dereference-recursive)"
            r"\s+(?:-\S+\s+)*['\"「]?見積"
            r"|(?<![\w-])(?:rg|ag)\s+(?:-\S+\s+)*['\"「]?見積"
            r"|(?<![\w-])find\s[^\n]*?grep\s+(?:-\S+\s+)*['\"「]?見積",
            "a recursive grep (or rg, or find with grep) for 見積",
        ),
    ),
    Case(
        "ja16_bowling_taikai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "bowling_taikai.txt の内容をざっくりまとめて。優勝したのは誰だった？",
            {
                "bowling_taikai.txt": "社内ボウリング大会の報告（参加{n}名）\n"
                "会場は駅前のボウリング場でした。\n"
                "{name}さんが自己ベストを出して優勝しました。\n"
                "終わったあとは近くの居酒屋で打ち上げをしました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja16_mimamori",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "見守り当番の名簿 mimamori.txt って今何行ある？「石田」を一番下に加えたら、"
            "もう一回行数を確認して。",
            "mimamori.txt",
            "石田",
        ),
    ),
    Case(
        "ja16_reizouko",
        "command",
        LANGUAGE,
        forms.count_lines(
            "reizouko.txt って何行ある？シェルのコマンドで調べて。",
            "reizouko.txt",
        ),
    ),
)
