/**
 * Event store on PostgreSQL, for both the server (`pg`) and PGlite.
 *
 * Global order without gaps: `seq` (a sequence) is handed out at insert time, but transactions
 * commit in any order, so a reader that followed `seq` alone could pass over an event whose
 * transaction commits later with a smaller `seq`. Each row therefore also stores the id of the
 * transaction that wrote it, the global order is (tx_id, seq), and readers only see rows whose
 * transaction id is below the oldest transaction still running (`pg_snapshot_xmin`): everything
 * below that horizon has committed or aborted, so nothing can appear behind a reader's checkpoint.
 * (The same technique as Emmett's PostgreSQL event store.) The price is that one long transaction
 * anywhere on the server holds subscribers back, hence `idle_in_transaction_session_timeout`.
 *
 * Appends are grouped: while APPEND_BATCHES_IN_FLIGHT statements are on their way, the appends that
 * arrive wait and then go together in one appendMany statement (one round trip, one commit), each
 * stream under its own expectation. Alone, an append goes at once; under load, a transaction's fixed
 * costs (parse, plan, commit, the WAL flush) are shared by the appends that waited.
 */
import { LRUCache } from 'lru-cache';
import { ConcurrencyError } from '@papertrade/domain/shared/errors';
import { ascendingBy } from '@papertrade/domain/shared/order';
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedRevision,
  LoadStreamOptions,
  LoadStreamsOptions,
  LoadedStream,
  NewEvent,
  ReadStreamPageOptions,
  RecordedEvent,
  StreamAppend,
  StreamPage,
  StreamSnapshot,
  SubscribeOptions,
  Subscription,
} from './event-store';
import { checkAppendMany, MAX_REVISION, streamPageRequest } from './event-store';
import { comparePositions, decodePosition, encodePosition, type Position } from './position';
import { quoteIdent, toBigInt, type Row, type SqlClient } from '../sql/sql-client';

/** A stream's events in revision order (the statements' UNION ALL keeps no order of its parts). */
const byRevision = ascendingBy((e: RecordedEvent) => e.revision);

interface EventRow extends Row {
  seq: unknown;
  tx_id: unknown;
  stream_id: string;
  revision: unknown;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface SqlEventStoreOptions {
  schema?: string;
  /**
   * No other process or store instance appends to this database (the embedded mode: PGlite's data
   * folder is locked to one process). Then `lastPositionByActor` answers from the appends this store
   * made itself whenever that is enough, without a query: read-your-own-writes asks it on every
   * signed-in read of the caller's own data, and on PGlite each query holds the one thread.
   */
  soleWriter?: boolean;
  /** How often a caught-up subscription looks for new events committed by other processes. */
  pollIntervalMs?: number;
}

/** Append statements on their way at once; appends that arrive meanwhile wait and go as one. */
export const APPEND_BATCHES_IN_FLIGHT = 2;
/** The most appends grouped into one statement. */
export const APPEND_BATCH_MAX = 100;

interface PendingAppend extends StreamAppend {
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** The statements of fixed text here run prepared on PostgreSQL (sql-client.ts QueryOptions). */
const PREPARED = { prepare: true } as const;

const COLUMNS = 'seq, tx_id::text AS tx_id, stream_id, revision, event_id::text AS event_id, type, data, metadata';
// ORDER BY must name the table's columns (events.tx_id): a bare `tx_id` means the text alias above,
// which sorts "1000" before "999" once transaction ids grow a digit.

export class SqlEventStore implements EventStore {
  private readonly pollIntervalMs: number;
  /** Wakes this process's caught-up subscriptions right after a local append. */
  private readonly waiters = new Set<() => void>();
  /**
   * Reads of the global order asked for but not sent yet, by their arguments: the projections of a
   * process are woken by the same append and ask for the same page in the same turn, and share one
   * query. A read already sent is never shared (it may have started before the caller's event).
   */
  private readonly unsentReads = new Map<string, Promise<RecordedEvent[]>>();
  /** Appends waiting for a statement (see the module comment). */
  private pendingAppends: PendingAppend[] = [];
  private appendBatchesInFlight = 0;
  /** Streams with an append in a statement on its way. */
  private readonly streamsInFlight = new Set<string>();

  /** With `soleWriter`: each actor's last append by this store, since it was created (see ActorWrites). */
  private actorWrites: ActorWrites | undefined;

  private constructor(
    private readonly sql: SqlClient,
    options: SqlEventStoreOptions,
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
  }

  static async create(sql: SqlClient, options: SqlEventStoreOptions = {}): Promise<SqlEventStore> {
    const store = new SqlEventStore(sql, options);
    const soleWriter = options.soleWriter === true;
    const schema = options.schema ? `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)};` : '';
    await sql.exec(`${schema}
      CREATE TABLE IF NOT EXISTS streams (
        stream_id text PRIMARY KEY,
        revision bigint NOT NULL
      );
      CREATE TABLE IF NOT EXISTS events (
        seq bigserial PRIMARY KEY,
        tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        stream_id text NOT NULL,
        revision bigint NOT NULL,
        event_id uuid NOT NULL,
        type text NOT NULL,
        data jsonb NOT NULL,
        metadata jsonb NOT NULL,
        UNIQUE (stream_id, revision)
      );
      CREATE INDEX IF NOT EXISTS events_global_order ON events (tx_id, seq);
      -- The command helper's idempotency check looks events up by id.
      CREATE INDEX IF NOT EXISTS events_event_id ON events (event_id);
      -- An actor's last event (lastPositionByActor): one probe from the end of the actor's entries.
      CREATE INDEX IF NOT EXISTS events_actor ON events ((metadata->>'userId'), tx_id, seq);
      CREATE TABLE IF NOT EXISTS snapshots (
        stream_id text NOT NULL,
        name text NOT NULL,
        revision bigint NOT NULL,
        schema_version integer NOT NULL,
        state jsonb NOT NULL,
        PRIMARY KEY (stream_id, name)
      );`);
    if (soleWriter) store.actorWrites = new ActorWrites(await store.headPosition());
    return store;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new RangeError('append needs at least one event');
    return new Promise<AppendResult>((resolve, reject) => {
      this.pendingAppends.push({ streamId, events, expected, resolve, reject });
      this.sendAppends();
    });
  }

  /**
   * Sends what waits, while fewer than APPEND_BATCHES_IN_FLIGHT statements are on their way. A stream
   * is in one statement at a time: a second append to it waits until the statement with the first has
   * answered, so one process's appends to a stream are written in the order they were asked for.
   */
  private sendAppends(): void {
    while (this.appendBatchesInFlight < APPEND_BATCHES_IN_FLIGHT && this.pendingAppends.length > 0) {
      const batch: PendingAppend[] = [];
      const rest: PendingAppend[] = [];
      const streams = new Set<string>();
      for (const pending of this.pendingAppends) {
        if (batch.length < APPEND_BATCH_MAX && !streams.has(pending.streamId) && !this.streamsInFlight.has(pending.streamId)) batch.push(pending);
        else rest.push(pending);
        streams.add(pending.streamId); // what follows an append to this stream waits behind it
      }
      if (batch.length === 0) return;
      this.pendingAppends = rest;
      this.appendBatchesInFlight++;
      for (const { streamId } of batch) this.streamsInFlight.add(streamId);
      void this.writeAppends(batch).finally(() => {
        this.appendBatchesInFlight--;
        for (const { streamId } of batch) this.streamsInFlight.delete(streamId);
        this.sendAppends();
      });
    }
  }

  private async writeAppends(batch: PendingAppend[]): Promise<void> {
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, a batch of one sent as a batch gets the same answer (its ConcurrencyError, or the refusal when it is tried again alone); the single statement is the cheaper one.
    if (batch.length === 1) {
      const [one] = batch as [PendingAppend];
      await this.appendOne(one.streamId, one.events, one.expected).then(one.resolve, one.reject);
      return;
    }
    let results: Array<AppendResult | ConcurrencyError>;
    try {
      results = await this.appendMany(batch);
    } catch (error) {
      // The database refused the statement (an SQLSTATE: it was rolled back, nothing written): each
      // append on its own, so one that the database refuses fails alone. A lost connection may have
      // committed it, so that fails them all, as it would fail one append.
      if (!isDatabaseRefusal(error)) {
        for (const one of batch) one.reject(error);
        return;
      }
      await Promise.all(batch.map((one) => this.appendOne(one.streamId, one.events, one.expected).then(one.resolve, one.reject)));
      return;
    }
    results.forEach((result, i) => (result instanceof ConcurrencyError ? batch[i]!.reject(result) : batch[i]!.resolve(result)));
  }

  /**
   * One statement, so one round trip and one implicit transaction: the stream row is created or
   * moved on with its optimistic check (no row back means the expectation failed), and the events
   * are inserted from arrays only when that row came back.
   */
  private async appendOne(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const params: unknown[] = [
      streamId,
      String(events.length),
      events.map((e) => e.id),
      events.map((e) => e.type),
      events.map((e) => JSON.stringify(e.data)),
      events.map((e) => JSON.stringify(e.metadata)),
    ];
    let stream: string;
    if (expected === 'no_stream') {
      stream = `INSERT INTO streams (stream_id, revision) VALUES ($1, $2::bigint - 1) ON CONFLICT (stream_id) DO NOTHING RETURNING revision`;
    } else if (expected === 'any') {
      stream = `INSERT INTO streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
                ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + $2::bigint RETURNING revision`;
    } else {
      params.push(expected.toString());
      stream = `UPDATE streams SET revision = $7::bigint + $2::bigint WHERE stream_id = $1 AND revision = $7::bigint RETURNING revision`;
    }
    const rows = await this.sql.query<{ seq: unknown; tx_id: unknown; revision: unknown }>(
      `WITH s AS (${stream}),
       v AS (SELECT * FROM unnest($3::uuid[], $4::text[], $5::jsonb[], $6::jsonb[]) WITH ORDINALITY AS v(event_id, type, data, metadata, ord)),
       e AS (
         INSERT INTO events (stream_id, revision, event_id, type, data, metadata)
         SELECT $1, s.revision - $2::bigint + v.ord, v.event_id, v.type, v.data, v.metadata FROM s, v ORDER BY v.ord
         RETURNING seq, tx_id, revision
       )
       SELECT seq, tx_id::text AS tx_id, revision FROM e ORDER BY seq DESC LIMIT 1`,
      params,
      PREPARED,
    );
    const tail = rows[0];
    if (!tail) {
      throw new ConcurrencyError(
        expected === 'no_stream' ? `stream ${streamId} already exists` : `stream ${streamId} is not at revision ${String(expected)}`,
      );
    }
    for (const wake of [...this.waiters]) wake();
    const position = encodePosition(toBigInt(tail.tx_id), toBigInt(tail.seq));
    this.actorWrites?.record(events, position);
    return { nextRevision: toBigInt(tail.revision), position };
  }

  /**
   * One statement for every stream (one round trip, one transaction): each stream's row is created or
   * moved on under its own expectation, as in `append`, and the events are inserted for the streams
   * whose row came back; the others answer a ConcurrencyError. Stream rows are taken in stream id
   * order, so two batches over the same streams do not deadlock.
   */
  async appendMany(appends: StreamAppend[]): Promise<Array<AppendResult | ConcurrencyError>> {
    if (appends.length === 0) return [];
    checkAppendMany(appends);
    const order = appends.map((_, i) => i).sort(ascendingBy((i) => appends[i]!.streamId));
    const sorted = order.map((i) => appends[i]!);
    const events = sorted.flatMap((a, i) => a.events.map((e) => ({ i: i + 1, e })));
    const rows = await this.sql.query<{ idx: unknown; seq: unknown; tx_id: unknown; revision: unknown }>(
      `WITH req AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY AS r(stream_id, kind, expected, n, idx)
       ),
       created AS (
         INSERT INTO streams (stream_id, revision) SELECT stream_id, n - 1 FROM req WHERE kind = 'no_stream' ORDER BY stream_id
         ON CONFLICT (stream_id) DO NOTHING RETURNING stream_id, revision
       ),
       upserted AS (
         INSERT INTO streams (stream_id, revision) SELECT stream_id, n - 1 FROM req WHERE kind = 'any' ORDER BY stream_id
         ON CONFLICT (stream_id) DO UPDATE SET revision = streams.revision + excluded.revision + 1 RETURNING stream_id, revision
       ),
       moved AS (
         UPDATE streams SET revision = req.expected + req.n FROM req
          WHERE req.kind = 'revision' AND streams.stream_id = req.stream_id AND streams.revision = req.expected
         RETURNING streams.stream_id, streams.revision
       ),
       s AS (SELECT * FROM created UNION ALL SELECT * FROM upserted UNION ALL SELECT * FROM moved),
       v AS (SELECT * FROM unnest($5::bigint[], $6::uuid[], $7::text[], $8::jsonb[], $9::jsonb[]) WITH ORDINALITY AS v(idx, event_id, type, data, metadata, ord)),
       e AS (
         INSERT INTO events (stream_id, revision, event_id, type, data, metadata)
         SELECT req.stream_id, s.revision - req.n + row_number() OVER (PARTITION BY v.idx ORDER BY v.ord), v.event_id, v.type, v.data, v.metadata
           FROM v JOIN req ON req.idx = v.idx JOIN s ON s.stream_id = req.stream_id
          ORDER BY v.ord
         RETURNING stream_id, seq, tx_id, revision
       )
       SELECT DISTINCT ON (req.idx) req.idx, e.seq, e.tx_id::text AS tx_id, e.revision FROM e JOIN req ON req.stream_id = e.stream_id
        ORDER BY req.idx, e.seq DESC`,
      [
        sorted.map((a) => a.streamId),
        sorted.map((a) => (typeof a.expected === 'bigint' ? 'revision' : a.expected)),
        sorted.map((a) => (typeof a.expected === 'bigint' ? a.expected.toString() : null)),
        sorted.map((a) => String(a.events.length)),
        events.map(({ i }) => String(i)),
        events.map(({ e }) => e.id),
        events.map(({ e }) => e.type),
        events.map(({ e }) => JSON.stringify(e.data)),
        events.map(({ e }) => JSON.stringify(e.metadata)),
      ],
      PREPARED,
    );
    const byIndex = new Map(rows.map((r) => [Number(r.idx) - 1, r]));
    const results: Array<AppendResult | ConcurrencyError> = new Array(appends.length);
    sorted.forEach((a, i) => {
      const tail = byIndex.get(i);
      const position = tail ? encodePosition(toBigInt(tail.tx_id), toBigInt(tail.seq)) : undefined;
      if (position) this.actorWrites?.record(a.events, position);
      results[order[i]!] = tail && position
        ? { nextRevision: toBigInt(tail.revision), position }
        : new ConcurrencyError(a.expected === 'no_stream' ? `stream ${a.streamId} already exists` : `stream ${a.streamId} is not at revision ${String(a.expected)}`);
    });
    if (rows.length > 0) for (const wake of [...this.waiters]) wake();
    return results;
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = await this.sql.query<EventRow>(`SELECT ${COLUMNS} FROM events WHERE stream_id = $1 ORDER BY revision`, [streamId]);
    return rows.map(toRecorded);
  }

  /**
   * One statement: the stream's row (its last revision) and up to maxCount events of the unique
   * (stream_id, revision) index. The revisions asked for are a closed range (a stream's revisions
   * are gap-free), not "from a revision on, LIMIT n": without statistics (PGlite runs no autovacuum)
   * the planner took a bitmap scan of everything from the revision on and sorted it (5,000 rows read
   * for a page of 50 in the middle of 10,000); with the range, any plan reads the page's rows alone.
   */
  async readStreamPage(streamId: string, options: ReadStreamPageOptions): Promise<StreamPage> {
    const { fromRevision, maxCount, backwards } = streamPageRequest(options);
    // Backwards, the range ends at the stream's last revision when it is asked for from beyond it.
    const range = backwards
      ? `revision <= least($2::bigint, (SELECT revision FROM streams WHERE stream_id = $1)) AND revision > least($2::bigint, (SELECT revision FROM streams WHERE stream_id = $1)) - $3::bigint`
      : `revision >= $2::bigint AND revision <= $4::bigint`;
    // Stryker disable next-line StringLiteral: equivalent, the range holds at most $3 revisions (above), so the LIMIT takes all of them in either order.
    const order = backwards ? 'DESC' : 'ASC';
    const rows = await this.sql.query<EventRow & { part: string }>(
      `SELECT 'stream' AS part, NULL::bigint AS seq, NULL::text AS tx_id, stream_id, revision, NULL::text AS event_id, NULL::text AS type,
              NULL::jsonb AS data, NULL::jsonb AS metadata FROM streams WHERE stream_id = $1
       UNION ALL
       (SELECT 'event', ${COLUMNS} FROM events WHERE stream_id = $1 AND ${range}
         ORDER BY revision ${order} LIMIT $3)`,
      // Forwards, the range's end ($4) is worked out here, where it cannot overflow a bigint.
      // Stryker disable next-line ArithmeticOperator: equivalent, a range one revision longer gives the same first $3 revisions in ascending order.
      [streamId, fromRevision.toString(), maxCount, ...(backwards ? [] : [minBigInt(fromRevision + BigInt(maxCount) - 1n, MAX_REVISION).toString()])],
      PREPARED,
    );
    let lastRevision: bigint | undefined;
    const events: RecordedEvent[] = [];
    for (const row of rows) {
      if (row.part === 'stream') lastRevision = toBigInt(row.revision);
      else events.push(toRecorded(row));
    }
    // The rows come in the subquery's order, which a UNION ALL need not keep: ordered here.
    // Stryker disable next-line MethodExpression: PostgreSQL and PGlite return these rows in revision order, so no test can tell; the sort is for what the SQL does not promise.
    events.sort(byRevision);
    if (backwards) events.reverse();
    return { events, lastRevision };
  }

  /**
   * One statement: the snapshot (if its name and schema version match), the events after it, the
   * looked-up ids and the stream's revision come back as tagged rows of one result.
   */
  async loadStream(streamId: string, options: LoadStreamOptions = {}): Promise<LoadedStream> {
    const rows = await this.sql.query<EventRow & { part: string; snapshot_version: unknown }>(
      `WITH snap AS (
         SELECT revision, schema_version, state FROM snapshots WHERE stream_id = $1 AND name = $2 AND schema_version = $3
       )
       SELECT 'snapshot' AS part, NULL::bigint AS seq, NULL::text AS tx_id, $1::text AS stream_id, revision, NULL::text AS event_id,
              NULL::text AS type, state AS data, NULL::jsonb AS metadata, schema_version AS snapshot_version FROM snap
       UNION ALL
       SELECT 'event', ${COLUMNS}, NULL FROM events
        WHERE stream_id = $1 AND revision > coalesce((SELECT revision FROM snap), -1)
       UNION ALL
       SELECT 'found', ${COLUMNS}, NULL FROM events WHERE stream_id = $1 AND event_id = ANY($4::uuid[])
       UNION ALL
       SELECT 'stream', NULL, NULL, stream_id, revision, NULL, NULL, NULL, NULL, NULL FROM streams WHERE stream_id = $1`,
      [streamId, options.snapshot?.name ?? null, options.snapshot?.schemaVersion ?? null, options.eventIds ?? []],
      PREPARED,
    );
    const result: LoadedStream = { events: [], found: [], revision: undefined };
    for (const row of rows) {
      if (row.part === 'snapshot') {
        result.snapshot = { revision: toBigInt(row.revision), schemaVersion: Number(row.snapshot_version), state: row.data };
      } else if (row.part === 'event') result.events.push(toRecorded(row));
      else if (row.part === 'found') result.found.push(toRecorded(row));
      else result.revision = toBigInt(row.revision);
    }
    // Stryker disable next-line MethodExpression: as in readStreamPage, the rows come in revision order from both engines; the sorts are for what the SQL does not promise.
    result.events.sort(byRevision);
    // Stryker disable next-line MethodExpression: as above.
    result.found.sort(byRevision);
    return result;
  }

  /** `loadStream` of several streams in one statement (rows tagged with the stream's index). */
  async loadStreams(streamIds: string[], options: LoadStreamsOptions = {}): Promise<LoadedStream[]> {
    if (streamIds.length === 0) return [];
    if (new Set(streamIds).size !== streamIds.length) throw new RangeError('loadStreams needs distinct streams');
    const lookups = [...(options.eventIds ?? new Map<string, string[]>())].flatMap(([streamId, ids]) => ids.map((id) => ({ streamId, id })));
    const columns = 'e.seq, e.tx_id::text AS tx_id, e.stream_id, e.revision, e.event_id::text AS event_id, e.type, e.data, e.metadata';
    const rows = await this.sql.query<EventRow & { part: string; idx: unknown; snapshot_version: unknown }>(
      `WITH req AS (SELECT * FROM unnest($1::text[]) WITH ORDINALITY AS r(stream_id, idx)),
       snap AS (
         SELECT req.idx, s.revision, s.schema_version, s.state FROM req JOIN snapshots s ON s.stream_id = req.stream_id AND s.name = $2 AND s.schema_version = $3
       ),
       ids AS (SELECT * FROM unnest($4::text[], $5::uuid[]) AS i(stream_id, event_id))
       SELECT 'snapshot' AS part, snap.idx, NULL::bigint AS seq, NULL::text AS tx_id, NULL::text AS stream_id, snap.revision, NULL::text AS event_id,
              NULL::text AS type, snap.state AS data, NULL::jsonb AS metadata, snap.schema_version AS snapshot_version FROM snap
       UNION ALL
       SELECT 'event', req.idx, ${columns}, NULL FROM req JOIN events e ON e.stream_id = req.stream_id
         LEFT JOIN snap ON snap.idx = req.idx
        WHERE e.revision > coalesce(snap.revision, -1)
       UNION ALL
       SELECT 'found', req.idx, ${columns}, NULL FROM ids JOIN req ON req.stream_id = ids.stream_id
         JOIN events e ON e.stream_id = ids.stream_id AND e.event_id = ids.event_id
       UNION ALL
       SELECT 'stream', req.idx, NULL, NULL, NULL, st.revision, NULL, NULL, NULL, NULL, NULL FROM req JOIN streams st ON st.stream_id = req.stream_id`,
      [streamIds, options.snapshot?.name ?? null, options.snapshot?.schemaVersion ?? null, lookups.map((l) => l.streamId), lookups.map((l) => l.id)],
      PREPARED,
    );
    const results: LoadedStream[] = streamIds.map(() => ({ events: [], found: [], revision: undefined }));
    for (const row of rows) {
      const result = results[Number(row.idx) - 1]!;
      if (row.part === 'snapshot') {
        result.snapshot = { revision: toBigInt(row.revision), schemaVersion: Number(row.snapshot_version), state: row.data };
      } else if (row.part === 'event') result.events.push(toRecorded(row));
      else if (row.part === 'found') result.found.push(toRecorded(row));
      else result.revision = toBigInt(row.revision);
    }
    // Stryker disable next-line BlockStatement: as in loadStream, the rows come in revision order from both engines; the sorts are for what the SQL does not promise.
    for (const result of results) {
      // Stryker disable next-line MethodExpression: as above.
      result.events.sort(byRevision);
      // Stryker disable next-line MethodExpression: as above.
      result.found.sort(byRevision);
    }
    return results;
  }

  async saveSnapshot(streamId: string, name: string, snapshot: StreamSnapshot): Promise<void> {
    // A newer revision, or the same revision folded by another schema version, replaces the stored one.
    await this.sql.query(
      `INSERT INTO snapshots (stream_id, name, revision, schema_version, state) VALUES ($1, $2, $3, $4, $5::jsonb)
       ON CONFLICT (stream_id, name) DO UPDATE
         SET revision = excluded.revision, schema_version = excluded.schema_version, state = excluded.state
         WHERE snapshots.revision < excluded.revision OR snapshots.schema_version <> excluded.schema_version`,
      [streamId, name, snapshot.revision.toString(), snapshot.schemaVersion, JSON.stringify(snapshot.state)],
      PREPARED,
    );
  }

  readAll(options: { after?: Position; limit?: number } = {}): Promise<RecordedEvent[]> {
    const limit = options.limit ?? 1000;
    const key = `${options.after ?? ''}|${limit}`;
    let read = this.unsentReads.get(key);
    if (!read) {
      read = new Promise<RecordedEvent[]>((resolve, reject) =>
        setImmediate(() => {
          this.unsentReads.delete(key);
          this.readAllNow(options.after, limit).then(resolve, reject);
        }),
      );
      this.unsentReads.set(key, read);
    }
    return read;
  }

  private async readAllNow(after: Position | undefined, limit: number): Promise<RecordedEvent[]> {
    const [tx, seq] = after ? decodePosition(after) : [0n, 0n];
    // ORDER BY names the table's columns: the bare tx_id would be the text output column (see headPosition).
    const rows = await this.sql.query<EventRow>(
      `SELECT ${COLUMNS} FROM events
       WHERE (tx_id, seq) > ($1::text::xid8, $2::bigint)
         AND tx_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.tx_id, events.seq
       LIMIT $3`,
      [tx.toString(), seq.toString(), limit],
      PREPARED,
    );
    return rows.map(toRecorded);
  }

  async headPosition(): Promise<Position | undefined> {
    // Every committed event, even one still behind the subscription horizon: a caller waiting for
    // "everything appended so far" must wait for it too. ORDER BY names the table's xid8 column: the
    // bare name would be the text output column, so '999' would sort above '1000'.
    const rows = await this.sql.query<{ seq: unknown; tx_id: unknown }>(
      'SELECT seq, tx_id::text AS tx_id FROM events ORDER BY events.tx_id DESC, events.seq DESC LIMIT 1',
      [],
      PREPARED,
    );
    const row = rows[0];
    return row ? encodePosition(toBigInt(row.tx_id), toBigInt(row.seq)) : undefined;
  }

  async lastPositionByActor(actor: string, after?: Position): Promise<Position | undefined> {
    const known = this.actorWrites?.lastAfter(actor, after);
    if (known !== undefined) return known.position;
    // Committed events only, as the head: the caller's own write has committed before it asks. The
    // ORDER BY matches events_actor, so this reads one index entry.
    const rows = await this.sql.query<{ seq: unknown; tx_id: unknown }>(
      `SELECT seq, tx_id::text AS tx_id FROM events WHERE metadata->>'userId' = $1 ORDER BY events.tx_id DESC, events.seq DESC LIMIT 1`,
      [actor],
      PREPARED,
    );
    const row = rows[0];
    const position = row ? encodePosition(toBigInt(row.tx_id), toBigInt(row.seq)) : undefined;
    return position !== undefined && comparePositions(position, after) > 0 ? position : undefined;
  }

  subscribe(handler: (event: RecordedEvent) => Promise<void>, options: SubscribeOptions = {}): Subscription {
    const batchSize = options.batchSize ?? 500;
    let after = options.after;
    let stopped = false;
    let wake: (() => void) | undefined;
    const sleep = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollIntervalMs);
        function done() {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        }
        wake = done;
      });
    const waiter = () => wake?.();
    this.waiters.add(waiter);

    const loop = async () => {
      try {
        while (!stopped) {
          const batch = await this.readAll({ after, limit: batchSize });
          for (const event of batch) {
            if (stopped) return;
            await handler(event);
            after = event.position;
          }
          if (batch.length < batchSize && !stopped) await sleep();
        }
      } finally {
        this.waiters.delete(waiter);
      }
    };
    const done = loop();
    done.catch(() => {});
    return {
      done,
      stop: async () => {
        stopped = true;
        wake?.();
        await done.catch(() => {});
      },
    };
  }

  async close(): Promise<void> {
    await this.sql.close();
  }
}

/** Most actors whose last append a sole writer remembers (ActorWrites); older ones are asked of the database. */
export const ACTOR_WRITES_KEPT = 100_000;

/**
 * A sole writer's record of each actor's last append (SqlEventStoreOptions.soleWriter): the last
 * position of an append holding an event of the actor (at or after that event: waiting for it is
 * as good). It knows nothing of what was appended before the store was created (up to `startHead`)
 * nor of actors it has forgotten (the LRU's oldest, up to `forgottenUpTo`), so it answers only for
 * a question after both; otherwise the database is asked.
 */
class ActorWrites {
  private forgottenUpTo: Position | undefined;
  private readonly last = new LRUCache<string, Position>({
    max: ACTOR_WRITES_KEPT,
    dispose: (position, _actor, reason) => {
      if (reason === 'evict' && comparePositions(position, this.forgottenUpTo) > 0) this.forgottenUpTo = position;
    },
  });

  constructor(private readonly startHead: Position | undefined) {}

  record(events: NewEvent[], position: Position): void {
    for (const event of events) {
      const actor = event.metadata.userId;
      if (typeof actor === 'string') this.last.set(actor, position);
    }
  }

  /** `{ position }` (undefined: no write after `after`) when this record knows; undefined when it does not. */
  lastAfter(actor: string, after: Position | undefined): { position: Position | undefined } | undefined {
    const position = this.last.get(actor);
    if (position !== undefined) return { position: comparePositions(position, after) > 0 ? position : undefined };
    if (comparePositions(after, this.startHead) >= 0 && comparePositions(after, this.forgottenUpTo) >= 0) return { position: undefined };
    return undefined;
  }
}

// Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent where it is used, a forward page's range end: a range running to the largest revision gives the same first $3 revisions in ascending order, and at a equal to b either is the answer.
const minBigInt = (a: bigint, b: bigint) => (a < b ? a : b);

/** An error the database answered with (it carries an SQLSTATE), as opposed to a lost connection. */
function isDatabaseRefusal(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    revision: toBigInt(row.revision),
    position: encodePosition(toBigInt(row.tx_id), toBigInt(row.seq)),
    type: row.type,
    data: row.data,
    metadata: row.metadata,
  };
}
