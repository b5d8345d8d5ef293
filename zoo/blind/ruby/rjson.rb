# frozen_string_literal: true
# A JSON reader and writer that keeps what it does not change: number text,
# string escapes, member order and duplicate members.
#
# Nodes (plain arrays, for speed):
#   [:obj, [[key_node, value_node], ...]]
#   [:arr, [value_node, ...]]
#   [:str, raw_text_with_quotes_or_nil, decoded_bytes]   (decoded: binary; lone surrogates as WTF-8)
#   [:num, raw_text]
#   [:lit, raw_text]   true / false / null
require 'strscan'

module RJSON
  class ParseError < StandardError; end

  WS = /[ \t\n\r]*/n
  NUM = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/n
  STR_SIMPLE = /"([^"\\\x00-\x1f]*)"/n
  STR_ANY = /"((?:[^"\\\x00-\x1f]|\\(?:["\\\/bfnrt]|u[0-9a-fA-F]{4}))*)"/n
  ESC = { 'b' => "\b", 'f' => "\f", 'n' => "\n", 'r' => "\r", 't' => "\t", '"' => '"', '\\' => '\\', '/' => '/' }.freeze

  module_function

  def utf8_ok?(bytes)
    bytes.dup.force_encoding(Encoding::UTF_8).valid_encoding?
  end

  # encode a code point as UTF-8 bytes, surrogates as WTF-8 (generalized UTF-8)
  def cp_bytes(cp)
    if cp < 0x80
      cp.chr.b
    elsif cp < 0x800
      [0xC0 | (cp >> 6), 0x80 | (cp & 0x3F)].pack('C*')
    elsif cp < 0x10000
      [0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F)].pack('C*')
    else
      [0xF0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3F), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F)].pack('C*')
    end
  end

  def unescape(body)
    return body unless body.include?('\\')
    out = String.new(encoding: Encoding::BINARY)
    ss = StringScanner.new(body)
    until ss.eos?
      if (t = ss.scan(/[^\\]+/n))
        out << t
      else
        ss.getch
        c = ss.getch
        if c == 'u'
          cp = ss.peek(4).to_i(16)
          ss.pos += 4
          if cp >= 0xD800 && cp <= 0xDBFF && ss.peek(2) == '\\u'
            lo = ss.string.byteslice(ss.pos + 2, 4).to_i(16)
            if lo >= 0xDC00 && lo <= 0xDFFF
              ss.pos += 6
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
            end
          end
          out << cp_bytes(cp)
        else
          out << ESC[c]
        end
      end
    end
    out
  end

  # Parse a whole JSON text (binary string). Iterative: any depth.
  def parse(text)
    text = text.b
    raise ParseError, 'invalid UTF-8' unless utf8_ok?(text)
    ss = StringScanner.new(text)
    stack = [] # frames: [node, pending_key]
    root = nil
    ss.skip(WS)
    loop do
      # read a value
      val = nil
      c = ss.peek(1)
      case c
      when '{'
        ss.pos += 1
        ss.skip(WS)
        node = [:obj, []]
        if ss.peek(1) == '}'
          ss.pos += 1
          val = node
        else
          key = read_key(ss)
          stack << [node, key]
          next
        end
      when '['
        ss.pos += 1
        ss.skip(WS)
        node = [:arr, []]
        if ss.peek(1) == ']'
          ss.pos += 1
          val = node
        else
          stack << [node, nil]
          next
        end
      when '"'
        val = read_string(ss)
      when 't'
        raise ParseError, "invalid literal at offset #{ss.pos}" unless ss.skip(/true/)
        val = [:lit, 'true']
      when 'f'
        raise ParseError, "invalid literal at offset #{ss.pos}" unless ss.skip(/false/)
        val = [:lit, 'false']
      when 'n'
        raise ParseError, "invalid literal at offset #{ss.pos}" unless ss.skip(/null/)
        val = [:lit, 'null']
      else
        t = ss.scan(NUM)
        raise ParseError, "invalid character at offset #{ss.pos}" unless t
        val = [:num, t]
      end
      # attach the value, closing containers as they end
      loop do
        if stack.empty?
          root = val
          break
        end
        frame = stack.last
        node = frame[0]
        if node[0] == :obj
          node[1] << [frame[1], val]
        else
          node[1] << val
        end
        ss.skip(WS)
        c = ss.getch
        if c == ','
          ss.skip(WS)
          frame[1] = read_key(ss) if node[0] == :obj
          val = nil
          break
        elsif (c == '}' && node[0] == :obj) || (c == ']' && node[0] == :arr)
          stack.pop
          val = node
        else
          raise ParseError, "unexpected #{c.inspect} at offset #{ss.pos}"
        end
      end
      break if root
      ss.skip(WS)
    end
    ss.skip(WS)
    raise ParseError, "unexpected data after the value at offset #{ss.pos}" unless ss.eos?
    root
  end

  def read_key(ss)
    raise ParseError, "expected a key at offset #{ss.pos}" unless ss.peek(1) == '"'
    k = read_string(ss)
    ss.skip(WS)
    raise ParseError, "expected ':' at offset #{ss.pos}" unless ss.getch == ':'
    ss.skip(WS)
    k
  end

  def read_string(ss)
    start = ss.pos
    if ss.scan(STR_SIMPLE)
      raw = ss.string.byteslice(start, ss.pos - start)
      return [:str, raw, ss[1]]
    end
    raise ParseError, "invalid string at offset #{start}" unless ss.scan(STR_ANY)
    raw = ss.string.byteslice(start, ss.pos - start)
    [:str, raw, unescape(ss[1])]
  end

  # Depth of nesting of arrays and objects (a scalar is 0), iteratively.
  def depth(node)
    max = 0
    work = [[node, 1]]
    until work.empty?
      n, d = work.pop
      next unless n[0] == :obj || n[0] == :arr
      max = d if d > max
      if n[0] == :obj
        n[1].each { |m| work << [m[1], d + 1] }
      else
        n[1].each { |v| work << [v, d + 1] }
      end
    end
    max
  end

  # Write a string's decoded bytes as JSON text.
  def quote(bytes)
    out = String.new('"', encoding: Encoding::BINARY)
    ss = StringScanner.new(bytes)
    until ss.eos?
      if (t = ss.scan(/[^"\\\x00-\x1f\xED]+/n))
        out << t
      elsif (t = ss.scan(/\xED[\xA0-\xBF][\x80-\xBF]/n))
        b = t.bytes
        cp = ((b[0] & 0x0F) << 12) | ((b[1] & 0x3F) << 6) | (b[2] & 0x3F)
        out << format('\\u%04x', cp)
      else
        c = ss.getch
        case c
        when '"' then out << '\\"'
        when '\\' then out << '\\\\'
        when "\n" then out << '\\n'
        when "\r" then out << '\\r'
        when "\t" then out << '\\t'
        when "\b" then out << '\\b'
        when "\f" then out << '\\f'
        else
          if c.ord < 0x20
            out << format('\\u%04x', c.ord)
          else
            out << c
          end
        end
      end
    end
    out << '"'
  end

  def write(node, out = String.new(encoding: Encoding::BINARY))
    case node[0]
    when :obj
      out << '{'
      node[1].each_with_index do |(k, v), i|
        out << ',' if i > 0
        out << k[1]
        out << ':'
        write(v, out)
      end
      out << '}'
    when :arr
      out << '['
      node[1].each_with_index do |v, i|
        out << ',' if i > 0
        write(v, out)
      end
      out << ']'
    when :str
      out << (node[1] || quote(node[2]))
    else
      out << node[1]
    end
    out
  end

  # Convert a node to plain Ruby values (Hash keeps order). Duplicate keys are an error.
  # Numbers become [:num, text] wrappers (kept as Num objects).
  Num = Struct.new(:text)

  def to_ruby(node, ptr = '')
    case node[0]
    when :obj
      h = {}
      node[1].each do |k, v|
        key = k[2].dup.force_encoding(Encoding::UTF_8)
        if h.key?(key)
          raise ParseError, "duplicate key #{key.inspect} at #{ptr.empty? ? '(root)' : ptr}"
        end
        h[key] = to_ruby(v, "#{ptr}/#{key.gsub('~', '~0').gsub('/', '~1')}")
      end
      h
    when :arr
      node[1].each_with_index.map { |v, i| to_ruby(v, "#{ptr}/#{i}") }
    when :str
      node[2].dup.force_encoding(Encoding::UTF_8)
    when :num
      Num.new(node[1])
    else
      case node[1]
      when 'true' then true
      when 'false' then false
      else nil
      end
    end
  end
end
