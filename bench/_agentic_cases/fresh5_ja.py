"""Fifth fresh Japanese cases: written at once for the held-out-5 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
#: Names for a note and a summary: written in Japanese, as a Japanese note would have them.
NAMAE = ("佐藤", "鈴木", "高橋", "渡辺", "山本", "中村")

CASES: tuple[Case, ...] = (
    Case(
        "ja5_cleaning",
        "action",
        LANGUAGE,
        forms.remind(
            "3時間後に、クリーニング屋にスーツを取りに行くのをリマインドして。",
            3,
            "クリーニング",
            "スーツ",
            "suit",
            "cleaner",
            "dry clean",
            "reinigung",
            "anzug",
            "tintoreria",
            "traje",
            "pressing",
            "costume",
        ),
    ),
    Case(
        "ja5_happyokai",
        "action",
        LANGUAGE,
        forms.write_file(
            "happyokai.txt というファイルを新しく作って、ピアノ発表会の受付担当は{name}さん、"
            "控え室の暗証番号は{code}、と書いておいて。",
            "happyokai.txt",
            names=NAMAE,
        ),
    ),
    Case(
        "ja5_printer_mae",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "printer.ini のプリンター名の頭に 2f_ を付け足して。今は office になってる。"
            "ほかの行はそのままで。",
            "printer.ini",
            ["name = office", "copies = {n}", "color = false"],
            ["name = 2f_office", "copies = {n}", "color = false"],
        ),
    ),
    Case(
        "ja5_shinsatsuken",
        "recall",
        LANGUAGE,
        forms.remember(
            "覚えておいて。病院の診察券の番号は{code}です。",
            "病院の診察券の番号って何番だったっけ？",
        ),
    ),
    Case(
        "ja5_gorin",
        "no-tool",
        LANGUAGE,
        forms.number(
            "オリンピックのマークの輪っていくつある？",
            5,
            "五つ",
            "five",
            "funf",
            "cinco",
            "cinq",
        ),
    ),
    Case(
        "ja5_wagahai",
        "no-tool",
        LANGUAGE,
        forms.words("「吾輩は猫である」を書いたのは誰？", "漱石|soseki|souseki"),
    ),
    Case(
        "ja5_pwd_miseru",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "今いるディレクトリのフルパスを表示するコマンドって何？実行はしなくていいから、"
            "コマンドだけ教えて。",
            {"sagyo.txt": "作業フォルダ、ファイル{n}個\n"},
            r"(?<![a-z])pwd(?![a-z])",
            "pwd",
        ),
    ),
    Case(
        "ja5_shain_ryoko",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "先週の社員旅行のことを ryoko.txt にメモしてあるから、簡単にまとめて。",
            {
                "ryoko.txt": "幹事は{name}さんだった。\n箱根の旅館に一泊した。\n"
                "参加者は{n}人だった。\n"
            },
            "{name}",
            names=NAMAE,
        ),
    ),
    Case(
        "ja5_gomi_yobi",
        "redo",
        LANGUAGE,
        forms.edit_then_read(
            "gomi.txt を表示して、燃えるゴミの日を火曜から水曜に変えたら、もう一度表示して"
            "確認させて。",
            "gomi.txt",
            ["燃えるゴミ: 火曜", "資源ゴミ: 金曜", "集積所: {n}番"],
            ["燃えるゴミ: 水曜", "資源ゴミ: 金曜", "集積所: {n}番"],
            "燃えるゴミ: 水曜",
        ),
    ),
    Case(
        "ja5_kenshu_nagoya",
        "command",
        LANGUAGE,
        forms.grep_count(
            "kenshu.csv で Nagoya の行は何行ある？ grep で数えて。",
            "kenshu.csv",
            "Nagoya",
            ("Sendai", "Kobe", "Hiroshima"),
        ),
    ),
)
