"""日本語のケース: every kind of the suite, worded as a Japanese speaker would ask."""

# ruff: noqa: RUF001  # the requests are written with the language's own punctuation

from __future__ import annotations

from bench._agentic_cases import forms
from bench._agentic_cases.script import Case, Language

LANGUAGE: Language = "ja"
NAMES = ("田中", "佐藤", "鈴木", "高橋", "伊藤", "山本", "中村", "小林")
CONFIG = ["[app]", "name = shop", "port = 80{n}", "debug=true"]

CASES: tuple[Case, ...] = (
    Case(
        "ja_memo",
        "action",
        LANGUAGE,
        forms.write_file(
            "memo.txtに「{name}さんの荷物を受け取る。受取番号は{code}」と書いておいてください。",
            "memo.txt",
            names=NAMES,
        ),
    ),
    Case(
        "ja_tsuiki",
        "action",
        LANGUAGE,
        forms.append_line(
            "todo.txtの最後に「{line}」という行を追加してください。",
            "todo.txt",
            ["- 銀行に電話する", "- 植木に水をやる"],
            "- 会議室{n}を予約する",
        ),
    ),
    Case(
        "ja_remind",
        "action",
        LANGUAGE,
        forms.remind(
            "2時間後に歯医者に電話するよう、リマインドしてください。", 2, "歯医者", "dentist"
        ),
    ),
    Case(
        "ja_kioku",
        "recall",
        LANGUAGE,
        forms.remember(
            "覚えておいてね。自転車の鍵の番号は{code}です。",
            "自転車の鍵の番号、何番だったっけ？",
        ),
    ),
    Case(
        "ja_youbi",
        "info",
        LANGUAGE,
        forms.weekday("今、ロンドンは何曜日ですか？", "Europe/London"),
    ),
    Case(
        "ja_settei",
        "info",
        LANGUAGE,
        forms.read_value(
            "app.confのtimeoutはいくつに設定されていますか？",
            "app.conf",
            "[server]\nhost = 0.0.0.0\ntimeout = {n}\n",
        ),
    ),
    Case(
        "ja_gyousuu",
        "command",
        LANGUAGE,
        forms.count_lines(
            "シェルコマンドでdata.txtの行数を数えて、その数を教えてください。", "data.txt"
        ),
    ),
    Case(
        "ja_honyaku",
        "no-tool",
        LANGUAGE,
        forms.words("「ありがとうございます」を英語に訳してください。", "thank you", stream=True),
    ),
    Case(
        "ja_henshu",
        "edit",
        LANGUAGE,
        forms.edit_line(
            "config.iniの最後の行のdebug=trueをdebug=falseに変えてください。",
            "config.ini",
            CONFIG,
            [*CONFIG[:-1], "debug=false"],
        ),
    ),
    Case(
        "ja_nennotame",
        "order-question",
        LANGUAGE,
        forms.ask_about(
            "念のため：会議のメモはmeeting.txtにあります。会議は何曜日に変更になりましたか？",
            {"meeting.txt": "定例会議は火曜日から金曜日に変更になりました。会議室{n}。\n"},
            "金曜|friday",
        ),
    ),
    Case(
        "ja_youyaku",
        "past-summary",
        LANGUAGE,
        forms.ask_about(
            "notes.mdを二文で要約してください。",
            {
                "notes.md": "# 先週\nバックアップサーバーを大阪に移しました。{name}さんが"
                "ファイアウォールのルールを更新し、リリースノートを書きました。"
                "ホスティング費用を{code}円節約しました。\n"
            },
            "大阪|osaka|{name}",
            names=NAMES,
        ),
    ),
    Case(
        "ja_miseru",
        "show-only",
        LANGUAGE,
        forms.show_only(
            "ここにある.logファイルを全部消すコマンドを見せてください。実行はしないでください。",
            {"app.log": "start\n", "error.log": "error {n}\n", "keep.txt": "keep\n"},
            r"\brm\b|-delete\b",
            "an rm or find -delete command",
        ),
    ),
    Case(
        "ja_tsuika_kazoeru",
        "redo",
        LANGUAGE,
        forms.append_then_count(
            "wc -l list.txtを実行して、次にlist.txtに「りんご」という行を追加し、"
            "もう一度wc -l list.txtを実行してください。両方の数を教えてください。",
            "list.txt",
            "りんご",
        ),
    ),
    Case(
        "ja_eg",
        "dotted",
        LANGUAGE,
        forms.words(
            "「e.g.」ってどういう意味ですか？", "例えば|たとえば|for example|exempli gratia"
        ),
    ),
    Case(
        "ja_tool_ato",
        "after-tool",
        LANGUAGE,
        forms.after_tools(
            "作業フォルダにはどんなファイルがありますか？",
            {"photos.txt": "3枚\n", "recipe.md": "# レシピ\n"},
            "ありがとう。ところで、日本で一番高い山は何ですか？",
            "富士山|fuji",
        ),
    ),
)
