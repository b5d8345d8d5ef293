<?php

/**
 * @file
 * What a tool's JSON Schema declares at each position of the arguments.
 *
 * A position is a list of items that all apply: ['n', schema] or
 * ['or', [position, ...]] (the branches of an anyOf/oneOf that admit the
 * value there, as alternatives).
 */

declare(strict_types=1);

final class BlindSchemaError extends RuntimeException {}

final class BlindSchema {

  public const TYPES = ['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'];

  /** Keywords whose values are schemas, for finding identifiers. */
  private const ONE = ['additionalProperties', 'additionalItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'items'];
  private const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
  private const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

  /** @var array<int, array{0: string, 1: int}> object id => [base URI, draft] */
  private array $info = [];
  /** @var array<string, object|bool> */
  private array $resources = [];
  /** @var array<string, object|bool> */
  private array $anchors = [];
  /** @var array<int, bool> */
  private array $compiled = [];
  /** @var array<int, object|bool[]> object id => targets of $ref, $dynamicRef, $recursiveRef */
  private array $targets = [];
  /** @var array<string, bool> states (schema and scope) on a cycle */
  private array $cyclic = [];
  /** @var array<string, array<string, object>> resource URI => its dynamic anchors */
  private array $resourceDynamic = [];
  /** @var array<string, object> resource URI => its root, with "$recursiveAnchor": true */
  private array $resourceRecursive = [];
  /** Whether any dynamic anchor exists: the scope then matters. */
  private bool $dynamic = FALSE;
  /** @var array<int, ?array> */
  private array $typeMemo = [];
  /** @var object[] every object compiled, kept alive so its id stays its own */
  private array $nodes = [];

  public function __construct(public readonly mixed $root, private readonly array $switches = []) {
    if (!is_object($root) && !is_bool($root)) {
      throw new BlindSchemaError('a schema must be an object or a boolean, not ' . get_debug_type($root) . ' at (root)');
    }
    $base = '';
    if (is_object($root)) {
      $this->discover($root, '', 2020, TRUE);
      $base = $this->info[spl_object_id($root)][0];
    }
    $this->resources[$base] ??= $root;
    $this->resources[''] ??= $root;
    $this->compile($root, '');
  }

  private static function draftOf(string $uri): ?int {
    $u = rtrim((string) preg_replace('~^https?://~', '', $uri), '#');
    return match ($u) {
      'json-schema.org/draft-04/schema' => 4,
      'json-schema.org/draft-06/schema' => 6,
      'json-schema.org/draft-07/schema' => 7,
      'json-schema.org/draft/2019-09/schema' => 2019,
      'json-schema.org/draft/2020-12/schema' => 2020,
      default => NULL,
    };
  }

  /**
   * Finds the identifiers and anchors below $node, and the base URI and
   * draft each schema is read under.
   */
  private function discover(mixed $node, string $base, int $draft, bool $root): void {
    if (!is_object($node)) {
      return;
    }
    $oid = spl_object_id($node);
    if (isset($this->info[$oid])) {
      return;
    }
    $v = get_object_vars($node);
    if (isset($v['$schema']) && is_string($v['$schema']) && ($root || isset($v['$id']) || isset($v['id']))) {
      $draft = self::draftOf($v['$schema']) ?? $draft;
    }
    $idKey = $draft === 4 ? 'id' : '$id';
    if (isset($v[$idKey]) && is_string($v[$idKey]) && !($draft <= 7 && array_key_exists('$ref', $v))) {
      [$uri, $fragment] = BlindUri::split(BlindUri::resolve($base, $v[$idKey]));
      if ($fragment !== NULL && $fragment !== '' && $draft <= 7) {
        $this->anchors[$uri . '#' . $fragment] ??= $node;
      }
      if ($uri !== $base || $root) {
        $base = $uri;
        $this->resources[$uri] ??= $node;
      }
    }
    if ($root) {
      $this->resources[$base] ??= $node;
    }
    if ($draft >= 2019 && isset($v['$anchor']) && is_string($v['$anchor'])) {
      $this->anchors[$base . '#' . $v['$anchor']] ??= $node;
    }
    if ($draft >= 2020 && isset($v['$dynamicAnchor']) && is_string($v['$dynamicAnchor'])) {
      $this->anchors[$base . '#' . $v['$dynamicAnchor']] ??= $node;
      $this->resourceDynamic[$base][$v['$dynamicAnchor']] ??= $node;
      $this->dynamic = TRUE;
    }
    if ($draft === 2019 && ($v['$recursiveAnchor'] ?? NULL) === TRUE && ($this->resources[$base] ?? NULL) === $node) {
      $this->resourceRecursive[$base] = $node;
      $this->dynamic = TRUE;
    }
    $this->info[$oid] = [$base, $draft];
    $this->nodes[] = $node;
    foreach (self::ONE as $k) {
      if (isset($v[$k]) && is_object($v[$k])) {
        $this->discover($v[$k], $base, $draft, FALSE);
      }
    }
    foreach (self::MAP as $k) {
      if (isset($v[$k]) && is_object($v[$k])) {
        foreach (get_object_vars($v[$k]) as $sub) {
          $this->discover($sub, $base, $draft, FALSE);
        }
      }
    }
    foreach (self::LIST as $k) {
      if (isset($v[$k]) && is_array($v[$k])) {
        foreach ($v[$k] as $sub) {
          $this->discover($sub, $base, $draft, FALSE);
        }
      }
    }
  }

  private static function kind(mixed $x): string {
    return match (TRUE) {
      $x === NULL => 'null',
      is_bool($x) => 'a boolean',
      is_int($x), is_float($x) => 'a number',
      is_string($x) => 'a string',
      is_array($x) => 'an array',
      default => 'an object',
    };
  }

  private function compile(mixed $node, string $at): void {
    if (is_bool($node)) {
      return;
    }
    if (!is_object($node)) {
      throw new BlindSchemaError('a schema must be an object or a boolean, not ' . self::kind($node) . ' at ' . ($at === '' ? '(root)' : $at));
    }
    $oid = spl_object_id($node);
    if (isset($this->compiled[$oid])) {
      return;
    }
    $this->compiled[$oid] = TRUE;
    [$base, $draft] = $this->info[$oid];
    $v = get_object_vars($node);
    if ($draft <= 7 && array_key_exists('$ref', $v)) {
      // Drafts 4 to 7 ignore what stands beside $ref, but for the
      // definitions it may point into.
      $v = array_intersect_key($v, ['$ref' => TRUE, '$defs' => TRUE, 'definitions' => TRUE]);
    }
    if (array_key_exists('type', $v)) {
      foreach (is_array($v['type']) ? $v['type'] : [$v['type']] as $t) {
        if (!is_string($t)) {
          throw new BlindSchemaError("a type must be a string, not " . self::kind($t) . " at $at/type");
        }
        if (!in_array($t, self::TYPES, TRUE)) {
          throw new BlindSchemaError("unknown type \"$t\" at $at/type");
        }
      }
      if (array_key_exists('nullable', $v) && !is_bool($v['nullable'])) {
        throw new BlindSchemaError("nullable must be a boolean, not " . self::kind($v['nullable']) . " at $at/nullable");
      }
    }
    foreach (['properties', 'patternProperties', '$defs', 'definitions'] as $k) {
      if (!array_key_exists($k, $v)) {
        continue;
      }
      if (!is_object($v[$k])) {
        throw new BlindSchemaError("$k must be an object, not " . self::kind($v[$k]) . " at $at/$k");
      }
      foreach (get_object_vars($v[$k]) as $name => $sub) {
        if ($k === 'patternProperties') {
          try {
            BlindEcma::translate((string) $name);
          }
          catch (BlindPatternError $e) {
            throw new BlindSchemaError('pattern ' . json_encode((string) $name, JSON_UNESCAPED_UNICODE) . ' is not an ECMA-262 regular expression (u flag): ' . $e->getMessage() . " at $at/$k/$name");
          }
        }
        $this->compile($sub, "$at/$k/" . self::escape((string) $name));
      }
    }
    foreach (['additionalProperties', 'additionalItems'] as $k) {
      if (array_key_exists($k, $v)) {
        $this->compile($v[$k], "$at/$k");
      }
    }
    if (array_key_exists('items', $v)) {
      if (is_array($v['items'])) {
        foreach ($v['items'] as $i => $sub) {
          $this->compile($sub, "$at/items/$i");
        }
      }
      else {
        $this->compile($v['items'], "$at/items");
      }
    }
    foreach (['prefixItems', 'allOf', 'anyOf', 'oneOf'] as $k) {
      if (!array_key_exists($k, $v)) {
        continue;
      }
      if (!is_array($v[$k])) {
        throw new BlindSchemaError("$k must be an array, not " . self::kind($v[$k]) . " at $at/$k");
      }
      if ($v[$k] === [] && $k !== 'prefixItems') {
        throw new BlindSchemaError("$k must not be empty at $at/$k");
      }
      foreach ($v[$k] as $i => $sub) {
        $this->compile($sub, "$at/$k/$i");
      }
    }
    $refs = ['$ref' => TRUE, '$dynamicRef' => $draft >= 2020, '$recursiveRef' => $draft === 2019];
    foreach ($refs as $k => $applies) {
      if (!$applies || !array_key_exists($k, $v)) {
        continue;
      }
      if (!is_string($v[$k])) {
        throw new BlindSchemaError("$k must be a string, not " . self::kind($v[$k]) . " at $at/$k");
      }
      $target = $this->resolve($v[$k], $base, "$at/$k");
      $this->targets[$oid][$k] = $target;
      $this->compile($target, "$at/$k");
    }
  }

  private static function escape(string $token): string {
    return strtr($token, ['~' => '~0', '/' => '~1']);
  }

  /**
   * The schema a reference names.
   */
  private function resolve(string $ref, string $base, string $at): mixed {
    [$uri, $fragment] = BlindUri::split(BlindUri::resolve($base, $ref));
    if (!array_key_exists($uri, $this->resources)) {
      throw new BlindSchemaError("\$ref \"$ref\" does not resolve: $uri is another document, and none was supplied for it at $at");
    }
    $node = $this->resources[$uri];
    if ($fragment === NULL || $fragment === '') {
      return $node;
    }
    $fragment = rawurldecode($fragment);
    if ($fragment[0] !== '/') {
      if (!array_key_exists($uri . '#' . $fragment, $this->anchors)) {
        throw new BlindSchemaError("\$ref \"$ref\" does not resolve: no anchor \"$fragment\" at $at");
      }
      return $this->anchors[$uri . '#' . $fragment];
    }
    [$b, $d] = is_object($node) ? $this->info[spl_object_id($node)] : [$uri, 2020];
    foreach (explode('/', substr($fragment, 1)) as $token) {
      $token = strtr($token, ['~1' => '/', '~0' => '~']);
      if (is_object($node)) {
        $members = get_object_vars($node);
        if (!array_key_exists($token, $members)) {
          throw new BlindSchemaError("\$ref \"$ref\" does not resolve: no member \"$token\" at $at");
        }
        $node = $members[$token];
      }
      elseif (is_array($node) && preg_match('/^(0|[1-9][0-9]*)$/', $token) && (int) $token < count($node)) {
        $node = $node[(int) $token];
      }
      else {
        throw new BlindSchemaError("\$ref \"$ref\" does not resolve: no member \"$token\" at $at");
      }
      if (is_object($node) && isset($this->info[spl_object_id($node)])) {
        [$b, $d] = $this->info[spl_object_id($node)];
      }
    }
    if (is_object($node) && !isset($this->info[spl_object_id($node)])) {
      $this->discover($node, $b, $d, FALSE);
    }
    return $node;
  }

  /**
   * The scope a walk has after entering $node: the dynamic anchors bound
   * so far (the outermost resource that has each), and the outermost
   * resource with "$recursiveAnchor": true.
   */
  public function enter(array $scope, mixed $node): array {
    if (!$this->dynamic || !is_object($node)) {
      return $scope;
    }
    $uri = $this->info[spl_object_id($node)][0];
    $changed = FALSE;
    foreach ($this->resourceDynamic[$uri] ?? [] as $name => $anchor) {
      if (!isset($scope['d'][$name])) {
        $scope['d'][$name] = $anchor;
        $changed = TRUE;
      }
    }
    if (!isset($scope['r']) && isset($this->resourceRecursive[$uri])) {
      $scope['r'] = $this->resourceRecursive[$uri];
      $changed = TRUE;
    }
    if ($changed) {
      ksort($scope['d']);
      $key = '';
      foreach ($scope['d'] as $name => $anchor) {
        $key .= $name . '=' . spl_object_id($anchor) . ';';
      }
      $scope['k'] = $key . (isset($scope['r']) ? 'r=' . spl_object_id($scope['r']) : '');
    }
    return $scope;
  }

  public function rootScope(): array {
    return $this->enter(['d' => [], 'k' => ''], $this->root);
  }

  /**
   * What the references of $node name under $scope: [schema, scope] pairs.
   */
  private function referenced(object $node, array $scope): array {
    $oid = spl_object_id($node);
    $out = [];
    foreach ($this->targets[$oid] ?? [] as $k => $target) {
      if ($k === '$dynamicRef' && is_object($target)) {
        $name = (string) BlindUri::split($node->{'$dynamicRef'})[1];
        if (($target->{'$dynamicAnchor'} ?? NULL) === $name && isset($scope['d'][$name])) {
          $target = $scope['d'][$name];
        }
      }
      elseif ($k === '$recursiveRef' && is_object($target)) {
        if (($target->{'$recursiveAnchor'} ?? NULL) === TRUE && isset($scope['r'])) {
          $target = $scope['r'];
        }
      }
      $out[] = [$target, $this->enter($scope, $target)];
    }
    return $out;
  }

  /**
   * Whether $node reads its siblings of $ref (drafts 4 to 7 do not).
   */
  private function onlyRef(int $oid, array $v): bool {
    return $this->info[$oid][1] <= 7 && array_key_exists('$ref', $v);
  }

  /**
   * The schemas $node applies in place: [schema, scope] pairs.
   */
  private function inPlace(object $node, array $scope): array {
    $oid = spl_object_id($node);
    $v = get_object_vars($node);
    if ($this->onlyRef($oid, $v)) {
      return array_slice($this->referenced($node, $scope), 0, 1);
    }
    $out = $this->referenced($node, $scope);
    foreach (['allOf', 'anyOf', 'oneOf'] as $k) {
      foreach ($v[$k] ?? [] as $sub) {
        $out[] = [$sub, $this->enter($scope, $sub)];
      }
    }
    return $out;
  }

  /**
   * Whether $node is on a cycle of $ref/allOf/anyOf/oneOf under $scope (a
   * return to the same schema with the same bindings): then it declares
   * nothing. Tarjan's strongly connected components, found lazily.
   */
  private function cyclic(object $node, array $scope): bool {
    $state = spl_object_id($node) . '|' . $scope['k'];
    if (!isset($this->index[$state])) {
      $this->tarjan($node, $scope);
    }
    return isset($this->cyclic[$state]);
  }

  private array $index = [];
  private array $low = [];
  private array $onStack = [];
  private array $stack = [];
  private int $counter = 0;

  private function tarjan(object $node, array $scope): void {
    $state = spl_object_id($node) . '|' . $scope['k'];
    $this->index[$state] = $this->low[$state] = $this->counter++;
    $this->stack[] = $state;
    $this->onStack[$state] = TRUE;
    foreach ($this->inPlace($node, $scope) as [$target, $tscope]) {
      if (!is_object($target)) {
        continue;
      }
      $t = spl_object_id($target) . '|' . $tscope['k'];
      if ($t === $state) {
        $this->cyclic[$state] = TRUE;
      }
      if (!isset($this->index[$t])) {
        $this->tarjan($target, $tscope);
        $this->low[$state] = min($this->low[$state], $this->low[$t]);
      }
      elseif (!empty($this->onStack[$t])) {
        $this->low[$state] = min($this->low[$state], $this->index[$t]);
      }
    }
    if ($this->low[$state] === $this->index[$state]) {
      $component = [];
      do {
        $w = array_pop($this->stack);
        $this->onStack[$w] = FALSE;
        $component[] = $w;
      } while ($w !== $state);
      if (count($component) > 1) {
        foreach ($component as $w) {
          $this->cyclic[$w] = TRUE;
        }
      }
    }
  }

  /**
   * The types a schema declares under $scope: NULL for none known, else a
   * set.
   */
  public function types(mixed $node, array $scope): ?array {
    if ($node === TRUE) {
      return NULL;
    }
    if ($node === FALSE) {
      return [];
    }
    $oid = spl_object_id($node);
    $state = $oid . '|' . $scope['k'];
    if (array_key_exists($state, $this->typeMemo)) {
      return $this->typeMemo[$state];
    }
    if ($this->cyclic($node, $scope)) {
      return $this->typeMemo[$state] = NULL;
    }
    $v = get_object_vars($node);
    $r = NULL;
    if (!$this->onlyRef($oid, $v)) {
      if (array_key_exists('type', $v)) {
        $r = [];
        foreach ((array) $v['type'] as $t) {
          $r[$t] = TRUE;
        }
        if (($v['nullable'] ?? NULL) === TRUE) {
          $r['null'] = TRUE;
        }
      }
      foreach ($v['allOf'] ?? [] as $sub) {
        $r = self::inter($r, $this->types($sub, $this->enter($scope, $sub)));
      }
      foreach (['anyOf', 'oneOf'] as $k) {
        if (isset($v[$k])) {
          $u = [];
          foreach ($v[$k] as $sub) {
            $t = $this->types($sub, $this->enter($scope, $sub));
            if ($t === NULL) {
              $u = NULL;
              break;
            }
            $u += $t;
          }
          // s7: the alternatives say what the position holds.
          $r = isset($this->switches['s7']) ? ($u ?? $r) : self::inter($r, $u);
        }
      }
    }
    foreach ($this->onlyRef($oid, $v) ? array_slice($this->referenced($node, $scope), 0, 1) : $this->referenced($node, $scope) as [$target, $tscope]) {
      $r = self::inter($r, $this->types($target, $tscope));
    }
    return $this->typeMemo[$state] = $r;
  }

  public static function inter(?array $a, ?array $b): ?array {
    if ($a === NULL) {
      return $b;
    }
    if ($b === NULL) {
      return $a;
    }
    $out = [];
    foreach ($a as $t => $_) {
      if (isset($b[$t])) {
        $out[$t] = TRUE;
      }
      elseif (($t === 'integer' && isset($b['number'])) || ($t === 'number' && isset($b['integer']))) {
        $out['integer'] = TRUE;
      }
    }
    return $out;
  }

  public static function admits(?array $types, string $kind): bool {
    return $types === NULL || isset($types[$kind]);
  }

  /**
   * The types a position declares.
   */
  public function positionTypes(array $position): ?array {
    $r = NULL;
    foreach ($position as $item) {
      if ($item[0] === 'n') {
        $t = $this->types($item[1], $item[2]);
      }
      else {
        $t = [];
        foreach ($item[1] as $alternative) {
          $a = $this->positionTypes($alternative);
          if ($a === NULL) {
            $t = NULL;
            break;
          }
          $t += $a;
        }
      }
      $r = self::inter($r, $t);
    }
    return $r;
  }

  /**
   * The position of member $key ($kind 'object') or element $key ($kind
   * 'array') of the value at $position.
   */
  public function child(array $position, string $kind, int|string $key): array {
    $out = [];
    foreach ($position as $item) {
      if ($item[0] === 'n') {
        array_push($out, ...$this->schemaChild($item[1], $item[2], $kind, $key));
        continue;
      }
      $alternatives = [];
      foreach ($item[1] as $alternative) {
        if (self::admits($this->positionTypes($alternative), $kind)) {
          $alternatives[] = $this->child($alternative, $kind, $key);
        }
      }
      if ($alternatives) {
        $out[] = ['or', $alternatives];
      }
    }
    return $out;
  }

  private function schemaChild(mixed $node, array $scope, string $kind, int|string $key): array {
    if (!is_object($node) || $this->cyclic($node, $scope)) {
      return [];
    }
    $oid = spl_object_id($node);
    $draft = $this->info[$oid][1];
    $v = get_object_vars($node);
    $out = [];
    $own = [];
    // s2: elements are looked up in the array keywords of the schema at
    // hand and its allOf/anyOf/oneOf branches.
    $follow = !(isset($this->switches['s2']) && $kind === 'array');
    if ($this->onlyRef($oid, $v)) {
      if (!$follow) {
        return [];
      }
      [[$target, $tscope]] = $this->referenced($node, $scope);
      return $this->schemaChild($target, $tscope, $kind, $key);
    }
    if ($kind === 'object') {
      $key = (string) $key;
      $matched = FALSE;
      if (isset($v['properties'])) {
        $properties = get_object_vars($v['properties']);
        if (array_key_exists($key, $properties)) {
          $own[] = $properties[$key];
          $matched = TRUE;
        }
      }
      if (isset($v['patternProperties']) && !($matched && isset($this->switches['s8']))) {
        foreach (get_object_vars($v['patternProperties']) as $pattern => $sub) {
          if (self::matches((string) $pattern, $key)) {
            $own[] = $sub;
            $matched = TRUE;
          }
        }
      }
      if (!$matched && array_key_exists('additionalProperties', $v)) {
        $own[] = $v['additionalProperties'];
      }
    }
    else {
      $key = (int) $key;
      if (isset($v['prefixItems']) && is_array($v['prefixItems'])) {
        // prefixItems, then items (a schema) after them.
        if ($key < count($v['prefixItems'])) {
          $own[] = $v['prefixItems'][$key];
        }
        elseif (array_key_exists('items', $v) && !is_array($v['items'])) {
          $own[] = $v['items'];
        }
      }
      elseif (isset($v['items']) && is_array($v['items'])) {
        // The list form of drafts 4 to 2019-09, then additionalItems.
        if ($key < count($v['items'])) {
          $own[] = $v['items'][$key];
        }
        elseif (array_key_exists('additionalItems', $v)) {
          $own[] = $v['additionalItems'];
        }
      }
      elseif (array_key_exists('items', $v)) {
        $own[] = $v['items'];
      }
    }
    foreach ($own as $sub) {
      $out[] = ['n', $sub, $this->enter($scope, $sub)];
    }
    foreach ($follow ? $this->referenced($node, $scope) : [] as [$target, $tscope]) {
      array_push($out, ...$this->schemaChild($target, $tscope, $kind, $key));
    }
    foreach ($v['allOf'] ?? [] as $sub) {
      array_push($out, ...$this->schemaChild($sub, $this->enter($scope, $sub), $kind, $key));
    }
    foreach (['anyOf', 'oneOf'] as $k) {
      if (isset($v[$k])) {
        $alternatives = [];
        foreach ($v[$k] as $sub) {
          $subScope = $this->enter($scope, $sub);
          if (self::admits($this->types($sub, $subScope), $kind)) {
            $alternatives[] = $this->schemaChild($sub, $subScope, $kind, $key);
          }
        }
        if ($alternatives) {
          $out[] = ['or', $alternatives];
        }
      }
    }
    return $out;
  }

  private static function matches(string $pattern, string $key): bool {
    $r = preg_match(BlindEcma::translate($pattern), $key);
    if ($r === FALSE) {
      throw new BlindUnsupported('PCRE2 gave up matching ' . json_encode($pattern, JSON_UNESCAPED_UNICODE) . ': ' . preg_last_error_msg());
    }
    return $r === 1;
  }

}
