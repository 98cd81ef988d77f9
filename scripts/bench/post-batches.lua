-- wrk script for scripts/bench-serve.sh: POSTs batches of simulated sightings to /v1/sightings.
--
-- Arguments (after `--`): SIGHTINGS_CSV VENUE_ID BATCH_SIZE INGEST_KEY [TIME_OFFSET]
-- TIME_OFFSET (seconds, default 0) is added to every time: scripts/bench-mqtt.sh puts the rows near the server's
-- clock, because its venue is also fed over MQTT, whose messages are stamped with the server's clock (Unix seconds).
-- The sightings are `indoor simulate`'s test/sightings.csv (t,device,node,rssi), replayed in order; each lap over
-- the file shifts the times by the file's duration, so data time only moves forward (as a gateway's would).
-- Prints one line `result: requests=… non2xx=… sightings_per_s=… p50_ms=… p99_ms=…` at the end.

local rows = {}
local venue, key
-- A global, so that done() (in wrk's main Lua state) can read it with thread:get.
batch = 0
local index, lap, span, offset = 1, 0, 1, 0
local non2xx = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local path = args[1]
  venue, batch, key = args[2], tonumber(args[3]), args[4]
  offset = tonumber(args[5] or "0")
  local file = assert(io.open(path, "r"), "cannot open " .. path)
  local header = true
  for line in file:lines() do
    if header then
      header = false
    else
      local t, device, node, rssi = line:match("^([^,]*),([^,]*),([^,]*),([^,]*)")
      if t then table.insert(rows, { tonumber(t), device, node, rssi }) end
    end
  end
  file:close()
  assert(#rows > 0, "no sightings in " .. path)
  span = math.ceil(rows[#rows][1]) + 1
end

function request()
  local items = {}
  for i = 1, batch do
    local row = rows[index]
    items[i] = string.format('{"t":%.3f,"device":"%s","node":"%s","rssi":%s}', row[1] + lap * span + offset, row[2], row[3],
      row[4])
    index = index + 1
    if index > #rows then
      index = 1
      lap = lap + 1
    end
  end
  local body = '{"venue":"' .. venue .. '","sightings":[' .. table.concat(items, ",") .. ']}'
  return wrk.format("POST", "/v1/sightings",
    { ["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. key }, body)
end

function response(status, headers, body)
  if status < 200 or status > 299 then
    non2xx = non2xx + 1
    if non2xx <= 3 then io.stderr:write("non-2xx answer " .. status .. ": " .. body:sub(1, 300) .. "\n") end
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local failed = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.timeout
  local ok = summary.requests - failed
  -- done() runs in wrk's main Lua state: the batch size lives in the threads' states.
  local batch = tonumber(threads[1]:get("batch"))
  io.write(string.format(
    "result: requests=%d failed=%d seconds=%.1f batches_per_s=%.0f sightings_per_s=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n",
    summary.requests, failed, seconds, ok / seconds, ok * batch / seconds, latency:percentile(50) / 1000,
    latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
