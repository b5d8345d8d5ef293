<?php

/**
 * @file
 * An RT-TOOL-8 normalizer written the way a Drupal module author would write
 * it on a first try, behind toolnorm's implementation protocol
 * (docs/protocol.md).
 *
 * The module's logic is what Drupal core gives it: Json::decode() (which is
 * json_decode($json, TRUE)) for the arguments and for stringified parameters,
 * Html::decodeEntities() (which is html_entity_decode($text, ENT_QUOTES,
 * 'UTF-8')) repeated until the value stops changing, and the schema read
 * literally: $schema['properties'][$name]['type'].
 *
 *   toolnorm check --impl 'php examples/php/adapter.php'
 *
 * It is an example to check, not a reference: toolnorm finds where it differs
 * from the rule (see docs/implementations.md). Core PHP 8.1 or later only, as
 * Debian's php-cli has it.
 */

declare(strict_types=1);

/**
 * Decodes HTML entities once, as Drupal's Html::decodeEntities() does.
 */
function example_decode_entities(string $text): string {
  return html_entity_decode($text, ENT_QUOTES, 'UTF-8');
}

/**
 * Decodes the entities in every string of a value, until nothing changes.
 */
function example_unescape(mixed $value): mixed {
  if (is_string($value)) {
    do {
      $previous = $value;
      $value = example_decode_entities($value);
    } while ($value !== $previous);
  }
  elseif (is_array($value)) {
    foreach ($value as $key => $item) {
      // Keys are left as they are.
      $value[$key] = example_unescape($item);
    }
  }
  return $value;
}

/**
 * Repairs a model's tool arguments against the tool's input schema.
 *
 * @param mixed $schema
 *   The tool's input schema, as Json::decode() gives it.
 * @param mixed $arguments
 *   The arguments the model sent, as Json::decode() gives them.
 *
 * @return array
 *   The arguments the tool receives.
 */
function example_normalize(mixed $schema, mixed $arguments): array {
  if (!is_array($arguments)) {
    throw new InvalidArgumentException('The tool arguments must be a JSON object.');
  }
  $properties = $schema['properties'] ?? [];
  foreach ($arguments as $name => $value) {
    $type = $properties[$name]['type'] ?? NULL;
    // A parameter declared array or object may arrive as a JSON string.
    if (is_string($value) && ($type === 'array' || $type === 'object')) {
      $decoded = json_decode($value, TRUE);
      if (is_array($decoded)) {
        $value = $decoded;
      }
    }
    $arguments[$name] = example_unescape($value);
  }
  return $arguments;
}

/**
 * Writes one answer line and flushes it.
 */
function example_answer(array $answer): void {
  try {
    $line = json_encode($answer, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
  }
  catch (JsonException $e) {
    // A value JSON cannot hold, such as INF where json_decode() read 1e400:
    // the tool would get it, toolnorm cannot be told it.
    $line = json_encode(['id' => $answer['id'], 'error' => 'json_encode: ' . $e->getMessage()]);
  }
  fwrite(STDOUT, $line . "\n");
  fflush(STDOUT);
}

/**
 * Speaks toolnorm's protocol on stdin and stdout, until stop.
 */
function example_serve(): void {
  // Nothing but answers may reach stdout: PHP's warnings go to stderr.
  ini_set('display_errors', 'stderr');
  while (($line = fgets(STDIN)) !== FALSE) {
    // Decoding the request is the module's own Json::decode() of the schema
    // and the arguments: the same function with the same flags, so what it
    // loses (duplicate members, digits past a double, {} as against []) is
    // lost by the module. 513 leaves the arguments json_decode()'s default
    // depth, 512.
    $request = json_decode($line, TRUE, 513);
    if (!is_array($request)) {
      // json_decode() refuses the whole line (a lone surrogate escape such as
      // \ud800, nesting past its depth). The module would get NULL from
      // Json::decode() and refuse the arguments: answer that, with the id
      // that toolnorm writes at the start of the line.
      if (preg_match('/^\{"cmd":"normalize","id":(\d+),/', $line, $m)) {
        example_answer(['id' => (int) $m[1], 'error' => 'json_decode: ' . json_last_error_msg()]);
      }
      continue;
    }
    switch ($request['cmd'] ?? NULL) {
      case 'start':
        example_answer([
          'version' => 1,
          'implementation' => ['name' => 'php-drupal-example', 'language' => 'PHP', 'version' => PHP_VERSION],
        ]);
        break;

      case 'normalize':
        try {
          example_answer(['id' => $request['id'], 'arguments' => example_normalize($request['schema'], $request['arguments'])]);
        }
        catch (Throwable $e) {
          example_answer(['id' => $request['id'], 'error' => get_class($e) . ': ' . $e->getMessage()]);
        }
        break;

      case 'stop':
        return;
    }
  }
}

// Run as a program, serve; included (by findings.php), only define.
if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
  example_serve();
}
