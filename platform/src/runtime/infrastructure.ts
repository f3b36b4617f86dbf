/**
 * Builds the adapters the configuration selects. Every service process (and the embedded one) gets
 * its ports from here, so the same code runs on a laptop and on a cluster.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Bus } from '../bus/bus';
import { MemoryBus } from '../bus/memory-bus';
import { NatsBus } from '../bus/nats-bus';
import type { Config } from '../config/config';
import { silentLogger, type Logger } from '../config/logger';
import type { DocumentStore } from '../document-store/document-store';
import { SqlDocumentStore } from '../document-store/sql-document-store';
import type { EventStore } from '../event-store/event-store';
import { SqlEventStore } from '../event-store/sql-event-store';
import { MemoryLeaseProvider, PostgresLeaseProvider, type LeaseProvider } from '../projections/lease';
import { ReadModels } from '../projections/read-models';
import { PgliteClient, PostgresClient, type SqlClient } from '../sql/sql-client';
import { prepareLimitStore, type LimitStore } from '../auth/sign-in-limits';
import { lockDataDir } from './data-dir-lock';
import { ensurePrivateDir, octal, restrictTree } from './private-dir';

/** The most connections one process's pool opens to the PostgreSQL server (leases aside). */
export const POSTGRES_POOL_MAX = 10;

/** Documents written between two ANALYZEs of the PGlite read models (SqlDocumentStoreOptions). */
export const PGLITE_ANALYZE_EVERY_WRITES = 5_000;

export interface Infrastructure {
  eventStore: EventStore;
  documents: DocumentStore;
  bus: Bus;
  leases: LeaseProvider;
  readModels: ReadModels;
  /** Where request limits are counted: shared by every process of a cluster, in memory for PGlite. */
  limitStore: LimitStore;
  close(): Promise<void>;
}

export async function createInfrastructure(config: Config, options: { service: string; logger?: Logger }): Promise<Infrastructure> {
  const logger = options.logger ?? silentLogger;
  const closers: Array<() => Promise<void> | void> = [];
  let pglite: SqlClient | undefined;
  const needsPglite = config.EVENT_STORE === 'pglite' || config.READ_STORE === 'pglite';
  if (needsPglite) {
    // Owner-only before anything is written into it (see private-dir.ts).
    const dataDir = path.resolve(config.DATA_DIR);
    const loose = ensurePrivateDir(dataDir);
    if (loose !== undefined) logger.warn('the data folder was open to other users; restricted it to its owner (0700)', { dataDir, previousMode: octal(loose) });
    closers.push(lockDataDir(config.DATA_DIR));
    const dir = path.join(dataDir, 'pglite');
    const db = new PGlite(dir);
    await db.waitReady;
    // PGlite creates its files 0666 (initdb, or a folder from an older version): owner-only too.
    const opened = restrictTree(dir);
    if (opened > 0) logger.info("restricted PGlite's files to their owner", { dir, files: opened });
    pglite = new PgliteClient(db, false);
    closers.unshift(() => db.close());
  }
  const schema = config.DATABASE_SCHEMA;
  // One pool per process for all it keeps on the PostgreSQL server (events, read models, request
  // limits), of at most POSTGRES_POOL_MAX connections. With a pool per store (10 + 10 + 4), a cluster's
  // four services could ask for more than a default server's max_connections (100) on their own,
  // and a server at its limit refuses the next connection whoever asks (see http/unavailable.ts).
  // Leases keep a connection of their own each (a session advisory lock).
  let shared: PostgresClient | undefined;
  const postgres = () => (shared ??= new PostgresClient({ connectionString: config.DATABASE_URL!, max: POSTGRES_POOL_MAX, ...(schema ? { schema } : {}) }));

  let eventStore: EventStore;
  // The data folder is locked to this process: its store is the only writer (soleWriter).
  if (config.EVENT_STORE === 'pglite') eventStore = await SqlEventStore.create(pglite!, { soleWriter: true });
  else if (config.EVENT_STORE === 'postgres') eventStore = await SqlEventStore.create(postgres(), schema ? { schema } : {});
  else {
    const { EventStoreDbEventStore } = await import('../event-store/eventstoredb-event-store');
    eventStore = await EventStoreDbEventStore.connect(config.EVENTSTORE_URL!);
  }

  let documents: DocumentStore;
  // PGlite has no autovacuum: the store refreshes the planner's statistics itself (see the option).
  if (config.READ_STORE === 'pglite') documents = await SqlDocumentStore.create(pglite!, { analyzeEveryWrites: PGLITE_ANALYZE_EVERY_WRITES });
  else if (config.READ_STORE === 'postgres') documents = await SqlDocumentStore.create(postgres(), schema ? { schema } : {});
  else {
    const { MongoDbDocumentStore } = await import('../document-store/mongodb-document-store');
    documents = await MongoDbDocumentStore.connect(config.MONGODB_URL!);
  }

  const bus: Bus =
    config.BUS === 'nats'
      ? await NatsBus.connect(config.NATS_URL!, { name: options.service, ...(config.NATS_PREFIX ? { prefix: config.NATS_PREFIX } : {}) })
      : new MemoryBus();

  // One writer per projection: wherever the read models live, so two projector processes contend there.
  let leases: LeaseProvider;
  if (config.READ_STORE === 'postgres') leases = new PostgresLeaseProvider(config.DATABASE_URL!, schema ?? 'papertrade');
  else if (config.READ_STORE === 'mongodb') {
    const { MongoLeaseProvider } = await import('../projections/mongodb-lease');
    leases = await MongoLeaseProvider.connect(config.MONGODB_URL!);
  } else leases = new MemoryLeaseProvider(); // PGlite: the data folder is locked to one process already

  const readModels = new ReadModels(documents, bus);
  await readModels.listen();

  let limitStore: LimitStore = { kind: 'memory' };
  if (config.READ_STORE === 'postgres') {
    // The read models' pool (the limiter names its table with the schema; closed with the stores).
    limitStore = { kind: 'postgres', pool: postgres().pool, schema };
  } else if (config.READ_STORE === 'mongodb') {
    const { MongoClient } = await import('mongodb');
    const client = await new MongoClient(config.MONGODB_URL!).connect();
    closers.unshift(() => client.close());
    limitStore = { kind: 'mongodb', client };
  }
  await prepareLimitStore(limitStore);

  return {
    eventStore,
    documents,
    bus,
    leases,
    readModels,
    limitStore,
    close: async () => {
      await leases.close();
      await bus.close();
      await eventStore.close();
      await documents.close();
      for (const close of closers) await close();
    },
  };
}
