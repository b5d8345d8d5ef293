#!/usr/bin/perl
# toolnorm protocol version 1 adapter for the Perl normalizer (Norm.pm).
# Requests on stdin, answers on stdout, one compact JSON object per line.
use strict;
use warnings;
no warnings qw(recursion surrogate nonchar non_unicode);
use FindBin;
use lib $FindBin::Bin;
use Norm;

binmode STDIN;
binmode STDOUT;
$| = 0;

my $name = 'perl-rt-tool-8';

sub member {
    my ($obj, $key) = @_;
    for (@{ $obj->{m} }) { return $_->[2] if $_->[1] eq $key }
    return undef;
}

sub answer {
    my ($line) = @_;
    utf8::encode($line);
    print STDOUT $line, "\n";
    STDOUT->flush;
}

while (defined(my $line = <STDIN>)) {
    $line =~ s/\r?\n\z//;
    next unless length $line;
    my $text = $line;
    unless (utf8::decode($text)) {
        print STDERR "request is not UTF-8; ignored\n";
        next;
    }
    my $req = eval { Norm::parse_json($text, undef, 0) };
    if (!$req || $req->{t} ne 'o') {
        print STDERR "cannot read request: ", (ref $@ ? $@->{msg} : $@), "\n";
        next;
    }
    my $cmd = member($req, 'cmd');
    next unless $cmd && $cmd->{t} eq 's';
    if ($cmd->{v} eq 'start') {
        answer('{"version":1,"implementation":{"name":"' . $name . '","language":"Perl","version":"0.1.0"},'
             . '"declares":{"profile":"text","max_passes":0,"depth":"all","repairs":["json","entities"]}}');
        next;
    }
    last if $cmd->{v} eq 'stop';
    next unless $cmd->{v} eq 'normalize';
    my $id = member($req, 'id');
    my $idraw = $id ? $id->{raw} : 'null';
    my $schema = member($req, 'schema');
    my $args = member($req, 'arguments');
    my $out = eval {
        die { msg => 'request has no schema or no arguments' } unless $schema && $args;
        Norm::write_json(Norm::normalize($schema, $args));
    };
    if (defined $out) {
        answer('{"id":' . $idraw . ',"arguments":' . $out . '}');
    }
    else {
        my $e = $@;
        my $msg = ref $e ? "$e->{kind}: $e->{msg}" : "internal error: $e";
        $msg =~ s/\s+\z//;
        answer('{"id":' . $idraw . ',"error":' . Norm::encode_string($msg) . '}');
    }
}
exit 0;
