"""LangChain against agentd, with a tool of your own (pip install langchain-openai).

    python examples/clients/langchain_tools.py "what is 6 times 7?"

``bind_tools`` offers ``mul`` to the model beside agentd's own tools. When the model calls an
agentd tool (the time, files, memory), agentd runs it; when it calls ``mul``, agentd answers
with ``tool_calls`` as any OpenAI server would, this loop runs ``mul`` here and sends the
result back, and the turn goes on. With ``AGENTD_SESSION`` set, agentd keeps the conversation
(``X-Session-Id``); without it, the request's messages are the whole conversation.
Token and URL as in ``openai_chat.py`` (``AGENTD_TOKEN``, else the daemon's token file).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.tools import tool
from langchain_openai import ChatOpenAI
from pydantic import SecretStr


def token() -> str:
    """``$AGENTD_TOKEN``, else the daemon's generated token file."""
    if os.environ.get("AGENTD_TOKEN"):
        return os.environ["AGENTD_TOKEN"]
    path = Path(os.environ.get("AGENTD_TOKEN_FILE", "~/.agentd/state/http.token")).expanduser()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        sys.exit(f"no token: set AGENTD_TOKEN, or start agentd once so that it writes {path}")


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def main() -> int:
    question = " ".join(sys.argv[1:]) or "What is 6 times 7?"
    session = os.environ.get("AGENTD_SESSION")
    model = ChatOpenAI(
        model="agentd",
        base_url=os.environ.get("AGENTD_URL", "http://127.0.0.1:8321") + "/v1",
        api_key=SecretStr(token()),
        default_headers={"X-Session-Id": session} if session else None,
    ).bind_tools([mul])
    messages: list[BaseMessage] = [HumanMessage(question)]
    for _ in range(8):
        reply = model.invoke(messages)
        messages.append(reply)
        calls = getattr(reply, "tool_calls", None) or []
        if not calls:
            print(reply.content)
            return 0
        for call in calls:
            print(f"[running {call['name']}({call['args']}) here]", file=sys.stderr)
            messages.append(mul.invoke(call))
    print("(no answer after 8 steps)", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
