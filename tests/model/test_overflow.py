"""Context-exceeded answers recognised in llama-server's, OpenAI's and vLLM's wordings."""

from __future__ import annotations

from typing import Any

import pytest

from agentd.model.overflow import MAX_MESSAGE, Overflow, context_exceeded


def llama(message: str, **fields: Any) -> dict[str, Any]:
    return {
        "error": {"code": 400, "message": message, "type": "exceed_context_size_error"} | fields
    }


def vllm(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "BadRequestError", "param": None, "code": 400}}


def openai(message: str) -> dict[str, Any]:
    return {
        "error": {
            "message": message,
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }
    }


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            llama(
                "request (4444 tokens) exceeds the available context size (4096 tokens), "
                "try increasing it",
                n_prompt_tokens=4444,
                n_ctx=4096,
            ),
            Overflow(4096, 4444),
            id="llama",
        ),
        pytest.param(
            llama(
                "request (5000 tokens) exceeds the available context size (2048 tokens), "
                "try increasing it"
            ),
            Overflow(2048, 5000),
            id="llama-numbers-in-text-only",
        ),
        pytest.param(
            llama("the request exceeds the available context size, try increasing it"),
            Overflow(None, None),
            id="llama-no-numbers",
        ),
        pytest.param(
            llama("context exceeded", n_prompt_tokens=9000, n_ctx=8192),
            Overflow(8192, 9000),
            id="llama-fields-only",
        ),
        pytest.param(
            llama("input (600 tokens) is larger than the max context size (512 tokens). skipping"),
            Overflow(512, 600),
            id="llama-unsplittable",
        ),
        pytest.param(
            {
                "error": {
                    "code": 400,
                    "type": "invalid_request_error",
                    "message": "the request exceeds the available context size. try increasing "
                    "the context size or enable context shift",
                }
            },
            Overflow(None, None),
            id="llama-old",
        ),
        pytest.param(
            openai(
                "This model's maximum context length is 8192 tokens. However, your messages "
                "resulted in 9000 tokens. Please reduce the length of the messages."
            ),
            Overflow(8192, 9000),
            id="openai",
        ),
        pytest.param(
            openai(
                "This model's maximum context length is 4097 tokens. However, you requested "
                "4162 tokens (3162 in the messages, 1000 in the completion). Please reduce the "
                "length of the messages or completion."
            ),
            Overflow(4097, 4162),
            id="openai-with-completion",
        ),
        pytest.param(
            openai("Your input exceeds the context window of this model."),
            Overflow(None, None),
            id="openai-code-only",
        ),
        pytest.param(
            openai(
                "Input tokens exceed the configured limit of 272000 tokens. Your messages "
                "resulted in 300000 tokens. Please reduce the length of the messages."
            ),
            Overflow(272000, 300000),
            id="openai-configured-limit",
        ),
        pytest.param(
            vllm(
                "This model's maximum context length is 4096 tokens. However, you requested "
                "5000 tokens (4500 in the messages, 500 in the completion). Please reduce the "
                "length of the messages or completion."
            ),
            Overflow(4096, 5000),
            id="vllm-old",
        ),
        pytest.param(
            vllm(
                "This model's maximum context length is 4096 tokens. However, your request has "
                "5000 input tokens. Please reduce the length of the input messages."
            ),
            Overflow(4096, 5000),
            id="vllm-0.10-prompt",
        ),
        pytest.param(
            vllm(
                "'max_tokens' or 'max_completion_tokens' is too large: 1000. This model's "
                "maximum context length is 4096 tokens and your request has 3500 input tokens "
                "(1000 > 4096 - 3500)."
            ),
            Overflow(4096, 4500),
            id="vllm-0.10-max-tokens",
        ),
        pytest.param(
            vllm(
                "This model's maximum context length is 4096 tokens. However, you requested "
                "500 output tokens and your prompt contains at least 4000 input tokens, for a "
                "total of at least 4500 tokens. Please reduce the length of the input prompt or "
                "the number of requested output tokens. (parameter=input_tokens, value=4000)"
            ),
            Overflow(4096, 4500),
            id="vllm-0.18",
        ),
        pytest.param(
            vllm(
                "You passed 4097 input tokens and requested 0 output tokens. However, the "
                "model's context length is only 4096 tokens, resulting in a maximum input "
                "length of 4096 tokens. Please reduce the length of the input prompt. "
                "(parameter=input_tokens, value=4097)"
            ),
            Overflow(4096, 4097),
            id="vllm-current",
        ),
        pytest.param(
            vllm(
                "You passed 99073 input tokens and requested 32000 output tokens. However, the "
                "model's context length is only 131072 tokens, resulting in a maximum input "
                "length of 99072 tokens. Please reduce the length of the input prompt. "
                "(parameter=input_tokens, value=99073)"
            ),
            Overflow(131072, 131073),
            id="vllm-current-with-completion",
        ),
        pytest.param(
            vllm(
                "You passed 90000 input characters and requested 0 output tokens. However, the "
                "model's context length is only 4096 tokens, resulting in a maximum input "
                "length of 4096 tokens (at most 81920 characters). Please reduce the length of "
                "the input prompt. (parameter=input_text, value=90000)"
            ),
            Overflow(4096, None),
            id="vllm-characters",
        ),
        pytest.param(
            {
                "object": "error",
                "message": "This model's maximum context length is 2048 tokens. However, your "
                "request has 3000 input tokens. Please reduce the length of the input messages.",
                "type": "BadRequestError",
                "param": None,
                "code": 400,
            },
            Overflow(2048, 3000),
            id="vllm-flat-envelope",
        ),
        pytest.param(
            "request (4444 tokens) exceeds the available context size (4096 tokens)",
            Overflow(4096, 4444),
            id="plain-text",
        ),
    ],
)
def test_each_wording_is_recognised(body: Any, expected: Overflow) -> None:
    """Every server's overflow wording is recognised, with the numbers it states."""
    assert context_exceeded(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"error": {"message": "messages: field required", "code": 400}}, id="schema"),
        pytest.param(
            vllm(
                "max_tokens=9000cannot be greater than max_model_len=max_total_tokens=4096. "
                "Please request fewer output tokens. (parameter=max_tokens, value=9000)"
            ),
            id="vllm-max-tokens-alone",
        ),
        pytest.param({"error": "invalid model"}, id="string-error"),
        pytest.param({"error": {"message": None, "type": None}}, id="nulls"),
        pytest.param(None, id="none"),
        pytest.param(["context_length_exceeded"], id="list"),
        pytest.param("Bad Request", id="text"),
    ],
)
def test_other_errors_are_not_overflows(body: Any) -> None:
    """Errors about anything else, and bodies of odd shapes, are not overflows."""
    assert context_exceeded(body) is None


def test_odd_llama_fields_fall_back_to_the_message() -> None:
    """Non-numeric or negative n_prompt_tokens / n_ctx are ignored for the message's numbers."""
    body = llama(
        "request (10 tokens) exceeds the available context size (8 tokens), try increasing it",
        n_prompt_tokens=True,
        n_ctx=-1,
    )
    assert context_exceeded(body) == Overflow(8, 10)


def test_long_messages_are_cut_before_matching() -> None:
    """A huge message is only read up to MAX_MESSAGE characters."""
    message = "x" * MAX_MESSAGE + "This model's maximum context length is 10 tokens."
    assert context_exceeded(vllm(message)) is None
