# frozen_string_literal: true
# RT-TOOL-8: repair a model's tool arguments against the tool's JSON Schema.
require_relative 'rjson'
require_relative 'entities_decode'
require_relative 'schema'

class NormalizeError < StandardError; end

class Normalizer
  include Types
  MAX_DEPTH = 1000

  def initialize(max_passes: 0, max_depth: MAX_DEPTH, switches: [])
    @max_passes = max_passes
    @max_depth = max_depth
    @sw = switches
    EntityDecode.ref_re = @sw.include?('s5') ? EntityDecode::REF_AT_V1 : EntityDecode::REF_AT
    @lookback = @sw.include?('s1') ? 0 : EntityDecode::WINDOW
    @number_mode = @sw.include?('s2')
    @depth_mode = @sw.include?('s6')
  end

  # schema_node, args_node: RJSON nodes. Returns the output node.
  def normalize(schema_node, args_node)
    raise NormalizeError, 'arguments must be a JSON object' unless args_node[0] == :obj
    if RJSON.depth(args_node) > @max_depth
      raise NormalizeError, "arguments nest deeper than #{@max_depth} levels"
    end
    @schema = Schema.new(schema_node, compat_refs: @sw.include?('s3'),
                                      quick_branches: @sw.include?('s4'))
    value(args_node, @schema.root_formula, 1)
  rescue SchemaError => e
    raise NormalizeError, e.message
  end

  def json_allowed?(t)
    !t.nil? && (t & STR).zero? && (t & (ARR | OBJ)) != 0
  end

  def shape_ok?(t, node)
    (node[0] == :arr && (t & ARR) != 0) || (node[0] == :obj && (t & OBJ) != 0)
  end

  def try_json(bytes, t, depth)
    return nil unless json_allowed?(t)
    return nil unless bytes =~ /\A[ \t\n\r]*[\[{]/n
    node = begin
      RJSON.parse(bytes)
    rescue RJSON::ParseError
      return nil
    end
    return nil unless shape_ok?(t, node)
    reparse_numbers(node) if @number_mode
    nest = RJSON.depth(node)
    nest += depth - 1 unless @depth_mode
    if nest > @max_depth
      raise NormalizeError, "arguments nest deeper than #{@max_depth} levels (through a decoded string)"
    end
    node
  end

  # canonical number text for values read from strings
  def reparse_numbers(node)
    work = [node]
    until work.empty?
      n = work.pop
      case n[0]
      when :obj then n[1].each { |m| work << m[1] }
      when :arr then work.concat(n[1])
      when :num
        next unless n[1] =~ /[.eE]/
        f = Float(n[1])
        n[1] = f.to_s if f.finite?
      end
    end
  end

  def value(node, f, depth)
    case node[0]
    when :obj
      members = node[1].map do |k, v|
        [k, value(v, @schema.fsub(f, OBJ, k[2].dup.force_encoding(Encoding::UTF_8)), depth + 1)]
      end
      [:obj, members]
    when :arr
      elems = node[1].each_with_index.map { |v, i| value(v, @schema.fsub(f, ARR, i), depth + 1) }
      [:arr, elems]
    when :str
      t = @schema.ftypes(f)
      decoded = try_json(node[2], t, depth)
      return value(decoded, f, depth) if decoded
      return node unless node[2].include?('&')
      s = EntityDecode.fixpoint(node[2], @max_passes, lookback: @lookback)
      return node if s == node[2]
      decoded = try_json(s, t, depth)
      return value(decoded, f, depth) if decoded
      [:str, nil, s]
    else
      node
    end
  end
end
