<?php

/**
 * @file
 * JSON Schema patterns are ECMA-262 regular expressions (read as with the
 * u flag). This reads one, refusing what ECMA-262 refuses, and writes the
 * PCRE2 pattern that matches the same strings.
 */

declare(strict_types=1);

final class BlindPatternError extends RuntimeException {}

final class BlindEcma {

  private const SYNTAX = '^$\\.*+?()[]{}|';
  private const DIGIT = '\x{30}-\x{39}';
  private const NOT_DIGIT = '\x{0}-\x{2F}\x{3A}-\x{10FFFF}';
  private const WORD = '\x{30}-\x{39}\x{41}-\x{5A}\x{5F}\x{61}-\x{7A}';
  private const NOT_WORD = '\x{0}-\x{2F}\x{3A}-\x{40}\x{5B}-\x{5E}\x{60}\x{7B}-\x{10FFFF}';
  private const SPACE = '\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}';
  private const NOT_SPACE = '\x{0}-\x{8}\x{E}-\x{1F}\x{21}-\x{9F}\x{A1}-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}\x{202A}-\x{202E}\x{2030}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{FEFE}\x{FF00}-\x{10FFFF}';

  private const GENERAL_CATEGORY = [
    'L' => 'L', 'Letter' => 'L', 'LC' => 'L&', 'Cased_Letter' => 'L&', 'Lu' => 'Lu', 'Uppercase_Letter' => 'Lu',
    'Ll' => 'Ll', 'Lowercase_Letter' => 'Ll', 'Lt' => 'Lt', 'Titlecase_Letter' => 'Lt', 'Lm' => 'Lm',
    'Modifier_Letter' => 'Lm', 'Lo' => 'Lo', 'Other_Letter' => 'Lo', 'M' => 'M', 'Mark' => 'M',
    'Combining_Mark' => 'M', 'Mn' => 'Mn', 'Nonspacing_Mark' => 'Mn', 'Mc' => 'Mc', 'Spacing_Mark' => 'Mc',
    'Me' => 'Me', 'Enclosing_Mark' => 'Me', 'N' => 'N', 'Number' => 'N', 'Nd' => 'Nd', 'Decimal_Number' => 'Nd',
    'digit' => 'Nd', 'Nl' => 'Nl', 'Letter_Number' => 'Nl', 'No' => 'No', 'Other_Number' => 'No',
    'P' => 'P', 'Punctuation' => 'P', 'punct' => 'P', 'Pc' => 'Pc', 'Connector_Punctuation' => 'Pc',
    'Pd' => 'Pd', 'Dash_Punctuation' => 'Pd', 'Ps' => 'Ps', 'Open_Punctuation' => 'Ps', 'Pe' => 'Pe',
    'Close_Punctuation' => 'Pe', 'Pi' => 'Pi', 'Initial_Punctuation' => 'Pi', 'Pf' => 'Pf',
    'Final_Punctuation' => 'Pf', 'Po' => 'Po', 'Other_Punctuation' => 'Po', 'S' => 'S', 'Symbol' => 'S',
    'Sm' => 'Sm', 'Math_Symbol' => 'Sm', 'Sc' => 'Sc', 'Currency_Symbol' => 'Sc', 'Sk' => 'Sk',
    'Modifier_Symbol' => 'Sk', 'So' => 'So', 'Other_Symbol' => 'So', 'Z' => 'Z', 'Separator' => 'Z',
    'Zs' => 'Zs', 'Space_Separator' => 'Zs', 'Zl' => 'Zl', 'Line_Separator' => 'Zl', 'Zp' => 'Zp',
    'Paragraph_Separator' => 'Zp', 'C' => 'C', 'Other' => 'C', 'Cc' => 'Cc', 'Control' => 'Cc',
    'cntrl' => 'Cc', 'Cf' => 'Cf', 'Format' => 'Cf', 'Cs' => 'Cs', 'Surrogate' => 'Cs', 'Co' => 'Co',
    'Private_Use' => 'Co', 'Cn' => 'Cn', 'Unassigned' => 'Cn',
  ];

  /** ECMA-262's binary properties: name or alias => canonical name. */
  private const BINARY = [
    'ASCII' => 'ASCII', 'ASCII_Hex_Digit' => 'ASCII_Hex_Digit', 'AHex' => 'ASCII_Hex_Digit',
    'Alphabetic' => 'Alphabetic', 'Alpha' => 'Alphabetic', 'Any' => 'Any', 'Assigned' => 'Assigned',
    'Bidi_Control' => 'Bidi_Control', 'Bidi_C' => 'Bidi_Control', 'Bidi_Mirrored' => 'Bidi_Mirrored',
    'Bidi_M' => 'Bidi_Mirrored', 'Case_Ignorable' => 'Case_Ignorable', 'CI' => 'Case_Ignorable',
    'Cased' => 'Cased', 'Changes_When_Casefolded' => 'Changes_When_Casefolded', 'CWCF' => 'Changes_When_Casefolded',
    'Changes_When_Casemapped' => 'Changes_When_Casemapped', 'CWCM' => 'Changes_When_Casemapped',
    'Changes_When_Lowercased' => 'Changes_When_Lowercased', 'CWL' => 'Changes_When_Lowercased',
    'Changes_When_NFKC_Casefolded' => 'Changes_When_NFKC_Casefolded', 'CWKCF' => 'Changes_When_NFKC_Casefolded',
    'Changes_When_Titlecased' => 'Changes_When_Titlecased', 'CWT' => 'Changes_When_Titlecased',
    'Changes_When_Uppercased' => 'Changes_When_Uppercased', 'CWU' => 'Changes_When_Uppercased',
    'Dash' => 'Dash', 'Default_Ignorable_Code_Point' => 'Default_Ignorable_Code_Point', 'DI' => 'Default_Ignorable_Code_Point',
    'Deprecated' => 'Deprecated', 'Dep' => 'Deprecated', 'Diacritic' => 'Diacritic', 'Dia' => 'Diacritic',
    'Emoji' => 'Emoji', 'Emoji_Component' => 'Emoji_Component', 'EComp' => 'Emoji_Component',
    'Emoji_Modifier' => 'Emoji_Modifier', 'EMod' => 'Emoji_Modifier', 'Emoji_Modifier_Base' => 'Emoji_Modifier_Base',
    'EBase' => 'Emoji_Modifier_Base', 'Emoji_Presentation' => 'Emoji_Presentation', 'EPres' => 'Emoji_Presentation',
    'Extended_Pictographic' => 'Extended_Pictographic', 'ExtPict' => 'Extended_Pictographic',
    'Extender' => 'Extender', 'Ext' => 'Extender', 'Grapheme_Base' => 'Grapheme_Base', 'Gr_Base' => 'Grapheme_Base',
    'Grapheme_Extend' => 'Grapheme_Extend', 'Gr_Ext' => 'Grapheme_Extend', 'Hex_Digit' => 'Hex_Digit', 'Hex' => 'Hex_Digit',
    'IDS_Binary_Operator' => 'IDS_Binary_Operator', 'IDSB' => 'IDS_Binary_Operator',
    'IDS_Trinary_Operator' => 'IDS_Trinary_Operator', 'IDST' => 'IDS_Trinary_Operator',
    'ID_Continue' => 'ID_Continue', 'IDC' => 'ID_Continue', 'ID_Start' => 'ID_Start', 'IDS' => 'ID_Start',
    'Ideographic' => 'Ideographic', 'Ideo' => 'Ideographic', 'Join_Control' => 'Join_Control', 'Join_C' => 'Join_Control',
    'Logical_Order_Exception' => 'Logical_Order_Exception', 'LOE' => 'Logical_Order_Exception',
    'Lowercase' => 'Lowercase', 'Lower' => 'Lowercase', 'Math' => 'Math',
    'Noncharacter_Code_Point' => 'Noncharacter_Code_Point', 'NChar' => 'Noncharacter_Code_Point',
    'Pattern_Syntax' => 'Pattern_Syntax', 'Pat_Syn' => 'Pattern_Syntax', 'Pattern_White_Space' => 'Pattern_White_Space',
    'Pat_WS' => 'Pattern_White_Space', 'Quotation_Mark' => 'Quotation_Mark', 'QMark' => 'Quotation_Mark',
    'Radical' => 'Radical', 'Regional_Indicator' => 'Regional_Indicator', 'RI' => 'Regional_Indicator',
    'Sentence_Terminal' => 'Sentence_Terminal', 'STerm' => 'Sentence_Terminal', 'Soft_Dotted' => 'Soft_Dotted',
    'SD' => 'Soft_Dotted', 'Terminal_Punctuation' => 'Terminal_Punctuation', 'Term' => 'Terminal_Punctuation',
    'Unified_Ideograph' => 'Unified_Ideograph', 'UIdeo' => 'Unified_Ideograph', 'Uppercase' => 'Uppercase',
    'Upper' => 'Uppercase', 'Variation_Selector' => 'Variation_Selector', 'VS' => 'Variation_Selector',
    'White_Space' => 'White_Space', 'space' => 'White_Space', 'XID_Continue' => 'XID_Continue', 'XIDC' => 'XID_Continue',
    'XID_Start' => 'XID_Start', 'XIDS' => 'XID_Start',
  ];

  /**
   * Properties the reference normalizer refuses (its Unicode tables lack
   * them): a pattern with one is an invalid schema there, and here.
   */
  private const REFUSED = [
    'Bidi_Mirrored', 'Case_Ignorable', 'Changes_When_Casefolded', 'Changes_When_Casemapped',
    'Changes_When_Lowercased', 'Changes_When_NFKC_Casefolded', 'Changes_When_Titlecased',
    'Changes_When_Uppercased', 'Default_Ignorable_Code_Point', 'Emoji', 'Emoji_Component',
    'Emoji_Modifier', 'Emoji_Modifier_Base', 'Emoji_Presentation', 'Extended_Pictographic',
    'XID_Start', 'XID_Continue',
  ];

  /** @var int[] the pattern's code points */
  private array $c;
  private int $i = 0;
  private int $groups = 0;
  /** @var array<string, int> */
  private array $names = [];
  private bool $scanning = TRUE;

  private function __construct(string $pattern) {
    $this->c = array_map('mb_ord_blind', preg_split('//u', $pattern, -1, PREG_SPLIT_NO_EMPTY) ?: []);
  }

  /** @var array<string, string> */
  private static array $cache = [];

  /**
   * The PCRE2 pattern (delimited) for an ECMA-262 pattern.
   *
   * @throws BlindPatternError
   *   What ECMA-262 refuses.
   * @throws ToolnormUnsupported
   *   What ECMA-262 takes and PCRE2 cannot compile.
   */
  public static function translate(string $pattern): string {
    if (isset(self::$cache[$pattern])) {
      return self::$cache[$pattern];
    }
    // First the groups and their names (a backreference may come first).
    $scan = new self($pattern);
    $scan->disjunction();
    if ($scan->i < count($scan->c)) {
      $scan->fail($scan->peek() === 0x29 ? 'unmatched )' : 'unexpected character');
    }
    $p = new self($pattern);
    $p->scanning = FALSE;
    $p->names = $scan->names;
    $p->totalGroups = $scan->groups;
    $out = '/(*UTF)(*NO_JIT)' . $p->disjunction() . '/';
    if (@preg_match($out, '') === FALSE) {
      throw new BlindUnsupported('the ECMA-262 pattern ' . json_encode($pattern, JSON_UNESCAPED_UNICODE) . ' has no PCRE2 equivalent here (' . preg_last_error_msg() . ')');
    }
    return self::$cache[$pattern] = $out;
  }

  private int $totalGroups = 0;

  private function fail(string $why): never {
    throw new BlindPatternError("$why at character {$this->i}");
  }

  private function peek(int $k = 0): ?int {
    return $this->c[$this->i + $k] ?? NULL;
  }

  private function eat(int $ch): bool {
    if ($this->peek() === $ch) {
      $this->i++;
      return TRUE;
    }
    return FALSE;
  }

  private static function lit(int $cp): string {
    if (($cp >= 0x30 && $cp <= 0x39) || ($cp >= 0x41 && $cp <= 0x5A) || ($cp >= 0x61 && $cp <= 0x7A)) {
      return chr($cp);
    }
    if ($cp >= 0xD800 && $cp <= 0xDFFF) {
      // A lone surrogate: no UTF-8 string holds one.
      return '(?!)';
    }
    return sprintf('\x{%X}', $cp);
  }

  private function disjunction(): string {
    $out = $this->alternative();
    while ($this->eat(0x7C)) {
      $out .= '|' . $this->alternative();
    }
    return $out;
  }

  private function alternative(): string {
    $out = '';
    while (($ch = $this->peek()) !== NULL && $ch !== 0x7C && $ch !== 0x29) {
      $out .= $this->term();
    }
    return $out;
  }

  private function term(): string {
    $ch = $this->peek();
    // Assertions.
    if ($ch === 0x5E) {
      $this->i++;
      return $this->noQuantifier('^');
    }
    if ($ch === 0x24) {
      $this->i++;
      return $this->noQuantifier('\z');
    }
    if ($ch === 0x5C && ($this->peek(1) === 0x62 || $this->peek(1) === 0x42)) {
      $this->i += 2;
      return $this->noQuantifier($this->peek(-1) === 0x62 ? '\b' : '\B');
    }
    if ($ch === 0x28 && $this->peek(1) === 0x3F) {
      $k = $this->peek(2);
      $look = NULL;
      if ($k === 0x3D || $k === 0x21) {
        $look = $k === 0x3D ? '(?=' : '(?!';
        $this->i += 3;
      }
      elseif ($k === 0x3C && ($this->peek(3) === 0x3D || $this->peek(3) === 0x21)) {
        $look = $this->peek(3) === 0x3D ? '(?<=' : '(?<!';
        $this->i += 4;
      }
      if ($look !== NULL) {
        $inner = $this->disjunction();
        if (!$this->eat(0x29)) {
          $this->fail('unterminated group');
        }
        return $this->noQuantifier($look . $inner . ')');
      }
    }
    $atom = $this->atom();
    return $atom . $this->quantifier();
  }

  private function noQuantifier(string $s): string {
    $ch = $this->peek();
    if ($ch === 0x2A || $ch === 0x2B || $ch === 0x3F || ($ch === 0x7B && $this->isBraceQuantifier())) {
      $this->fail('nothing to repeat');
    }
    return $s;
  }

  private function isBraceQuantifier(): bool {
    $j = $this->i + 1;
    $digits = 0;
    while (($d = $this->c[$j] ?? NULL) !== NULL && $d >= 0x30 && $d <= 0x39) {
      $j++;
      $digits++;
    }
    if ($digits === 0) {
      return FALSE;
    }
    if (($this->c[$j] ?? NULL) === 0x2C) {
      $j++;
      while (($d = $this->c[$j] ?? NULL) !== NULL && $d >= 0x30 && $d <= 0x39) {
        $j++;
      }
    }
    return ($this->c[$j] ?? NULL) === 0x7D;
  }

  private function quantifier(): string {
    $ch = $this->peek();
    $q = '';
    if ($ch === 0x2A || $ch === 0x2B || $ch === 0x3F) {
      $this->i++;
      $q = chr($ch);
    }
    elseif ($ch === 0x7B) {
      if (!$this->isBraceQuantifier()) {
        $this->fail('lone {');
      }
      $this->i++;
      $min = $this->digits();
      $max = $min;
      if ($this->eat(0x2C)) {
        $max = $this->peek() === 0x7D ? NULL : $this->digits();
      }
      $this->i++;
      if ($max !== NULL && $this->compareDigits($min, $max) > 0) {
        $this->fail('numbers out of order in {} quantifier');
      }
      $q = '{' . $min . ($max === $min ? '' : ',' . ($max ?? '')) . '}';
    }
    else {
      return '';
    }
    if ($this->eat(0x3F)) {
      $q .= '?';
    }
    $ch = $this->peek();
    if ($ch === 0x2A || $ch === 0x2B || $ch === 0x3F || ($ch === 0x7B && $this->isBraceQuantifier())) {
      $this->fail('nothing to repeat');
    }
    return $q;
  }

  private function compareDigits(string $a, string $b): int {
    $a = ltrim($a, '0');
    $b = ltrim($b, '0');
    return strlen($a) <=> strlen($b) ?: strcmp($a, $b);
  }

  private function digits(): string {
    $s = '';
    while (($d = $this->peek()) !== NULL && $d >= 0x30 && $d <= 0x39) {
      $s .= chr($d);
      $this->i++;
    }
    $s = ltrim($s, '0');
    return $s === '' ? '0' : $s;
  }

  private function atom(): string {
    $ch = $this->peek();
    switch ($ch) {
      case 0x2E:
        $this->i++;
        return '[^\x{A}\x{D}\x{2028}\x{2029}]';

      case 0x5B:
        $this->i++;
        return $this->characterClass();

      case 0x28:
        $this->i++;
        if ($this->eat(0x3F)) {
          if ($this->eat(0x3A)) {
            $open = '(?:';
          }
          elseif ($this->eat(0x3C)) {
            $name = $this->groupName();
            if ($this->scanning) {
              if (isset($this->names[$name])) {
                $this->fail('duplicate group name');
              }
              $this->names[$name] = $this->groups + 1;
            }
            $this->groups++;
            $open = '(';
          }
          else {
            $this->fail('invalid group');
          }
        }
        else {
          $this->groups++;
          $open = '(';
        }
        $inner = $this->disjunction();
        if (!$this->eat(0x29)) {
          $this->fail('unterminated group');
        }
        return $open . $inner . ')';

      case 0x5C:
        $this->i++;
        return $this->atomEscape();

      case 0x2A:
      case 0x2B:
      case 0x3F:
        $this->fail('nothing to repeat');

      case 0x7B:
        $this->fail('lone {');

      case 0x7D:
        $this->fail('lone }');

      case 0x5D:
        $this->fail('lone ]');

      case 0x29:
        $this->fail('unmatched )');
    }
    $this->i++;
    return self::lit($ch);
  }

  private function groupName(): string {
    $name = '';
    for (;;) {
      $ch = $this->peek();
      if ($ch === NULL) {
        $this->fail('unterminated group name');
      }
      $this->i++;
      if ($ch === 0x3E) {
        break;
      }
      if ($ch === 0x5C) {
        if (!$this->eat(0x75)) {
          $this->fail('invalid group name');
        }
        $ch = $this->unicodeEscape();
      }
      $first = $name === '';
      $ok = $ch === 0x24 || $ch === 0x5F || preg_match($first ? '/^\p{ID_Start}$/u' : '/^[\p{ID_Continue}\x{200C}\x{200D}]$/u', BlindEntities::utf8($ch));
      if (!$ok) {
        $this->fail('invalid group name');
      }
      $name .= BlindEntities::utf8($ch);
    }
    if ($name === '') {
      $this->fail('empty group name');
    }
    return $name;
  }

  /**
   * After "\u": the code point of \uXXXX (a surrogate pair as one), or of
   * \u{X...}.
   */
  private function unicodeEscape(): int {
    if ($this->eat(0x7B)) {
      $v = 0;
      $n = 0;
      while (($h = $this->hexValue($this->peek())) !== NULL) {
        $v = min($v * 16 + $h, 0x110000);
        $n++;
        $this->i++;
      }
      if ($n === 0 || !$this->eat(0x7D) || $v > 0x10FFFF) {
        $this->fail('invalid unicode escape');
      }
      return $v;
    }
    $v = $this->hex4();
    if ($v >= 0xD800 && $v <= 0xDBFF && $this->peek() === 0x5C && $this->peek(1) === 0x75) {
      $save = $this->i;
      $this->i += 2;
      $lo = $this->hex4(TRUE);
      if ($lo !== NULL && $lo >= 0xDC00 && $lo <= 0xDFFF) {
        return 0x10000 + (($v - 0xD800) << 10) + ($lo - 0xDC00);
      }
      $this->i = $save;
    }
    return $v;
  }

  private function hex4(bool $soft = FALSE): ?int {
    $v = 0;
    for ($k = 0; $k < 4; $k++) {
      $h = $this->hexValue($this->peek());
      if ($h === NULL) {
        if ($soft) {
          return NULL;
        }
        $this->fail('invalid unicode escape');
      }
      $v = $v * 16 + $h;
      $this->i++;
    }
    return $v;
  }

  private function hexValue(?int $ch): ?int {
    if ($ch === NULL) {
      return NULL;
    }
    if ($ch >= 0x30 && $ch <= 0x39) {
      return $ch - 0x30;
    }
    if ($ch >= 0x41 && $ch <= 0x46) {
      return $ch - 0x37;
    }
    if ($ch >= 0x61 && $ch <= 0x66) {
      return $ch - 0x57;
    }
    return NULL;
  }

  private function atomEscape(): string {
    $ch = $this->peek();
    if ($ch === NULL) {
      $this->fail('\\ at end of pattern');
    }
    if ($ch >= 0x31 && $ch <= 0x39) {
      $n = $this->digits();
      if (!$this->scanning && (int) $n > $this->totalGroups) {
        $this->fail('invalid escape (a backreference to no group)');
      }
      return "(?($n)\\g{{$n}}|)";
    }
    if ($ch === 0x6B) {
      $this->i++;
      if (!$this->eat(0x3C)) {
        $this->fail('invalid named reference');
      }
      $name = $this->groupName();
      if ($this->scanning) {
        return '';
      }
      if (!isset($this->names[$name])) {
        $this->fail('invalid named reference');
      }
      $n = $this->names[$name];
      return "(?($n)\\g{{$n}}|)";
    }
    $set = $this->classEscape();
    if ($set !== NULL) {
      return '[' . $set . ']';
    }
    return self::lit($this->characterEscape());
  }

  /**
   * \d \D \s \S \w \W \p{} \P{} after the "\": the inside of a PCRE class,
   * or NULL (nothing consumed) for another escape.
   */
  private function classEscape(): ?string {
    $ch = $this->peek();
    $sets = [0x64 => self::DIGIT, 0x44 => self::NOT_DIGIT, 0x73 => self::SPACE, 0x53 => self::NOT_SPACE, 0x77 => self::WORD, 0x57 => self::NOT_WORD];
    if (isset($sets[$ch])) {
      $this->i++;
      return $sets[$ch];
    }
    if ($ch === 0x70 || $ch === 0x50) {
      $this->i++;
      if (!$this->eat(0x7B)) {
        $this->fail('invalid property name');
      }
      $text = '';
      while (($c = $this->peek()) !== NULL && $c !== 0x7D) {
        $text .= BlindEntities::utf8($c);
        $this->i++;
      }
      if (!$this->eat(0x7D)) {
        $this->fail('invalid property name');
      }
      return $this->property($text, $ch === 0x50);
    }
    return NULL;
  }

  private function property(string $text, bool $negated): string {
    $p = $negated ? '\P' : '\p';
    if (preg_match('/^([A-Za-z_]+)=([A-Za-z0-9_]+)$/', $text, $m)) {
      if ($m[1] === 'General_Category' || $m[1] === 'gc') {
        if (!isset(self::GENERAL_CATEGORY[$m[2]])) {
          $this->fail('invalid property name');
        }
        return $p . '{' . self::GENERAL_CATEGORY[$m[2]] . '}';
      }
      if ($m[1] === 'Script' || $m[1] === 'sc') {
        if (@preg_match('/(*UTF)\p{sc:' . $m[2] . '}/', '') === FALSE || strtolower($m[2]) !== strtolower(str_replace(['-', ' '], '', $m[2]))) {
          $this->fail('invalid property value');
        }
        return $p . '{sc:' . $m[2] . '}';
      }
      if ($m[1] === 'Script_Extensions' || $m[1] === 'scx') {
        throw new BlindPatternError('the property Script_Extensions is not supported (the reference refuses it)');
      }
      $this->fail('invalid property name');
    }
    if (isset(self::GENERAL_CATEGORY[$text])) {
      return $p . '{' . self::GENERAL_CATEGORY[$text] . '}';
    }
    if (!isset(self::BINARY[$text])) {
      $this->fail('invalid property name');
    }
    $name = self::BINARY[$text];
    if (in_array($name, self::REFUSED, TRUE)) {
      throw new BlindPatternError("the property $name is not supported (the reference refuses it)");
    }
    return match ($name) {
      'ASCII' => $negated ? '\x{80}-\x{10FFFF}' : '\x{0}-\x{7F}',
      'Any' => $negated ? '' : '\x{0}-\x{10FFFF}',
      'Assigned' => $negated ? '\p{Cn}' : '\P{Cn}',
      default => $p . '{' . $name . '}',
    };
  }

  /**
   * A character escape after the "\" (outside or inside a class): its code
   * point.
   */
  private function characterEscape(bool $inClass = FALSE): int {
    $ch = $this->peek();
    $this->i++;
    switch ($ch) {
      case 0x66:
        return 0x0C;

      case 0x6E:
        return 0x0A;

      case 0x72:
        return 0x0D;

      case 0x74:
        return 0x09;

      case 0x76:
        return 0x0B;

      case 0x63:
        $l = $this->peek();
        if ($l !== NULL && (($l >= 0x41 && $l <= 0x5A) || ($l >= 0x61 && $l <= 0x7A))) {
          $this->i++;
          return $l % 32;
        }
        $this->fail('invalid escape \\c');

      case 0x30:
        $d = $this->peek();
        if ($d !== NULL && $d >= 0x30 && $d <= 0x39) {
          $this->fail('invalid decimal escape');
        }
        return 0;

      case 0x78:
        $a = $this->hexValue($this->peek());
        $b = $this->hexValue($this->peek(1));
        if ($a === NULL || $b === NULL) {
          $this->fail('invalid escape \\x');
        }
        $this->i += 2;
        return $a * 16 + $b;

      case 0x75:
        return $this->unicodeEscape();

      case 0x2F:
        return $ch;
    }
    if ($ch !== NULL && $ch < 0x80 && str_contains(self::SYNTAX, chr($ch))) {
      return $ch;
    }
    if ($inClass && $ch === 0x2D) {
      return $ch;
    }
    $this->i--;
    $this->fail('invalid escape');
  }

  private function characterClass(): string {
    $negated = $this->eat(0x5E);
    $items = '';
    for (;;) {
      $ch = $this->peek();
      if ($ch === NULL) {
        $this->fail('unterminated character class');
      }
      if ($ch === 0x5D) {
        $this->i++;
        break;
      }
      [$a, $set] = $this->classAtom();
      if ($this->peek() === 0x2D && $this->peek(1) !== NULL && $this->peek(1) !== 0x5D) {
        $this->i++;
        [$b, $set2] = $this->classAtom();
        if ($set !== NULL || $set2 !== NULL) {
          $this->fail('invalid character class range');
        }
        if ($a > $b) {
          $this->fail('range out of order in character class');
        }
        $items .= self::range($a, $b);
        continue;
      }
      $items .= $set ?? self::range($a, $a);
    }
    if ($items === '') {
      // [] matches nothing, [^] anything (an empty range list).
      return $negated ? '[\x{0}-\x{10FFFF}]' : '(?!)';
    }
    return '[' . ($negated ? '^' : '') . $items . ']';
  }

  /**
   * A range of code points, as the inside of a PCRE class, without
   * surrogates.
   */
  private static function range(int $a, int $b): string {
    $parts = [];
    if ($a < 0xD800) {
      $parts[] = [$a, min($b, 0xD7FF)];
    }
    if ($b > 0xDFFF) {
      $parts[] = [max($a, 0xE000), $b];
    }
    $out = '';
    foreach ($parts as [$x, $y]) {
      $out .= $x === $y ? sprintf('\x{%X}', $x) : sprintf('\x{%X}-\x{%X}', $x, $y);
    }
    return $out;
  }

  /**
   * @return array
   *   [code point, NULL] or [0, the inside of a PCRE class].
   */
  private function classAtom(): array {
    $ch = $this->peek();
    $this->i++;
    if ($ch !== 0x5C) {
      return [$ch, NULL];
    }
    $e = $this->peek();
    if ($e === 0x62) {
      $this->i++;
      return [0x08, NULL];
    }
    if ($e === 0x2D) {
      $this->i++;
      return [0x2D, NULL];
    }
    $set = $this->classEscape();
    if ($set !== NULL) {
      return [0, $set];
    }
    if ($e !== NULL && $e >= 0x31 && $e <= 0x39) {
      $this->fail('invalid class escape');
    }
    return [$this->characterEscape(TRUE), NULL];
  }

}

function mb_ord_blind(string $ch): int {
  $b = array_values(unpack('C*', $ch));
  return match (count($b)) {
    1 => $b[0],
    2 => (($b[0] & 0x1F) << 6) | ($b[1] & 0x3F),
    3 => (($b[0] & 0x0F) << 12) | (($b[1] & 0x3F) << 6) | ($b[2] & 0x3F),
    default => (($b[0] & 0x07) << 18) | (($b[1] & 0x3F) << 12) | (($b[2] & 0x3F) << 6) | ($b[3] & 0x3F),
  };
}
