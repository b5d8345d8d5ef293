# frozen_string_literal: true
# What a JSON Schema (draft-04 to 2020-12) declares at each position of the
# arguments: resources, anchors, references, dynamic scope, and the type sets.
require_relative 'rjson'
require_relative 'ecma_pattern'

class SchemaError < StandardError; end

module Types
  NULL = 1
  BOOL = 2
  OBJ = 4
  ARR = 8
  INT = 16
  NUM = 48 # number admits integers
  STR = 64
  ALL = 127
  NAMES = { 'null' => NULL, 'boolean' => BOOL, 'object' => OBJ, 'array' => ARR,
            'integer' => INT, 'number' => NUM, 'string' => STR }.freeze

  module_function

  def inter(a, b)
    return b if a.nil?
    return a if b.nil?
    a & b
  end

  def union(a, b)
    return nil if a.nil? || b.nil?
    a | b
  end

  def admits?(t, bit)
    t.nil? || (t & bit) != 0
  end
end

module URIRes
  module_function

  def split(u)
    i = u.index('#')
    i ? [u[0...i], u[(i + 1)..]] : [u, nil]
  end

  def parse(u)
    m = u.match(%r{\A(?:([A-Za-z][A-Za-z0-9+.\-]*):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?\z}m)
    [m[1], m[2], m[3], m[4], m[5]]
  end

  def remove_dots(path)
    out = []
    segs = path.split('/', -1)
    segs.each_with_index do |s, i|
      if s == '..'
        out.pop if out.length > 1 || (out.length == 1 && out[0] != '')
        out << '' if i == segs.length - 1
      elsif s == '.'
        out << '' if i == segs.length - 1
      else
        out << s
      end
    end
    out.join('/')
  end

  def resolve(base, ref)
    return ref if base.nil? || base.empty?
    rs, ra, rp, rq, rf = parse(ref)
    bs, ba, bp, bq, = parse(base)
    if rs
      s, a, p, q = rs, ra, remove_dots(rp), rq
    elsif ra
      s, a, p, q = bs, ra, remove_dots(rp), rq
    elsif rp.empty?
      s, a, p, q = bs, ba, bp, (rq || bq)
    else
      if rp.start_with?('/')
        p = remove_dots(rp)
      elsif ba && bp.empty?
        p = remove_dots('/' + rp)
      elsif bs && !ba && !bp.include?('/')
        # opaque base (urn:...): no hierarchy
        p = rp
      else
        i = bp.rindex('/')
        p = remove_dots((i ? bp[0..i] : '') + rp)
      end
      s, a, q = bs, ba, rq
    end
    r = +''
    r << "#{s}:" if s
    r << "//#{a}" if a
    r << p
    r << "?#{q}" if q
    r << "##{rf}" if rf
    r
  end
end

class Schema
  include Types
  DRAFTS = { 4 => 4, 6 => 6, 7 => 7, 2019 => 2019, 2020 => 2020 }.freeze
  DECLARING_ARRAYS = %w[allOf anyOf oneOf].freeze
  OTHER_APPLICATORS = %w[not if then else contains propertyNames additionalItems unevaluatedProperties
                         unevaluatedItems].freeze
  OTHER_MAPS = %w[dependentSchemas dependencies].freeze
  MAX_DEPTH = 10_000

  # info per schema object (by object_id): [base_uri, draft, resource_root, pointer]
  Info = Struct.new(:base, :draft, :resource, :ptr, :resource_root)

  attr_reader :root

  def initialize(node, default_draft: 2020, compat_refs: false, quick_branches: false)
    @default_draft = default_draft
    @compat_refs = compat_refs
    @quick_branches = quick_branches
    raise SchemaError, 'schema nests too deeply' if RJSON.depth(node) > MAX_DEPTH
    begin
      @root = RJSON.to_ruby(node)
    rescue RJSON::ParseError => e
      raise SchemaError, "invalid schema: #{e.message}"
    end
    unless @root.is_a?(Hash) || @root == true || @root == false
      raise SchemaError, 'invalid schema: the schema is not an object or a boolean'
    end
    @info = {}
    @resources = {}     # uri (no fragment) => schema
    @anchors = {}       # [uri, name] => schema
    @dyn_anchors = {}   # resource object_id => {name => schema}
    @rec_anchor = {}    # resource object_id => true
    @patterns = {}
    @tcache = {}
    @cyclic = {}
    @pending_refs = []
    walk(@root, '', @default_draft, nil, '', true, true)
    @root_base = info(@root)&.base.to_s
    @pending_refs.each { |base, ref, ptr, draft, dyn| resolve_ref(base, ref, ptr, draft) }
  end

  def draft_of(uri)
    return nil unless uri.is_a?(String)
    u = uri.sub(/#\z/, '')
    case u
    when %r{\Ahttps?://json-schema\.org/draft-04/schema\z} then 4
    when %r{\Ahttps?://json-schema\.org/draft-06/schema\z} then 6
    when %r{\Ahttps?://json-schema\.org/draft-07/schema\z} then 7
    when %r{\Ahttps?://json-schema\.org/draft/2019-09/schema\z} then 2019
    when %r{\Ahttps?://json-schema\.org/draft/2020-12/schema\z} then 2020
    end
  end

  def err(msg, ptr)
    raise SchemaError, "invalid schema: #{msg} at #{ptr.empty? ? '(root)' : ptr}"
  end

  def esc(k)
    k.to_s.gsub('~', '~0').gsub('/', '~1')
  end

  # Walk schema positions: record identifiers, anchors; validate the declaring keywords when strict.
  def walk(s, ptr, draft, base, res_ptr, strict, is_root = false, resource = nil)
    unless s.is_a?(Hash)
      return if s == true || s == false
      err('a subschema is not an object or a boolean', ptr) if strict
      return
    end
    if s.key?('$schema')
      if s['$schema'].is_a?(String)
        d = draft_of(s['$schema'])
        draft = d if d
      end
    end
    idkey = draft == 4 ? 'id' : '$id'
    id = s[idkey]
    has_ref_sibling_rule = draft <= 7 && s.key?('$ref')
    new_resource = is_root
    if id.is_a?(String) && !has_ref_sibling_rule
      if draft <= 7 && id.start_with?('#')
        @anchors[[base.to_s, id[1..]]] ||= s if id.length > 1
      else
        uri, frag = URIRes.split(URIRes.resolve(base.to_s, id))
        if draft <= 7 && frag && !frag.empty?
          @anchors[[uri, frag]] ||= s
        end
        base = uri
        @resources[uri] ||= s
        new_resource = true
      end
    end
    @resources[base.to_s] ||= s if is_root
    resource = s if new_resource
    @info[s.object_id] = Info.new(base.to_s, draft, resource, ptr)
    if draft >= 2019 && s.key?('$anchor')
      a = s['$anchor']
      if a.is_a?(String)
        @anchors[[base.to_s, a]] ||= s
      end
    end
    if draft >= 2020 && s.key?('$dynamicAnchor')
      a = s['$dynamicAnchor']
      if a.is_a?(String)
        @anchors[[base.to_s, a]] ||= s
        (@dyn_anchors[resource.object_id] ||= {})[a] ||= s
      end
    end
    if draft == 2019 && s.key?('$recursiveAnchor')
      v = s['$recursiveAnchor']
      if v == true
        @rec_anchor[resource.object_id] = true if resource.equal?(s)
      end
    end
    if strict
      if s.key?('type')
        t = s['type']
        list = t.is_a?(Array) ? t : [t]
        err('type is not a string or an array of strings', ptr) if t.is_a?(Array) && t.empty? && false
        list.each do |n|
          err('type is not a string or an array of strings', "#{ptr}/type") unless n.is_a?(String)
          err("unknown type #{n.inspect}", "#{ptr}/type") unless NAMES.key?(n)
        end
        if s.key?('nullable') && s['nullable'] != true && s['nullable'] != false
          err('nullable is not a boolean', "#{ptr}/nullable")
        end
      end
    end
    %w[$ref $dynamicRef $recursiveRef].each do |k|
      next unless s.key?(k)
      next if k == '$dynamicRef' && draft < 2020
      next if k == '$recursiveRef' && draft != 2019
      r = s[k]
      unless r.is_a?(String)
        err("#{k} is not a string", "#{ptr}/#{esc(k)}") if strict
        next
      end
      @pending_refs << [base.to_s, r, "#{ptr}/#{esc(k)}", draft, k] if strict
    end
    sub = lambda do |v, p, st|
      walk(v, p, draft, base, res_ptr, st, false, resource)
    end
    s.each do |k, v|
      p = "#{ptr}/#{esc(k)}"
      case k
      when 'properties', 'patternProperties', '$defs', 'definitions'
        unless v.is_a?(Hash)
          err("#{k} is not an object", p) if strict
          next
        end
        v.each do |kk, vv|
          if k == 'patternProperties' && strict
            pattern(kk, p)
          end
          sub.call(vv, "#{p}/#{esc(kk)}", strict)
        end
      when 'additionalProperties', 'additionalItems'
        sub.call(v, p, strict)
      when 'items'
        if v.is_a?(Array)
          v.each_with_index { |vv, i| sub.call(vv, "#{p}/#{i}", strict) }
        else
          sub.call(v, p, strict)
        end
      when 'prefixItems', 'allOf', 'anyOf', 'oneOf'
        unless v.is_a?(Array)
          err("#{k} is not an array", p) if strict
          next
        end
        err("#{k} is empty", p) if strict && v.empty? && k != 'prefixItems'
        v.each_with_index { |vv, i| sub.call(vv, "#{p}/#{i}", strict) }
      when 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'
        sub.call(v, p, false) if v.is_a?(Hash)
      when 'dependentSchemas', 'dependencies'
        v.each { |kk, vv| sub.call(vv, "#{p}/#{esc(kk)}", false) if vv.is_a?(Hash) } if v.is_a?(Hash)
      end
    end
  end

  def pattern(src, ptr)
    @patterns[src] ||= begin
      EcmaPattern.compile(src)
    rescue EcmaPattern::SyntaxError => e
      err("pattern #{src.inspect} is not an ECMA-262 regular expression (#{e.message})", ptr)
    end
  end

  def info(s)
    @info[s.object_id]
  end

  def unescape_fragment(f)
    f.gsub(/%([0-9A-Fa-f]{2})/) { Regexp.last_match(1).hex.chr }.b.force_encoding(Encoding::UTF_8)
  end

  # resolve a reference; returns the target schema
  def resolve_ref(base, ref, ptr, draft)
    @refcache ||= {}
    key = [base, ref]
    return @refcache[key] if @refcache.key?(key)
    base = @root_base if @compat_refs && ref.start_with?('#')
    full = URIRes.resolve(base, ref)
    uri, frag = URIRes.split(full)
    res = @resources[uri]
    unless res
      err("$ref #{ref.inspect} does not resolve: no schema with the URI #{uri.inspect} (another document was not supplied)", ptr)
    end
    target = if frag.nil? || frag.empty?
               res
             elsif frag.start_with?('/')
               t = res
               frag[1..].split('/', -1).each do |tok|
                 tok = unescape_fragment(tok).gsub('~1', '/').gsub('~0', '~')
                 if t.is_a?(Hash) && t.key?(tok)
                   t = t[tok]
                 elsif t.is_a?(Array) && tok =~ /\A(0|[1-9][0-9]*)\z/ && tok.to_i < t.length
                   t = t[tok.to_i]
                 else
                   err("$ref #{ref.inspect} does not resolve: no member #{tok.inspect}", ptr)
                 end
               end
               t
             else
               a = @anchors[[uri, unescape_fragment(frag)]]
               err("$ref #{ref.inspect} does not resolve: no anchor #{frag.inspect}", ptr) unless a
               a
             end
    unless target.is_a?(Hash) || target == true || target == false
      err("$ref #{ref.inspect} does not resolve to a schema", ptr)
    end
    if target.is_a?(Hash) && !@info.key?(target.object_id)
      # a schema reached only by pointer: read it with the referrer's base and draft
      walk(target, ptr, draft, uri, '', false, false, res)
    end
    @refcache[key] = target
  end

  # --- dynamic scope: a frozen hash name => schema; :rec => resource ---
  EMPTY = {}.freeze

  def enter(scope, s)
    return scope unless s.is_a?(Hash)
    inf = info(s)
    return scope unless inf && inf.resource
    r = inf.resource
    add = @dyn_anchors[r.object_id]
    rec = @rec_anchor[r.object_id]
    return scope unless add || rec
    ns = nil
    add&.each do |name, a|
      next if scope.key?(name)
      ns ||= scope.dup
      ns[name] = a
    end
    if rec && !scope.key?(:rec)
      ns ||= scope.dup
      ns[:rec] = r
    end
    ns ? ns.freeze : scope
  end

  # in-place edges: [[target_schema, scope], ...]
  def edges(s, scope)
    return [] unless s.is_a?(Hash)
    inf = info(s)
    draft = inf ? inf.draft : @default_draft
    base = inf ? inf.base : ''
    out = []
    if draft <= 7 && s['$ref'].is_a?(String)
      t = resolve_ref(base, s['$ref'], '', draft)
      return [[t, enter(scope, t)]]
    end
    if s['$ref'].is_a?(String)
      t = resolve_ref(base, s['$ref'], '', draft)
      out << [t, enter(scope, t)]
    end
    if draft >= 2020 && s['$dynamicRef'].is_a?(String)
      ref = s['$dynamicRef']
      t = resolve_ref(base, ref, '', draft)
      _, frag = URIRes.split(ref)
      if frag && !frag.empty? && !frag.start_with?('/') && t.is_a?(Hash) && t['$dynamicAnchor'] == frag && scope.key?(frag)
        t = scope[frag]
      end
      out << [t, enter(scope, t)]
    end
    if draft == 2019 && s['$recursiveRef'].is_a?(String)
      t = resolve_ref(base, s['$recursiveRef'], '', draft)
      if t.is_a?(Hash) && t['$recursiveAnchor'] == true && scope.key?(:rec)
        t = scope[:rec]
      end
      out << [t, enter(scope, t)]
    end
    DECLARING_ARRAYS.each do |k|
      next unless s[k].is_a?(Array)
      s[k].each { |b| out << [b, enter(scope, b)] }
    end
    out
  end

  def key_of(s, scope)
    [s.object_id, scope]
  end

  # Is the (schema, scope) on a cycle of in-place applicators? (Tarjan, memoized)
  def cyclic?(s, scope)
    k = key_of(s, scope)
    return @cyclic[k] if @cyclic.key?(k)
    index = {}
    low = {}
    stack = []
    on = {}
    counter = 0
    strong = lambda do |ss, sc|
      kk = key_of(ss, sc)
      index[kk] = low[kk] = counter
      counter += 1
      stack << kk
      on[kk] = true
      self_loop = false
      edges(ss, sc).each do |t, tsc|
        tk = key_of(t, tsc)
        self_loop = true if tk == kk
        if @cyclic.key?(tk)
          next
        elsif !index.key?(tk)
          strong.call(t, tsc)
          low[kk] = [low[kk], low[tk]].min
        elsif on[tk]
          low[kk] = [low[kk], index[tk]].min
        end
      end
      if low[kk] == index[kk]
        comp = []
        loop do
          w = stack.pop
          on.delete(w)
          comp << w
          break if w == kk
        end
        cyc = comp.length > 1 || self_loop
        comp.each { |w| @cyclic[w] = cyc }
      end
    end
    strong.call(s, scope)
    @cyclic[k]
  end

  # type set of one schema (nil: unknown)
  def types(s, scope)
    return nil if s == true
    return 0 if s == false
    k = key_of(s, scope)
    return @tcache[k] if @tcache.key?(k)
    r = if cyclic?(s, scope)
          nil
        else
          compute_types(s, scope)
        end
    @tcache[k] = r
  end

  def compute_types(s, scope)
    inf = info(s)
    draft = inf ? inf.draft : @default_draft
    if draft <= 7 && s['$ref'].is_a?(String)
      t, tsc = edges(s, scope)[0]
      return types(t, tsc)
    end
    r = nil
    if s.key?('type')
      t = s['type']
      list = t.is_a?(Array) ? t : [t]
      r = 0
      list.each { |n| r |= NAMES.fetch(n, 0) }
      r |= NULL if s['nullable'] == true
    end
    idx = 0
    edges(s, scope).each do |t, tsc|
      idx += 1
    end
    # references, then allOf/anyOf/oneOf
    e = edges(s, scope)
    nrefs = e.length - DECLARING_ARRAYS.sum { |k| s[k].is_a?(Array) ? s[k].length : 0 }
    e[0, nrefs].each { |t, tsc| r = Types.inter(r, types(t, tsc)) }
    if s['allOf'].is_a?(Array)
      s['allOf'].each { |b| r = Types.inter(r, types(b, enter(scope, b))) }
    end
    %w[anyOf oneOf].each do |kw|
      next unless s[kw].is_a?(Array)
      u = 0
      s[kw].each do |b|
        u = Types.union(u, types(b, enter(scope, b)))
        break if u.nil?
      end
      r = Types.inter(r, u)
    end
    r
  end

  # --- positions: formulas [:leaf, s, scope] [:and, [...]] [:or, [...]]; nil: nothing ---

  def root_formula
    [:leaf, @root, enter(EMPTY, @root)]
  end

  def ftypes(f)
    return nil if f.nil?
    case f[0]
    when :leaf then types(f[1], f[2])
    when :and
      r = nil
      f[1].each { |g| r = Types.inter(r, ftypes(g)) }
      r
    when :or
      r = 0
      f[1].each do |g|
        r = Types.union(r, ftypes(g))
        return nil if r.nil?
      end
      r
    end
  end

  def leaf(s, scope)
    [:leaf, s, enter(scope, s)]
  end

  # the formula of a child (sel: a key String for objects, an Integer for arrays)
  def fsub(f, jt, sel)
    return nil if f.nil?
    case f[0]
    when :leaf then ssub(f[1], f[2], jt, sel)
    when :and
      conj(f[1].map { |g| fsub(g, jt, sel) })
    when :or
      alts = f[1].select { |g| Types.admits?(ftypes(g), jt) }
      return nil if alts.empty?
      subs = alts.map { |g| fsub(g, jt, sel) }
      return nil if subs.any?(&:nil?)
      [:or, subs]
    end
  end

  def ssub(s, scope, jt, sel)
    return nil unless s.is_a?(Hash)
    return nil if cyclic?(s, scope)
    inf = info(s)
    draft = inf ? inf.draft : @default_draft
    if draft <= 7 && s['$ref'].is_a?(String)
      t, tsc = edges(s, scope)[0]
      return ssub(t, tsc, jt, sel)
    end
    parts = []
    if jt == OBJ
      matched = false
      if s['properties'].is_a?(Hash) && s['properties'].key?(sel)
        parts << leaf(s['properties'][sel], scope)
        matched = true
      end
      if s['patternProperties'].is_a?(Hash)
        s['patternProperties'].each do |pat, v|
          re = @patterns[pat] || pattern(pat, '')
          m = begin
            sel.valid_encoding? && re.match?(sel)
          rescue StandardError
            false
          end
          if m
            parts << leaf(v, scope)
            matched = true
          end
        end
      end
      parts << leaf(s['additionalProperties'], scope) if !matched && s.key?('additionalProperties')
    elsif jt == ARR
      pre = s['prefixItems']
      items = s['items']
      if pre.is_a?(Array) && sel < pre.length
        parts << leaf(pre[sel], scope)
      elsif items.is_a?(Array)
        if sel < items.length
          parts << leaf(items[sel], scope)
        elsif s.key?('additionalItems')
          parts << leaf(s['additionalItems'], scope)
        end
      elsif s.key?('items')
        parts << leaf(items, scope)
      end
    end
    e = edges(s, scope)
    nrefs = e.length - DECLARING_ARRAYS.sum { |k| s[k].is_a?(Array) ? s[k].length : 0 }
    e[0, nrefs].each { |t, tsc| parts << ssub(t, tsc, jt, sel) }
    if s['allOf'].is_a?(Array)
      s['allOf'].each { |b| parts << ssub(b, enter(scope, b), jt, sel) }
    end
    %w[anyOf oneOf].each do |kw|
      next unless s[kw].is_a?(Array)
      alts = s[kw].select { |b| branch_admits?(b, scope, jt) }
      next if alts.empty?
      subs = alts.map { |b| ssub(b, enter(scope, b), jt, sel) }
      next if subs.any?(&:nil?)
      parts << [:or, subs]
    end
    conj(parts)
  end

  def branch_admits?(b, scope, jt)
    return Types.admits?(types(b, enter(scope, b)), jt) unless @quick_branches
    return b != false unless b.is_a?(Hash) && b.key?('type')
    t = b['type']
    (t.is_a?(Array) ? t : [t]).any? { |n| (NAMES.fetch(n, 0) & jt) != 0 }
  end

  # a conjunction, flattened: nil (nothing), one part, or [:and, parts]
  def conj(parts)
    flat = []
    seen = {}
    add = lambda do |g|
      if g[0] == :leaf
        k = [g[1].object_id, g[2]]
        return if seen.key?(k)
        seen[k] = true
      end
      flat << g
    end
    parts.each do |g|
      next if g.nil?
      if g[0] == :and
        g[1].each { |h| add.call(h) }
      else
        add.call(g)
      end
    end
    return nil if flat.empty?
    return flat[0] if flat.length == 1
    [:and, flat]
  end
end
