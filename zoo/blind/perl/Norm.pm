package Norm;
# A normalizer of RT-TOOL-8 (FlowDrop Workflow Specification 1.0-draft):
# repairs a model's tool arguments against the tool's JSON Schema.
#
# Values are kept as sent: a reader of its own keeps number text, member
# order, duplicate members, string escapes and lone surrogates.
#   object  {t=>'o', m=>[[key_raw, key_text, value], ...]}
#   array   {t=>'a', e=>[value, ...]}
#   string  {t=>'s', v=>text, raw=>'"as sent"'}  (raw undef once changed)
#   number  {t=>'n', raw=>text}
#   literal {t=>'l', raw=>'true'|'false'|'null'}
use strict;
use warnings;
no warnings qw(recursion surrogate nonchar non_unicode);
use Scalar::Util qw(refaddr);
use FindBin;
use lib $FindBin::Bin;
use Entities;

our $MAX_DEPTH = 1000;
my %SW = map { $_ => 1 } grep { length } split /\s*,\s*/, ($ENV{BLIND_SWITCHES} // '');

# ---------------------------------------------------------------- JSON reader

my %UNESC = ('"' => '"', '\\' => '\\', '/' => '/', b => "\b", f => "\f", n => "\n", r => "\r", t => "\t");

sub unescape_json_string {
    my ($r) = @_;
    return $r if index($r, '\\') < 0;
    $r =~ s/\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\(.)/
        defined $1 ? chr(0x10000 + ((hex($1) - 0xD800) << 10) + (hex($2) - 0xDC00))
      : defined $3 ? chr(hex $3)
      : $UNESC{$4}/ges;
    return $r;
}

our $S;       # the text being read
our $LIMIT;   # depth limit, or undef
our $NUMVAL;  # read numbers as numbers

sub jerr { die { kind => 'json', msg => "$_[0] at offset " . pos($S) } }

sub read_value {
    my ($depth, $path) = @_;
    $S =~ /\G[ \t\n\r]*/gc;
    if ($S =~ /\G\{/gc) {
        $depth++;
        if (defined $LIMIT && $depth > $LIMIT) {
            die { kind => 'depth', msg => "nesting too deep: more than $LIMIT nested arrays and objects at offset " . (pos($S) - 1) . " within \"$path\"" };
        }
        my @m;
        $S =~ /\G[ \t\n\r]*/gc;
        if ($S =~ /\G\}/gc) { return { t => 'o', m => \@m } }
        while (1) {
            $S =~ /\G[ \t\n\r]*/gc;
            $S =~ /\G("[^"\\\x00-\x1f]*+(?:\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+")/gc
                or jerr("invalid object key");
            my $kraw = $1;
            my $k = unescape_json_string(substr($kraw, 1, -1));
            $S =~ /\G[ \t\n\r]*:/gc or jerr("expected ':'");
            my $kp = $k; $kp =~ s/~/~0/g; $kp =~ s{/}{~1}g;
            my $v = read_value($depth, "$path/$kp");
            push @m, [$kraw, $k, $v];
            $S =~ /\G[ \t\n\r]*/gc;
            next if $S =~ /\G,/gc;
            last if $S =~ /\G\}/gc;
            jerr("expected ',' or '}'");
        }
        return { t => 'o', m => \@m };
    }
    if ($S =~ /\G\[/gc) {
        $depth++;
        if (defined $LIMIT && $depth > $LIMIT) {
            die { kind => 'depth', msg => "nesting too deep: more than $LIMIT nested arrays and objects at offset " . (pos($S) - 1) . " within \"$path\"" };
        }
        my @e;
        $S =~ /\G[ \t\n\r]*/gc;
        if ($S =~ /\G\]/gc) { return { t => 'a', e => \@e } }
        while (1) {
            push @e, read_value($depth, "$path/" . scalar(@e));
            $S =~ /\G[ \t\n\r]*/gc;
            next if $S =~ /\G,/gc;
            last if $S =~ /\G\]/gc;
            jerr("expected ',' or ']'");
        }
        return { t => 'a', e => \@e };
    }
    if ($S =~ /\G("[^"\\\x00-\x1f]*+(?:\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+")/gc) {
        my $raw = $1;
        return { t => 's', raw => $raw, v => unescape_json_string(substr($raw, 1, -1)) };
    }
    if ($S =~ /\G(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/gc) {
        my $raw = $1;
        $raw = 0 + $raw if $NUMVAL;
        return { t => 'n', raw => $raw };
    }
    if ($S =~ /\G(true|false|null)/gc) { return { t => 'l', raw => $1 } }
    jerr("invalid character looking for beginning of value");
}

# parse_json(text, limit, base depth) -> value; dies {kind, msg}
sub parse_json {
    my ($text, $limit, $base, $numval) = @_;
    local $S = $text;
    local $LIMIT = $limit;
    local $NUMVAL = $numval;
    pos($S) = 0;
    my $v = read_value($base // 0, '');
    $S =~ /\G[ \t\n\r]*/gc;
    jerr("invalid character after top-level value") if pos($S) != length($S);
    return $v;
}

# ---------------------------------------------------------------- JSON writer

my %ESCOUT = ('"' => '\\"', '\\' => '\\\\', "\n" => '\\n', "\r" => '\\r', "\t" => '\\t', "\b" => '\\b', "\f" => '\\f');

sub encode_string {
    my ($s) = @_;
    $s =~ s/([\x00-\x1f"\\\x{D800}-\x{DFFF}])/$ESCOUT{$1} \/\/ sprintf('\\u%04x', ord $1)/ge;
    return "\"$s\"";
}

sub write_json {
    my ($v) = @_;
    my $t = $v->{t};
    if ($t eq 'o') {
        return '{' . join(',', map { $_->[0] . ':' . write_json($_->[2]) } @{ $v->{m} }) . '}';
    }
    if ($t eq 'a') { return '[' . join(',', map { write_json($_) } @{ $v->{e} }) . ']' }
    if ($t eq 's') { return defined $v->{raw} ? $v->{raw} : encode_string($v->{v}) }
    return $v->{raw};
}

# ---------------------------------------------------------------- HTML character references

my %C1 = (
    0x80 => 0x20AC, 0x82 => 0x201A, 0x83 => 0x0192, 0x84 => 0x201E, 0x85 => 0x2026, 0x86 => 0x2020,
    0x87 => 0x2021, 0x88 => 0x02C6, 0x89 => 0x2030, 0x8A => 0x0160, 0x8B => 0x2039, 0x8C => 0x0152,
    0x8E => 0x017D, 0x91 => 0x2018, 0x92 => 0x2019, 0x93 => 0x201C, 0x94 => 0x201D, 0x95 => 0x2022,
    0x96 => 0x2013, 0x97 => 0x2014, 0x98 => 0x02DC, 0x99 => 0x2122, 0x9A => 0x0161, 0x9B => 0x203A,
    0x9C => 0x0153, 0x9E => 0x017E, 0x9F => 0x0178,
);

my @NAMES = sort { length($b) <=> length($a) || $a cmp $b }
    grep { !$SW{s1} || /;\z/ } keys %Entities::TABLE;
my $NAMES_ALT = join '|', map { quotemeta } @NAMES;
my $REF_RE = qr/&(?:#[xX]([0-9A-Fa-f]+);?|#([0-9]+);?|($NAMES_ALT))/;
my $REF_AT = qr/\A$REF_RE/;

sub numeric_ref {
    my ($digits, $hex) = @_;
    $digits =~ s/\A0+//;
    my $cp;
    if ($hex) { $cp = length($digits) > 6 ? 0x110000 : hex($digits || '0') }
    else      { $cp = length($digits) > 7 ? 0x110000 : 0 + ($digits || '0') }
    return "\x{FFFD}" if $cp == 0 || $cp > 0x10FFFF || ($cp >= 0xD800 && $cp <= 0xDFFF);
    $cp = $C1{$cp} if exists $C1{$cp};
    return chr($cp);
}

sub ref_text {
    my ($hex, $dec, $name) = @_;
    return numeric_ref($hex, 1) if defined $hex;
    return numeric_ref($dec, 0) if defined $dec;
    return $Entities::TABLE{$name};
}

# One pass, as the HTML tokenizer reads text content.
sub one_pass {
    my ($s) = @_;
    $s =~ s/$REF_RE/ref_text($1, $2, $3)/ge;
    return $s;
}

# Decode until nothing changes.
sub unescape_fixpoint {
    my ($s) = @_;
    return $s if index($s, '&') < 0;
    my $passes = 0;
    while (1) {
        my $n = one_pass($s);
        return $n if $n eq $s;
        $s = $n;
        $passes++;
        return $s if index($s, '&') < 0;
        if ($passes >= 8 && length($s) > 4096) { return linked_fixpoint($s) }
    }
}

# The same fixpoint in linear time: between passes, only an '&' written by
# the last pass, or one shortly before what it wrote, can decode anew.
sub linked_fixpoint {
    my ($s) = @_;
    my @c = split //, $s;
    my $n = @c;
    my @nx = (1 .. $n);
    $nx[$n - 1] = -1 if $n;
    my @pv = (-1 .. $n - 2);
    my $head = $n ? 0 : -1;
    my @cand = grep { $c[$_] eq '&' } 0 .. $n - 1;
    my $W = 40;
    while (@cand) {
        my %seen;
        my @dec;
        for my $i (grep { !$seen{$_}++ } @cand) {
            next if !defined $c[$i] || $c[$i] ne '&';
            my $win = '';
            my $j = $i;
            my $k = 0;
            while ($j >= 0 && ($k < $W || $c[$j] =~ /[0-9A-Fa-f]/)) { $win .= $c[$j]; $j = $nx[$j]; $k++ }
            if ($win =~ $REF_AT) {
                push @dec, [$i, $+[0], ref_text($1, $2, $3)];
            }
        }
        my @written;
        for my $d (@dec) {
            my ($i, $len, $rep) = @$d;
            my $p = $pv[$i];
            my $j = $i;
            for (1 .. $len) { my $t = $nx[$j]; $c[$j] = undef; $j = $t }
            my $after = $j;
            my $prev = $p;
            for my $ch (split //, $rep) {
                push @c, $ch;
                my $id = $#c;
                $pv[$id] = $prev;
                if ($prev >= 0) { $nx[$prev] = $id } else { $head = $id }
                $prev = $id;
                push @written, $id;
            }
            $nx[$prev] = $after if $prev >= 0;
            if ($prev < 0) { $head = $after }
            $pv[$after] = $prev if $after >= 0;
        }
        @cand = ();
        for my $w (@written) {
            my $j = $w;
            my $k = 0;
            while ($j >= 0 && $k <= $W) {
                push @cand, $j if $c[$j] eq '&';
                $j = $pv[$j];
                $k++;
            }
        }
    }
    my $out = '';
    for (my $j = $head; $j >= 0; $j = $nx[$j]) { $out .= $c[$j] }
    return $out;
}

# ---------------------------------------------------------------- type sets

my %KNOWN_TYPE = map { $_ => 1 } qw(null boolean object array number integer string);

sub type_set {
    my @names = @_;
    my %t;
    for (@names) {
        if ($_ eq 'number') { $t{integer} = 1; $t{fraction} = 1 }
        else { $t{$_} = 1 }
    }
    return \%t;
}

sub t_and {
    my ($a, $b) = @_;
    return $b unless defined $a;
    return $a unless defined $b;
    return { map { $_ => 1 } grep { $b->{$_} } keys %$a };
}

sub t_or {
    my ($a, $b) = @_;
    return undef unless defined $a && defined $b;
    return { %$a, %$b };
}

# ---------------------------------------------------------------- ECMA-262 patterns

my $ES_IN  = '\t\n\x0B\f\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}';
my $ES_OUT = '\x00-\x08\x0E-\x1F\x21-\x9F\xA1-\x{167F}\x{1681}-\x{1FFF}\x{200B}-\x{2027}\x{202A}-\x{202E}\x{2030}-\x{205E}\x{2060}-\x{2FFF}\x{3001}-\x{FEFE}\x{FF00}-\x{10FFFF}';
my %CLASS_ESC = (
    d => '0-9', D => '\x00-\x2F\x3A-\x{10FFFF}',
    w => 'A-Za-z0-9_', W => '\x00-\x2F\x3A-\x40\x5B-\x5E\x60\x7B-\x{10FFFF}',
    s => $ES_IN, S => $ES_OUT,
);
my %CTRL_ESC = (f => '\f', n => '\n', r => '\r', t => '\t', v => '\x0B');

my %RE_CACHE;

sub ecma_regex {
    my ($p) = @_;
    return $RE_CACHE{$p} if exists $RE_CACHE{$p};
    my $groups = 0;
    {
        my $in = 0;
        for (my $i = 0; $i < length $p; $i++) {
            my $c = substr($p, $i, 1);
            if ($c eq '\\') { $i++; next }
            if ($in) { $in = 0 if $c eq ']'; next }
            if ($c eq '[') { $in = 1; next }
            if ($c eq '(') {
                my $nx = substr($p, $i + 1, 2);
                $groups++ if substr($nx, 0, 1) ne '?' || ($nx eq '?<' && substr($p, $i + 3, 1) !~ /[=!]/);
            }
        }
    }
    my $out = '';
    my $i = 0;
    my $n = length $p;
    my $atom = 0;
    my $depth = 0;
    my $bad = sub { die { kind => 'schema', msg => "pattern \"$p\" is not an ECMA-262 regular expression: $_[0]" } };
    my $escape = sub {
        my ($inclass) = @_;
        my $c = substr($p, $i + 1, 1);
        $bad->("trailing backslash") if $c eq '';
        $i += 2;
        if (exists $CLASS_ESC{$c}) { return $inclass ? $CLASS_ESC{$c} : "[$CLASS_ESC{$c}]" }
        return $CTRL_ESC{$c} if exists $CTRL_ESC{$c};
        if ($c eq 'b') { return $inclass ? '\x08' : '\b' }
        if ($c eq 'B') { $bad->("\\B in a class") if $inclass; return '\B' }
        if ($c eq 'c') {
            my $l = substr($p, $i, 1);
            $bad->("bad \\c") unless $l =~ /[A-Za-z]/;
            $i++;
            return sprintf('\x{%X}', ord($l) % 32);
        }
        if ($c eq '0') {
            $bad->("\\0 before a digit") if substr($p, $i, 1) =~ /[0-9]/;
            return '\x00';
        }
        if ($c =~ /[1-9]/) {
            $bad->("backreference in a class") if $inclass;
            substr($p, $i) =~ /\A([0-9]*)/;
            my $num = $c . $1;
            $i += length $1;
            $bad->("backreference \\$num to a group that does not exist") if $num > $groups;
            return "(?:\\g{$num})";
        }
        if ($c eq 'x') {
            substr($p, $i) =~ /\A([0-9A-Fa-f]{2})/ or $bad->("bad \\x");
            $i += 2;
            return sprintf('\x{%s}', $1);
        }
        if ($c eq 'u') {
            if (substr($p, $i) =~ /\A\{([0-9A-Fa-f]+)\}/) {
                my $v = $1;
                $i += length($v) + 2;
                $bad->("code point out of range") if hex($v) > 0x10FFFF || length($v) > 8;
                return sprintf('\x{%X}', hex $v);
            }
            if (substr($p, $i) =~ /\A([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})/) {
                $i += 10;
                return sprintf('\x{%X}', 0x10000 + ((hex($1) - 0xD800) << 10) + (hex($2) - 0xDC00));
            }
            substr($p, $i) =~ /\A([0-9A-Fa-f]{4})/ or $bad->("bad \\u");
            $i += 4;
            return sprintf('\x{%s}', $1);
        }
        if ($c eq 'p' || $c eq 'P') {
            substr($p, $i) =~ /\A\{([A-Za-z0-9_=]+)\}/ or $bad->("\\$c without braces");
            my $prop = $1;
            $i += length($prop) + 2;
            return "\\$c\{$prop\}";
        }
        if ($c eq 'k') {
            $bad->("\\k in a class") if $inclass;
            substr($p, $i) =~ /\A<([A-Za-z_\$][A-Za-z0-9_\$]*)>/ or $bad->("bad \\k");
            $i += length($1) + 2;
            return "\\k<$1>";
        }
        if ($c =~ m{[\^\$\\.*+?()\[\]{}|/]}) { return '\\' . $c }
        if ($c eq '-' && $inclass) { return '\\-' }
        $bad->("unknown escape \\$c");
    };
    while ($i < $n) {
        my $c = substr($p, $i, 1);
        if ($c eq '\\') {
            my $b = substr($p, $i + 1, 1);
            my $e = $escape->(0);
            $atom = ($b eq 'b' || $b eq 'B') ? 0 : 1;
            $out .= $e;
            next;
        }
        if ($c eq '[') {
            $i++;
            my $neg = '';
            if (substr($p, $i, 1) eq '^') { $neg = '^'; $i++ }
            my $body = '';
            my $closed = 0;
            while ($i < $n) {
                my $d = substr($p, $i, 1);
                if ($d eq ']') { $closed = 1; $i++; last }
                if ($d eq '\\') { $body .= $escape->(1); next }
                $body .= ($d =~ /[A-Za-z0-9]/ || ord($d) > 127) ? $d : ($d eq '-' ? '-' : '\\' . $d);
                $i++;
            }
            $bad->("unterminated class") unless $closed;
            if ($body eq '') { $out .= $neg ? '[\x00-\x{10FFFF}]' : '(?!)' }
            else { $out .= "[$neg$body]" }
            $atom = 1;
            next;
        }
        if ($c eq '(') {
            my $rest = substr($p, $i + 1);
            if    ($rest =~ /\A\?(?::|=|!|<=|<!)/) { my $l = length($&); $out .= '(' . $&; $i += 1 + $l }
            elsif ($rest =~ /\A\?<([A-Za-z_\$][A-Za-z0-9_\$]*)>/) { $out .= "(?<$1>"; $i += 1 + length($&) }
            elsif ($rest =~ /\A\?/) { $bad->("bad group") }
            else { $out .= '('; $i++ }
            $depth++;
            $atom = 0;
            next;
        }
        if ($c eq ')') {
            $bad->("unbalanced )") if $depth == 0;
            $depth--;
            $out .= ')';
            $i++;
            $atom = 1;
            next;
        }
        if ($c eq '*' || $c eq '+' || $c eq '?' || $c eq '{') {
            my $q = $c;
            if ($c eq '{') {
                substr($p, $i) =~ /\A\{([0-9]+)(,([0-9]*))?\}/ or $bad->("lone {");
                $q = $&;
                $bad->("numbers out of order in {}") if defined $3 && length $3 && $3 < $1;
            }
            $bad->("nothing to repeat") unless $atom;
            $i += length $q;
            if (substr($p, $i, 1) eq '?') { $q .= '?'; $i++ }
            $out .= $q;
            $atom = 0;
            next;
        }
        if ($c eq '}' || $c eq ']') { $bad->("lone $c") }
        if ($c eq '.') { $out .= '[^\n\r\x{2028}\x{2029}]'; $i++; $atom = 1; next }
        if ($c eq '^') { $out .= '\A'; $i++; $atom = 0; next }
        if ($c eq '$') { $out .= '\z'; $i++; $atom = 0; next }
        if ($c eq '|') { $out .= '|'; $i++; $atom = 0; next }
        $out .= ($c =~ /[A-Za-z0-9]/ || ord($c) > 127) ? $c : '\\' . $c;
        $i++;
        $atom = 1;
    }
    $bad->("unbalanced (") if $depth;
    my $re = eval { use warnings FATAL => 'all'; qr/(?a)$out/ };
    $bad->("not supported here") unless $re;
    return $RE_CACHE{$p} = $re;
}

# ---------------------------------------------------------------- schemas

my %DRAFT = (
    'http://json-schema.org/draft-04/schema'      => 4,
    'http://json-schema.org/draft-06/schema'      => 6,
    'http://json-schema.org/draft-07/schema'      => 7,
    'https://json-schema.org/draft/2019-09/schema' => 2019,
    'https://json-schema.org/draft/2020-12/schema' => 2020,
);

sub draft_of {
    my ($json, $default) = @_;
    return $default unless $json->{t} eq 'o';
    for (@{ $json->{m} }) {
        next unless $_->[1] eq '$schema' && $_->[2]{t} eq 's';
        my $u = $_->[2]{v};
        $u =~ s/#\z//;
        $u =~ s/\Ahttps?:/http:/ if $u =~ /draft-0/;
        return $DRAFT{$u} if $DRAFT{$u};
        (my $h = $u) =~ s/\Ahttp:/https:/;
        return $DRAFT{$h} if $DRAFT{$h};
    }
    return $default;
}

sub member {
    my ($json, $key) = @_;
    return undef unless $json->{t} eq 'o';
    for (@{ $json->{m} }) { return $_->[2] if $_->[1] eq $key }
    return undef;
}

sub serr { die { kind => 'schema', msg => $_[0] } }

sub ptr_str { my $p = shift; return length($p) ? $p : '(root)' }

# RFC 3986 reference resolution.
sub split_uri {
    my ($u) = @_;
    $u =~ /\A(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^\/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?\z/s;
    return ($1, $2, $3, $4, $5);
}

sub remove_dots {
    my ($path) = @_;
    my @in = split m{(?=/)}, $path;
    my @out;
    my $s = $path;
    my $o = '';
    while (length $s) {
        if    ($s =~ s{\A\.\.?/}{}) { }
        elsif ($s =~ s{\A/\.(/|\z)}{/}) { }
        elsif ($s =~ s{\A/\.\.(/|\z)}{/}) { $o =~ s{/?[^/]*\z}{} }
        elsif ($s eq '.' || $s eq '..') { $s = '' }
        else { $s =~ s{\A(/?[^/]*)}{}; $o .= $1 }
    }
    return $o;
}

sub join_uri {
    my ($scheme, $auth, $path, $query, $frag) = @_;
    my $u = '';
    $u .= "$scheme:" if defined $scheme;
    $u .= "//$auth" if defined $auth;
    $u .= $path;
    $u .= "?$query" if defined $query;
    $u .= "#$frag" if defined $frag;
    return $u;
}

sub resolve_uri {
    my ($base, $ref) = @_;
    my ($rs, $ra, $rp, $rq, $rf) = split_uri($ref);
    my ($bs, $ba, $bp, $bq) = split_uri($base);
    my ($s, $a, $p, $q);
    if (defined $rs) { ($s, $a, $p, $q) = ($rs, $ra, remove_dots($rp), $rq) }
    else {
        if (defined $ra) { ($a, $p, $q) = ($ra, remove_dots($rp), $rq) }
        else {
            if ($rp eq '') { $p = $bp; $q = defined $rq ? $rq : $bq }
            else {
                if ($rp =~ m{\A/}) { $p = remove_dots($rp) }
                else {
                    my $m;
                    if (defined $ba && $bp eq '') { $m = "/$rp" }
                    else { ($m = $bp) =~ s{[^/]*\z}{}; $m .= $rp }
                    $p = (defined $bs || defined $ba || $m =~ m{\A/}) ? remove_dots($m) : remove_dots($m);
                }
                $q = $rq;
            }
            $a = $ba;
        }
        $s = $bs;
    }
    return join_uri($s, $a, $p, $q, $rf);
}

sub strip_frag { my $u = shift; $u =~ s/#.*\z//s; return $u }

sub pct_decode {
    my ($s) = @_;
    return $s unless $s =~ /%/;
    $s =~ s/%([0-9A-Fa-f]{2})/chr(hex $1)/ge;
    utf8::decode($s);
    return $s;
}

my %SUBSCHEMA_MAP = map { $_ => 1 } qw(properties patternProperties $defs definitions dependentSchemas);
my %SUBSCHEMA_ONE = map { $_ => 1 } qw(additionalProperties additionalItems not if then else contains propertyNames unevaluatedProperties unevaluatedItems contentSchema);
my %SUBSCHEMA_LIST = map { $_ => 1 } qw(allOf anyOf oneOf prefixItems);

sub new_compiler {
    my ($root, $draft) = @_;
    my $c = { nodes => {}, byuri => {}, anchors => {}, dyn => {}, seq => 0, root => $root };
    bless $c, 'Norm::Compiler';
    return $c;
}

package Norm::Compiler;
use strict;
use warnings;
no warnings qw(recursion surrogate nonchar non_unicode);
use Scalar::Util qw(refaddr);

sub node_for {
    my ($c, $json, $base, $draft, $res, $ptr) = @_;
    my $a = refaddr($json);
    return $c->{nodes}{$a} if $c->{nodes}{$a};
    my $n = { id => ++$c->{seq}, json => $json, base => $base, draft => $draft, res => $res, ptr => $ptr };
    $c->{nodes}{$a} = $n;
    return $n;
}

# Walks every schema position, registering identifiers and anchors.
sub scan {
    my ($c, $json, $base, $draft, $res, $ptr) = @_;
    if ($json->{t} ne 'o') {
        $c->node_for($json, $base, $draft, $res, $ptr);
        return;
    }
    $draft = Norm::draft_of($json, $draft);
    my $idkey = $draft == 4 ? 'id' : '$id';
    my $idv = Norm::member($json, $idkey);
    my $hasref = defined Norm::member($json, '$ref');
    my $anchor_name;
    if ($idv && $idv->{t} eq 's' && !($hasref && $draft <= 7)) {
        my $id = $idv->{v};
        if ($id =~ /\A#(.*)\z/s) {
            $anchor_name = $1 if $draft <= 7 && length $1;
        }
        else {
            my $full = Norm::resolve_uri($base, $id);
            my $frag = ($full =~ /#(.*)\z/s) ? $1 : '';
            $base = Norm::strip_frag($full);
            $res = undef;
            $anchor_name = $frag if $draft <= 7 && length $frag;
        }
    }
    my $n = $c->node_for($json, $base, $draft, $res, $ptr);
    $n->{draft} = $draft;
    $n->{base} = $base;
    if (!defined $res) { $res = $n; $n->{res} = $n; $c->{byuri}{$base} //= $n }
    else { $n->{res} = $res }
    $c->{anchors}{$base}{$anchor_name} //= $n if defined $anchor_name;
    if ($draft >= 2019) {
        my $an = Norm::member($json, '$anchor');
        $c->{anchors}{$base}{ $an->{v} } //= $n if $an && $an->{t} eq 's';
    }
    if ($draft >= 2020) {
        my $dn = Norm::member($json, '$dynamicAnchor');
        if ($dn && $dn->{t} eq 's') {
            $c->{anchors}{$base}{ $dn->{v} } //= $n;
            $c->{dyn}{$base}{ $dn->{v} } //= $n;
        }
    }
    if ($draft == 2019) {
        my $ra = Norm::member($json, '$recursiveAnchor');
        $res->{recanchor} = 1 if $ra && $ra->{raw} && $ra->{raw} eq 'true' && $res == $n;
    }
    for my $m (@{ $json->{m} }) {
        my ($k, $v) = ($m->[1], $m->[2]);
        my $kp = $k; $kp =~ s/~/~0/g; $kp =~ s{/}{~1}g;
        my $p = "$ptr/$kp";
        if ($SUBSCHEMA_MAP{$k} && $v->{t} eq 'o') {
            for my $mm (@{ $v->{m} }) {
                my $kk = $mm->[1]; $kk =~ s/~/~0/g; $kk =~ s{/}{~1}g;
                $c->scan($mm->[2], $base, $draft, $res, "$p/$kk") if $mm->[2]{t} eq 'o' || $mm->[2]{t} eq 'l';
            }
        }
        elsif ($k eq 'dependencies' && $v->{t} eq 'o') {
            for my $mm (@{ $v->{m} }) {
                $c->scan($mm->[2], $base, $draft, $res, "$p/x") if $mm->[2]{t} eq 'o';
            }
        }
        elsif ($SUBSCHEMA_ONE{$k} && ($v->{t} eq 'o' || $v->{t} eq 'l')) {
            $c->scan($v, $base, $draft, $res, $p);
        }
        elsif (($SUBSCHEMA_LIST{$k} || $k eq 'items') && $v->{t} eq 'a') {
            my $i = 0;
            $c->scan($_, $base, $draft, $res, "$p/" . $i++) for grep { $_->{t} eq 'o' || $_->{t} eq 'l' } @{ $v->{e} };
        }
        elsif ($k eq 'items' && ($v->{t} eq 'o' || $v->{t} eq 'l')) {
            $c->scan($v, $base, $draft, $res, $p);
        }
    }
}

sub resolve_ref {
    my ($c, $n, $ref, $where) = @_;
    my $full = Norm::resolve_uri($n->{base}, $ref);
    my $frag = ($full =~ /#(.*)\z/s) ? $1 : '';
    my $uri = Norm::strip_frag($full);
    my $res = $c->{byuri}{$uri};
    Norm::serr("\$ref \"$ref\" does not resolve: no schema \"$uri\" was supplied at $where") unless $res;
    $frag = Norm::pct_decode($frag);
    if ($frag eq '') { return $res }
    if ($frag =~ m{\A/}) {
        my $j = $res->{json};
        my $ptr = $res->{ptr};
        for my $seg (split m{/}, substr($frag, 1), -1) {
            $seg =~ s/~1/\//g;
            $seg =~ s/~0/~/g;
            if ($j->{t} eq 'o') {
                my $found;
                for (@{ $j->{m} }) { if ($_->[1] eq $seg) { $found = $_->[2]; last } }
                Norm::serr("\$ref \"$ref\" does not resolve: no member \"$seg\" at $where") unless $found;
                $j = $found;
            }
            elsif ($j->{t} eq 'a' && $seg =~ /\A(?:0|[1-9][0-9]*)\z/ && $seg < @{ $j->{e} }) {
                $j = $j->{e}[$seg];
            }
            else { Norm::serr("\$ref \"$ref\" does not resolve: no member \"$seg\" at $where") }
            $ptr .= "/$seg";
        }
        return $c->node_for($j, $res->{base}, $res->{draft}, $res, $ptr);
    }
    my $a = $c->{anchors}{$uri}{$frag};
    Norm::serr("\$ref \"$ref\" does not resolve: no anchor \"$frag\" at $where") unless $a;
    return $a;
}

sub schema_check {
    my ($v, $where) = @_;
    return if $v->{t} eq 'o' || ($v->{t} eq 'l' && $v->{raw} ne 'null');
    my $what = $v->{t} eq 'a' ? 'an array' : $v->{t} eq 's' ? 'a string' : $v->{t} eq 'n' ? 'a number' : 'null';
    Norm::serr("a schema must be an object or a boolean, not $what at " . Norm::ptr_str($where));
}

# Compiles a node: checks the keywords that declare types, resolves references.
sub compile {
    my ($c, $n) = @_;
    return $n if $n->{compiled};
    $n->{compiled} = 1;
    my $j = $n->{json};
    my $where = $n->{ptr};
    schema_check($j, $where);
    if ($j->{t} eq 'l') { $n->{bool} = $j->{raw} eq 'true' ? 1 : 0; return $n }
    my $draft = $n->{draft};
    my %k;
    $k{ $_->[1] } = $_->[2] for @{ $j->{m} };
    my $sub = sub {
        my ($v, $p) = @_;
        schema_check($v, $p);
        my $m = $c->node_for($v, $n->{base}, $draft, $n->{res}, $p);
        $c->compile($m);
        return $m;
    };
    if (exists $k{'$ref'} && ($draft <= 7 || $SW{s3})) {
        my $r = $k{'$ref'};
        Norm::serr("\$ref must be a string at $where/\$ref") unless $r->{t} eq 's';
        $n->{refs} = [ $c->compile($c->resolve_ref($n, $r->{v}, "$where/\$ref")) ];
        return $n;
    }
    if (my $t = $k{type}) {
        my @names;
        if ($t->{t} eq 's') { @names = ($t->{v}) }
        elsif ($t->{t} eq 'a') {
            for (@{ $t->{e} }) {
                Norm::serr("type must be a string or an array of strings at $where/type") unless $_->{t} eq 's';
                push @names, $_->{v};
            }
        }
        else { Norm::serr("type must be a string or an array of strings at $where/type") }
        for (@names) { Norm::serr("unknown type \"$_\" at $where/type") unless $KNOWN_TYPE{$_} }
        if (my $nl = $k{nullable}) {
            Norm::serr("nullable must be a boolean at $where/nullable") unless $nl->{t} eq 'l' && $nl->{raw} ne 'null';
            push @names, 'null' if $nl->{raw} eq 'true';
        }
        $n->{types} = Norm::type_set(@names);
    }
    if (my $p = $k{properties}) {
        Norm::serr("properties must be an object at $where/properties") unless $p->{t} eq 'o';
        $n->{props} = {};
        for (@{ $p->{m} }) {
            my $kp = $_->[1]; $kp =~ s/~/~0/g; $kp =~ s{/}{~1}g;
            $n->{props}{ $_->[1] } //= $sub->($_->[2], "$where/properties/$kp");
        }
    }
    if (my $p = $k{patternProperties}) {
        Norm::serr("patternProperties must be an object at $where/patternProperties") unless $p->{t} eq 'o';
        $n->{pats} = [];
        for (@{ $p->{m} }) {
            my $re = Norm::ecma_regex($_->[1]);
            my $kp = $_->[1]; $kp =~ s/~/~0/g; $kp =~ s{/}{~1}g;
            push @{ $n->{pats} }, [ $re, $sub->($_->[2], "$where/patternProperties/$kp") ];
        }
    }
    $n->{addl} = $sub->($k{additionalProperties}, "$where/additionalProperties") if $k{additionalProperties};
    if (my $it = $k{items}) {
        if ($it->{t} eq 'a') {
            my $i = 0;
            $n->{tuple} = [ map { $sub->($_, "$where/items/" . $i++) } @{ $it->{e} } ];
            $n->{tuple_items} = 1;
        }
        else { $n->{items} = $sub->($it, "$where/items") }
    }
    if (my $pi = $k{prefixItems}) {
        Norm::serr("prefixItems must be an array at $where/prefixItems") unless $pi->{t} eq 'a';
        my $i = 0;
        $n->{tuple} = [ map { $sub->($_, "$where/prefixItems/" . $i++) } @{ $pi->{e} } ];
        $n->{tuple_items} = 0;
    }
    $n->{additems} = $sub->($k{additionalItems}, "$where/additionalItems") if $k{additionalItems};
    for my $kw (qw(allOf anyOf oneOf)) {
        my $l = $k{$kw} or next;
        Norm::serr("$kw must be a non-empty array at $where/$kw") unless $l->{t} eq 'a' && @{ $l->{e} };
        my $i = 0;
        $n->{$kw} = [ map { $sub->($_, "$where/$kw/" . $i++) } @{ $l->{e} } ];
    }
    for my $kw ('$defs', 'definitions') {
        my $d = $k{$kw} or next;
        Norm::serr("$kw must be an object at $where/$kw") unless $d->{t} eq 'o';
        for (@{ $d->{m} }) {
            my $kp = $_->[1]; $kp =~ s/~/~0/g; $kp =~ s{/}{~1}g;
            $sub->($_->[2], "$where/$kw/$kp");
        }
    }
    if (my $r = $k{'$ref'}) {
        Norm::serr("\$ref must be a string at $where/\$ref") unless $r->{t} eq 's';
        push @{ $n->{refs} }, $c->compile($c->resolve_ref($n, $r->{v}, "$where/\$ref"));
    }
    if ($draft >= 2020 && (my $r = $k{'$dynamicRef'})) {
        Norm::serr("\$dynamicRef must be a string at $where/\$dynamicRef") unless $r->{t} eq 's';
        my $t = $c->compile($c->resolve_ref($n, $r->{v}, "$where/\$dynamicRef"));
        my $name = ($r->{v} =~ /#(.*)\z/s) ? Norm::pct_decode($1) : undef;
        my $tda = Norm::member($t->{json}, '$dynamicAnchor');
        if (defined $name && $name !~ m{\A/} && $tda && $tda->{t} eq 's' && $tda->{v} eq $name) {
            push @{ $n->{dynrefs} }, [ $t, $name ];
        }
        else { push @{ $n->{refs} }, $t }
    }
    if ($draft == 2019 && (my $r = $k{'$recursiveRef'})) {
        Norm::serr("\$recursiveRef must be a string at $where/\$recursiveRef") unless $r->{t} eq 's';
        my $t = $c->compile($c->resolve_ref($n, $r->{v}, "$where/\$recursiveRef"));
        if ($t->{recanchor}) { push @{ $n->{recrefs} }, $t }
        else { push @{ $n->{refs} }, $t }
    }
    return $n;
}

# The dynamic scope: the resources entered, outermost first.
sub enter {
    my ($scope, $n) = @_;
    my $r = $n->{res};
    return $scope if !$r || grep { $_ == $r } @$scope;
    return [ @$scope, $r ];
}

sub scope_key { join ',', map { $_->{id} } @{ $_[0] } }

# Applicator edges of a node: [kind, node, scope], kind 'and' or 'or:i'.
sub edges {
    my ($c, $n, $scope) = @_;
    return () if defined $n->{bool};
    my @e;
    for my $t (@{ $n->{refs} || [] }) { push @e, [ 'and', $t, enter($scope, $t) ] }
    for my $d (@{ $n->{dynrefs} || [] }) {
        my ($t, $name) = @$d;
        for my $r (@$scope) {
            my $a = $c->{dyn}{ $r->{base} }{$name};
            if ($a) { $c->compile($a); $t = $a; last }
        }
        push @e, [ 'and', $t, enter($scope, $t) ];
    }
    for my $t0 (@{ $n->{recrefs} || [] }) {
        my $t = $t0;
        for my $r (@$scope) { if ($r->{recanchor}) { $c->compile($r); $t = $r; last } }
        push @e, [ 'and', $t, enter($scope, $t) ];
    }
    for my $t (@{ $n->{allOf} || [] }) { push @e, [ 'and', $t, enter($scope, $t) ] }
    for my $kw (qw(anyOf oneOf)) {
        next unless $n->{$kw};
        push @e, [ $kw, [ map { [ $_, enter($scope, $_) ] } @{ $n->{$kw} } ] ];
    }
    return @e;
}

sub on_cycle {
    my ($c, $n, $scope) = @_;
    my $key = $n->{id} . '|' . scope_key($scope);
    return $c->{cyc}{$key} if exists $c->{cyc}{$key};
    my %seen;
    my @stack = ([ $n, $scope ]);
    my $found = 0;
    while (@stack && !$found) {
        my ($m, $s) = @{ pop @stack };
        for my $e ($c->edges($m, $s)) {
            my @to = $e->[0] eq 'and' ? ([ $e->[1], $e->[2] ]) : @{ $e->[1] };
            for my $t (@to) {
                my $k = $t->[0]{id} . '|' . scope_key($t->[1]);
                if ($k eq $key) { $found = 1; last }
                next if $seen{$k}++;
                push @stack, $t;
            }
        }
    }
    return $c->{cyc}{$key} = $found;
}

# What a node declares: undef (nothing) or a type set.
sub node_types {
    my ($c, $n, $scope) = @_;
    if (defined $n->{bool}) { return $n->{bool} ? undef : {} }
    my $key = $n->{id} . '|' . scope_key($scope);
    return $c->{types}{$key} if exists $c->{types}{$key};
    my $t;
    if (!$c->on_cycle($n, $scope)) {
        $t = $n->{types};
        for my $e ($c->edges($n, $scope)) {
            if ($e->[0] eq 'and') { $t = Norm::t_and($t, $c->node_types($e->[1], $e->[2])) }
            else {
                my $u = {};
                for (@{ $e->[1] }) { $u = Norm::t_or($u, $c->node_types(@$_)); last unless defined $u }
                $t = Norm::t_and($t, $u);
            }
        }
    }
    return $c->{types}{$key} = $t;
}

sub admits {
    my ($t, $jt) = @_;
    return !defined $t || $t->{$jt};
}

# A view: a list of items that all apply: ['S', node, scope] or ['D', [view, ...]].
sub view_types {
    my ($c, $view) = @_;
    my $t;
    for my $it (@$view) {
        if ($it->[0] eq 'S') { $t = Norm::t_and($t, $c->node_types($it->[1], $it->[2])) }
        else {
            my $u = {};
            for (@{ $it->[1] }) { $u = Norm::t_or($u, $c->view_types($_)); last unless defined $u }
            $t = Norm::t_and($t, $u);
        }
    }
    return $t;
}

sub node_children {
    my ($c, $n, $scope, $sel, $jt) = @_;
    return () if defined $n->{bool} || $c->on_cycle($n, $scope);
    my @out;
    my $S = sub { my $m = shift; push @out, [ 'S', $m, enter($scope, $m) ] };
    if ($jt eq 'object') {
        my $matched = 0;
        if ($n->{props} && exists $n->{props}{$sel}) { $S->($n->{props}{$sel}); $matched = 1 }
        for my $pp (@{ $n->{pats} || [] }) {
            if ($sel =~ $pp->[0]) { $S->($pp->[1]); $matched = 1 unless $SW{s6} }
        }
        $S->($n->{addl}) if !$matched && $n->{addl};
    }
    else {
        if ($n->{tuple}) {
            if ($sel < @{ $n->{tuple} }) { $S->($n->{tuple}[$sel]) }
            elsif ($n->{tuple_items}) { $S->($n->{additems}) if $n->{additems} }
            elsif ($n->{items}) { $S->($n->{items}) }
        }
        elsif ($n->{items}) { $S->($n->{items}) }
    }
    for my $e ($c->edges($n, $scope)) {
        if ($e->[0] eq 'and') { push @out, $c->node_children($e->[1], $e->[2], $sel, $jt) }
        else {
            my @alts;
            for (@{ $e->[1] }) {
                my ($b, $bs) = @$_;
                next unless admits($c->node_types($b, $bs), $jt);
                push @alts, [ $c->node_children($b, $bs, $sel, $jt) ];
            }
            push @out, [ 'D', \@alts ] if @alts;
        }
    }
    return @out;
}

sub child_view {
    my ($c, $view, $sel, $jt) = @_;
    my @out;
    for my $it (@$view) {
        if ($it->[0] eq 'S') { push @out, $c->node_children($it->[1], $it->[2], $sel, $jt) }
        else {
            my @alts;
            for my $alt (@{ $it->[1] }) {
                next unless admits($c->view_types($alt), $jt);
                push @alts, $c->child_view($alt, $sel, $jt);
            }
            push @out, [ 'D', \@alts ] if @alts;
        }
    }
    return \@out;
}

package Norm;

# ---------------------------------------------------------------- normalization

sub check_duplicates {
    my ($v, $ptr) = @_;
    my @stack = ([ $v, $ptr ]);
    while (@stack) {
        my ($x, $p) = @{ pop @stack };
        if ($x->{t} eq 'o') {
            my %seen;
            for (@{ $x->{m} }) {
                serr("duplicate key \"$_->[1]\" at " . ptr_str($p)) if $seen{ $_->[1] }++;
                my $k = $_->[1]; $k =~ s/~/~0/g; $k =~ s{/}{~1}g;
                push @stack, [ $_->[2], "$p/$k" ];
            }
        }
        elsif ($x->{t} eq 'a') {
            my $i = 0;
            push @stack, [ $_, "$p/" . $i++ ] for @{ $x->{e} };
        }
    }
}

sub compile_schema {
    my ($schema) = @_;
    check_duplicates($schema, '');
    Norm::Compiler::schema_check($schema, '');
    my $c = new_compiler($schema);
    my $draft = draft_of($schema, 2020);
    $c->scan($schema, '', $draft, undef, '');
    $c->{byuri}{''} //= $c->{nodes}{ refaddr($schema) };
    my $root = $c->{nodes}{ refaddr($schema) };
    $c->compile($root);
    return ($c, [ [ 'S', $root, [ $root->{res} ] ] ]);
}

sub json_wanted {
    my ($t) = @_;
    return 0 unless defined $t;
    return 0 if $t->{string} && !$SW{s2};
    return $t->{array} || $t->{object};
}

sub try_decode {
    my ($c, $text, $t, $depth) = @_;
    return undef unless $text =~ /\A[ \t\n\r]*[\[{]/;
    return undef if $text =~ /[\x{D800}-\x{DFFF}]/;
    my $v = eval { parse_json($text, $MAX_DEPTH, $depth, $SW{s4}) };
    if (!$v) {
        my $e = $@;
        die $e if ref $e && $e->{kind} eq 'depth';
        return undef;
    }
    return $v if $v->{t} eq 'a' && $t->{array};
    return $v if $v->{t} eq 'o' && $t->{object};
    return undef;
}

sub norm_value {
    my ($c, $v, $view, $depth) = @_;
    my $t = $v->{t};
    if ($t eq 'o') {
        my @m;
        for my $m (@{ $v->{m} }) {
            my $cv = $c->child_view($view, $m->[1], 'object');
            my ($kraw, $k) = ($m->[0], $m->[1]);
            if ($SW{s5} && index($k, '&') >= 0) {
                my $d = unescape_fixpoint($k);
                ($kraw, $k) = (encode_string($d), $d) if $d ne $k;
            }
            push @m, [ $kraw, $k, norm_value($c, $m->[2], $cv, $depth + 1) ];
        }
        return { t => 'o', m => \@m };
    }
    if ($t eq 'a') {
        my @e;
        my $i = 0;
        for my $x (@{ $v->{e} }) {
            push @e, norm_value($c, $x, $c->child_view($view, $i++, 'array'), $depth + 1);
        }
        return { t => 'a', e => \@e };
    }
    if ($t eq 's') {
        my $types = $c->view_types($view);
        my $want = json_wanted($types);
        if ($want) {
            my $d = try_decode($c, $v->{v}, $types, $depth);
            return norm_value($c, $d, $view, $depth) if $d;
        }
        return $v if index($v->{v}, '&') < 0;
        my $u = unescape_fixpoint($v->{v});
        return $v if $u eq $v->{v};
        if ($want) {
            my $d = try_decode($c, $u, $types, $depth);
            return norm_value($c, $d, $view, $depth) if $d;
        }
        return { t => 's', v => $u };
    }
    return $v;
}

# normalize(schema value, arguments value) -> arguments value; dies {kind, msg}
sub normalize {
    my ($schema, $args) = @_;
    my ($c, $view) = compile_schema($schema);
    die { kind => 'args', msg => 'arguments must be a JSON object' } unless $args->{t} eq 'o';
    check_depth($args);
    return norm_value($c, $args, $view, 0);
}

sub check_depth {
    my ($v) = @_;
    my @stack = ([ $v, 1 ]);
    while (@stack) {
        my ($x, $d) = @{ pop @stack };
        next unless $x->{t} eq 'o' || $x->{t} eq 'a';
        die { kind => 'depth', msg => "nesting too deep: more than $MAX_DEPTH nested arrays and objects" } if $d > $MAX_DEPTH;
        push @stack, map { [ $_->[2], $d + 1 ] } @{ $x->{m} } if $x->{t} eq 'o';
        push @stack, map { [ $_, $d + 1 ] } @{ $x->{e} } if $x->{t} eq 'a';
    }
}

1;
