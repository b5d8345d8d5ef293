<?php

/**
 * @file
 * HTML character references, decoded as the WHATWG tokenizer decodes them in
 * text content, repeated until the text stops changing.
 */

declare(strict_types=1);

final class BlindEntities {

  /** @var array<string, string>|null name (without '&') => text */
  private static ?array $table = NULL;

  /** Code points 0x80-0x9F that a numeric reference maps through windows-1252. */
  private const WINDOWS_1252 = [
    0x80 => 0x20AC, 0x82 => 0x201A, 0x83 => 0x0192, 0x84 => 0x201E,
    0x85 => 0x2026, 0x86 => 0x2020, 0x87 => 0x2021, 0x88 => 0x02C6,
    0x89 => 0x2030, 0x8A => 0x0160, 0x8B => 0x2039, 0x8C => 0x0152,
    0x8E => 0x017D, 0x91 => 0x2018, 0x92 => 0x2019, 0x93 => 0x201C,
    0x94 => 0x201D, 0x95 => 0x2022, 0x96 => 0x2013, 0x97 => 0x2014,
    0x98 => 0x02DC, 0x99 => 0x2122, 0x9A => 0x0161, 0x9B => 0x203A,
    0x9C => 0x0153, 0x9E => 0x017E, 0x9F => 0x0178,
  ];

  /** @var array<string, bool> */
  private static array $switches = [];

  public static function configure(array $switches): void {
    self::$switches = $switches;
  }

  /** The longest name in the table, ';' included. */
  private const LONGEST = 32;

  private static function table(): array {
    return self::$table ??= require __DIR__ . '/entity_table.php';
  }

  public static function utf8(int $cp): string {
    if ($cp < 0x80) {
      return chr($cp);
    }
    if ($cp < 0x800) {
      return chr(0xC0 | ($cp >> 6)) . chr(0x80 | ($cp & 0x3F));
    }
    if ($cp < 0x10000) {
      return chr(0xE0 | ($cp >> 12)) . chr(0x80 | (($cp >> 6) & 0x3F)) . chr(0x80 | ($cp & 0x3F));
    }
    return chr(0xF0 | ($cp >> 18)) . chr(0x80 | (($cp >> 12) & 0x3F)) . chr(0x80 | (($cp >> 6) & 0x3F)) . chr(0x80 | ($cp & 0x3F));
  }

  /**
   * The character reference at the start of $t ($t[0] is '&').
   *
   * @param string $t
   *   The text from the '&' on, up to the next '&' or cut short.
   * @param bool $cut
   *   $t was cut short: more text follows it.
   *
   * @return array|null|false
   *   [bytes consumed, replacement], NULL when no reference starts there,
   *   FALSE when the answer needs more of the text than $t holds.
   */
  public static function at(string $t, bool $cut): array|null|false {
    $n = strlen($t);
    if ($n < 2) {
      return $cut ? FALSE : NULL;
    }
    if ($t[1] === '#') {
      $i = 2;
      $hex = $i < $n && ($t[$i] === 'x' || $t[$i] === 'X');
      if ($hex) {
        $i++;
      }
      $digits = strspn($t, $hex ? '0123456789abcdefABCDEF' : '0123456789', $i);
      if ($i + $digits >= $n && $cut) {
        return FALSE;
      }
      if ($digits === 0) {
        return NULL;
      }
      $value = 0;
      for ($k = $i; $k < $i + $digits; $k++) {
        $value = $value * ($hex ? 16 : 10) + (int) hexdec($t[$k]);
        if ($value > 0x10FFFF) {
          $value = 0x110000;
        }
      }
      $i += $digits;
      if ($i < $n && $t[$i] === ';') {
        $i++;
      }
      return [$i, self::utf8(self::numeric($value))];
    }
    $run = strspn($t, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 1, self::LONGEST);
    if ($run === 0) {
      return NULL;
    }
    if (1 + $run >= $n && $cut) {
      return FALSE;
    }
    $table = self::table();
    if (1 + $run < $n && $t[1 + $run] === ';') {
      $name = substr($t, 1, $run) . ';';
      if (isset($table[$name])) {
        return [2 + $run, $table[$name]];
      }
    }
    for ($len = $run; $len > 0; $len--) {
      $name = substr($t, 1, $len);
      if (isset($table[$name])) {
        return [1 + $len, $table[$name]];
      }
    }
    return NULL;
  }

  /**
   * The code point a numeric reference to $value stands for.
   */
  private static function numeric(int $value): int {
    if ($value === 0 || $value > 0x10FFFF || ($value >= 0xD800 && $value <= 0xDFFF)) {
      return 0xFFFD;
    }
    if (isset(self::$switches['s4'])) {
      // Code points stand for themselves, as mb_chr() gives them.
      return $value;
    }
    return self::WINDOWS_1252[$value] ?? $value;
  }

  /**
   * One pass of the tokenizer over $s.
   */
  public static function once(string $s): string {
    return self::decode($s, 1);
  }

  /**
   * Passes over $s until it stops changing ($maxPasses 0), or at most
   * $maxPasses of them.
   *
   * Every '&' starts a segment that runs to the next '&', and what a pass
   * does with a segment depends on that segment alone. So after the first
   * pass, only the segments a pass changed (decoded, or grown by the text
   * the segment after them decoded to) need to be looked at again: the
   * others decide as they did. The text is a linked list of slices of the
   * strings it is made of, so that a pass costs what it changes.
   */
  public static function decode(string $s, int $maxPasses = 0): string {
    if (strpos($s, '&') === FALSE) {
      return $s;
    }
    // Pieces: $str[$p] from $from[$p] to $to[$p]; $next/$prev: the list;
    // $anext/$aprev: the list of the pieces that start a segment ('&').
    $str = $from = $to = $next = $prev = $amp = $anext = $aprev = [];
    $n = strlen($s);
    $id = 0;
    $last = NULL;
    $lastAmp = NULL;
    $dirty = [];
    $at = strpos($s, '&');
    $add = static function (int $a, int $b, bool $isAmp) use (&$str, &$from, &$to, &$next, &$prev, &$amp, &$anext, &$aprev, &$id, &$last, &$lastAmp, $s): int {
      $p = $id++;
      $str[$p] = $s;
      $from[$p] = $a;
      $to[$p] = $b;
      $prev[$p] = $last;
      $next[$p] = NULL;
      if ($last !== NULL) {
        $next[$last] = $p;
      }
      $last = $p;
      $amp[$p] = $isAmp;
      if ($isAmp) {
        $aprev[$p] = $lastAmp;
        $anext[$p] = NULL;
        if ($lastAmp !== NULL) {
          $anext[$lastAmp] = $p;
        }
        $lastAmp = $p;
      }
      return $p;
    };
    if ($at > 0) {
      $add(0, $at, FALSE);
    }
    while ($at !== FALSE) {
      $end = strpos($s, '&', $at + 1);
      $dirty[] = $add($at, $end === FALSE ? $n : $end, TRUE);
      $at = $end;
    }
    $head = 0;

    for ($pass = 0; $dirty && ($maxPasses === 0 || $pass < $maxPasses); $pass++) {
      $again = [];
      foreach ($dirty as $p) {
        // The segment's text, as much as the decision needs.
        $want = 64;
        for (;;) {
          $t = '';
          $q = $p;
          do {
            $t .= substr($str[$q], $from[$q], min($to[$q] - $from[$q], $want - strlen($t)));
            $q = $next[$q];
          } while (strlen($t) < $want && $q !== NULL && !$amp[$q]);
          $r = self::at($t, strlen($t) >= $want);
          if ($r !== FALSE) {
            break;
          }
          $want *= 4;
        }
        if ($r === NULL) {
          continue;
        }
        [$consumed, $text] = $r;
        // Drop the reference's bytes from the segment.
        $take = min($consumed, $to[$p] - $from[$p]);
        $from[$p] += $take;
        $consumed -= $take;
        $q = $next[$p];
        while ($consumed > 0) {
          $take = min($consumed, $to[$q] - $from[$q]);
          $from[$q] += $take;
          $consumed -= $take;
          $after = $next[$q];
          if ($from[$q] === $to[$q]) {
            $next[$prev[$q]] = $after;
            if ($after !== NULL) {
              $prev[$after] = $prev[$q];
            }
          }
          $q = $after;
        }
        if ($from[$p] < $to[$p]) {
          // The rest of the piece, after the reference: plain text.
          $r2 = $id++;
          $str[$r2] = $str[$p];
          $from[$r2] = $from[$p];
          $to[$r2] = $to[$p];
          $amp[$r2] = FALSE;
          $next[$r2] = $next[$p];
          $prev[$r2] = $p;
          if ($next[$p] !== NULL) {
            $prev[$next[$p]] = $r2;
          }
          $next[$p] = $r2;
        }
        $str[$p] = $text;
        $from[$p] = 0;
        $to[$p] = strlen($text);
        if ($text === '&') {
          // Still a segment, with new text: looked at again.
          $again[] = $p;
          continue;
        }
        // No longer a segment: its text joins the segment before it.
        $amp[$p] = FALSE;
        $before = $aprev[$p];
        $after = $anext[$p];
        if ($before !== NULL) {
          $anext[$before] = $after;
        }
        if ($after !== NULL) {
          $aprev[$after] = $before;
        }
        if ($before !== NULL && end($again) !== $before) {
          $again[] = $before;
        }
      }
      $dirty = $again;
    }

    $out = '';
    for ($q = $head; $q !== NULL; $q = $next[$q]) {
      $out .= substr($str[$q], $from[$q], $to[$q] - $from[$q]);
    }
    return $out;
  }

}
