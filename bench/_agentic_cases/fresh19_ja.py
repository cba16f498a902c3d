"""Nineteenth fresh Japanese cases: written at once for the held-out-19 half, from the forms and
the kinds alone, so no rule was ever tuned on them."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

#: Names the file questions use: no other word of an answer holds one.
HOLDERS = ("東雲", "綾小路", "勅使河原", "西園寺", "百目鬼")

CASES: tuple[Case, ...] = (
    Case(
        "ja19_coin_laundry",
        "action",
        LANGUAGE,
        forms.remind(
            "40分後にコインランドリーへ洗濯物を取りに行かないといけないから、リマインドしてくれる？",
            2 / 3,
            "コインランドリー",
            "洗濯",
            "乾燥機",
            "laundr",
            "washing",
            "wäsche",
            "waschsalon",
            "lavander",
            "ropa",
            "laverie",
            "linge",
        ),
    ),
    Case(
        "ja19_hinamatsuri",
        "action",
        LANGUAGE,
        forms.append_line(
            "hinamatsuri.txt の最後に「{line}」って1行足しておいて。ほかの行はそのままでね。",
            "hinamatsuri.txt",
            ["ひし餅", "ひなあられ", "ちらし寿司"],
            "はまぐりのお吸い物は{name}さん担当",
        ),
    ),
    Case(
        "ja19_mezamashi",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "mezamashi.ini のスヌーズ間隔を 10 分から 5 分に変えて。"
            "行を足すんじゃなくて、今ある行を書き換えてね。",
            "mezamashi.ini",
            ["snooze = 10", "volume = 6", "alarm_id = {n}"],
            ["snooze = 5", "volume = 6", "alarm_id = {n}"],
        ),
    ),
    Case(
        "ja19_kuruma_number",
        "recall",
        LANGUAGE,
        forms.remember(
            "うちの車のナンバーは{code}だから、覚えておいてね。",
            "うちの車のナンバーって何番だったっけ？",
        ),
    ),
    Case(
        "ja19_bentou",
        "no-tool",
        LANGUAGE,
        forms.number(
            "1個450円のお弁当を4個買ったら、全部でいくらになる？",
            1800,
            "千八百",
            "eighteen hundred",
            "one thousand eight hundred",
            "tausendachthundert",
            "eintausendachthundert",
            "mil ochocientos",
            "mille huit cents",
            "mille huit cent",
        ),
    ),
    Case(
        "ja19_geshi",
        "no-tool",
        LANGUAGE,
        forms.words(
            "一年で昼がいちばん長い日のことを何て言うんだっけ？",
            "夏至|summer solstice|sommersonnenwende|solsticio de verano|solstice d'ete",
            stream=True,
        ),
    ),
    Case(
        "ja19_cron_ichiran",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このパソコンに登録されている cron の定期実行の一覧を見るコマンドを教えて。"
            "見るだけだから、実行はしないでね。",
            {"cron_memo.txt": "バックアップ用スクリプトのメモ その{n}\n"},
            r"(?<![\w-])crontab\s+(?:-u\s+\S+\s+)?-l(?![\w-])"
            r"|(?<![\w-])crontab\s+-l\s+-u(?![\w-])"
            r"|/etc/crontab|/etc/cron\.d|/var/spool/cron"
            r"|(?<![\w-])systemctl\s+list-timers(?![\w-])",
            "a crontab -l command",
        ),
    ),
    Case(
        "ja19_shiohigari",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "shiohigari.txt の内容をざっくりまとめて。アサリを一番たくさん採ったのは誰だった？",
            {
                "shiohigari.txt": "子ども会の潮干狩り（参加{n}名）\n"
                "朝八時に公民館の前に集合して、バスで海へ向かいました。\n"
                "{name}さんがバケツいっぱいにアサリを採って一番になりました。\n"
                "帰りに浜辺でみんなでおにぎりを食べました。\n"
            },
            "{name}",
            names=HOLDERS,
        ),
    ),
    Case(
        "ja19_walking_meibo",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "walking_kai.txt（ウォーキングの会の名簿）が何行あるか数えて、"
            "最後に「小野寺」を追加してから、もう一度行数を確かめてくれる？",
            "walking_kai.txt",
            "小野寺",
        ),
    ),
    Case(
        "ja19_bus_tour_hakone",
        "command",
        LANGUAGE,
        forms.grep_count(
            "bus_tour.csv の中で Hakone を含む行が何行あるか、コマンドで数えてくれる？",
            "bus_tour.csv",
            "Hakone",
            ["Atami", "Nikko", "Kamakura"],
        ),
    ),
)
