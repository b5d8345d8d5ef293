<?php
// Replay toolnorm's RT-TOOL-8 corpus on a normalizer: PHP 8.1 or later, core extensions only
// (json, pcre: what Debian's php-cli has).
//
// Copy this file into your test suite, beside a copy of corpus/vectors/. Then, in a test:
//
//   require_once __DIR__ . '/replay.php';
//   $this->assertSame(0, toolnorm_replay(__DIR__ . '/corpus/vectors', 'my_normalize'));
//
// or from the shell:
//
//   php replay.php VECTORS                       check that every vector file is a vector; count them
//   php replay.php VECTORS --impl FILE.php       replay on the callable that FILE.php returns
//   php replay.php VECTORS --answers FILE.jsonl  judge another implementation's answers, one JSON
//       object a line: {"id": ID, "output": JSON TEXT} or {"id": ID, "error": KIND} (later lines win)
//
// $normalize(string $schema, string $arguments, array $options) is given the schema and the
// arguments as JSON text and the vector's options (maybe empty: profile, max_passes, max_depth). It
// returns the normalized arguments as JSON text; or throws to report an error, whose message is the
// kind (invalid-json, not-object, too-deep, invalid-schema) or anything else for an unspecified
// error, which matches every kind; or returns null to skip a vector whose options it does not offer.
// Text that is not UTF-8 (the _base64 forms) is handed over as it is: a PHP string holds any bytes.
// Results compare as corpus/README.md says: numbers by exact decimal value, members in order,
// duplicates kept (json_decode keeps neither big numbers, nor duplicates, nor {} apart from [], so
// this file reads JSON itself). Exit status 1 if any vector failed.

const TOOLNORM_KINDS = ['invalid-json', 'not-object', 'too-deep', 'invalid-schema'];

// A canonical form of a JSON text: two texts have the same form exactly when the corpus counts them
// equal. Throws on anything that is not JSON. Given an array $top, it appends [key, text] for each
// member of a top-level object, the member's text exactly as written.
function toolnorm_exact(string $t, ?array &$top = null): string
{
    if (!preg_match('//u', $t)) throw new UnexpectedValueException('not UTF-8');
    $i = 0;
    $fail = function (string $what) use (&$i): never { throw new UnexpectedValueException("$what at offset $i"); };
    $ws = function () use ($t, &$i) { $i += strspn($t, " \t\n\r", $i); };
    $q = fn(string $s): string => substr(json_encode($s, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), 1, -1);
    $str = function () use ($t, &$i, $ws, $fail, $q): string { // the string's canonical form, quoted
        $ws();
        if (($t[$i] ?? '') !== '"') $fail('want "');
        for ($i++, $s = '"';;) {
            preg_match('/[^"\\\\\x00-\x1f]*/A', $t, $m, 0, $i);
            $s .= $q($m[0]);
            $i += strlen($m[0]);
            $c = $t[$i++] ?? '';
            if ($c === '"') return $s . '"';
            if ($c !== '\\') $fail('bad string');
            if (preg_match('/u(d[89ab][0-9a-f]{2})\\\\u(d[c-f][0-9a-f]{2})|u([0-9a-f]{4})|["\\\\\/bfnrt]/Ai', $t, $m, 0, $i) !== 1) $fail('bad escape');
            $i += strlen($m[0]);
            $lone = ($m[3] ?? '') !== '' && (hexdec($m[3]) & 0xF800) === 0xD800;
            $s .= $lone ? '\\u' . strtolower($m[3]) : $q(json_decode('"\\' . $m[0] . '"')); // no UTF-8 holds a lone surrogate
        }
    };
    $value = function (int $depth) use ($t, &$i, $ws, $fail, $str, &$value, &$top): string {
        $ws();
        $c = $t[$i] ?? '';
        if ($c === '{' || $c === '[') {
            $close = $c === '{' ? '}' : ']';
            $parts = [];
            $i++;
            $ws();
            if (($t[$i] ?? '') === $close) return $c . $t[$i++];
            for (;;) {
                $key = $c === '{' ? $str() : null;
                if ($key !== null) {
                    $ws();
                    if (($t[$i++] ?? '') !== ':') $fail('want :');
                }
                $ws();
                $start = $i;
                $v = $value($depth + 1);
                if ($top !== null && $depth === 0 && $key !== null) $top[] = [json_decode($key), substr($t, $start, $i - $start)];
                $parts[] = $key === null ? $v : "$key:$v";
                $ws();
                $sep = $t[$i++] ?? '';
                if ($sep === $close) return $c . implode(',', $parts) . $close;
                if ($sep !== ',') $fail("want , or $close");
            }
        }
        if ($c === '"') return $str();
        foreach (['true', 'false', 'null'] as $w) {
            if (substr($t, $i, strlen($w)) === $w) { $i += strlen($w); return $w; }
        }
        if (!preg_match('/(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([-+]?[0-9]+))?/A', $t, $m, 0, $i)) $fail('not JSON');
        $i += strlen($m[0]);
        // sign, digits without leading or trailing zeros, exponent: 1, 1.0 and 10e-1 are alike, -0 is 0
        $frac = $m[3] ?? '';
        $digits = ltrim($m[2] . $frac, '0');
        $d = rtrim($digits, '0');
        return $d === '' ? '0' : $m[1] . $d . 'e' . toolnorm_add($m[4] ?? '0', strlen($digits) - strlen($d) - strlen($frac));
    };
    $v = $value(0);
    $ws();
    if ($i !== strlen($t)) $fail('text after the value');
    return $v;
}

// $e + $k exactly, for a decimal integer $e of any length (|$k| < 10^15: a text's length).
function toolnorm_add(string $e, int $k): string
{
    $neg = $e[0] === '-';
    $d = ltrim($e, '+-0');
    if (strlen($d) < 18) return (string)(($neg ? -(int)$d : (int)$d) + $k);
    $lo = (int)substr($d, -15) + ($neg ? -$k : $k);
    $carry = $lo < 0 ? -1 : ($lo >= 10 ** 15 ? 1 : 0);
    return ($neg ? '-' : '') . toolnorm_add(substr($d, 0, -15), $carry) . str_pad((string)($lo - $carry * 10 ** 15), 15, '0', STR_PAD_LEFT);
}

// The exact text of the schema, the arguments or the expected result.
function toolnorm_text(array $src, string $k): string
{
    if (isset($src[$k . '_raw'])) return json_decode($src[$k . '_raw']);
    if (isset($src[$k . '_base64'])) return base64_decode(json_decode($src[$k . '_base64']), true);
    return $src[$k];
}

// The vector files under $root, in order, each as ['path' => relative to $root, 'id' => ...,
// 'src' => each member's text in the file, 'options' => ...]; a file that is not a vector throws
// UnexpectedValueException, with one line naming it.
function toolnorm_vectors(string $root): array
{
    $paths = [];
    $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root, FilesystemIterator::SKIP_DOTS));
    foreach ($it as $f) {
        if (str_ends_with($f->getFilename(), '.json') && $f->getFilename()[0] !== '.') $paths[] = $f->getPathname();
    }
    sort($paths, SORT_STRING);
    $vectors = [];
    foreach ($paths as $path) {
        $members = [];
        $data = @file_get_contents($path);
        if ($data === false || preg_match('//u', $data) !== 1) {
            throw new UnexpectedValueException("$path: not a vector: " . ($data === false ? 'cannot be read' : 'not UTF-8'));
        }
        try {
            toolnorm_exact($data, $members);
        } catch (Throwable $e) {
            throw new UnexpectedValueException("$path: not a vector: " . strtok($e->getMessage(), "\n"), 0, $e);
        }
        $src = array_column($members, 1, 0); // member => its text in the file
        $one = fn(array $form) => count(array_intersect_key($src, array_flip($form))) === 1;
        if (count(array_intersect_key($src, array_flip(['id', 'description', 'clause', 'origin']))) !== 4
            || !$one(['schema', 'schema_raw', 'schema_base64']) || !$one(['arguments', 'arguments_raw', 'arguments_base64'])
            || !$one(['expected', 'expected_raw', 'error'])) {
            throw new UnexpectedValueException("$path: not a vector");
        }
        $vectors[] = ['path' => substr($path, strlen(rtrim($root, '/')) + 1), 'id' => json_decode($src['id']), 'src' => $src,
            'options' => isset($src['options']) ? json_decode($src['options'], true) : []];
    }
    return $vectors;
}

// One vector on $normalize (or in $answers): [true, ''], [false, what was wrong], or [null, why it
// was skipped].
function toolnorm_judge(array $v, ?callable $normalize = null, ?array $answers = null): array
{
    $src = $v['src'];
    if ($answers !== null) {
        $got = $answers[$v['id']] ?? ['missing' => true];
    } else {
        try {
            $out = $normalize(toolnorm_text($src, 'schema'), toolnorm_text($src, 'arguments'), $v['options']);
            if ($out === null) return [null, 'options not offered'];
            $got = ['output' => is_string($out) ? $out : json_encode($out)];
        } catch (Throwable $e) {
            $got = ['error' => in_array($e->getMessage(), TOOLNORM_KINDS, true) ? $e->getMessage() : 'error',
                'message' => get_class($e) . ($e->getMessage() === '' ? '' : ': ' . $e->getMessage())];
        }
    }
    $error = isset($src['error']) ? json_decode($src['error']) : null;
    $want = $error ?? toolnorm_text($src, 'expected');
    if ($error !== null) {
        $ok = in_array($got['error'] ?? null, [$error, 'error'], true);
    } else {
        try {
            $ok = is_string($got['output'] ?? null) && toolnorm_exact($got['output']) === toolnorm_exact($want);
        } catch (UnexpectedValueException) {
            $ok = false; // the output is not JSON
        }
    }
    if ($ok) return [true, ''];
    $said = isset($got['missing']) ? 'no answer' : (array_key_exists('output', $got) ? (is_string($got['output']) ? $got['output'] : json_encode($got['output']))
        : (($got['error'] ?? '') === 'error' && isset($got['message']) ? "an error ({$got['message']})" : 'error ' . ($got['error'] ?? '?')));
    $line = fn(string $s) => substr(preg_replace('/\n\s*/', '', $s), 0, 200); // raw newlines in JSON are whitespace
    return [false, sprintf('got %s, want %s%s', $line($said), $error !== null ? 'error ' : '', $line($want))];
}

function toolnorm_replay(string $root, ?callable $normalize = null, ?array $answers = null): int
{
    $read = $passed = $failed = 0;
    $skipped = [];
    foreach (toolnorm_vectors($root) as $v) {
        $read++;
        if ($normalize === null && $answers === null) continue;
        [$ok, $message] = toolnorm_judge($v, $normalize, $answers);
        if ($ok === null) {
            $skipped[$message] = ($skipped[$message] ?? 0) + 1;
        } elseif ($ok) {
            $passed++;
        } else {
            $failed++;
            printf("FAIL %s: %s\n", $v['path'], $message);
        }
    }
    $summary = "read $read vectors";
    if ($normalize !== null || $answers !== null) {
        $summary .= sprintf(': %d passed, %d failed, %d skipped', $passed, $failed, array_sum($skipped));
        if ($skipped) $summary .= ' (' . implode('; ', array_map(fn($why, $n) => "$n $why", array_keys($skipped), $skipped)) . ')';
    }
    echo $summary, "\n";
    return $failed ? 1 : 0;
}

if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    [$root, $flag, $file] = array_pad(array_slice($argv, 1), 3, null);
    if ($root === null || count($argv) > 4 || ($flag !== null && ($file === null || !in_array($flag, ['--impl', '--answers'], true)))) {
        fwrite(STDERR, "usage: php replay.php VECTORS [--impl FILE.php | --answers FILE.jsonl]\n");
        exit(2);
    }
    $answers = null;
    if ($flag === '--answers') {
        $answers = [];
        foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
            $a = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
            $answers[$a['id']] = $a;
        }
    }
    try {
        exit(toolnorm_replay($root, $flag === '--impl' ? require $file : null, $answers));
    } catch (UnexpectedValueException $e) { // a bad vector file: its name and one line, no trace
        fwrite(STDERR, $e->getMessage() . "\n");
        exit(1);
    }
}
