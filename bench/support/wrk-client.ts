/**
 * The command benches' HTTP load from wrk (Debian's `wrk` package), when it is installed: the same
 * PUT /api/admin/users/{id} `{"firstName": "n<seq>"}` requests as bench/support/command-client.ts
 * (ids round-robin, `concurrency` keep-alive connections), sent by a C load generator whose CPU per
 * request is a small fraction of a Node client's. On a 2-core machine the client shares the cores
 * with the server and PostgreSQL, so a heavy client lowers the command rate it measures (the
 * node:http client cost about 0.3 ms of CPU a request, as much as PostgreSQL's share of a command);
 * the raw INSERT side it is compared with has only `pg` in the bench process as its client.
 *
 * wrk runs for a fixed time and counts the answers (the few requests still in flight at its end are
 * answered after the measurement and do not count). Any answer that is not 2xx fails the run. The
 * wall time is wrk's own; the CPU is wrk's (Lua's os.clock in its `done`).
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SCRIPT = `
local ids = {}
for id in string.gmatch(os.getenv("BENCH_IDS"), "[^,]+") do table.insert(ids, id) end
local token = os.getenv("BENCH_TOKEN")
local seq = tonumber(os.getenv("BENCH_FIRST_SEQ"))
local bad, firstBad = 0, ""
request = function()
  local id = ids[(seq % #ids) + 1]
  local body = '{"firstName":"n' .. seq .. '"}'
  seq = seq + 1
  return wrk.format("PUT", "/api/admin/users/" .. id, { ["content-type"] = "application/json", ["authorization"] = "Bearer " .. token }, body)
end
response = function(status, headers, body)
  if status < 200 or status > 299 then
    bad = bad + 1
    if firstBad == "" then firstBad = status .. " " .. string.sub(body or "", 1, 200) end
  end
end
done = function(summary, latency, requests)
  io.write(string.format('{"requests":%d,"durationUs":%d,"bad":%d,"cpuS":%f,"firstBad":%q}\\n', summary.requests, summary.duration, bad, os.clock(), firstBad))
end
`;

export interface WrkRun {
  /** Answers received within the time. */
  requests: number;
  ms: number;
  /** wrk's CPU over the run. */
  cpuMs: number;
}

let scriptPath: string | undefined;

/** Whether wrk can be run here. */
export function wrkAvailable(): boolean {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version exits 1 after printing its version: installed all the same.
    return (error as { status?: number }).status === 1;
  }
}

/** PUTs from wrk for `seconds` with `concurrency` connections (one wrk thread), first names n<firstSeq>, n<firstSeq+1>... */
export function wrkPuts(run: { base: string; token: string; ids: string[]; seconds: number; concurrency: number; firstSeq: number }): Promise<WrkRun> {
  if (!scriptPath) {
    scriptPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-wrk-')), 'puts.lua');
    fs.writeFileSync(scriptPath, SCRIPT, { mode: 0o600 });
  }
  const env = { ...process.env, BENCH_IDS: run.ids.join(','), BENCH_TOKEN: run.token, BENCH_FIRST_SEQ: String(run.firstSeq) };
  return new Promise((resolve, reject) => {
    execFile('wrk', ['-t1', `-c${run.concurrency}`, `-d${run.seconds}s`, '--timeout', '30s', '-s', scriptPath!, run.base], { env, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk failed: ${error.message} ${stderr}`));
      const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
      if (!line) return reject(new Error(`wrk printed no summary: ${stdout}`));
      const summary = JSON.parse(line) as { requests: number; durationUs: number; bad: number; cpuS: number; firstBad: string };
      if (summary.bad > 0) return reject(new Error(`wrk: ${summary.bad} answers were not 2xx, the first: ${summary.firstBad}`));
      resolve({ requests: summary.requests, ms: summary.durationUs / 1000, cpuMs: summary.cpuS * 1000 });
    });
  });
}
