<?php

/**
 * @file
 * A strict RFC 8259 reader for the JSON held in a string argument.
 */

declare(strict_types=1);

final class BlindJson {

  private const STRING = '/"[^"\\\\\x00-\x1f]*+(?:\\\\(?:["\\\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\\\x00-\x1f]*+)*+"/A';
  private const NUMBER = '/-?(?:0|[1-9][0-9]*+)(\.[0-9]++)?([eE][+-]?[0-9]++)?/A';
  private const WS = " \t\n\r";

  /**
   * Reads $text as one JSON value, JSON whitespace around it allowed.
   *
   * @return array|null
   *   NULL when $text is not JSON; else [value, nesting, what PHP cannot
   *   hold of it as sent (a message, or NULL)]. Objects are stdClass, arrays
   *   lists.
   */
  public static function parse(string $text): ?array {
    $n = strlen($text);
    $i = strspn($text, self::WS);
    // Frames: [is object, items, key waiting for its value].
    $stack = [];
    $depth = 0;
    $lost = NULL;
    for (;;) {
      if ($stack) {
        $top = &$stack[count($stack) - 1];
        if ($top[0]) {
          if ($i >= $n || $text[$i] !== '"') {
            return NULL;
          }
          $key = self::string($text, $i, $lost);
          if ($key === NULL) {
            return NULL;
          }
          if (array_key_exists($key, $top[1])) {
            $lost ??= 'duplicate member ' . json_encode($key, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES) . ' in a decoded string: a PHP object keeps one';
          }
          $i += strspn($text, self::WS, $i);
          if ($i >= $n || $text[$i] !== ':') {
            return NULL;
          }
          $i++;
          $i += strspn($text, self::WS, $i);
          $top[2] = $key;
        }
        unset($top);
      }
      if ($i >= $n) {
        return NULL;
      }
      $c = $text[$i];
      if ($c === '{' || $c === '[') {
        $i++;
        $i += strspn($text, self::WS, $i);
        $depth = max($depth, count($stack) + 1);
        $close = $c === '{' ? '}' : ']';
        if ($i < $n && $text[$i] === $close) {
          $i++;
          $value = $c === '[' ? [] : new stdClass();
        }
        else {
          $stack[] = [$c === '{', [], NULL];
          continue;
        }
      }
      elseif ($c === '"') {
        $value = self::string($text, $i, $lost);
        if ($value === NULL) {
          return NULL;
        }
      }
      elseif (preg_match(self::NUMBER, $text, $m, 0, $i)) {
        $i += strlen($m[0]);
        $value = self::number($m[0], ($m[1] ?? '') === '' && ($m[2] ?? '') === '', $lost);
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
        return NULL;
      }
      for (;;) {
        if (!$stack) {
          $i += strspn($text, self::WS, $i);
          return $i === $n ? [$value, $depth, $lost] : NULL;
        }
        $top = &$stack[count($stack) - 1];
        if ($top[0]) {
          $top[1][$top[2]] = $value;
        }
        else {
          $top[1][] = $value;
        }
        $value = NULL;
        $i += strspn($text, self::WS, $i);
        $c = $text[$i] ?? '';
        if ($c === ',') {
          $i++;
          $i += strspn($text, self::WS, $i);
          unset($top);
          continue 2;
        }
        if ($c !== ($top[0] ? '}' : ']')) {
          return NULL;
        }
        $i++;
        unset($top);
        $frame = array_pop($stack);
        $value = $frame[0] ? (object) $frame[1] : $frame[1];
      }
    }
  }

  private static function string(string $text, int &$i, ?string &$lost): ?string {
    if (!preg_match(self::STRING, $text, $m, 0, $i)) {
      return NULL;
    }
    $i += strlen($m[0]);
    if (strpos($m[0], '\\') === FALSE) {
      return substr($m[0], 1, -1);
    }
    $s = json_decode($m[0], FALSE, 1);
    if (!is_string($s)) {
      // Valid JSON (the pattern says so): a lone surrogate escape, which a
      // PHP string (UTF-8) cannot hold.
      $lost ??= 'a lone surrogate escape in a decoded string: a PHP string holds UTF-8, which has no form for it';
      return '';
    }
    return $s;
  }

  /**
   * A number as PHP holds it; $lost says so when the kit would write back
   * another value than the text's.
   */
  private static function number(string $t, bool $plain, ?string &$lost): int|float {
    if ($plain && (string) (int) $t === $t) {
      return (int) $t;
    }
    $f = (float) $t;
    if (is_infinite($f) || self::decimal($t) !== self::decimal(json_encode($f))) {
      $lost ??= "the number $t in a decoded string: a PHP float holds another value";
    }
    return $f;
  }

  /**
   * A number's exact decimal value, as "digits e exponent".
   */
  private static function decimal(string|false $t): string {
    if ($t === FALSE || !preg_match('/^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/', $t, $m)) {
      return 'x';
    }
    $digits = ltrim($m[2] . ($m[3] ?? ''), '0');
    $exp = (int) ($m[4] ?? 0) - strlen($m[3] ?? '');
    if ($digits === '') {
      return '0';
    }
    $trimmed = rtrim($digits, '0');
    $exp += strlen($digits) - strlen($trimmed);
    return $m[1] . $trimmed . 'e' . $exp;
  }

}
