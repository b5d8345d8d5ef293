# frozen_string_literal: true
# HTML character reference decoding as the WHATWG tokenizer does it in text
# content, and its fixpoint (repeat until nothing changes), on binary strings.
require_relative 'entities'
require_relative 'rjson'

module EntityDecode
  TABLE = HTMLEntities::TABLE
  LONGEST = TABLE.keys.map(&:length).max
  WIN1252 = {
    0x80 => 0x20AC, 0x82 => 0x201A, 0x83 => 0x0192, 0x84 => 0x201E, 0x85 => 0x2026,
    0x86 => 0x2020, 0x87 => 0x2021, 0x88 => 0x02C6, 0x89 => 0x2030, 0x8A => 0x0160,
    0x8B => 0x2039, 0x8C => 0x0152, 0x8E => 0x017D, 0x91 => 0x2018, 0x92 => 0x2019,
    0x93 => 0x201C, 0x94 => 0x201D, 0x95 => 0x2022, 0x96 => 0x2013, 0x97 => 0x2014,
    0x98 => 0x02DC, 0x99 => 0x2122, 0x9A => 0x0161, 0x9B => 0x203A, 0x9C => 0x0153,
    0x9E => 0x017E, 0x9F => 0x0178
  }.freeze
  REF_AT = /\G&(?:#([xX])([0-9a-fA-F]+)(;?)|#([0-9]+)(;?)|([A-Za-z0-9]+)(;?))/n
  REF_AT_V1 = /\G&(?:#([xX])([0-9a-f]+)(;?)|#([0-9]+)(;?)|([A-Za-z0-9]+)(;?))/n
  @ref_re = REF_AT

  class << self
    attr_accessor :ref_re
  end
  # how far the decision at an '&' can read, plus room
  WINDOW = 40

  module_function

  def numeric(digits, base)
    d = digits.sub(/\A0+/, '')
    cp = if d.empty? then 0
         elsif d.length > 8 then 0x110000
         else d.to_i(base)
         end
    if cp >= 0x80 && cp <= 0x9F
      cp = WIN1252.fetch(cp, cp)
    elsif cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF
      cp = 0xFFFD
    end
    RJSON.cp_bytes(cp)
  end

  # Try to decode a reference at s[i] (an '&'). Returns [replacement, consumed] or nil.
  def ref_at(s, i)
    m = EntityDecode.ref_re.match(s, i)
    return nil unless m
    if m[2]
      return [numeric(m[2], 16), m[0].length]
    elsif m[4]
      return [numeric(m[4], 10), m[0].length]
    end
    run = m[6]
    if m[7] == ';' && run.length < LONGEST
      v = TABLE[run + ';']
      return [v, run.length + 2] if v
    end
    k = [run.length, LONGEST].min
    while k > 0
      name = run[0, k]
      v = TABLE[name]
      return [v, k + 1] if v
      k -= 1
    end
    nil
  end

  # One pass. Returns [out, first_change, last_change_end] (positions in out) or [s, nil, nil].
  def pass(s)
    i = s.index('&')
    return [s, nil, nil] unless i
    out = String.new(capacity: s.bytesize, encoding: Encoding::BINARY)
    first = nil
    last = nil
    pos = 0
    while i
      r = ref_at(s, i)
      if r
        out << s.byteslice(pos, i - pos)
        first ||= out.bytesize
        out << r[0]
        last = out.bytesize
        pos = i + r[1]
        i = s.index('&', pos)
      else
        i = s.index('&', i + 1)
      end
    end
    return [s, nil, nil] unless first
    out << s.byteslice(pos, s.bytesize - pos)
    [out, first, last]
  end

  # Decode until the value stops changing (max_passes 0: no bound).
  # Linear in practice: after the first pass only the window around what the
  # previous pass changed is scanned again; the text is kept as a gap buffer
  # (left part, and the right part reversed) so edits cost their window.
  def fixpoint(s, max_passes = 0, lookback: WINDOW)
    s = s.b
    out, first, last = pass(s)
    return s unless first
    passes = 1
    left = out
    right = String.new(encoding: Encoding::BINARY) # reversed
    loop do
      return left + right.reverse if max_passes > 0 && passes >= max_passes
      p0 = first - lookback
      p0 = 0 if p0 < 0
      q0 = last + WINDOW
      # move the gap to p0
      if left.bytesize > p0
        right << left.slice!(p0..).reverse
      elsif left.bytesize < p0
        d = [p0 - left.bytesize, right.bytesize].min
        left << right.slice!((right.bytesize - d)..).reverse if d > 0
      end
      # take the window [p0, q0) from the right part, extended past a reference's tail
      n = [q0 - p0, right.bytesize].min
      w = n > 0 ? right.slice!((right.bytesize - n)..).reverse : String.new(encoding: Encoding::BINARY)
      while !right.empty? && (b = right.getbyte(-1)) && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x23)
        w << right.slice!(-1)
      end
      w << right.slice!(-1) if !right.empty? && right.getbyte(-1) == 0x3B
      wout, f, l = pass(w)
      passes += 1
      left << wout
      return left + right.reverse unless f
      first = p0 + f
      last = p0 + l
    end
  end
end
