"""二つ目の新しい日本語のケース: written at once for the held-out-2 half, from the forms and the
kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
SURNAMES = ("佐藤", "鈴木", "高橋", "田中", "渡辺", "山本")

CASES: tuple[Case, ...] = (
    Case(
        "ja2_souji_tsuika",
        "action",
        LANGUAGE,
        forms.append_line(
            "souji.txtの最後に「{line}」を一行追加しといて。",
            "souji.txt",
            ["- お風呂", "- トイレ", "- 玄関"],
            "- ベランダ {n}分",
        ),
    ),
    Case(
        "ja2_hotel_memo",
        "action",
        LANGUAGE,
        forms.write_file(
            "hotel.txtというファイルを作って、「{name}の名前でホテルを予約済み、予約番号{code}」"
            "と書いておいてください。",
            "hotel.txt",
        ),
    ),
    Case(
        "ja2_kisho_jikan",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "alarm.iniの起床時刻を07:00から06:30に変更してください。ほかの行はそのままで。",
            "alarm.ini",
            ["[alarm]", "wake = 07:00", "label = room{n}"],
            ["[alarm]", "wake = 06:30", "label = room{n}"],
        ),
    ),
    Case(
        "ja2_shain_bango",
        "recall",
        LANGUAGE,
        forms.remember(
            "私の社員番号は{code}です。あとで聞くかもしれないので覚えておいて。",
            "私の社員番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja2_kakezan",
        "no-tool",
        LANGUAGE,
        forms.number("17×23はいくつですか？", 391, "三百九十一"),
    ),
    Case(
        "ja2_arigatou",
        "no-tool",
        LANGUAGE,
        forms.words("「ありがとう」はフランス語で何と言いますか？", "merci", stream=True),
    ),
    Case(
        "ja2_port_shiraberu",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "ポート8080を使っているプロセスを調べるコマンドを教えてください。"
            "自分で打つので、実行はしないでコマンドだけお願いします。",
            {"server.log": "listening on :8080 (pid {code})\n"},
            r"(?<![a-z])(lsof|ss|netstat|fuser)(?![a-z])",
            "an lsof, ss, netstat or fuser command",
        ),
    ),
    Case(
        "ja2_nippo",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "nippo.txtに何が書いてあったか、ざっくりまとめてもらえますか？",
            {
                "nippo.txt": "本日は{name}さんと一緒に取引先を訪問しました。新しい見積もりを"
                "説明し、納期は{n}日後で合意しました。帰社後に議事録を共有しました。\n"
            },
            "{name}|{n}",
            names=SURNAMES,
        ),
    ),
    Case(
        "ja2_debug_kakunin",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "settei.yamlを読んで、debug: falseをdebug: trueに書き換えてから、"
            "もう一度読み直してちゃんと変わったか確認してください。",
            "settei.yaml",
            ["debug: false", "workers: {n}"],
            ["debug: true", "workers: {n}"],
            "debug: true",
        ),
    ),
    Case(
        "ja2_kusuri",
        "action",
        LANGUAGE,
        forms.remind(
            "1時間半後に薬を飲むよう、リマインドをお願いします。",
            1.5,
            "薬",
            "medicine",
            "medication",
            "pill",
        ),
    ),
)
