<?php

/**
 * @file
 * Tests of the kit over the protocol's edge cases: php kits/php/test_toolnorm_kit.php
 * (exit status 1 if any fails).
 */

declare(strict_types=1);

require __DIR__ . '/toolnorm_kit.php';

$failures = 0;

function check(string $name, mixed $got, mixed $want): void {
  global $failures;
  if ($got !== $want) {
    $failures++;
    $show = fn($v) => substr(var_export($v, TRUE), 0, 300);
    fwrite(STDERR, "FAIL " . substr($name, 0, 100) . ":\n  got  " . $show($got) . "\n  want " . $show($want) . "\n");
  }
}

/**
 * Runs an adapter on the kit with the function given as PHP source, on the
 * request lines; returns [answer lines, stderr].
 */
function session(string $fn, array $lines, string $declares = '[]', string $options = '[]', array $php = []): array {
  $file = tempnam(sys_get_temp_dir(), 'kit') . '.php';
  file_put_contents($file, '<?php require ' . var_export(__DIR__ . '/toolnorm_kit.php', TRUE) . ";\n"
    . "ToolnormKit::serve($fn, ['name' => 'test'], $declares, $options);\n");
  $p = proc_open([PHP_BINARY, '-n', ...$php, $file], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
  $input = implode('', array_map(fn($l) => (is_string($l) ? $l : json_encode($l)) . "\n", $lines));
  // Write and read at once: answers to big requests fill the pipe.
  stream_set_blocking($pipes[0], FALSE);
  $out = $err = '';
  while ($input !== '' || !feof($pipes[1]) || !feof($pipes[2])) {
    $r = array_filter([$pipes[1], $pipes[2]], fn($s) => !feof($s));
    $w = $input !== '' ? [$pipes[0]] : [];
    $e = NULL;
    if (!$r && !$w) {
      break;
    }
    stream_select($r, $w, $e, 10);
    if ($w) {
      $n = fwrite($pipes[0], $input);
      $input = substr($input, $n ?: 0);
      if ($input === '') {
        fclose($pipes[0]);
      }
    }
    foreach ($r as $s) {
      $chunk = fread($s, 1 << 20);
      if ($s === $pipes[1]) {
        $out .= $chunk;
      }
      else {
        $err .= $chunk;
      }
    }
  }
  proc_close($p);
  unlink($file);
  $answers = explode("\n", $out);
  check('output ends with a newline', array_pop($answers), '');
  return [$answers, $err];
}

function one(string $fn, string $args, string $schema = '{}', string $options = '[]'): string {
  [$answers] = session($fn, ['{"cmd":"normalize","id":1,"schema":' . $schema . ',"arguments":' . $args . '}'], '[]', $options);
  return $answers[0] ?? '(no answer)';
}

$identity = 'fn($schema, $args) => $args';

// start, its declares, stop, unknown commands.
[$answers] = session($identity, [['cmd' => 'start', 'version' => 1], ['cmd' => 'hello'], ['cmd' => 'stop'], ['cmd' => 'start', 'version' => 1]],
  "['profile' => 'attribute', 'max_passes' => 2, 'depth' => 'top', 'repairs' => ['json']]");
check('start', $answers, ['{"version":1,"implementation":{"name":"test","language":"PHP"},"declares":{"profile":"attribute","max_passes":2,"depth":"top","repairs":["json"]}}']);
[$answers] = session($identity, [['cmd' => 'start', 'version' => 1]]);
check('start without declares', $answers, ['{"version":1,"implementation":{"name":"test","language":"PHP"},"declares":{}}']);
foreach (["['profile' => 'html']", "['max_passes' => -1]", "['depth' => 'deep']", "['repairs' => []]", "['maxPasses' => 2]"] as $bad) {
  [$answers, $err] = session($identity, [], $bad);
  check("declares $bad refused", str_contains($err . implode("\n", $answers), 'serve: declares'), TRUE);
}

// What the function leaves alone comes back as sent, in both object modes.
foreach ([
  '{"a":1E+2,"b":1e400,"c":-0,"d":12345678901234567890,"e":-1e-400,"f":1.0,"g":0.1,"h":-9223372036854775809}',
  '{"b":1,"2":2,"1":3,"02":4,"":5,"x":{"1":"a","0":"b"}}',
  '{"a":[],"n":[[],[1]],"t":true,"f":false,"z":null,"s":"é/\\n"}',
] as $text) {
  foreach (["['objects' => 'array']", "['objects' => 'object']"] as $options) {
    check("unchanged $text $options", one($identity, $text, '{}', $options), '{"id":1,"arguments":' . $text . '}');
  }
}
check('{} as stdClass', one($identity, '{"e":{},"o":{"0":1}}', '{}', "['objects' => 'object']"), '{"id":1,"arguments":{"e":{},"o":{"0":1}}}');

// An object a PHP array cannot tell from a JSON array (empty, or keyed
// "0", "1", ... in order) reaches the function as that array, and goes
// back an object where the function left an array at its place, as
// numbers keep their text: the function sees what json_decode($text,
// TRUE) gives, and what it leaves alone is answered as it came.
check('empty object with arrays', one($identity, '{"e":{},"l":[],"n":{"m":{}}}'), '{"id":1,"arguments":{"e":{},"l":[],"n":{"m":{}}}}');
check('list-keyed object with arrays', one($identity, '{"o":{"0":1,"1":{"0":{}}},"a":[{}]}'), '{"id":1,"arguments":{"o":{"0":1,"1":{"0":{}}},"a":[{}]}}');
check('an empty object made an empty list is an object', one('fn($s, $a) => $a + ["x" => 1]', '{"e":{}}'), '{"id":1,"arguments":{"e":{},"x":1}}');
check('an array the function puts where a string was is a list', one('fn($s, $a) => ["e" => json_decode($a["e"], TRUE)]', '{"e":"{}"}'), '{"id":1,"arguments":{"e":[]}}');
check('an object the function changed goes as PHP writes it', one('fn($s, $a) => ["o" => [...$a["o"], 2]]', '{"o":{"0":1}}'), '{"id":1,"arguments":{"o":{"0":1,"1":2}}}');
// The protocol's ids are numbers: a request with another goes unanswered,
// and the adapter goes on.
check('an id not a number', session($identity, ['{"cmd":"normalize","id":"x","schema":{},"arguments":{}}', '{"cmd":"normalize","id":2,"schema":{},"arguments":{}}'])[0], ['{"id":2,"arguments":{}}']);
// What PHP cannot hold as sent is unsupported, in the arguments only.
check('duplicate', json_decode(one($identity, '{"a":{"x":1,"x":2}}'))->unsupported, 'duplicate member "x": a PHP array keeps one');
check('lone surrogate', str_contains(json_decode(one($identity, '{"s":"\\ud800"}'))->unsupported, 'lone surrogate'), TRUE);
// The reason quotes the string's first 40 bytes, cut between characters:
// a cut inside é would make json_encode throw and end the adapter.
foreach (['', 'x'] as $pad) {
  $text = '{"s":"' . $pad . str_repeat('é', 30) . '\\ud800"}';
  $reason = json_decode(one($identity, $text))->unsupported ?? '';
  check("lone surrogate after é, padded '$pad'", str_contains($reason, 'lone surrogate') && preg_match('//u', $reason) === 1, TRUE);
}
check('schema read as json_decode reads it', one($identity, '{"a":1}', '{"properties":{},"x":1}'), '{"id":1,"arguments":{"a":1}}');
check('a duplicate in the schema is unsupported', one($identity, '{"a":1}', '{"properties":{},"x":1,"x":2}'), '{"id":1,"unsupported":"duplicate member \\"x\\": a PHP array keeps one"}');
check('id as written', session($identity, ['{"cmd":"normalize","id":12345678901234567890,"schema":{},"arguments":{"a":1}}'])[0], ['{"id":12345678901234567890,"arguments":{"a":1}}']);

// Numbers the function makes are written as PHP writes them; INF and NAN are errors.
check('numbers made', one('fn($s, $a) => ["n" => $a["n"] * 2, "f" => 0.1 + 0.2, "i" => 3]', '{"n":1E+2}'), '{"id":1,"arguments":{"n":200,"f":0.30000000000000004,"i":3}}');
check('INF made', str_contains(json_decode(one('fn($s, $a) => ["x" => INF]', '{"a":1}'))->error, 'which JSON cannot hold'), TRUE);
check('NAN made', str_contains(json_decode(one('fn($s, $a) => ["x" => NAN]', '{"a":1}'))->error, 'which JSON cannot hold'), TRUE);
check('not UTF-8', str_contains(json_decode(one('fn($s, $a) => ["x" => "\xff"]', '{"a":1}'))->error, 'not UTF-8'), TRUE);
check('not JSON', str_contains(json_decode(one('fn($s, $a) => ["x" => fopen("php://memory", "r")]', '{"a":1}'))->error, 'not JSON'), TRUE);

// A ToolnormUnsupported the function throws, or a Throwable the unsupported
// hook names, is unsupported; a hook that throws says no.
$picky = 'function ($s, $a) { if (isset($a["u"])) { throw new ToolnormUnsupported("u is not for me"); } throw new RangeException("r"); }';
$lines = ['{"cmd":"normalize","id":1,"schema":{},"arguments":{"u":1}}', '{"cmd":"normalize","id":2,"schema":{},"arguments":{"r":1}}'];
check('unsupported thrown', session($picky, $lines)[0], ['{"id":1,"unsupported":"ToolnormUnsupported: u is not for me"}', '{"id":2,"error":"RangeException: r"}']);
check('unsupported hook', session($picky, $lines, '[]', '[\'unsupported\' => fn(Throwable $e) => $e instanceof RangeException]')[0], ['{"id":1,"unsupported":"ToolnormUnsupported: u is not for me"}', '{"id":2,"unsupported":"RangeException: r"}']);
check('unsupported hook that throws', session($picky, $lines, '[]', "['unsupported' => function () { throw new LogicException('hook'); }]")[0], ['{"id":1,"unsupported":"ToolnormUnsupported: u is not for me"}', '{"id":2,"error":"RangeException: r"}']);

// Huge and deep input.
$big = '{"s":"' . str_repeat('x&amp;', 200000) . '","a":[' . implode(',', range(0, 99999)) . ']}';
check('huge', one($identity, $big), '{"id":1,"arguments":' . $big . '}');
$deep = '{"a":' . str_repeat('[', 100000) . str_repeat(']', 100000) . '}';
check('deep', one($identity, $deep), '{"id":1,"arguments":' . $deep . '}');

// An exception is an error answer, and the session goes on; echo goes to stderr; one line each.
[$answers, $err] = session('function ($s, $a) { echo "hello\n"; if (!isset($a["a"])) { throw new InvalidArgumentException("no a\nhere"); } return ["t" => "a\nb"]; }', [
  ['cmd' => 'normalize', 'id' => 1, 'schema' => new stdClass(), 'arguments' => ['b' => 1]],
  ['cmd' => 'normalize', 'id' => 2, 'schema' => new stdClass(), 'arguments' => ['a' => 1]],
]);
check('exception', $answers, ['{"id":1,"error":"InvalidArgumentException: no a\nhere"}', '{"id":2,"arguments":{"t":"a\nb"}}']);
check('echo to stderr', $err, "hello\nhello\n");
[$answers] = session($identity, ['{"cmd":"normalize","id":3,"schema":{},"arguments":{"a":NaN}}', '{"cmd":"normalize","id":4,"schema":{},"arguments":{"a":1}}']);
check('unreadable request', str_contains($answers[0], '{"id":3,"unsupported":"the adapter cannot read this request'), TRUE);
check('after an unreadable request', $answers[1] ?? NULL, '{"id":4,"arguments":{"a":1}}');

// Coverage, with pcov (php-pcov): offered, and each request given the
// lines it reached first. Without pcov it is not offered; CI installs it
// (TOOLNORM_CI), where its absence is a failure.
$pcov = ['-d', 'extension=pcov', '-d', 'pcov.enabled=1', '-d', 'pcov.directory=' . realpath(sys_get_temp_dir())];
$branchy = "function (\$s, \$a) {\n  if (isset(\$a['x'])) {\n    return ['x' => 1];\n  }\n  if (isset(\$a['fail'])) {\n    throw new RuntimeException('no');\n  }\n  return \$a;\n}";
$ask = fn(int $id, array $args) => ['cmd' => 'normalize', 'id' => $id, 'schema' => new stdClass(), 'arguments' => $args, 'coverage' => TRUE];
[$answers] = session($identity, [['cmd' => 'start', 'version' => 1]]);
check('no pcov, no coverage offered', str_contains($answers[0], 'coverage'), FALSE);
if (!is_file(ini_get('extension_dir') . '/pcov.so')) {
  if (getenv('TOOLNORM_CI')) {
    check('pcov is installed', FALSE, TRUE);
  }
  else {
    fwrite(STDERR, "pcov is not installed (php-pcov): the kit's coverage is not tested\n");
  }
}
else {
  [$answers, $err] = session($branchy, [['cmd' => 'start', 'version' => 1], $ask(1, ['x' => 1]), $ask(2, ['x' => 2]), $ask(3, ['y' => 1]), $ask(4, ['fail' => 1]),
    ['cmd' => 'normalize', 'id' => 5, 'schema' => new stdClass(), 'arguments' => ['x' => 3]]], '[]', '[]', $pcov);
  $got = array_map(fn($a) => json_decode($a, TRUE), $answers);
  check('pcov: offered', $got[0]['coverage'] ?? NULL, 'lines');
  check('pcov: answer', $got[1]['arguments'] ?? NULL, ['x' => 1]);
  $first = $got[1]['coverage'] ?? [];
  check('pcov: lines reached', $first !== [] && $first === array_values(array_unique($first)) && min($first) >= 0, TRUE);
  check('pcov: nothing new', $got[2]['coverage'] ?? NULL, []);
  check('pcov: another branch', ($got[3]['coverage'] ?? []) !== [] && !array_intersect($got[3]['coverage'], $first), TRUE);
  check('pcov: the throw', ($got[4]['error'] ?? NULL) === 'RuntimeException: no' && ($got[4]['coverage'] ?? []) !== [], TRUE);
  check('pcov: not asked, not given', $answers[5], '{"id":5,"arguments":{"x":1}}');
  check('pcov: stderr', $err, '');
  [$answers] = session($branchy, [['cmd' => 'start', 'version' => 1], $ask(1, ['x' => 1])], '[]', "['coverage' => FALSE]", $pcov);
  check('pcov: coverage FALSE', $answers, ['{"version":1,"implementation":{"name":"test","language":"PHP"},"declares":{}}', '{"id":1,"arguments":{"x":1}}']);
}

exit($failures ? 1 : 0);
