<?php
// The normalize callable for replay.php --impl: toolnorm's reference, `toolnorm normalize` (the
// binary in $TOOLNORM, else toolnorm on the PATH) run on each vector's schema and arguments. For
// scripts/corpus-runners.sh.
return function (string $schema, string $arguments, array $options): string {
    $dir = sys_get_temp_dir() . '/toolnorm-replay-' . getmypid();
    @mkdir($dir);
    file_put_contents("$dir/schema.json", $schema);
    file_put_contents("$dir/args.json", $arguments);
    $command = [getenv('TOOLNORM') ?: 'toolnorm', 'normalize', '--schema', "$dir/schema.json", '--args', "$dir/args.json",
        '--profile', $options['profile'] ?? 'text', '--max-passes', (string)($options['max_passes'] ?? 0)];
    if (!empty($options['max_depth'])) array_push($command, '--max-depth', (string)$options['max_depth']);
    $p = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    [$out, $err] = [stream_get_contents($pipes[1]), stream_get_contents($pipes[2])];
    $status = proc_close($p);
    unlink("$dir/schema.json");
    unlink("$dir/args.json");
    rmdir($dir);
    if ($status === 0) return $out;
    // "toolnorm: FILE: WHAT ...": the schema's file is invalid-schema whatever it says
    if (str_starts_with($err, "toolnorm: $dir/schema.json: ")) throw new RuntimeException('invalid-schema');
    foreach ([': arguments must be a JSON object' => 'not-object', ': nesting too deep' => 'too-deep', ': invalid JSON' => 'invalid-json'] as $needle => $kind) {
        if (str_contains($err, $needle)) throw new RuntimeException($kind);
    }
    throw new RuntimeException($err);
};
