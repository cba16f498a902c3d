"""The Berkeley Function Calling Leaderboard (BFCL v4), offline, llama-server vs agentd.

On the same seeded subset of six single-turn categories (``simple_python``, ``multiple``,
``parallel``, ``parallel_multiple``, ``irrelevance``, ``live_simple``) it asks each packaged
model (a) ``direct``: llama-server's ``/v1/chat/completions`` with ``tools`` (its own template
and parser), scored as it is and read leniently (``direct-lenient``: calls the model wrote as
text, read with agentd's own text parser), and (b) ``http`` (the default agentd mode): a real
``agentd run`` on the same llama-server, sent each item as an agent framework sends it (one
stateless ``POST /v1/chat/completions`` through the ``openai`` client, the item's functions as
``tools``). ``--mode first-step`` adds the first step of an agentd turn built in process (the
example workdir's system prompt, the registry's schema compaction, the client's text tool-call
fallback). Answers are scored with BFCL's AST rules (:mod:`bench.bfcl.scorer`), all of an
answer's calls together (parallel calls count only when they come back in one message); a call
is also checked for validity (parseable, an offered tool, arguments valid for its schema), and
an answer whose text reads like a call that no parser took is counted as "left as text".

The data comes from the pinned ``bfcl-eval`` wheel (Apache-2.0, the gorilla project), read in
place; ``make bench-data`` downloads it once. Run::

    make bench-bfcl                                   # or:
    .venv/bin/python -m bench.bfcl [--per-category N] [--seed S] [--model NAME ...]
        [--category NAME ...] [--mode direct|http|first-step ...] [--out DIR]
        [--wheel PATH]

It prints a Markdown table per model and writes ``results.jsonl`` (per item and mode: the
question, the accepted answers, the raw calls and text, the verdict), ``results.csv`` and
``summary.md`` into ``--out`` (and the daemon's state and JSON log under
``state-<model>/daemon/``). Temperature 0, seed 42, answers capped at 256 tokens.

Time: the default, 8 items per category (2 models x 2 modes x 48 items = 192 model calls), is
estimated at ~27 minutes on an idle 2-core machine from the smoke runs' token counts: per item
and mode ~400 new prompt tokens and ~60 written (agentd's ~1,150-token system prompt is evaluated
once, then comes from llama-server's prompt cache), about 10 s with the 1.5B model and 6 s with
the 0.5B when idle. Measured under load: 1.5B 10-25 s per item and mode at load 2-3 (50-60 s at
load 6-8), 0.5B 9.4 s direct and 16.5 s agentd at load 2.5 (it sometimes runs to the cap).
"""
