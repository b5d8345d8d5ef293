<?php

/**
 * @file
 * What `toolnorm check` finds in adapter.php, each finding shown by running
 * PHP directly: the module's answer to the minimal counterexample, and the
 * PHP behaviour that causes it.
 *
 *   php examples/php/findings.php
 *
 * One block per root cause; cmd/toolnorm/testdata/script/check_php.txtar
 * holds these lines, so a PHP that behaves otherwise is noticed.
 */

declare(strict_types=1);

require __DIR__ . '/adapter.php';

/**
 * The module's answer, as adapter.php sends it: JSON, or the error.
 */
function module(string $schema, string $arguments): string {
  $args = json_decode($arguments, TRUE);
  if ($args === NULL && json_last_error() !== JSON_ERROR_NONE) {
    return 'error: json_decode: ' . json_last_error_msg();
  }
  try {
    return json_encode(example_normalize(json_decode($schema, TRUE), $args), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
  }
  catch (Throwable $e) {
    return 'error: ' . $e->getMessage();
  }
}

/**
 * A PHP value in one line.
 */
function show(mixed $v): string {
  return is_string($v) ? json_encode($v, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES) : str_replace("\n", '', var_export($v, TRUE));
}

$d = fn(string $s): string => example_decode_entities($s);
$array = '{"properties":{"p":{"type":"array"}}}';
$findings = [
  '1. json_decode($json, TRUE) makes JSON objects and arrays both PHP arrays, and is_array() takes either (rule/3, reading/8)' => [
    'is_array(json_decode(\'{}\', TRUE)), is_array(json_decode(\'[]\', TRUE))' => show(is_array(json_decode('{}', TRUE))) . ', ' . show(is_array(json_decode('[]', TRUE))),
    '{"p":"{}"}, p declared array (the rule: stays "{}")' => module($array, '{"p":"{}"}'),
    'arguments [] (the rule: not an object, an error)' => module('{}', '[]'),
  ],
  '2. json_encode() writes a PHP array keyed 0..n-1, the empty one too, as a JSON array (rule/1, rule/5)' => [
    'json_encode(json_decode(\'{}\', TRUE)), json_encode(json_decode(\'{"0":"a"}\', TRUE))' => json_encode(json_decode('{}', TRUE)) . ', ' . json_encode(json_decode('{"0":"a"}', TRUE)),
    'arguments {} (the rule: {})' => module('{}', '{}'),
    '{"0":"a","1":"b"} (the rule: the same keys)' => module('{}', '{"0":"a","1":"b"}'),
  ],
  '3. json_decode() keeps the last of duplicate members (reading/7)' => [
    'json_decode(\'{"a":1,"a":2}\', TRUE)' => show(json_decode('{"a":1,"a":2}', TRUE)),
    '{"a":"","a":""} (the rule: both members)' => module('{}', '{"a":"","a":""}'),
  ],
  '4. json_decode() reads numbers as PHP int or float: past PHP_INT_MAX a double, past its range INF (reading/7)' => [
    'json_decode(\'12345678901234567890\'), json_decode(\'0.1000000000000000000001\'), json_decode(\'1e400\')' => show(json_decode('12345678901234567890')) . ', ' . show(json_decode('0.1000000000000000000001')) . ', ' . show(json_decode('1e400')),
    '{"title":12345678901234567890} (the rule: the same number)' => module('{}', '{"title":12345678901234567890}'),
    '{"":1e400} (the rule: 1e400; json_encode() refuses INF)' => module('{}', '{"":1e400}'),
  ],
  '5. json_decode() refuses a lone surrogate escape, JSON_ERROR_UTF16 (reading/7, rule/2)' => [
    'json_decode(\'"\\ud800"\'), json_last_error_msg()' => show(json_decode('"\ud800"')) . ', ' . show(json_last_error_msg()),
    '{"s":"\\ud800"} (the rule: unchanged)' => module('{}', '{"s":"\ud800"}'),
    '{"p":"[\\"\\\\udfff\\"]"}, p declared array (the rule: decoded)' => module($array, '{"p":"[\"\\\\udfff\"]"}'),
  ],
  '6. json_decode()\'s default depth, 512, stops at 512 nested arrays and objects (reading/8: the limit is 1000)' => [
    'json_decode(str_repeat(\'[\', 512) . str_repeat(\']\', 512)), json_last_error_msg()' => show(json_decode(str_repeat('[', 512) . str_repeat(']', 512))) . ', ' . show(json_last_error_msg()),
    '{"a":[ 511 deep ]} (the rule: unchanged)' => module('{}', '{"a":' . str_repeat('[', 511) . str_repeat(']', 511) . '}'),
  ],
  '7. html_entity_decode() decodes only references ending in ";" (rule/4, reading/1)' => [
    'html_entity_decode(\'&cent\'), html_entity_decode(\'&#9\')' => show($d('&cent')) . ', ' . show($d('&#9')),
    '{"":["&cent"]} (the rule: "¢")' => module('{}', '{"":["&cent"]}'),
    '{"p":"&not&#105;n;"} (the rule: "¬in;", &not decodes at once)' => module('{}', '{"p":"&not&#105;n;"}'),
  ],
  '8. Html::decodeEntities() passes no doctype, so html_entity_decode() knows HTML 4.01\'s 252 names, not HTML\'s 2,231 (reading/1)' => [
    'html_entity_decode(\'&apos; &AMP; &Afr; &nGt;\', ENT_QUOTES, \'UTF-8\')' => show($d('&apos; &AMP; &Afr; &nGt;')),
    'the same with ENT_QUOTES | ENT_HTML5' => show(html_entity_decode('&apos; &AMP; &Afr; &nGt;', ENT_QUOTES | ENT_HTML5, 'UTF-8')),
  ],
  '9. html_entity_decode() leaves a numeric reference as text where HTML substitutes U+FFFD, maps windows-1252 or keeps a control (reading/1)' => [
    'html_entity_decode(\'&#0; &#xD800; &#x110000; &#4294967356;\')' => show($d('&#0; &#xD800; &#x110000; &#4294967356;')),
    'html_entity_decode(\'&#x80; &#x9F; &#1; &#x7F;\')' => show($d('&#x80; &#x9F; &#1; &#x7F;')),
    'the same with ENT_QUOTES | ENT_HTML5' => show(html_entity_decode('&#x80; &#x9F; &#1; &#x7F;', ENT_QUOTES | ENT_HTML5, 'UTF-8')),
  ],
  '10. The schema read literally: $schema[\'properties\'][$name][\'type\'] as a string, at the top only (rule/2, reading/4)' => [
    '{"cfg":{"ids":"[1,2]"}}, cfg.ids declared array (the rule: decoded)' => module('{"properties":{"cfg":{"type":"object","properties":{"ids":{"type":"array"}}}}}', '{"cfg":{"ids":"[1,2]"}}'),
    '{"p":"[1]"}, p declared ["array","null"] (the rule: decoded)' => module('{"properties":{"p":{"type":["array","null"]}}}', '{"p":"[1]"}'),
  ],
  '11. The schema is never checked (reading/8)' => [
    '{"a":"x"}, a declared "list" (the rule: invalid-schema)' => module('{"properties":{"a":{"type":"list"}}}', '{"a":"x"}'),
  ],
  '12. JSON first, on the string as sent, then entities: text that is JSON once decoded stays a string (reading/6)' => [
    '{"p":"[&quot;a&quot;]"}, p declared array (the rule: ["a"])' => module($array, '{"p":"[&quot;a&quot;]"}'),
  ],
];
foreach ($findings as $cause => $lines) {
  echo $cause, "\n";
  foreach ($lines as $what => $got) {
    echo '  ', $what, ': ', $got, "\n";
  }
}
