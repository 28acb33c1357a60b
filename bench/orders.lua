-- wrk script of bench/orders.ts: POSTs orders, each with a customIdentifier of its own, and keeps
-- what the money check needs after the run. Arguments (after `--`): kind (giftcards | topups),
-- customIdentifier prefix, bearer token, a file prefix and a phone number offset (a number of its own
-- per top-up across the runs of one server): each thread writes the customIdentifiers
-- answered 2xx to <file prefix>-<thread>.ok, one a line, and done() prints one line per thread:
--   AIRGIFT-THREAD <thread> sent <n> answered <n> ok <n> statuses <status:errorCode=count,...>
-- and one summary line:
--   AIRGIFT-SUMMARY duration_us <n> p50_us <n> p99_us <n> errors <connect> <read> <write> <timeout>
-- wrk stops with up to one request per connection in flight: the requests sent but never answered
-- are the sequence numbers past those answered; bench/orders.ts finds which of them the server kept.

local threads = {}
local next_thread = 0

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_id", next_thread)
  table.insert(threads, thread)
end

local kind, prefix, path, ok_file, phone_offset
sent = 0
answered = 0
ok = 0
statuses = {}

function init(args)
  kind = args[1]
  prefix = args[2] .. "-t" .. thread_id .. "-"
  wrk.headers["authorization"] = "Bearer " .. args[3]
  wrk.headers["accept"] = "application/json"
  wrk.headers["content-type"] = "application/json"
  path = kind == "giftcards" and "/giftcards-sandbox/orders" or "/topups-sandbox/topups"
  ok_file = io.open(args[4] .. "-" .. thread_id .. ".ok", "w")
  ok_file:setvbuf("line")
  phone_offset = tonumber(args[5]) + (thread_id - 1) * 1000000
end

-- BENCH_ORDER_EMAIL=off: gift card orders without a recipient's e-mail (the order path alone,
-- without the outbox's work after it)
local email = os.getenv("BENCH_ORDER_EMAIL") == "off" and "" or '"recipientEmail":"bench@example.com",'

function request()
  sent = sent + 1
  local body
  if kind == "giftcards" then
    body = '{"productId":11,"quantity":1,"unitPrice":10,"senderName":"Bench",' .. email ..
      '"customIdentifier":"' .. prefix .. sent .. '"}'
  else
    -- MTN Nigeria numbers, a new one per top-up (a number recharged < 2 min ago is refused);
    -- subscriber numbers ending in 99990-99999 are sandbox test values, never produced here.
    -- k -> n skips the last ten numbers of every block of 100000, one-to-one.
    local k = (phone_offset + sent) % 7900000
    local n = math.floor(k / 99990) * 100000 + k % 99990
    local subscriber = string.format("%07d", 1000000 + n)
    body = '{"operatorId":1001,"amount":10,"customIdentifier":"' .. prefix .. sent .. '",' ..
      '"recipientPhone":{"countryCode":"NG","number":"0803' .. subscriber .. '"}}'
  end
  return wrk.format("POST", path, nil, body)
end

function response(status, headers, body)
  answered = answered + 1
  if status >= 200 and status < 300 then
    ok = ok + 1
    ok_file:write((string.match(body, '"customIdentifier":"([^"]*)"') or "?"), "\n")
  else
    local key = status .. ":" .. (string.match(body, '"errorCode":"(%w+)"') or "")
    statuses[key] = (statuses[key] or 0) + 1
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local parts = {}
    for key, count in pairs(thread:get("statuses")) do
      table.insert(parts, key .. "=" .. count)
    end
    io.write(string.format("AIRGIFT-THREAD %d sent %d answered %d ok %d statuses %s\n",
      thread:get("thread_id"), thread:get("sent"), thread:get("answered"), thread:get("ok"),
      table.concat(parts, ",")))
  end
  local e = summary.errors
  io.write(string.format("AIRGIFT-SUMMARY duration_us %d p50_us %d p99_us %d errors %d %d %d %d\n",
    summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.timeout))
end
