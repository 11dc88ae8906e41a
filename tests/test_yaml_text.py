"""heron's YAML reader: libyaml's speed with the safe loader's rules."""

from __future__ import annotations

import datetime as dt

import pytest
import yaml

from heron_pipeline import yaml_text


def test_it_reads_what_the_pure_safe_loader_reads() -> None:
    text = "- id: q001\n  when: 2024-03-01\n  n: 0x1F\n  ok: yes\n  tags: [a, b]\n  none: ~\n"
    assert yaml_text.safe_load(text) == yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506
    assert yaml_text.safe_load(text)[0]["when"] == dt.date(2024, 3, 1)  # YAML 1.1, as before


def test_python_objects_are_refused_and_errors_stay_yaml_errors() -> None:
    with pytest.raises(yaml.YAMLError):
        yaml_text.safe_load("!!python/object/apply:os.system ['true']")
    with pytest.raises(yaml.YAMLError):
        yaml_text.safe_load("- id: [unclosed")
