<?php

/**
 * @file
 * RT-TOOL-8: a model's tool arguments, normalized against the tool's own
 * JSON Schema.
 *
 *   blind_normalize($schema, $arguments)
 *
 * takes both as json_decode($json) gives them (objects as stdClass) and
 * returns the arguments repaired: a string holding the JSON array or object
 * the schema declares there is decoded, and HTML character references in
 * every string are decoded until nothing changes. Keys, member order and
 * everything else are left as they are.
 */

declare(strict_types=1);

require_once __DIR__ . '/Entities.php';
require_once __DIR__ . '/Json.php';
require_once __DIR__ . '/Uri.php';
require_once __DIR__ . '/Ecma.php';
require_once __DIR__ . '/Schema.php';

/**
 * Input this PHP code cannot hold as it was sent.
 */
final class BlindUnsupported extends RuntimeException {}

/**
 * Arguments the rule rejects.
 */
final class BlindInputError extends RuntimeException {}

const BLIND_MAX_DEPTH = 1000;

/**
 * The switches of BLIND_SWITCHES (comma-separated): alternative code paths.
 */
function blind_switches(): array {
  static $switches = NULL;
  if ($switches === NULL) {
    $known = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'];
    $switches = [];
    foreach (preg_split('/\s*,\s*/', trim((string) getenv('BLIND_SWITCHES')), -1, PREG_SPLIT_NO_EMPTY) as $s) {
      if (!in_array($s, $known, TRUE)) {
        throw new InvalidArgumentException("BLIND_SWITCHES: unknown switch \"$s\" (known: " . implode(', ', $known) . ')');
      }
      $switches[$s] = TRUE;
    }
  }
  return $switches;
}

function blind_normalize(mixed $schema, mixed $arguments): mixed {
  ini_set('serialize_precision', '-1');
  BlindEntities::configure(blind_switches());
  $normalizer = new BlindNormalizer(new BlindSchema($schema, blind_switches()), blind_switches());
  return $normalizer->arguments($arguments);
}

final class BlindNormalizer {

  public function __construct(private readonly BlindSchema $schema, private readonly array $switches = []) {}

  public function arguments(mixed $arguments): mixed {
    if (!($arguments instanceof stdClass)) {
      throw new BlindInputError('the arguments must be a JSON object, not ' . get_debug_type($arguments));
    }
    return $this->value($arguments, [['n', $this->schema->root, $this->schema->rootScope()]], 1);
  }

  /**
   * @param mixed $value
   *   The value at a position.
   * @param array $position
   *   What the schema declares there.
   * @param int $depth
   *   How deeply an array or object there nests (the arguments: 1).
   */
  private function value(mixed $value, array $position, int $depth): mixed {
    if (is_string($value)) {
      return $this->string($value, $position, $depth);
    }
    if (is_array($value)) {
      $this->deep($depth);
      foreach ($value as $i => $item) {
        $value[$i] = $this->value($item, $position ? $this->schema->child($position, 'array', $i) : [], $depth + 1);
      }
      return $value;
    }
    if ($value instanceof stdClass) {
      $this->deep($depth);
      $members = get_object_vars($value);
      if (isset($this->switches['s6'])) {
        $members = $this->declaredFirst($members, $position);
      }
      if (isset($this->switches['s3'])) {
        return (object) array_merge([], ...array_map(
          fn ($key, $member) => [$key => $this->value($member, $position ? $this->schema->child($position, 'object', (string) $key) : [], $depth + 1)],
          array_keys($members),
          array_values($members),
        ));
      }
      foreach ($members as $key => $member) {
        $members[$key] = $this->value($member, $position ? $this->schema->child($position, 'object', (string) $key) : [], $depth + 1);
      }
      return (object) $members;
    }
    return $value;
  }

  /**
   * s6: the members the schema lists, in its order, then the others.
   */
  private function declaredFirst(array $members, array $position): array {
    $out = [];
    foreach ($position as $item) {
      if ($item[0] === 'n' && is_object($item[1]) && isset($item[1]->properties) && is_object($item[1]->properties)) {
        foreach (get_object_vars($item[1]->properties) as $name => $_) {
          if (array_key_exists($name, $members) && !array_key_exists($name, $out)) {
            $out[$name] = $members[$name];
          }
        }
      }
    }
    return $out + $members;
  }

  private function deep(int $depth): void {
    if ($depth > BLIND_MAX_DEPTH) {
      throw new BlindInputError('nesting too deep: more than ' . BLIND_MAX_DEPTH . ' nested arrays and objects');
    }
  }

  private function string(string $s, array $position, int $depth): mixed {
    $types = $position ? $this->schema->positionTypes($position) : NULL;
    if (isset($this->switches['s1']) && isset($types['string']) && $this->outsideStringKeywords($s, $position)) {
      // s1: the string's own keywords rule the string out.
      unset($types['string']);
    }
    $want = self::shapes($types);
    if ($want !== NULL) {
      $decoded = $this->json($s, $want, $depth);
      if ($decoded !== NULL) {
        return $this->value($decoded[0], $position, $depth);
      }
    }
    $text = BlindEntities::decode($s);
    if ($want !== NULL && $text !== $s) {
      $decoded = $this->json($text, $want, $depth);
      if ($decoded !== NULL) {
        return $this->value($decoded[0], $position, $depth);
      }
    }
    return $text;
  }

  /**
   * Whether $s fails a string keyword beside the type at $position.
   */
  private function outsideStringKeywords(string $s, array $position): bool {
    foreach ($position as $item) {
      if ($item[0] !== 'n' || !is_object($item[1])) {
        continue;
      }
      $v = get_object_vars($item[1]);
      $length = preg_match_all('/./us', $s);
      if ((is_int($v['maxLength'] ?? NULL) && $length > $v['maxLength'])
        || (is_int($v['minLength'] ?? NULL) && $length < $v['minLength'])
        || (is_array($v['enum'] ?? NULL) && !in_array($s, $v['enum'], TRUE))
        || (array_key_exists('const', $v) && $v['const'] !== $s)
        || (is_string($v['pattern'] ?? NULL) && !preg_match(BlindEcma::translate($v['pattern']), $s))) {
        return TRUE;
      }
    }
    return FALSE;
  }

  /**
   * The shapes a string may be decoded into where $types are declared:
   * NULL when none (a string is among them, or nothing is known).
   */
  private static function shapes(?array $types): ?array {
    if ($types === NULL || isset($types['string'])) {
      return NULL;
    }
    $want = array_intersect_key($types, ['array' => TRUE, 'object' => TRUE]);
    return $want ?: NULL;
  }

  /**
   * The JSON $s holds, when it is of a shape in $want: [value], or NULL.
   */
  private function json(string $s, array $want, int $depth): ?array {
    $parsed = BlindJson::parse(isset($this->switches['s5']) ? trim($s) : $s);
    if ($parsed === NULL) {
      return NULL;
    }
    [$value, $nesting, $lost] = $parsed;
    $shape = is_array($value) ? 'array' : ($value instanceof stdClass ? 'object' : NULL);
    if ($shape === NULL || !isset($want[$shape])) {
      return NULL;
    }
    $this->deep($depth + $nesting - 1);
    if ($lost !== NULL) {
      throw new BlindUnsupported($lost);
    }
    return [$value];
  }

}
