/**
 * The audit, offline, against the configured stores (in the embedded mode stop the app first: its
 * data folder is locked to one process):
 *   npm run audit -- stream <name> [--page N] [--page-size N]    a stream's events (secrets redacted)
 *   npm run audit -- user <id> --as-of <ISO time>                 the user's timeline up to then, and the portfolio and subscription as of then
 *   npm run audit -- verify                                       rebuild every projection into a scratch store and compare with the live read models
 * Prints JSON (verify: a summary, then one line per difference). Exit status: 0 when all is well
 * (verify: 0 differences), 1 otherwise, 2 for a usage error.
 */
import { parseArgs } from 'node:util';
import { asOfSchema, streamNameSchema, streamQuerySchema, userIdSchema } from '@papertrade/domain/audit/contracts';
import { verifyProjections, type VerifyReport } from '@papertrade/platform/projections/verify';
import type { EventStore } from '@papertrade/platform/event-store/event-store';
import type { MarketData } from '@papertrade/platform/market/market-data';
import type { ReadModels } from '@papertrade/platform/projections/read-models';
import { projections } from '@papertrade/projectors/projections';
import { portfolioAsOfResponse, readAuditStream, subscriptionAsOfResponse, timelineAsOf } from '@papertrade/query-api/audit/audit-reads';
import { createRuntime } from './compose';
import { runMain } from './lifecycle';

export const AUDIT_USAGE = 'usage: npm run audit -- stream <name> [--page N] [--page-size N] | user <id> --as-of <ISO time> | verify';

export interface AuditCliDeps {
  eventStore: EventStore;
  readModels: ReadModels;
  marketData: MarketData;
  clock: () => Date;
  out: (line: string) => void;
}

export class UsageError extends Error {}

function usage(message: string): never {
  throw new UsageError(`${message}\n${AUDIT_USAGE}`);
}

/** Runs one audit command; returns the exit status. */
export async function runAudit(argv: string[], deps: AuditCliDeps): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'as-of': { type: 'string' }, page: { type: 'string' }, 'page-size': { type: 'string' } },
  });
  const [command, arg] = positionals;
  const print = (value: unknown) => deps.out(JSON.stringify(value, null, 2));
  switch (command) {
    case 'stream': {
      const stream = streamNameSchema.safeParse(arg);
      if (!stream.success) usage(`stream: ${stream.error.issues[0]?.message}`);
      const paging = streamQuerySchema.safeParse({ ...(values.page ? { page: values.page } : {}), ...(values['page-size'] ? { pageSize: values['page-size'] } : {}) });
      if (!paging.success) usage(paging.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
      const answer = await readAuditStream({ events: deps.eventStore }, stream.data, paging.data);
      if (!answer) {
        deps.out(`No stream named ${stream.data}`);
        return 1;
      }
      print(answer);
      return 0;
    }
    case 'user': {
      const userId = userIdSchema.safeParse(arg);
      if (!userId.success) usage(`user id: ${userId.error.issues[0]?.message}`);
      const asOfText = asOfSchema.safeParse(values['as-of']);
      if (!asOfText.success) usage(`--as-of: ${asOfText.error.issues[0]?.message}`);
      const asOf = new Date(asOfText.data);
      const reads = { events: deps.eventStore, marketData: deps.marketData, clock: deps.clock };
      const timeline = await timelineAsOf(reads, userId.data, asOf);
      print({
        userId: userId.data,
        asOf: asOf.toISOString(),
        timeline,
        portfolio: await portfolioAsOfResponse(reads, userId.data, asOf),
        subscription: await subscriptionAsOfResponse(reads, userId.data, asOf),
      });
      return 0;
    }
    case 'verify': {
      const report = await verifyProjections({ eventStore: deps.eventStore, readModels: deps.readModels }, projections);
      printVerify(report, deps.out);
      return report.differences === 0 ? 0 : 1;
    }
    default:
      usage(command ? `unknown command ${command}` : 'a command is required');
  }
}

function printVerify(report: VerifyReport, out: (line: string) => void): void {
  out(`Replayed ${report.events} events up to ${report.head ?? '(empty store)'} into a scratch store.`);
  for (const p of report.projections) {
    const notes = [p.behind ? `live checkpoint behind the head (${p.behind})` : '', p.skipped ? `${p.skipped} changed while verifying, not compared` : ''].filter(Boolean);
    out(`${p.projection}: ${p.documents} rebuilt, ${p.liveDocuments} live, ${p.differences.length} difference(s)${notes.length ? `; ${notes.join('; ')}` : ''}`);
  }
  for (const d of report.projections.flatMap((p) => p.differences)) out(`DIFFERENCE ${JSON.stringify(d)}`);
  out(`${report.differences} difference(s)`);
}

async function main() {
  const embedded = (process.env.EVENT_STORE ?? 'pglite') === 'pglite';
  const rt = await createRuntime('audit', { embedded, env: { ...process.env, LOG: 'off' } });
  let status = 1;
  try {
    status = await runAudit(process.argv.slice(2), {
      eventStore: rt.infra.eventStore,
      readModels: rt.infra.readModels,
      marketData: rt.marketData,
      clock: rt.clock,
      out: (line) => console.log(line),
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    status = 2;
  } finally {
    await rt.infra.close();
  }
  process.exitCode = status;
}

// Only as a program: the spec imports runAudit.
if (process.argv[1]?.endsWith('audit.ts')) runMain(main);
