# frozen_string_literal: true
# Translate an ECMA-262 regular expression (read with the u flag) into a Ruby
# (Onigmo) regular expression with the same meaning for the common subset,
# refusing what ECMA-262 with the u flag refuses.

module EcmaPattern
  class SyntaxError < StandardError; end

  WS = '\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff'
  CLASS_ESC = {
    'd' => '0-9', 'w' => 'A-Za-z0-9_', 's' => WS
  }.freeze
  NEG_ESC = { 'D' => 'd', 'W' => 'w', 'S' => 's' }.freeze
  SYNTAX = '^$\\.*+?()[]{}|/'
  CONTROL = { 'f' => '\f', 'n' => '\n', 'r' => '\r', 't' => '\t', 'v' => '\v' }.freeze

  module_function

  def compile(src)
    Regexp.new(translate(src))
  rescue RegexpError => e
    raise SyntaxError, "pattern #{src.inspect} is not a regular expression: #{e.message}"
  end

  def translate(src)
    raise SyntaxError, 'invalid UTF-8' unless src.valid_encoding?
    @groups = count_groups(src)
    @names = src.scan(/\(\?<([A-Za-z_$][A-Za-z0-9_$]*)>/).flatten
    chars = src.chars
    out = +''
    i = 0
    depth = 0
    can_quantify = false
    while i < chars.length
      c = chars[i]
      case c
      when '\\'
        piece, i, atom = escape(chars, i + 1, false)
        out << piece
        can_quantify = atom
        next
      when '['
        piece, i = char_class(chars, i + 1)
        out << piece
        can_quantify = true
        next
      when '('
        if chars[i + 1] == '?'
          nxt = chars[i + 2]
          if nxt == ':' || nxt == '=' || nxt == '!'
            out << "(?#{nxt}"
            i += 3
          elsif nxt == '<' && (chars[i + 3] == '=' || chars[i + 3] == '!')
            out << "(?<#{chars[i + 3]}"
            i += 4
          elsif nxt == '<'
            j = i + 3
            name = +''
            while j < chars.length && chars[j] != '>'
              name << chars[j]
              j += 1
            end
            raise SyntaxError, 'invalid group name' unless j < chars.length && name =~ /\A[A-Za-z_$][A-Za-z0-9_$]*\z/
            out << "(?<#{name}>"
            i = j + 1
          else
            raise SyntaxError, 'invalid group'
          end
        else
          out << '('
          i += 1
        end
        depth += 1
        can_quantify = false
        next
      when ')'
        raise SyntaxError, 'unmatched )' if depth.zero?
        depth -= 1
        out << ')'
        i += 1
        # lookarounds cannot be quantified in u mode; accept groups
        can_quantify = true
        next
      when '*', '+', '?'
        raise SyntaxError, 'nothing to repeat' unless can_quantify
        out << c
        i += 1
        if chars[i] == '?'
          out << '?'
          i += 1
        end
        can_quantify = false
        next
      when '{'
        m = chars[i..].join.match(/\A\{([0-9]+)(,([0-9]*))?\}/)
        raise SyntaxError, 'lone {' unless m
        raise SyntaxError, 'nothing to repeat' unless can_quantify
        raise SyntaxError, 'numbers out of order' if m[3] && !m[3].empty? && m[3].to_i < m[1].to_i
        out << m[0]
        i += m[0].length
        if chars[i] == '?'
          out << '?'
          i += 1
        end
        can_quantify = false
        next
      when '}', ']'
        raise SyntaxError, "lone #{c}"
      when '.'
        out << '[^\n\r\u2028\u2029]'
      when '^'
        out << '\A'
        can_quantify = false
        i += 1
        next
      when '$'
        out << '\z'
        can_quantify = false
        i += 1
        next
      when '|'
        out << '|'
        can_quantify = false
        i += 1
        next
      else
        out << Regexp.escape(c)
      end
      can_quantify = true
      i += 1
    end
    raise SyntaxError, 'unterminated group' unless depth.zero?
    "(?a)#{out}"
  end

  def count_groups(src)
    n = 0
    i = 0
    in_class = false
    while i < src.length
      c = src[i]
      if c == '\\'
        i += 2
        next
      end
      if in_class
        in_class = false if c == ']'
      elsif c == '['
        in_class = true
      elsif c == '(' && (src[i + 1] != '?' || (src[i + 2] == '<' && src[i + 3] != '=' && src[i + 3] != '!'))
        n += 1
      end
      i += 1
    end
    n
  end

  def hex4(chars, i)
    s = chars[i, 4]&.join
    return nil unless s && s =~ /\A[0-9A-Fa-f]{4}\z/
    s.to_i(16)
  end

  # returns [ruby_text, next_index, quantifiable]
  def escape(chars, i, in_class)
    c = chars[i]
    raise SyntaxError, '\\ at end of pattern' if c.nil?
    if CLASS_ESC.key?(c)
      return [in_class ? CLASS_ESC[c] : "[#{CLASS_ESC[c]}]", i + 1, true]
    elsif NEG_ESC.key?(c)
      return ["[^#{CLASS_ESC[NEG_ESC[c]]}]", i + 1, true]
    elsif CONTROL.key?(c)
      return [CONTROL[c], i + 1, true]
    elsif c == 'b'
      return (in_class ? ['\x08', i + 1, true] : ['\b', i + 1, false])
    elsif c == 'B' && !in_class
      return ['\B', i + 1, false]
    elsif c == '0' && !(chars[i + 1] =~ /[0-9]/)
      return ['\x00', i + 1, true]
    elsif c =~ /[1-9]/ && !in_class
      j = i
      j += 1 while chars[j] =~ /[0-9]/
      n = chars[i...j].join.to_i
      raise SyntaxError, 'invalid backreference' if n > @groups
      return ["\\#{n}", j, true]
    elsif c == 'k' && !in_class
      m = chars[(i + 1)..].join.match(/\A<([A-Za-z_$][A-Za-z0-9_$]*)>/)
      raise SyntaxError, 'invalid named reference' unless m && @names.include?(m[1])
      return ["\\k<#{m[1]}>", i + 1 + m[0].length, true]
    elsif c == 'c'
      l = chars[i + 1]
      raise SyntaxError, 'invalid control escape' unless l =~ /[A-Za-z]/
      return [format('\\x%02x', l.ord % 32), i + 2, true]
    elsif c == 'x'
      s = chars[i + 1, 2]&.join
      raise SyntaxError, 'invalid \\x escape' unless s =~ /\A[0-9A-Fa-f]{2}\z/
      return [format('\\u{%x}', s.to_i(16)), i + 3, true]
    elsif c == 'u'
      if chars[i + 1] == '{'
        j = (i + 2...chars.length).find { |x| chars[x] == '}' }
        s = j && chars[(i + 2)...j].join
        raise SyntaxError, 'invalid \\u{} escape' unless s =~ /\A[0-9A-Fa-f]+\z/ && s.to_i(16) <= 0x10FFFF
        return [cp_text(s.to_i(16)), j + 1, true]
      end
      cp = hex4(chars, i + 1)
      raise SyntaxError, 'invalid \\u escape' unless cp
      if cp >= 0xD800 && cp <= 0xDBFF && chars[i + 5] == '\\' && chars[i + 6] == 'u'
        lo = hex4(chars, i + 7)
        if lo && lo >= 0xDC00 && lo <= 0xDFFF
          return [cp_text(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)), i + 11, true]
        end
      end
      return [cp_text(cp), i + 5, true]
    elsif c == 'p' || c == 'P'
      raise SyntaxError, '\\p needs braces' unless chars[i + 1] == '{'
      j = (i + 2...chars.length).find { |x| chars[x] == '}' }
      raise SyntaxError, 'unterminated \\p{' unless j
      body = chars[(i + 2)...j].join
      name = body.sub(/\A(?:General_Category|gc|Script|sc)=/, '')
      raise SyntaxError, 'invalid property' unless name =~ /\A[A-Za-z_]+\z/
      text = "\\#{c}{#{name}}"
      begin
        Regexp.new(text)
      rescue RegexpError
        raise SyntaxError, "invalid property #{body}"
      end
      return [text, j + 1, true]
    elsif SYNTAX.include?(c) || (in_class && c == '-')
      return [Regexp.escape(c).then { |e| e == c && c =~ /[A-Za-z0-9]/ ? c : "\\#{c}" }, i + 1, true]
    end
    raise SyntaxError, "invalid escape \\#{c}"
  end

  def cp_text(cp)
    if cp >= 0xD800 && cp <= 0xDFFF
      # a lone surrogate cannot occur in a key Ruby holds as UTF-8
      return '(?!)'
    end
    format('\\u{%x}', cp)
  end

  def char_class(chars, i)
    out = +'['
    if chars[i] == '^'
      out << '^'
      i += 1
    end
    items = [] # each: [text, single_cp_or_nil]
    loop do
      c = chars[i]
      raise SyntaxError, 'unterminated character class' if c.nil?
      break if c == ']'
      if c == '\\'
        text, i, = escape(chars, i + 1, true)
        cls = chars[i - 1] =~ /[dDwWsS]/ && chars[i - 2] == '\\'
        items << [text, cls ? nil : :single]
      else
        items << [Regexp.escape(c).then { |e| c == '-' ? '\\-' : (c =~ /[\[\]&^\\]/ ? "\\#{c}" : e) }, :single]
        i += 1
      end
    end
    # ranges: a '-' between two singles
    k = 0
    body = +''
    while k < items.length
      a = items[k]
      if items[k + 1] && items[k + 1][0] == '\\-' && items[k + 2] && k + 2 < items.length
        b = items[k + 2]
        raise SyntaxError, 'invalid character class range' unless a[1] == :single && b[1] == :single
        body << a[0] << '-' << b[0]
        k += 3
      else
        body << (a[1].nil? && a[0].start_with?('[') ? a[0] : a[0])
        k += 1
      end
    end
    out << (body.empty? && out == '[' ? '(?!)' : body)
    return ['(?!)', i + 1] if body.empty? && out == '['
    return ['[\s\S]', i + 1] if body.empty?
    out << ']'
    [out, i + 1]
  end
end
