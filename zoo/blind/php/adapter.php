<?php

/**
 * @file
 * toolnorm's adapter for src/normalize.php:blind_normalize (written by toolnorm init, which never
 * overwrites it without --force; edit it freely: the constants,
 * toolnorm_function and toolnorm_unsupported).
 *
 *   toolnorm check --impl 'php zoo/blind/php/adapter.php'
 *
 * The kit beside it (toolnorm_kit.php) speaks the protocol; this file only
 * says what to call, which reading of RT-TOOL-8 it implements
 * (docs/protocol.md, "Declares"), and whether JSON objects reach the
 * function as arrays (json_decode($json, TRUE)) or as stdClass ('object').
 */

declare(strict_types=1);

require_once __DIR__ . '/../../../kits/php/toolnorm_kit.php';
require_once __DIR__ . '/src/normalize.php';

const TOOLNORM_FUNCTION = 'blind_normalize';
const TOOLNORM_INFO = ['name' => 'src/normalize.php:blind_normalize', 'language' => 'PHP'];
const TOOLNORM_DECLARES = ['profile' => 'text', 'max_passes' => 0, 'depth' => 'all', 'repairs' => ['json', 'entities']];
const TOOLNORM_OPTIONS = ['objects' => 'object'];

$toolnorm_main = PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__;

/*
 * The words after the adapter on its command line, for a mode of your
 * function:
 *   toolnorm check --impl 'php .toolnorm/adapter.php strict'   gives TOOLNORM_ARGS ['strict']
 * The corpus test takes them from the environment variable TOOLNORM_ARGS
 * (TOOLNORM_ARGS=strict php .toolnorm/test_corpus.php).
 */
define('TOOLNORM_ARGS', $toolnorm_main ? array_slice($_SERVER['argv'] ?? [], 1) : preg_split('/\s+/', (string) getenv('TOOLNORM_ARGS'), -1, PREG_SPLIT_NO_EMPTY));

/**
 * What toolnorm checks: your function, given what TOOLNORM_ARGS asks for if
 * it takes a mode.
 */
function toolnorm_function(mixed $schema, mixed $arguments): mixed {
  return (TOOLNORM_FUNCTION)($schema, $arguments);
}

/**
 * TRUE for a Throwable of toolnorm_function that means it cannot take this
 * input as sent (answered "unsupported": counted, not judged) rather than
 * that it rejects the input (an "error" answer, judged). Throwing
 * ToolnormUnsupported always means that.
 */
function toolnorm_unsupported(Throwable $e): bool {
  return $e instanceof BlindUnsupported;
}

if ($toolnorm_main) {
  try {
    blind_switches();
  }
  catch (InvalidArgumentException $e) {
    fwrite(STDERR, 'adapter: ' . $e->getMessage() . "\n");
    exit(2);
  }
  ToolnormKit::serve('toolnorm_function', TOOLNORM_INFO, TOOLNORM_DECLARES, TOOLNORM_OPTIONS + ['unsupported' => 'toolnorm_unsupported']);
}
