"""The BFCL AST scorer, on a handful of BFCL's own entries and answers built for them.

The function docs (descriptions shortened) and ground truths below come from the bfcl-eval wheel
2026.3.23 (``bfcl_eval/data``; Apache-2.0, the gorilla project, github.com/ShishirPatil/gorilla);
the model outputs are made up here. The port was also checked against BFCL's own ``ast_checker``
on every entry of the six categories (generated right and wrong answers): same verdicts.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.bfcl.scorer import Verdict, decode_calls, score, standardize_string


def _int(desc: str) -> dict[str, str]:
    return {"type": "integer", "description": desc}


def _fn(name: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    params = {"type": "dict", "properties": props, "required": required}
    return {"name": name, "description": "(from BFCL)", "parameters": params}


# simple_python_0
TRIANGLE = [
    _fn(
        "calculate_triangle_area",
        {
            "base": _int("The base of the triangle."),
            "height": _int("The height of the triangle."),
            "unit": {"type": "string", "description": "The unit of measure"},
        },
        ["base", "height"],
    )
]
TRIANGLE_GT = [{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}]
# simple_python_14
DERIVATIVE = [
    _fn(
        "calculate_derivative",
        {
            "function": {"type": "string", "description": "The polynomial function."},
            "x_value": {"type": "float", "description": "The x-value. Optional, default 0.00."},
        },
        ["function"],
    )
]
DERIVATIVE_GT = [
    {
        "calculate_derivative": {
            "function": ["3x**2 + 2x - 1", "lambda x: 3x**2 + 2x - 1"],
            "x_value": ["", 0.0],
        }
    }
]
# simple_python_82
AVERAGE = [
    _fn(
        "calculate_average",
        {"numbers": {"type": "array", "items": {"type": "float"}, "description": "Numbers."}},
        ["numbers"],
    )
]
AVERAGE_GT = [{"calculate_average": {"numbers": [[12.0, 15.0, 18.0, 20.0, 21.0, 26.0, 30.0]]}}]
# simple_python_83
_COORD = {"type": "tuple", "description": "(latitude, longitude).", "items": {"type": "float"}}
DISTANCE = [
    _fn(
        "calculate_distance",
        {"coord1": _COORD, "coord2": _COORD, "unit": {"type": "string", "description": "Unit."}},
        ["coord1", "coord2", "unit"],
    )
]
DISTANCE_GT = [
    {
        "calculate_distance": {
            "coord1": [[33.4484, -112.074]],
            "coord2": [[34.0522, -118.2437]],
            "unit": ["miles"],
        }
    }
]
# simple_python_260
_AREA = {"width": _int("The width."), "height": _int("The height.")}
PAINT = [
    _fn(
        "paint_requirement.calculate",
        {
            "area": {"type": "dict", "properties": _AREA, "description": "The area."},
            "paint_coverage": {**_int("Coverage per gallon."), "default": 350},
            "exclusion": {"type": "dict", "properties": {}, "description": "Not to be painted."},
        },
        ["area", "paint_coverage"],
    )
]
PAINT_GT = [
    {
        "paint_requirement.calculate": {
            "area": [{"width": [20], "height": [12]}],
            "paint_coverage": [350],
            "exclusion": [{"type": ["window"], "area": [15]}],
        }
    }
]
# parallel_7
FACTORIAL = [_fn("math.factorial", {"number": _int("The number.")}, ["number"])]
FACTORIAL_GT = [{"math.factorial": {"number": [n]}} for n in (5, 10, 15)]
# multiple_2
_COUNTRY = {"country": {"type": "string", "description": "Name of the country."}}
COUNTRY = [
    _fn(f"country_info.{name}", _COUNTRY, ["country"])
    for name in ("largest_city", "capital", "population")
]
COUNTRY_GT = [{"country_info.capital": {"country": ["Brazil"]}}]
# parallel_multiple_48
MUSIC = [
    _fn(
        "frequency_to_wavelength",
        {"frequency": {"type": "float", "description": "The frequency in hertz."}},
        ["frequency"],
    ),
    _fn(
        "note_conversion.indian",
        {"note": {"type": "string", "description": "The note in Western musical scale."}},
        ["note"],
    ),
]
MUSIC_GT = [
    {"note_conversion.indian": {"note": ["C"]}},
    {"frequency_to_wavelength": {"frequency": [440.0]}},
]
# irrelevance_8
STR_TO_INT = [
    _fn("str_to_int", {"value": {"type": "string", "description": "String value"}}, ["value"])
]


def calls(*pairs: tuple[str, dict[str, Any]]) -> list[tuple[str, str]]:
    return [(name, json.dumps(args)) for name, args in pairs]


def check(category: str, functions: Any, truth: Any, *pairs: tuple[str, dict[str, Any]]) -> Verdict:
    return score(category, functions, truth, calls(*pairs))


@pytest.mark.parametrize(
    ("functions", "truth", "args"),
    [
        pytest.param(TRIANGLE, TRIANGLE_GT, {"base": 10, "height": 5}, id="optional-omitted"),
        pytest.param(
            TRIANGLE, TRIANGLE_GT, {"base": 10, "height": 5, "unit": "units"}, id="optional-given"
        ),
        pytest.param(
            DERIVATIVE, DERIVATIVE_GT, {"function": "3x**2 + 2x - 1"}, id="string-alternatives"
        ),
        pytest.param(
            DERIVATIVE,
            DERIVATIVE_GT,
            {"function": "Lambda X: 3X**2+2X-1", "x_value": 0},
            id="standardized-string-and-int-for-float",
        ),
        pytest.param(
            AVERAGE,
            AVERAGE_GT,
            {"numbers": [12.0, 15.0, 18.0, 20.0, 21.0, 26.0, 30.0]},
            id="float-list",
        ),
        pytest.param(
            DISTANCE,
            DISTANCE_GT,
            {"coord1": [33.4484, -112.074], "coord2": [34.0522, -118.2437], "unit": "Miles"},
            id="tuple-as-list",
        ),
        pytest.param(
            PAINT,
            PAINT_GT,
            {
                "area": {"width": 20, "height": 12},
                "paint_coverage": 350,
                "exclusion": {"type": "Window", "area": 15},
            },
            id="dicts",
        ),
    ],
)
def test_right_simple_answers_pass(functions: Any, truth: Any, args: dict[str, Any]) -> None:
    """BFCL accepts these answers: optional omitted, alternatives, normalised strings, int for
    float, a tuple sent as a list, dictionaries compared key by key."""
    name = functions[0]["name"].replace(".", "_")
    assert check("simple_python", functions, truth, (name, args)) == Verdict(True)


def test_a_dotted_name_is_called_with_underscores() -> None:
    """OpenAI-style names cannot hold "."; the expected name is converted, the dotted one fails."""
    right = check("simple_python", FACTORIAL, FACTORIAL_GT[:1], ("math_factorial", {"number": 5}))
    assert right.valid
    dotted = check("simple_python", FACTORIAL, FACTORIAL_GT[:1], ("math.factorial", {"number": 5}))
    assert dotted.error_type == "simple_function_checker:wrong_func_name"


@pytest.mark.parametrize(
    ("functions", "truth", "pairs", "error_type"),
    [
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_area", {"base": 10, "height": 5})],
            "simple_function_checker:wrong_func_name",
            id="wrong-function",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": 10})],
            "simple_function_checker:missing_required",
            id="missing-required",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": 10, "height": 5, "color": "red"})],
            "simple_function_checker:unexpected_param",
            id="unexpected-param",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": "10", "height": 5})],
            "type_error:simple",
            id="wrong-type",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": True, "height": 5})],
            "type_error:simple",
            id="bool-is-not-int",
        ),
        pytest.param(
            AVERAGE,
            AVERAGE_GT,
            [("calculate_average", {"numbers": ["12", "15", "18", "20", "21", "26", "30"]})],
            "type_error:nested",
            id="wrong-item-type",
        ),
        pytest.param(
            AVERAGE,
            AVERAGE_GT,
            [("calculate_average", {"numbers": [12, 15, 18, 20, 21, 26, 30]})],
            "type_error:nested",
            id="ints-in-a-float-list",  # BFCL allows an int for a float only at the top level
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": 10, "height": 6})],
            "value_error:others",
            id="value-not-accepted",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": 10, "height": 5, "unit": "cm"})],
            "value_error:string",
            id="string-not-accepted",
        ),
        pytest.param(
            AVERAGE,
            AVERAGE_GT,
            [("calculate_average", {"numbers": [30.0, 26.0, 21.0, 20.0, 18.0, 15.0, 12.0]})],
            "value_error:list/tuple",
            id="list-order-matters",
        ),
        pytest.param(
            PAINT,
            PAINT_GT,
            [
                (
                    "paint_requirement_calculate",
                    {"area": {"width": 20, "height": 12}, "paint_coverage": 350},
                )
            ],
            "simple_function_checker:missing_optional",
            id="optional-omitted-not-marked-optional",
        ),
        pytest.param(
            PAINT,
            PAINT_GT,
            [
                (
                    "paint_requirement_calculate",
                    {
                        "area": {"width": 20, "height": 12, "depth": 1},
                        "paint_coverage": 350,
                        "exclusion": {"type": "window", "area": 15},
                    },
                )
            ],
            "value_error:dict_key",
            id="unexpected-dict-key",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [],
            "simple_function_checker:wrong_count",
            id="no-call",
        ),
        pytest.param(
            TRIANGLE,
            TRIANGLE_GT,
            [("calculate_triangle_area", {"base": 10, "height": 5})] * 2,
            "simple_function_checker:wrong_count",
            id="two-calls",
        ),
    ],
)
def test_wrong_simple_answers_fail(
    functions: Any, truth: Any, pairs: list[tuple[str, dict[str, Any]]], error_type: str
) -> None:
    """Each kind of mistake fails with BFCL's error type."""
    verdict = check("simple_python", functions, truth, *pairs)
    assert not verdict.valid
    assert verdict.error_type == error_type


def test_parallel_calls_match_in_any_order() -> None:
    """Parallel answers are matched call by call, whatever their order."""
    for order in ((5, 10, 15), (15, 5, 10)):
        pairs = [("math_factorial", {"number": n}) for n in order]
        assert check("parallel", FACTORIAL, FACTORIAL_GT, *pairs).valid


@pytest.mark.parametrize(
    ("numbers", "error_type"),
    [
        pytest.param((5, 10), "parallel_function_checker_no_order:wrong_count", id="too-few"),
        pytest.param((5, 10, 15, 20), "parallel_function_checker_no_order:wrong_count", id="many"),
        pytest.param((5, 10, 10), "parallel_function_checker_no_order:cannot_find_match", id="dup"),
    ],
)
def test_parallel_wrong_calls_fail(numbers: tuple[int, ...], error_type: str) -> None:
    """A wrong number of calls, or one call used twice, fails the parallel check."""
    pairs = [("math_factorial", {"number": n}) for n in numbers]
    assert check("parallel", FACTORIAL, FACTORIAL_GT, *pairs).error_type == error_type


def test_multiple_needs_the_one_right_function() -> None:
    """Among several offered functions only the expected one counts."""
    good = check("multiple", COUNTRY, COUNTRY_GT, ("country_info_capital", {"country": "brazil"}))
    assert good.valid
    bad = check("multiple", COUNTRY, COUNTRY_GT, ("country_info_largest_city", {"country": "B"}))
    assert bad.error_type == "simple_function_checker:wrong_func_name"


def test_parallel_multiple_mixes_functions_in_any_order() -> None:
    """Calls to different functions match their expectations in any order."""
    pairs: list[tuple[str, dict[str, Any]]] = [
        ("frequency_to_wavelength", {"frequency": 440}),
        ("note_conversion_indian", {"note": "C"}),
    ]
    assert check("parallel_multiple", MUSIC, MUSIC_GT, *pairs).valid
    wrong: list[tuple[str, dict[str, Any]]] = [
        ("frequency_to_wavelength", {"frequency": 441}),
        ("note_conversion_indian", {"note": "C"}),
    ]
    verdict = check("parallel_multiple", MUSIC, MUSIC_GT, *wrong)
    assert verdict.error_type == "parallel_function_checker_no_order:cannot_find_match"


def test_unparseable_arguments_fail_to_decode() -> None:
    """Arguments that are not JSON fail as BFCL's decoder failure; a list is the wrong format."""
    broken = score("simple_python", TRIANGLE, TRIANGLE_GT, [("calculate_triangle_area", "{base")])
    assert broken.error_type == "ast_decoder:decoder_failed"
    listed = score("simple_python", TRIANGLE, TRIANGLE_GT, [("calculate_triangle_area", "[1]")])
    assert listed.error_type == "ast_decoder:decoder_wrong_output_format"


@pytest.mark.parametrize(
    ("raw_calls", "valid"),
    [
        pytest.param([], True, id="no-call"),
        pytest.param([("str_to_int", '{"value": "5"}')], False, id="a-call"),
        pytest.param([("made_up", "{}")], False, id="a-call-to-an-unknown-function"),
        pytest.param([("str_to_int", "not json")], True, id="undecodable-is-no-call"),
        pytest.param([("str_to_int", "[]")], True, id="not-the-call-format"),
    ],
)
def test_irrelevance_is_right_without_a_call(raw_calls: list[tuple[str, str]], valid: bool) -> None:
    """Irrelevance: right when nothing decodes to a function call, as BFCL's relevance rule."""
    verdict = score("irrelevance", STR_TO_INT, [], raw_calls)
    assert verdict.valid is valid
    if not valid:
        assert verdict.error_type == "irrelevance_error:decoder_success"


def test_standardize_string_and_decode() -> None:
    """Spaces and ,./-_*^ go, case folds, ' becomes "; decoding is json.loads per call."""
    assert standardize_string("April 1, 2024") == standardize_string("april 1 2024")
    assert standardize_string("It's A-B_c") == 'it"sabc'
    assert decode_calls([("f", '{"a": 1}')]) == [{"f": {"a": 1}}]
