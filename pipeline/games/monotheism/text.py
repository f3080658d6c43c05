"""Printed card text, rendered from the effect structure through the registry's phrases.

Nothing printed on a card is typed by hand: ``face_text`` turns a half's act
and essence into sentences, so the wording cannot drift from what the engine
runs.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from pipeline.games.monotheism.dsl import ACT_FRAMES, CONDITION, OP, REGISTRY, SELECTOR, TRIGGER, PhraseContext, tag


def _phrase(category: str, name: str, param: Any) -> str:
    entry = REGISTRY.get(category, name)
    if entry.phrase is None:
        raise ValueError(f"{category} '{name}' has no phrase")
    return entry.phrase(param, CONTEXT)


def selector_text(selector: Mapping[str, Any]) -> str:
    return _phrase(SELECTOR, *tag(selector))


def condition_text(condition: Mapping[str, Any]) -> str:
    return _phrase(CONDITION, *tag(condition))


def ops_text(ops: Sequence[Mapping[str, Any]]) -> str:
    return " ".join(_phrase(OP, *tag(op)) for op in ops)


CONTEXT = PhraseContext(selector_text, ops_text, condition_text)


def act_parts(act: Mapping[str, Any]) -> tuple[Optional[str], str, Optional[str]]:
    """An act's printed boxes: ("If ...:" or None, what it does, "Otherwise: ..." or None), framed by the
    phrase table of ``dsl.ACT_FRAMES``."""
    condition = ACT_FRAMES["if"](condition_text(act["if"])) if "if" in act else None
    otherwise = ACT_FRAMES["otherwise"](ops_text(act["otherwise"])) if act.get("otherwise") else None
    return condition, ops_text(act["do"]), otherwise


def act_text(act: Mapping[str, Any]) -> str:
    """An act (pink box) in one line: "If ...: ... Otherwise: ..." or its ops alone for a choice."""
    return " ".join(part for part in act_parts(act) if part)


def essence_text(essence: Mapping[str, Any]) -> str:
    """An essence (green box): "When ...: ..." with its optional "if"."""
    body = ops_text(essence["do"])
    if "if" in essence:
        body = f"if {condition_text(essence['if'])}, {body[:1].lower()}{body[1:]}"
    lead = _phrase(TRIGGER, essence["when"], None)
    if lead.endswith(","):  # "instead," reads on into the sentence
        body = body[:1].lower() + body[1:]
    return f"{lead} {body}"


def face_text(half: Mapping[str, Any]) -> list[str]:
    """Every box printed on one half of a god card, act first."""
    boxes = []
    if half.get("act"):
        boxes.append(act_text(half["act"]))
    if half.get("essence"):
        boxes.append(essence_text(half["essence"]))
    return boxes


def word_count(text: str) -> int:
    return len(text.split())
