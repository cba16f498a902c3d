"""新しい日本語のケース: written at once after both halves had been read for failures, so no
rule was tuned on them; split by the committed seed like every case."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"

CASES: tuple[Case, ...] = (
    Case(
        "ja_kaimono_tsuiki",
        "action",
        LANGUAGE,
        forms.append_line(
            "shopping.txtの一番下に「{line}」って書き足しておいて。",
            "shopping.txt",
            ["- 牛乳", "- 卵", "- 食パン"],
            "- 封筒{n}枚",
        ),
    ),
    Case(
        "ja_takuhai_bango",
        "recall",
        LANGUAGE,
        forms.remember(
            "マンションの宅配ボックスの暗証番号は{code}です。覚えておいてもらえますか？",
            "宅配ボックスの暗証番号って何番でしたっけ？",
        ),
    ),
    Case(
        "ja_shimekiri",
        "no-tool",
        LANGUAGE,
        forms.words("「締め切り」は英語で何と言いますか？", "deadline"),
    ),
    Case(
        "ja_enpitsu",
        "no-tool",
        LANGUAGE,
        forms.number("鉛筆3ダースって、全部で何本になる？", 36, "三十六"),
    ),
    Case(
        "ja_du_miseru",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "このフォルダがどのくらいディスクを使っているか調べるコマンドを教えてください。"
            "実行はせずに、コマンドだけ見せてね。",
            {"data.bin": "x{code}\n", "readme.txt": "メモ\n"},
            r"(?<![a-z])du(?![a-z])",
            "a du command",
        ),
    ),
    Case(
        "ja_kazoe_naoshi",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "guests.txtの行数をwc -lで数えてから、末尾に「松本」という行を足して、"
            "もう一度wc -lで数え直してください。最初と最後の数を両方教えてね。",
            "guests.txt",
            "松本",
        ),
    ),
    Case(
        "ja_saki_ni",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "先に言っておくと、ゲスト用Wi-Fiの情報はwifi.txtに書いてあります。"
            "パスワードは何ですか？",
            {"wifi.txt": "SSID: guest-{n}\nパスワード: sora{code}\n"},
            "sora{code}",
        ),
    ),
    Case(
        "ja_nodejs",
        "dotted",
        LANGUAGE,
        forms.words("Node.jsって何ですか？一言で教えてください。", "javascript"),
    ),
)
