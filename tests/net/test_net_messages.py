"""Network messages are checked like save files: size, schema, types (issue 16)."""
import json

import pytest

from game.net.messages import MAX_MESSAGE_BYTES, ProtocolError, decode, encode, parse_action


def test_a_good_message_passes():
    m = decode(json.dumps({"t": "action", "seq": 3, "action": {"type": "EndPhase",
                                                                "side": "Axis"}}))
    assert m["seq"] == 3
    assert decode(encode(m)) == m


@pytest.mark.parametrize("raw, words", [
    (b"{\x00}", "NUL"),
    (b"\xff\xfe", "UTF-8"),
    ("not json", "not valid JSON"),
    ("[1, 2]", "JSON object"),
    ('{"t": "nope"}', "unknown message type"),
    ('{"seq": 1}', "unknown message type"),
    ('{"t": "action", "seq": 1}', "'action' is missing"),
    ('{"t": "action", "seq": -1, "action": {}}', "'seq' must be"),
    ('{"t": "action", "seq": true, "action": {}}', "'seq' must be"),
    ('{"t": "action", "seq": 1, "action": {}, "x": 1}', "unknown field 'x'"),
    ('{"t": "hash", "seq": 1, "hash": "XYZ"}', "hex digits"),
    ('{"t": "hello", "v": 2, "game": "abcd", "seat": "Axis", "token": "short"}', "seat token"),
    ('{"t": "chat", "text": "a\\u0007b"}', "control characters"),
    ('{"t": "reveal", "k": 1, "value": NaN}', "not valid JSON"),
    ('{"t": "army", "cards": ' + "[" * 40 + "]" * 40 + "}", "list of"),
])
def test_bad_messages_are_refused_with_a_reason(raw, words):
    with pytest.raises(ProtocolError) as e:
        decode(raw)
    assert words in str(e.value)


def test_oversized_message_is_refused():
    with pytest.raises(ProtocolError, match="more than"):
        decode(b"{" + b" " * MAX_MESSAGE_BYTES + b"}")


def test_deep_nesting_is_refused_without_a_crash():
    with pytest.raises(ProtocolError):
        decode('{"t": "action", "seq": 1, "action": ' + '{"a":' * 5000 + "1" + "}" * 5001)


def test_actions_are_parsed_by_the_rules_and_tied_to_the_sender_seat():
    a = parse_action({"type": "PassDefensiveFire", "side": "Allies"}, side="Allies")
    assert a.side == "Allies"
    with pytest.raises(ProtocolError, match="you play the Axis side"):
        parse_action({"type": "PassDefensiveFire", "side": "Allies"}, side="Axis")
    with pytest.raises(ProtocolError, match="malformed action"):
        parse_action({"type": "Move", "side": "Axis", "uid": 3, "path": []})
    with pytest.raises(ProtocolError, match="malformed action"):
        parse_action({"type": "Explode", "side": "Axis"})


def test_encode_refuses_a_bad_outgoing_message():
    with pytest.raises(ProtocolError):
        encode({"t": "hash", "seq": 1})
