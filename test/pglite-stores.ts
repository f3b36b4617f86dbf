/**
 * The SQL event store and document store on a fresh PGlite, for specs that need real stores but no
 * server: one store, or both on one connection (as the embedded app has them).
 */
import { SqlDocumentStore } from '@papertrade/platform/document-store/sql-document-store';
import { SqlEventStore } from '@papertrade/platform/event-store/sql-event-store';
import { PgliteClient } from '@papertrade/platform/sql/sql-client';
import { freshPglite } from './pglite';

/** A SQL event store on a PGlite of its own; `cleanup` closes both and removes the folder. */
export async function pgliteEventStore(): Promise<{ store: SqlEventStore; cleanup(): Promise<void> }> {
  const pglite = await freshPglite();
  const store = await SqlEventStore.create(new PgliteClient(pglite.db));
  return {
    store,
    cleanup: async () => {
      await store.close();
      await pglite.cleanup();
    },
  };
}

/** An event store and a document store sharing one PGlite; `cleanup` closes it and removes the folder. */
export async function pgliteStores(): Promise<{ eventStore: SqlEventStore; documents: SqlDocumentStore; cleanup(): Promise<void> }> {
  const pglite = await freshPglite();
  const sql = new PgliteClient(pglite.db, false);
  return { eventStore: await SqlEventStore.create(sql), documents: await SqlDocumentStore.create(sql), cleanup: pglite.cleanup };
}
