"""The OpenAI Agents SDK against agentd, with a function tool of your own
(pip install openai-agents).

    python examples/clients/agents_sdk_tools.py "what is 6 times 7?"

``OpenAIChatCompletionsModel`` speaks Chat Completions, which is what agentd serves. The agent's
``mul`` is offered to the model beside agentd's own tools: agentd runs its own, hands ``mul``
back as ``tool_calls``, the SDK runs it here and continues the turn. Tracing is turned off (it
would send traces to OpenAI). Token and URL as in ``openai_chat.py``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from agents import Agent, OpenAIChatCompletionsModel, Runner, function_tool, set_tracing_disabled
from openai import AsyncOpenAI


def token() -> str:
    """``$AGENTD_TOKEN``, else the daemon's generated token file."""
    if os.environ.get("AGENTD_TOKEN"):
        return os.environ["AGENTD_TOKEN"]
    path = Path(os.environ.get("AGENTD_TOKEN_FILE", "~/.agentd/state/http.token")).expanduser()
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        sys.exit(f"no token: set AGENTD_TOKEN, or start agentd once so that it writes {path}")


@function_tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    print(f"[running mul({a}, {b}) here]", file=sys.stderr)
    return a * b


async def main() -> int:
    set_tracing_disabled(True)
    question = " ".join(sys.argv[1:]) or "What is 6 times 7?"
    client = AsyncOpenAI(
        base_url=os.environ.get("AGENTD_URL", "http://127.0.0.1:8321") + "/v1", api_key=token()
    )
    agent = Agent(
        name="calculator",
        instructions="Use the mul tool for multiplication.",
        tools=[mul],
        model=OpenAIChatCompletionsModel(model="agentd", openai_client=client),
    )
    try:
        result = await Runner.run(agent, question)
    finally:
        await client.close()
    print(result.final_output)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
