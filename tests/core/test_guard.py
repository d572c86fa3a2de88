"""termeval.core.guard.check_outputs, the one output guard: an output that is an input, or
contains one, or a needed directory that exists as a file, is refused before anything is written."""
from __future__ import annotations

import os

import pytest

from termeval.core.errors import InputError
from termeval.core.guard import check_outputs


def test_output_is_input(tmp_path):
    gold = tmp_path / "gold.txt"
    gold.write_text("a b\n")
    with pytest.raises(InputError) as e:
        check_outputs("score_text_segmentation", [str(gold)], [str(gold)])
    assert str(e.value) == (f"{gold}: the output of score_text_segmentation is its input {gold}: it would be "
                            "overwritten; choose another output")


def test_output_contains_input_through_a_symlink(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "link").symlink_to(tmp_path)
    with pytest.raises(InputError, match="contains its input"):
        check_outputs("prepare_kws", [str(tmp_path / "data")], [str(tmp_path / "link")])


def test_output_inside_an_input_dir_is_fine(tmp_path):
    (tmp_path / "data").mkdir()
    check_outputs("prepare_kws", [str(tmp_path / "data")], [str(tmp_path / "data" / "kws")])
    check_outputs("x", [None, "", "-"], [str(tmp_path / "o")])


def test_a_needed_dir_that_is_a_file(tmp_path):
    (tmp_path / "scores").write_text("not a dir\n")
    with pytest.raises(InputError, match=r"scores: exists and is not a directory"):
        check_outputs("score_tde", [], [str(tmp_path / "scores")], [str(tmp_path / "scores")])
    assert (tmp_path / "scores").read_text() == "not a dir\n"
