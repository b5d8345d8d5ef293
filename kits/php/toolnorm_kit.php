<?php

/**
 * @file
 * toolnorm adapter kit for PHP 8.1+: the whole of toolnorm's protocol,
 * version 1 (docs/protocol.md), around one function of yours. Core PHP
 * only; copy this file.
 *
 *   require __DIR__ . '/toolnorm_kit.php';
 *   require __DIR__ . '/../src/normalize.php';
 *   ToolnormKit::serve('my_normalize', ['name' => 'my-normalizer', 'version' => '0.3.1']);
 *
 * then: toolnorm check --impl 'php adapter.php'
 *
 * The function is called as $fn($schema, $arguments) and returns the
 * normalized arguments, or throws to reject them (an "error" answer with the
 * message; the adapter goes on), or throws ToolnormUnsupported for input it
 * cannot take as sent (an "unsupported" answer: not judged). By default JSON objects arrive as PHP
 * arrays, as json_decode($json, TRUE) gives them; with ['objects' =>
 * 'object'] as stdClass, as json_decode($json) gives them.
 *
 * The kit reads requests with its own reader, so that what the function
 * leaves alone goes back exactly as it came: numbers keep their text
 * (12345678901234567890 and 1e400 are a float and INF to PHP, and are
 * written back as sent where the function left them), member order is kept.
 * With arrays, an object of the arguments that a PHP array cannot tell
 * from a JSON array (empty, or keyed "0", "1", ... in order) reaches the
 * function as json_decode gives it, a list, and a list the function leaves
 * at its place is written back as the object it was.
 * What PHP cannot hand to the function as sent is answered "unsupported",
 * with the reason, and not judged: a duplicate member, and a lone surrogate
 * escape such as \ud800 (a PHP string holds UTF-8, which has no form for
 * it). Answers are always one
 * valid JSON line: INF or NAN the function makes, or a string that is not
 * UTF-8, is an "error" answer. What the function echoes goes to stderr.
 *
 * ToolnormKit::call($fn, $schemaText, $argumentsText) does one case from
 * JSON text to JSON text, for tests (the corpus replay test of toolnorm
 * init uses it).
 *
 * Coverage (an addition to protocol version 1): with the pcov extension
 * loaded (php -d extension=pcov, its pcov.directory holding your code), the
 * kit offers the lines your implementation reaches, by default those of
 * the files in the directory of the file that defines your function, the
 * kit left out (['coverage' => [paths]] chooses, ['coverage' => FALSE]
 * offers none); toolnorm fuzz asks for them. Without pcov it offers none
 * (and toolnorm fuzz says it is not guided).
 */

declare(strict_types=1);

/**
 * Input the kit cannot hand to the function as it was sent.
 */
class ToolnormUnsupported extends RuntimeException {}

/**
 * The protocol, the reader and the writer.
 */
final class ToolnormKit {

  private const STRING = '/"[^"\\\\\x00-\x1f]*+(?:\\\\(?:["\\\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\\\x00-\x1f]*+)*+"/A';
  private const NUMBER = '/-?(?:0|[1-9][0-9]*+)(\.[0-9]++)?([eE][+-]?[0-9]++)?/A';
  private const FLAGS = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR;
  // Recorded, beside the numbers' texts, at the place of an object of the
  // arguments that reaches the function as a list (empty, or keyed "0",
  // "1", ... in order): a list the function leaves there is written as an
  // object.
  private const AN_OBJECT = [NULL, 'object'];

  /**
   * Speaks the protocol on STDIN and STDOUT until stop or the end of input.
   *
   * @param callable $fn
   *   The implementation: $fn($schema, $arguments) returns the arguments.
   * @param array $implementation
   *   name (required), version, language (default PHP), homepage.
   * @param array $declares
   *   profile (text, attribute), max_passes (0: until nothing changes),
   *   depth (all, top), repairs (['json', 'entities'] or one of them).
   * @param array $options
   *   objects: 'array' (default) or 'object' (stdClass); unsupported: a
   *   callable that says whether a Throwable of the function means it cannot
   *   take the input as sent (an "unsupported" answer: not judged) rather
   *   than that it rejects it (an "error" answer). A ToolnormUnsupported it
   *   throws always means that. coverage: TRUE (default), FALSE, or the
   *   files and directories whose lines count.
   */
  public static function serve(callable $fn, array $implementation, array $declares = [], array $options = [], $in = STDIN, $out = STDOUT): void {
    if (!is_string($implementation['name'] ?? NULL) || $implementation['name'] === '') {
      throw new InvalidArgumentException('serve: the implementation needs a name');
    }
    self::checkDeclares($declares);
    $objects = self::objects($options);
    $unsupported = $options['unsupported'] ?? NULL;
    if ($unsupported !== NULL && !is_callable($unsupported)) {
      throw new InvalidArgumentException('serve: unsupported is a callable');
    }
    $implementation += ['language' => 'PHP'];
    // Nothing but answers may reach stdout: PHP's warnings go to stderr.
    ini_set('display_errors', 'stderr');
    ini_set('serialize_precision', '-1');
    $coverage = ToolnormCoverage::for($fn, $options['coverage'] ?? TRUE);
    $start = ['version' => 1, 'implementation' => $implementation, 'declares' => (object) $declares];
    if ($coverage !== NULL) {
      $start['coverage'] = 'lines';
    }
    $start = json_encode($start, self::FLAGS);
    while (($line = fgets($in)) !== FALSE) {
      $answer = self::answer($fn, rtrim($line, "\r\n"), $objects, $cmd, $unsupported, $coverage);
      if ($cmd === 'start') {
        $answer = $start;
      }
      elseif ($cmd === 'stop') {
        break;
      }
      if ($answer !== NULL) {
        fwrite($out, $answer . "\n");
        fflush($out);
      }
    }
  }

  /**
   * One case, JSON text in and out (for tests).
   */
  public static function call(callable $fn, string $schemaText, string $argumentsText, array $options = []): string {
    $objects = self::objects($options);
    $schema = self::decode($schemaText, NULL, $objects);
    $arguments = self::decode($argumentsText, '', $objects, $numbers);
    ini_set('serialize_precision', '-1');
    return self::encode($fn($schema, $arguments), $numbers);
  }

  private static function objects(array $options): string {
    $objects = $options['objects'] ?? 'array';
    if ($objects !== 'array' && $objects !== 'object') {
      throw new InvalidArgumentException("serve: objects is 'array' or 'object'");
    }
    return $objects;
  }

  private static function checkDeclares(array $d): void {
    $ok = (!isset($d['profile']) || in_array($d['profile'], ['text', 'attribute'], TRUE))
      && (!isset($d['depth']) || in_array($d['depth'], ['all', 'top'], TRUE))
      && (!isset($d['max_passes']) || (is_int($d['max_passes']) && $d['max_passes'] >= 0))
      && (!isset($d['repairs']) || (is_array($d['repairs']) && $d['repairs'] !== [] && array_is_list($d['repairs'])
        && !array_diff($d['repairs'], ['json', 'entities'])));
    if (!$ok || array_diff(array_keys($d), ['profile', 'depth', 'max_passes', 'repairs'])) {
      throw new InvalidArgumentException('serve: declares: profile text or attribute, depth all or top, max_passes 0 or more, repairs json, entities or both');
    }
  }

  private static function answer(callable $fn, string $line, string $objects, ?string &$cmd, ?callable $unsupported = NULL, ?ToolnormCoverage $coverage = NULL): ?string {
    $cmd = NULL;
    try {
      $request = self::decode($line, '/arguments', $objects, $numbers, TRUE);
    }
    catch (Throwable $e) {
      // A line the kit cannot read, or arguments PHP cannot hold as sent.
      if (!preg_match('/"id"\s*:\s*(-?[0-9]+)/', $line, $m)) {
        fwrite(STDERR, 'toolnorm_kit: unreadable request: ' . $e->getMessage() . "\n");
        return NULL;
      }
      $cmd = 'normalize';
      $why = $e instanceof ToolnormUnsupported ? $e->getMessage() : 'the adapter cannot read this request: ' . $e->getMessage();
      return '{"id":' . $m[1] . ',"unsupported":' . json_encode($why, self::FLAGS | JSON_INVALID_UTF8_SUBSTITUTE) . '}';
    }
    $request = (array) $request;
    $cmd = is_string($request['cmd'] ?? NULL) ? $request['cmd'] : NULL;
    if ($cmd !== 'normalize') {
      return NULL;
    }
    if (!is_int($request['id'] ?? NULL) && !is_float($request['id'] ?? NULL)) {
      // The protocol's ids are numbers: no answer could name this request.
      fwrite(STDERR, "toolnorm_kit: a request whose id is not a number: not answered\n");
      return NULL;
    }
    $id = $numbers['/id'][0] ?? (string) $request['id'];
    $asked = $coverage !== NULL && ($request['coverage'] ?? NULL) === TRUE;
    ob_start();
    try {
      if ($asked) {
        $coverage->start();
      }
      try {
        $result = $fn($request['schema'] ?? NULL, $request['arguments'] ?? NULL);
      }
      finally {
        $tail = $asked ? $coverage->member() : '';
      }
      $answer = '{"id":' . $id . ',"arguments":' . self::encode($result, $numbers, '/arguments') . $tail . '}';
    }
    catch (Throwable $e) {
      // Every exception and Error, a stack overflow included where PHP
      // (8.3+) makes it one: the function's answer, and the adapter goes on.
      $said = $e instanceof ToolnormUnsupported;
      if (!$said && $unsupported !== NULL) {
        try {
          $said = (bool) $unsupported($e);
        }
        catch (Throwable) {
          // A hook that fails says no: the error stays the function's.
        }
      }
      $answer = '{"id":' . $id . ($said ? ',"unsupported":' : ',"error":') . json_encode(self::message($e), self::FLAGS | JSON_INVALID_UTF8_SUBSTITUTE) . ($said ? '' : ($tail ?? '')) . '}';
    }
    finally {
      $echoed = ob_get_clean();
      if ($echoed !== '' && $echoed !== FALSE) {
        fwrite(STDERR, $echoed);
      }
    }
    return $answer;
  }

  private static function message(Throwable $e): string {
    return get_class($e) . ($e->getMessage() === '' ? '' : ': ' . $e->getMessage());
  }

  /**
   * Reads JSON text as PHP values, without recursion.
   *
   * @param string $text
   *   The JSON text.
   * @param string|null $strictAt
   *   Where what PHP cannot hold throws ToolnormUnsupported: '' everywhere,
   *   '/name' under the top-level member name, NULL nowhere (there the last
   *   duplicate wins and {} is [], as json_decode() gives them).
   * @param string $objects
   *   'array' or 'object'.
   * @param array|null $numbers
   *   Set to the text and value of each number PHP writes otherwise, by JSON
   *   Pointer.
   * @param bool $request
   *   The top-level value is a request: its objects are stdClass.
   */
  public static function decode(string $text, ?string $strictAt, string $objects = 'array', ?array &$numbers = NULL, bool $request = FALSE): mixed {
    $numbers = [];
    $n = strlen($text);
    $i = 0;
    // Frames of the containers being read: [is object, items, key waiting
    // for its value, strict].
    $stack = [];
    $fail = static function (string $what) use (&$i): never {
      throw new JsonException("$what at offset $i");
    };
    $member = $strictAt === NULL || $strictAt === '' ? NULL : substr($strictAt, 1);
    for (;;) {
      $i += strspn($text, " \t\n\r", $i);
      $strict = $strictAt === '';
      if ($stack) {
        $top = &$stack[count($stack) - 1];
        if ($top[0]) {
          // A key.
          if ($i >= $n || $text[$i] !== '"') {
            $fail('expected a key');
          }
          $key = self::string($text, $i, $top[3]);
          // A duplicate member is unsupported everywhere: in the schema
          // too, where toolnorm refuses it and no function taking a PHP
          // value can see it.
          if (array_key_exists($key, $top[1])) {
            throw new ToolnormUnsupported('duplicate member ' . json_encode((string) $key, self::FLAGS) . ': a PHP array keeps one');
          }
          $i += strspn($text, " \t\n\r", $i);
          if ($i >= $n || $text[$i] !== ':') {
            $fail('expected :');
          }
          $i++;
          $i += strspn($text, " \t\n\r", $i);
          $top[2] = (string) $key;
          $strict = $top[3] || (count($stack) === 1 && $top[2] === $member);
        }
        else {
          $strict = $top[3];
        }
        unset($top);
      }
      if ($i >= $n) {
        $fail('unexpected end');
      }
      $c = $text[$i];
      if ($c === '{' || $c === '[') {
        $i++;
        $i += strspn($text, " \t\n\r", $i);
        $close = $c === '{' ? '}' : ']';
        if ($i < $n && $text[$i] === $close) {
          $i++;
          $value = $c === '[' ? [] : (($objects === 'object' || ($request && !$stack)) ? new stdClass() : []);
          if ($c === '{' && $strict && is_array($value)) {
            $numbers[self::pointer($stack)] = self::AN_OBJECT;
          }
        }
        else {
          $stack[] = [$c === '{', [], NULL, $strict];
          continue;
        }
      }
      elseif ($c === '"') {
        $value = self::string($text, $i, $strict);
      }
      elseif (preg_match(self::NUMBER, $text, $m, 0, $i)) {
        $i += strlen($m[0]);
        $t = $m[0];
        $plain = ($m[1] ?? '') === '' && ($m[2] ?? '') === '';
        if ($plain && ((string) (int) $t === $t || $t === '-0')) {
          // An integer PHP holds (-0 is 0 to PHP, and written back -0).
          $value = (int) $t;
        }
        else {
          // A fraction, an exponent, or an integer past PHP_INT_MAX: a
          // float (1e400 is INF), written back as sent.
          $value = (float) $t;
        }
        $written = is_int($value) ? (string) $value : self::float($value);
        if ($written !== $t) {
          // Its pointer, from the frames: only for numbers whose text PHP
          // would not write, so that deep nesting costs no pointer per level.
          $numbers[self::pointer($stack)] = [$t, $value];
        }
      }
      elseif (substr_compare($text, 'true', $i, 4) === 0) {
        $i += 4;
        $value = TRUE;
      }
      elseif (substr_compare($text, 'false', $i, 5) === 0) {
        $i += 5;
        $value = FALSE;
      }
      elseif (substr_compare($text, 'null', $i, 4) === 0) {
        $i += 4;
        $value = NULL;
      }
      else {
        $fail('unexpected character');
      }
      // The value is whole: put it in its container, and close what ends.
      for (;;) {
        if (!$stack) {
          $i += strspn($text, " \t\n\r", $i);
          if ($i !== $n) {
            $fail('data after the value');
          }
          return $value;
        }
        $top = &$stack[count($stack) - 1];
        if ($top[0]) {
          $top[1][$top[2]] = $value;
        }
        else {
          $top[1][] = $value;
        }
        $value = NULL;
        $i += strspn($text, " \t\n\r", $i);
        $c = $text[$i] ?? '';
        $close = $top[0] ? '}' : ']';
        if ($c === ',') {
          $i++;
          unset($top);
          continue 2;
        }
        if ($c !== $close) {
          $fail("expected , or $close");
        }
        $i++;
        unset($top);
        $frame = array_pop($stack);
        if (!$frame[0]) {
          $value = $frame[1];
        }
        elseif ($objects === 'object' || ($request && !$stack)) {
          $value = (object) $frame[1];
        }
        else {
          if ($frame[3] && array_is_list($frame[1])) {
            $numbers[self::pointer($stack)] = self::AN_OBJECT;
          }
          $value = $frame[1];
        }
        $frame = NULL;
      }
    }
  }

  /**
   * The JSON Pointer of the value about to go into the innermost of the
   * decoder's frames.
   */
  private static function pointer(array $stack): string {
    $at = '';
    foreach ($stack as $frame) {
      $at .= '/' . ($frame[0] ? strtr($frame[2], ['~' => '~0', '/' => '~1']) : count($frame[1]));
    }
    return $at;
  }

  /**
   * Reads the string at $i, and moves $i past it.
   */
  private static function string(string $text, int &$i, bool $strict): string {
    if (!preg_match(self::STRING, $text, $m, 0, $i)) {
      throw new JsonException("invalid string at offset $i");
    }
    $i += strlen($m[0]);
    if (strpos($m[0], '\\') === FALSE) {
      if (!preg_match('//u', $m[0])) {
        throw new JsonException("a string that is not UTF-8 at offset $i");
      }
      return substr($m[0], 1, -1);
    }
    $s = json_decode($m[0], FALSE, 1);
    if (!is_string($s)) {
      if (json_last_error() === JSON_ERROR_UTF16) {
        throw new ToolnormUnsupported('a lone surrogate escape in ' . self::clip($m[0], 40) . ': a PHP string holds UTF-8, which has no form for it');
      }
      throw new JsonException(json_last_error_msg() . " at offset $i");
    }
    return $s;
  }

  /**
   * The first bytes of $s, at most $n, cut between UTF-8 characters.
   */
  private static function clip(string $s, int $n): string {
    $s = substr($s, 0, $n);
    while ($s !== '' && !preg_match('//u', $s)) {
      $s = substr($s, 0, -1);
    }
    return $s;
  }

  private static function float(float $f): string {
    if (is_nan($f) || is_infinite($f)) {
      return '';
    }
    return json_encode($f, self::FLAGS);
  }

  /**
   * Writes a value as compact JSON on one line, without recursion: each
   * number the kit read with its text, where the function left it.
   */
  public static function encode(mixed $value, array $numbers = [], string $at = ''): string {
    // The pointers that lead to a recorded number: elsewhere no pointer is
    // built, so that deep nesting costs no pointer per level.
    $paths = [];
    foreach (array_keys($numbers) as $p) {
      for ($p = (string) $p; !isset($paths[$p]); $p = substr($p, 0, (int) strrpos($p, '/'))) {
        $paths[$p] = TRUE;
        if ($p === '') {
          break;
        }
      }
    }
    $out = '';
    $work = [[$value, isset($paths[$at]) ? $at : NULL, NULL]];
    while ($work) {
      [$v, $at, $literal] = array_pop($work);
      if ($literal !== NULL) {
        $out .= $literal;
        continue;
      }
      if ($v instanceof JsonSerializable) {
        $v = $v->jsonSerialize();
      }
      if (is_int($v) || is_float($v)) {
        if ($at !== NULL && isset($numbers[$at]) && $numbers[$at][1] === $v) {
          $out .= $numbers[$at][0];
        }
        elseif (is_int($v)) {
          $out .= $v;
        }
        elseif (is_nan($v) || is_infinite($v)) {
          throw new ValueError("the function returned $v, which JSON cannot hold");
        }
        else {
          $out .= self::float($v);
        }
      }
      elseif (is_string($v)) {
        try {
          $out .= json_encode($v, self::FLAGS);
        }
        catch (JsonException $e) {
          throw new ValueError('the function returned a string that is not UTF-8: ' . $e->getMessage());
        }
      }
      elseif ($v === NULL || is_bool($v)) {
        $out .= json_encode($v);
      }
      elseif (is_array($v) && array_is_list($v) && !($at !== NULL && ($numbers[$at] ?? NULL) === self::AN_OBJECT)) {
        $out .= '[';
        $work[] = [NULL, NULL, ']'];
        for ($k = count($v) - 1; $k >= 0; $k--) {
          $p = $at === NULL ? NULL : "$at/$k";
          $work[] = [$v[$k], $p !== NULL && isset($paths[$p]) ? $p : NULL, NULL];
          if ($k > 0) {
            $work[] = [NULL, NULL, ','];
          }
        }
      }
      elseif (is_array($v) || $v instanceof stdClass) {
        $members = is_array($v) ? $v : get_object_vars($v);
        $out .= '{';
        $work[] = [NULL, NULL, '}'];
        $keys = array_keys($members);
        for ($k = count($keys) - 1; $k >= 0; $k--) {
          $key = (string) $keys[$k];
          $p = $at === NULL ? NULL : $at . '/' . strtr($key, ['~' => '~0', '/' => '~1']);
          $work[] = [$members[$keys[$k]], $p !== NULL && isset($paths[$p]) ? $p : NULL, NULL];
          try {
            $work[] = [NULL, NULL, ($k > 0 ? ',' : '') . json_encode($key, self::FLAGS) . ':'];
          }
          catch (JsonException $e) {
            throw new ValueError('the function returned a key that is not UTF-8: ' . $e->getMessage());
          }
        }
      }
      else {
        throw new ValueError('the function returned ' . get_debug_type($v) . ', which is not JSON');
      }
    }
    return $out;
  }

}

/**
 * The lines of the implementation's own files a request reaches, through
 * pcov: each an id, a hash of its file's path relative to the root that
 * holds it and its number, so that the ids are the same from run to run.
 * An answer carries the lines its request reached first since the adapter
 * started.
 */
final class ToolnormCoverage {

  private const MAX = 65536;

  /** @var string[] */
  private array $roots;
  /** @var array<string, string> a file's path relative to its root */
  private array $files = [];
  private int $included = 0;
  /** @var array<int, true> the ids told already */
  private array $seen = [];

  private function __construct(array $roots) {
    $this->roots = array_map(fn($r) => rtrim((string) (realpath($r) ?: $r), '/'), $roots);
  }

  /**
   * The coverage serve offers: NULL when it offers none (asked for none,
   * or no pcov).
   */
  public static function for(callable $fn, mixed $option): ?self {
    if ($option === FALSE || !extension_loaded('pcov') || !ini_get('pcov.enabled')) {
      return NULL;
    }
    if (is_array($option)) {
      return new self($option);
    }
    $file = (new ReflectionFunction(Closure::fromCallable($fn)))->getFileName();
    return $file === FALSE ? NULL : new self([dirname($file)]);
  }

  public function start(): void {
    \pcov\clear();
    \pcov\start();
  }

  /**
   * Stops collecting, and returns the coverage member of the answer: the
   * lines reached first.
   */
  public function member(): string {
    \pcov\stop();
    $included = get_included_files();
    if (count($included) !== $this->included) {
      $this->included = count($included);
      foreach ($included as $f) {
        if (!isset($this->files[$f]) && $f !== __FILE__) {
          foreach ($this->roots as $root) {
            if ($f === $root || str_starts_with($f, $root . '/')) {
              $this->files[$f] = $f === $root ? basename($f) : substr($f, strlen($root) + 1);
              break;
            }
          }
        }
      }
    }
    $ids = [];
    foreach (\pcov\collect(\pcov\inclusive, array_keys($this->files)) as $file => $lines) {
      $rel = $this->files[$file] ?? NULL;
      if ($rel === NULL) {
        continue;
      }
      foreach ($lines as $line => $hit) {
        if ($hit <= 0) {
          continue;
        }
        $id = crc32($rel . ':' . $line);
        if (!isset($this->seen[$id])) {
          $this->seen[$id] = TRUE;
          $ids[] = $id;
        }
      }
    }
    sort($ids);
    return ',"coverage":[' . implode(',', array_slice($ids, 0, self::MAX)) . ']';
  }

}
