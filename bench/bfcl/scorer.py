"""BFCL's AST scoring of single-turn Python categories, and its irrelevance rule.

A faithful port of bfcl-eval 2026.3.23 (Apache-2.0, the gorilla project):
``bfcl_eval/eval_checker/ast_eval/ast_checker.py`` for ``language == PYTHON`` (the checkers,
``type_checker``, ``standardize_string``, the int -> float allowance, tuple handling), the
OpenAI FC decoding of ``OpenAICompletionsHandler.decode_ast``, and the entry evaluation of
``eval_runner.py`` (``_evaluate_single_ast_entry``, ``_evaluate_single_relevance_entry``) with
``is_function_calling_format_output`` and ``is_empty_output`` of ``utils.py``. Expected function
names get BFCL's "." -> "_" conversion (``convert_func_name``), as for every OpenAI-style model.

Quirks of the original are kept on purpose (the scores must match BFCL's): strings are compared
after :func:`standardize_string`, an optional parameter is marked by ``""`` among its accepted
values, nested types are checked one level deep, and a decode failure counts as "no call" for
irrelevance.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from bench.bfcl.convert import openai_name

#: A decoded model answer: ``[{function name: {parameter: value}}]``.
Decoded = list[dict[str, Any]]
#: A raw call as a server sends it: (name, arguments as JSON text).
RawCall = tuple[str, str]

PYTHON_TYPE_MAPPING: dict[str, type] = {
    "string": str,
    "integer": int,
    "float": float,
    "boolean": bool,
    "array": list,
    "tuple": list,
    "dict": dict,
    "any": str,
}
#: The types whose values are checked one level deeper.
PYTHON_NESTED_TYPE_CHECK_LIST = ("array", "tuple")
_STANDARDIZE = re.compile(r"[ \,\.\/\-\_\*\^]")


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether an answer is right, and if not BFCL's error type and messages."""

    valid: bool
    error_type: str = ""
    errors: tuple[str, ...] = ()


OK = Verdict(True)


def _fail(error_type: str, *errors: str) -> Verdict:
    return Verdict(False, error_type, errors)


def decode_calls(calls: Sequence[RawCall]) -> Decoded:
    """BFCL's OpenAI FC decoding: ``[{name: json.loads(arguments)}]``; raises ValueError."""
    return [{name: json.loads(arguments)} for name, arguments in calls]


def is_function_calling_format_output(decoded: Any) -> bool:
    """A list of ``{name: {param: value}}`` dicts, one key each (``[]`` included)."""
    if type(decoded) is not list:
        return False
    for item in decoded:
        if type(item) is not dict or len(item) != 1:
            return False
        if type(next(iter(item.values()))) is not dict:
            return False
    return True


def is_empty_output(decoded: Any) -> bool:
    """``[]``, ``[{}]`` and anything not in the function-calling format count as no call."""
    if not is_function_calling_format_output(decoded):
        return True
    return len(decoded) == 0 or (len(decoded) == 1 and len(decoded[0]) == 0)


def score(
    category: str,
    functions: Sequence[dict[str, Any]],
    ground_truth: Sequence[dict[str, Any]],
    calls: Sequence[RawCall],
) -> Verdict:
    """BFCL's verdict on one answer: ``calls`` are the tool calls the model made (none when it
    answered in text only)."""
    if "irrelevance" in category:
        try:
            decoded = decode_calls(calls)
        except ValueError:
            return OK  # a decode failure is not a function call
        if is_empty_output(decoded):
            return OK
        return _fail(
            "irrelevance_error:decoder_success",
            "Valid syntax. Successfully decode AST when it should not.",
        )
    try:
        decoded = decode_calls(calls)
    except ValueError as exc:
        return _fail("ast_decoder:decoder_failed", f"Invalid syntax. Failed to decode AST. {exc}")
    if not is_function_calling_format_output(decoded):
        return _fail(
            "ast_decoder:decoder_wrong_output_format",
            "Did not output in the specified format.",
        )
    return ast_checker(functions, decoded, ground_truth, category)


def ast_checker(
    functions: Sequence[dict[str, Any]],
    model_output: Decoded,
    possible_answer: Sequence[dict[str, Any]],
    category: str,
) -> Verdict:
    """Dispatch on the category's name, as BFCL does."""
    if "parallel" in category:
        return parallel_function_checker_no_order(functions, model_output, possible_answer)
    if "multiple" in category:
        return multiple_function_checker(functions, model_output, possible_answer)
    if len(model_output) != 1:
        return _fail("simple_function_checker:wrong_count", "Wrong number of functions.")
    return simple_function_checker(functions[0], model_output[0], possible_answer[0])


def find_description(functions: Sequence[dict[str, Any]], name: str) -> dict[str, Any] | None:
    for function in functions:
        if function["name"] == name:
            return function
    return None


def get_possible_answer_type(possible_answer: Sequence[Any]) -> type | None:
    for answer in possible_answer:
        if answer != "":  # "" marks an optional parameter
            return type(answer)
    return None


def type_checker(
    param: str,
    value: Any,
    possible_answer: Sequence[Any],
    expected_type_description: str,
    expected_type_converted: type,
    nested_type_converted: type | None,
) -> tuple[Verdict, bool]:
    """(verdict, is_variable): a value of the possible answers' type where the docs say
    another type is taken as a variable name and compared as a value later."""
    errors: list[str] = []
    result = OK
    is_variable = False
    possible_answer_type = get_possible_answer_type(possible_answer)
    if possible_answer_type is not None and possible_answer_type is not expected_type_converted:
        is_variable = True

    if type(value) is expected_type_converted:
        if nested_type_converted is None:
            return OK, is_variable
        values = cast(list[Any], value)  # a list: only arrays and tuples have a nested type
        for possible_answer_item in possible_answer:
            flag = True  # each item must match at least one possible answer's item type
            if type(possible_answer_item) is list:
                for value_item in values:
                    checked, _ = type_checker(
                        param,
                        value_item,
                        possible_answer_item,
                        str(nested_type_converted),
                        nested_type_converted,
                        None,
                    )
                    if not checked.valid:
                        flag = False
                        break
            if flag:
                return OK, is_variable
        errors.append(
            f"Nested type checking failed for parameter {param!r}. Expected outer type "
            f"{expected_type_description} with inner type {nested_type_converted}. "
            f"Parameter value: {value!r}."
        )
        result = Verdict(False, "type_error:nested", tuple(errors))

    # A value of the possible answers' type is a variable: BFCL returns the result as it stands
    # (still invalid after a failed nested check).
    if possible_answer_type is not None and type(value) is possible_answer_type:
        return result, True

    errors.append(
        f"Incorrect type for parameter {param!r}. Expected type {expected_type_description}, "
        f"got {type(value).__name__}. Parameter value: {value!r}."
    )
    return Verdict(False, "type_error:simple", tuple(errors)), is_variable


def standardize_string(input_string: str) -> str:
    """Drop spaces and ``,./-_*^``, lowercase, single quotes to double (April 1, 2024 ==
    April 1 2024)."""
    return _STANDARDIZE.sub("", input_string).lower().replace("'", '"')


def string_checker(param: str, model_output: str, possible_answer: Sequence[Any]) -> Verdict:
    standardized = [standardize_string(a) for a in possible_answer if type(a) is str]
    if standardize_string(model_output) not in standardized:
        return _fail(
            "value_error:string",
            f"Invalid value for parameter {param!r}: {model_output!r}. "
            f"Expected one of {list(possible_answer)}. Case insensitive.",
        )
    return OK


def _standardized(value: Any) -> Any:
    return standardize_string(value) if type(value) is str else value


def list_checker(param: str, model_output: list[Any], possible_answer: Sequence[Any]) -> Verdict:
    standardized_output = [_standardized(v) for v in model_output]
    # An optional marker "" among the possible answers becomes [] here, as in BFCL.
    standardized_answers = [[_standardized(v) for v in answer] for answer in possible_answer]
    if standardized_output not in standardized_answers:
        return _fail(
            "value_error:list/tuple",
            f"Invalid value for parameter {param!r}: {model_output!r}. "
            f"Expected one of {list(possible_answer)}.",
        )
    return OK


def dict_checker(
    param: str, model_output: dict[str, Any], possible_answers: Sequence[Any]
) -> Verdict:
    """Flat dictionaries only (BFCL's data has no nested ones)."""
    result = _fail("dict_checker:unclear")
    for possible_answer in possible_answers:
        if possible_answer == "":
            continue
        result = _fail("dict_checker:unclear")
        flag = True
        for key, value in model_output.items():
            if key not in possible_answer:
                result = _fail("value_error:dict_key", f"Unexpected dict key parameter: '{key}'.")
                flag = False
                break
            accepted = [_standardized(v) for v in possible_answer[key]]
            if _standardized(value) not in accepted:
                result = _fail(
                    "value_error:dict_value",
                    f"Invalid value for parameter {key!r}: {value!r}. Expected one of {accepted}.",
                )
                flag = False
                break
        for key, value in possible_answer.items():
            if key not in model_output and "" not in value:
                result = _fail("value_error:dict_key", f"Missing dict key parameter: '{key}'.")
                flag = False
                break
        if flag:
            return OK
    return result


def list_dict_checker(
    param: str, model_output: list[Any], possible_answers: Sequence[Any]
) -> Verdict:
    """Each dictionary against the one at its position in a possible answer."""
    result = _fail("list_dict_checker:unclear")
    for answer in possible_answers:
        flag = True
        if len(model_output) != len(answer):
            result = _fail(
                "value_error:list_dict_count", "Wrong number of dictionaries in the list."
            )
            continue
        for index, item in enumerate(model_output):
            result = dict_checker(param, item, [answer[index]])
            if not result.valid:
                flag = False
                break
        if flag:
            return OK
    return result


def simple_function_checker(
    func_description: dict[str, Any],
    model_output: dict[str, Any],
    possible_answer: dict[str, Any],
) -> Verdict:
    """One call against one function's accepted answers."""
    accepted: dict[str, list[Any]] = next(iter(possible_answer.values()))
    func_name = openai_name(func_description["name"])
    param_details: dict[str, Any] = func_description["parameters"]["properties"]
    required_params: list[str] = func_description["parameters"].get("required", [])

    if func_name not in model_output:
        return _fail(
            "simple_function_checker:wrong_func_name",
            f"Function name {func_name!r} not found in model output.",
        )
    model_params: dict[str, Any] = model_output[func_name]

    for param in required_params:
        if param not in model_params:
            return _fail(
                "simple_function_checker:missing_required",
                f"Missing required parameter: {param!r}.",
            )

    for param, raw_value in model_params.items():
        value = raw_value
        if param not in param_details or param not in accepted:
            return _fail(
                "simple_function_checker:unexpected_param", f"Unexpected parameter: {param!r}."
            )
        details = param_details[param]
        expected_type_description: str = details["type"]
        expected_type_converted = PYTHON_TYPE_MAPPING[expected_type_description]
        nested_type_converted = None
        if expected_type_description in PYTHON_NESTED_TYPE_CHECK_LIST:
            nested_type = details["items"]["type"]
            nested_type_converted = PYTHON_TYPE_MAPPING[nested_type]

        # Tuples become lists through JSON, in the possible answers too.
        if expected_type_description == "tuple" and type(value) is tuple:
            value = list(value)
        # Python would convert an int where a float is expected.
        if expected_type_description == "float" and type(value) is int:
            value = float(value)

        checked, is_variable = type_checker(
            param,
            value,
            accepted[param],
            expected_type_description,
            expected_type_converted,
            nested_type_converted,
        )
        if not checked.valid:
            return checked

        # A variable is compared as a plain value below, whatever the docs' type.
        if not is_variable:
            if expected_type_converted is dict:
                result = dict_checker(param, value, accepted[param])
            elif expected_type_converted is list and nested_type_converted is dict:
                result = list_dict_checker(param, value, accepted[param])
            elif expected_type_converted is str:
                result = string_checker(param, value, accepted[param])
            elif expected_type_converted is list:
                result = list_checker(param, value, accepted[param])
            else:
                result = None
            if result is not None:
                if not result.valid:
                    return result
                continue

        if value not in accepted[param]:
            return _fail(
                "value_error:others",
                f"Invalid value for parameter {param!r}: {value!r}. "
                f"Expected one of {accepted[param]}.",
            )

    for param in accepted:
        if param not in model_params and "" not in accepted[param]:
            return _fail(
                "simple_function_checker:missing_optional",
                f"Optional parameter {param!r} not provided and not marked as optional.",
            )
    return OK


def parallel_function_checker_no_order(
    functions: Sequence[dict[str, Any]],
    model_output: Decoded,
    possible_answers: Sequence[dict[str, Any]],
) -> Verdict:
    """Every expected call matched by a distinct call of the answer, in any order."""
    if len(model_output) != len(possible_answers):
        return _fail("parallel_function_checker_no_order:wrong_count", "Wrong number of functions.")
    matched: set[int] = set()
    for i, expected in enumerate(possible_answers):
        description = find_description(functions, next(iter(expected)))
        if description is None:
            raise KeyError(f"BFCL's data has no docs for {next(iter(expected))!r}")
        errors: list[str] = []
        result = _fail("parallel_function_checker_no_order:cannot_find_match")
        for index, output in enumerate(model_output):
            if index in matched:
                continue
            result = simple_function_checker(description, output, expected)
            if result.valid:
                matched.add(index)
                break
            errors.append(f"Model Result Index {index}: {result.error_type} {list(result.errors)}")
        if not result.valid:
            considered = [j for j in range(len(model_output)) if j not in matched]
            return _fail(
                "parallel_function_checker_no_order:cannot_find_match",
                f"Could not find a matching function among index {considered} of model output "
                f"for index {i} of possible answers.",
                *errors,
            )
    return OK


def multiple_function_checker(
    functions: Sequence[dict[str, Any]],
    model_output: Decoded,
    possible_answers: Sequence[dict[str, Any]],
) -> Verdict:
    """One call, to the one right function among several offered."""
    if len(model_output) != len(possible_answers):
        return _fail("multiple_function_checker:wrong_count", "Wrong number of functions.")
    description = find_description(functions, next(iter(possible_answers[0])))
    if description is None:
        raise KeyError(f"BFCL's data has no docs for {next(iter(possible_answers[0]))!r}")
    return simple_function_checker(description, model_output[0], possible_answers[0])
