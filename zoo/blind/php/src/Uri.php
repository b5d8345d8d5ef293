<?php

/**
 * @file
 * RFC 3986 reference resolution, for $id and $ref.
 */

declare(strict_types=1);

final class BlindUri {

  /**
   * @return array
   *   [scheme, authority, path, query, fragment]; NULL for what is absent.
   */
  public static function parse(string $u): array {
    preg_match('~^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$~s', $u, $m, PREG_UNMATCHED_AS_NULL);
    return [$m[1] ?? NULL, $m[2] ?? NULL, $m[3] ?? '', $m[4] ?? NULL, $m[5] ?? NULL];
  }

  public static function build(?string $scheme, ?string $authority, string $path, ?string $query, ?string $fragment): string {
    $s = '';
    if ($scheme !== NULL) {
      $s .= $scheme . ':';
    }
    if ($authority !== NULL) {
      $s .= '//' . $authority;
    }
    $s .= $path;
    if ($query !== NULL) {
      $s .= '?' . $query;
    }
    if ($fragment !== NULL) {
      $s .= '#' . $fragment;
    }
    return $s;
  }

  public static function resolve(string $base, string $ref): string {
    [$rs, $ra, $rp, $rq, $rf] = self::parse($ref);
    [$bs, $ba, $bp, $bq] = self::parse($base);
    if ($rs !== NULL) {
      return self::build($rs, $ra, self::removeDots($rp), $rq, $rf);
    }
    if ($ra !== NULL) {
      return self::build($bs, $ra, self::removeDots($rp), $rq, $rf);
    }
    if ($rp === '') {
      return self::build($bs, $ba, $bp, $rq ?? $bq, $rf);
    }
    if ($rp[0] === '/') {
      $path = self::removeDots($rp);
    }
    elseif ($ba !== NULL && $bp === '') {
      $path = self::removeDots('/' . $rp);
    }
    else {
      $cut = strrpos($bp, '/');
      $path = self::removeDots(($cut === FALSE ? '' : substr($bp, 0, $cut + 1)) . $rp);
    }
    return self::build($bs, $ba, $path, $rq, $rf);
  }

  private static function removeDots(string $path): string {
    $out = [];
    $in = $path;
    while ($in !== '') {
      if (str_starts_with($in, '../')) {
        $in = substr($in, 3);
      }
      elseif (str_starts_with($in, './')) {
        $in = substr($in, 2);
      }
      elseif (str_starts_with($in, '/./')) {
        $in = substr($in, 2);
      }
      elseif ($in === '/.') {
        $in = '/';
      }
      elseif (str_starts_with($in, '/../')) {
        $in = substr($in, 3);
        array_pop($out);
      }
      elseif ($in === '/..') {
        $in = '/';
        array_pop($out);
      }
      elseif ($in === '.' || $in === '..') {
        $in = '';
      }
      else {
        $j = strpos($in, '/', $in[0] === '/' ? 1 : 0);
        $seg = $j === FALSE ? $in : substr($in, 0, $j);
        $out[] = $seg;
        $in = $j === FALSE ? '' : substr($in, $j);
      }
    }
    return implode('', $out);
  }

  /**
   * @return array
   *   [the URI without its fragment, the fragment or NULL].
   */
  public static function split(string $u): array {
    $h = strpos($u, '#');
    return $h === FALSE ? [$u, NULL] : [substr($u, 0, $h), substr($u, $h + 1)];
  }

}
