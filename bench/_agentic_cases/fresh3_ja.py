"""三つ目の新しい日本語のケース: written at once for the held-out-3 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
SURNAMES = ("中村", "小林", "加藤", "吉田", "山田", "松田")

CASES: tuple[Case, ...] = (
    Case(
        "ja3_shaken_memo",
        "action",
        LANGUAGE,
        forms.write_file(
            "kuruma.txtに「{name}さんの車を車検に出した。受付番号は{code}」と書いておいて。",
            "kuruma.txt",
        ),
    ),
    Case(
        "ja3_yomitai_tsuika",
        "action",
        LANGUAGE,
        forms.append_line(
            "yomitai.txtの末尾に「{line}」を足してください。ほかの行は消さないで。",
            "yomitai.txt",
            ["- 坊っちゃん", "- 雪国", "- 羅生門"],
            "- 人間失格 {n}ページから",
        ),
    ),
    Case(
        "ja3_sleep_timer",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "timer.confのsleep_minutesを30から45に変えて。他の設定はそのままでいいよ。",
            "timer.conf",
            ["[timer]", "sleep_minutes = 30", "device = tv{n}"],
            ["[timer]", "sleep_minutes = 45", "device = tv{n}"],
        ),
    ),
    Case(
        "ja3_churinjo",
        "recall",
        LANGUAGE,
        forms.remember(
            "マンションの駐輪場のステッカー番号は{code}です。忘れないように覚えておいて。",
            "駐輪場のステッカーの番号、何番だったっけ？",
            stream=True,
        ),
    ),
    Case(
        "ja3_dozen",
        "no-tool",
        LANGUAGE,
        forms.number("1ダースって何個のこと？", 12, "十二", "twelve", "zwolf", "doce", "douze"),
    ),
    Case(
        "ja3_kogosei",
        "no-tool",
        LANGUAGE,
        forms.words(
            "植物が光合成のときに取り込む気体は何ですか？",
            "二酸化炭素|co2|carbon dioxide|kohlendioxid|dioxido de carbono|dioxyde de carbone",
        ),
    ),
    Case(
        "ja3_atarashii_jun",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このフォルダのファイルを新しい順に並べて表示するコマンドを教えてください。"
            "自分で実行するので、コマンドだけで大丈夫です。",
            {"memo1.txt": "メモ{n}\n", "memo2.txt": "メモ\n"},
            r"\bls\b.*(-[a-z]*t|--sort[= ]time)",
            "an ls -t command",
        ),
    ),
    Case(
        "ja3_chonaikai",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "chonaikai.txtに昨日の町内会のことが書いてあります。"
            "どんな話になったのか、要点だけ教えてもらえる？",
            {
                "chonaikai.txt": "昨日の町内会では、{name}さんが夏祭りの係に決まりました。"
                "ごみ置き場は来月から公園の横に移ります。出席者は{n}人でした。\n"
            },
            "{name}|{n}",
            names=SURNAMES,
        ),
    ),
    Case(
        "ja3_shugo_jikan",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "yotei.txtを開いて、集合時間を10:00から9:30に直してください。"
            "直したら、もう一度ファイルを読んで変わっているか見せてね。",
            "yotei.txt",
            ["集合: 10:00", "場所: 駅前", "人数: {n}"],
            ["集合: 9:30", "場所: 駅前", "人数: {n}"],
            "集合: 9:30",
        ),
    ),
    Case(
        "ja3_kiroku_gyosu",
        "command",
        LANGUAGE,
        forms.count_lines("kiroku.txtは何行ありますか？wc -lで数えてください。", "kiroku.txt"),
    ),
)
