"""Talk to agentd with the official ``openai`` package (pip install openai).

    python examples/clients/openai_chat.py "what time is it?"
    AGENTD_URL=http://host:8321 AGENTD_TOKEN=... python examples/clients/openai_chat.py hi

The token is ``$AGENTD_TOKEN``, else the one the daemon generated on this machine
(``~/.agentd/state/http.token``, or ``$AGENTD_TOKEN_FILE``); any OpenAI client can use it the
same way, e.g. ``export OPENAI_API_KEY=$(cat ~/.agentd/state/http.token)``.

The session (``X-Session-Id``) makes agentd keep the conversation: send only the new message.
Without it, agentd treats the request's messages as the whole conversation and stores nothing.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from openai import OpenAI


def token() -> str:
    """``$AGENTD_TOKEN``, else the daemon's generated token file."""
    if os.environ.get("AGENTD_TOKEN"):
        return os.environ["AGENTD_TOKEN"]
    path = Path(os.environ.get("AGENTD_TOKEN_FILE", "~/.agentd/state/http.token")).expanduser()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        sys.exit(f"no token: set AGENTD_TOKEN, or start agentd once so that it writes {path}")


def main() -> int:
    question = " ".join(sys.argv[1:]) or "Hello! What can you do?"
    client = OpenAI(
        base_url=os.environ.get("AGENTD_URL", "http://127.0.0.1:8321") + "/v1",
        api_key=token(),
    )
    stream = client.chat.completions.create(
        model="agentd",
        messages=[{"role": "user", "content": question}],
        stream=True,
        stream_options={"include_usage": True},
        extra_headers={"X-Session-Id": os.environ.get("AGENTD_SESSION", "example")},
    )
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            print(chunk.choices[0].delta.content, end="", flush=True)
        if chunk.usage:
            print(
                f"\n[{chunk.usage.prompt_tokens} prompt + {chunk.usage.completion_tokens} "
                "completion tokens]",
                file=sys.stderr,
            )
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
