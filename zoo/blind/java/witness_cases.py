# The witness cases (schema, arguments) for each switch; make_witnesses.py runs them into witnesses.json.
D19 = "https://json-schema.org/draft/2019-09/schema"
CASES = [
    ("s1", {"type": "object"}, {"t": "&#x4A;&#X4B;"}),
    ("s1", {"type": "object", "properties": {"x": {"type": "array"}}}, {"x": "[1&#x2C;2]"}),
    ("s2", {"type": "object"}, {"t": "&CounterClockwiseContourIntegral&#59;"}),
    ("s2", {"type": "object"}, {"t": "&NotNestedGreaterGreater&#x3B; and &ThickSpace&#x3b;"}),
    ("s3", {"type": "object", "patternProperties": {"^list": {"type": "array"}}}, {"list_a": "[1]"}),
    ("s3", {"type": "object", "patternProperties": {"id": {"type": "object"}}, "additionalProperties": {"type": "string"}},
     {"user_id_map": "{\"a\":1}"}),
    ("s4", {"type": "object", "properties": {"a": {"type": "array"}}}, {"a": "\f[1]"}),
    ("s4", {"properties": {"o": {"type": "object"}}}, {"o": "{\"k\":\u000b1}"}),
    ("s5", {"type": "object", "properties": {"x": {"$ref": "#/$defs/a~01b"}}, "$defs": {"a~1b": {"type": "array"}}}, {"x": "[1]"}),
    ("s5", {"type": "object", "properties": {"x": {"$ref": "#/$defs/a~01b"}},
            "$defs": {"a~1b": {"type": "array"}, "a/b": {"type": "object"}}}, {"x": "[1]"}),
    ("s6", {"$schema": D19, "type": "object", "properties": {"a": {"$ref": "#/$defs/any", "type": "array"}}, "$defs": {"any": {}}},
     {"a": "[1]"}),
    ("s6", {"$schema": D19, "$ref": "#/$defs/base", "properties": {"tags": {"type": "array"}}, "$defs": {"base": {"type": "object"}}},
     {"tags": "[\"a\"]"}),
]
