# frozen_string_literal: true
# toolnorm protocol version 1 adapter for the Ruby RT-TOOL-8 normalizer
# (JSON lines on stdin/stdout; see toolnorm's docs/protocol.md).

# Deep schemas (up to 10,000 levels) need a deeper VM stack than Ruby's default.
unless ENV['RT8_STACK']
  env = { 'RT8_STACK' => '1', 'RUBY_THREAD_VM_STACK_SIZE' => (256 * 1024 * 1024).to_s,
          'RUBY_THREAD_MACHINE_STACK_SIZE' => (256 * 1024 * 1024).to_s }
  exec(env, RbConfig.ruby, __FILE__, *ARGV)
end

require_relative 'normalizer'

module Adapter
  module_function

  def member(obj, name)
    return nil unless obj && obj[0] == :obj
    m = obj[1].find { |k, _| k[2] == name }
    m && m[1]
  end

  def answer(id_raw, key, payload)
    "{\"id\":#{id_raw},\"#{key}\":#{payload}}\n"
  end

  def handle(line, switches)
    req = begin
      RJSON.parse(line)
    rescue RJSON::ParseError => e
      warn "adapter: unreadable request: #{e.message}"
      return nil
    end
    cmd = member(req, 'cmd')
    return nil unless cmd && cmd[0] == :str
    case cmd[2]
    when 'start'
      info = '{"version":1,"implementation":{"name":"rt8-ruby","language":"Ruby","version":"0.1.0"},' \
             '"declares":{"profile":"text","max_passes":0,"depth":"all","repairs":["json","entities"]}}'
      "#{info}\n"
    when 'stop'
      :stop
    when 'normalize'
      id = member(req, 'id')
      unless id && id[0] == :num
        warn 'adapter: normalize request without a numeric id'
        return nil
      end
      schema = member(req, 'schema')
      args = member(req, 'arguments')
      begin
        raise NormalizeError, 'request has no schema' unless schema
        raise NormalizeError, 'request has no arguments' unless args
        out = Normalizer.new(switches: switches).normalize(schema, args)
        answer(id[1], 'arguments', RJSON.write(out))
      rescue NormalizeError, SchemaError => e
        answer(id[1], 'error', RJSON.quote(e.message.b))
      rescue SystemStackError => e
        answer(id[1], 'error', RJSON.quote("input nests too deeply: #{e.class}".b))
      rescue StandardError => e
        warn "adapter: internal error: #{e.class}: #{e.message}\n#{e.backtrace.first(8).join("\n")}"
        answer(id[1], 'error', RJSON.quote("internal error: #{e.class}: #{e.message}".b))
      end
    end
  end

  def run
    switches = (ENV['BLIND_SWITCHES'] || '').split(',').map(&:strip).reject(&:empty?)
    $stdin.binmode
    $stdout.binmode
    $stdout.sync = false
    while (line = $stdin.gets)
      line = line.chomp
      line = line.chomp("\r")
      next if line.empty?
      r = handle(line, switches)
      break if r == :stop
      $stdout.write(r) if r
      $stdout.flush
    end
    $stdout.flush
  end
end

if $PROGRAM_NAME == __FILE__
  t = Thread.new { Adapter.run }
  t.join
end
