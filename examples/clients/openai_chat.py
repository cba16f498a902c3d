"""Talk to agentd with the official ``openai`` package (pip install openai).

    python examples/clients/openai_chat.py "what time is it?"
    AGENTD_URL=http://host:8321 AGENTD_TOKEN=... python examples/clients/openai_chat.py hi

The session (``X-Session-Id``) makes agentd keep the conversation: send only the new message.
Without it, agentd treats the request's messages as the whole conversation and stores nothing.
"""

from __future__ import annotations

import os
import sys

from openai import OpenAI


def main() -> int:
    question = " ".join(sys.argv[1:]) or "Hello! What can you do?"
    client = OpenAI(
        base_url=os.environ.get("AGENTD_URL", "http://127.0.0.1:8321") + "/v1",
        api_key=os.environ.get("AGENTD_TOKEN", "unused-on-loopback"),
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
