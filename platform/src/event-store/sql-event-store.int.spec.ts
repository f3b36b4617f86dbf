import { PgliteClient } from '../sql/sql-client';
import { SqlEventStore } from './sql-event-store';
import { eventStoreConformance } from './event-store.conformance';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { freshPglite } from '../../../test/pglite';

describe('SqlEventStore on PostgreSQL', function () {
  before(async function () {
    await requireServices(this, 'postgres');
  });
  eventStoreConformance('PostgreSQL', async () => {
    const schema = uniqueSchema('es');
    const store = await SqlEventStore.create(postgresClient(schema), { schema });
    return { store, cleanup: async () => { await store.close(); await dropSchema(schema); } };
  });
});

describe('SqlEventStore on PGlite', function () {
  eventStoreConformance('PGlite', async () => {
    const pglite = await freshPglite();
    const store = await SqlEventStore.create(new PgliteClient(pglite.db));
    return { store, cleanup: async () => { await store.close(); await pglite.cleanup(); } };
  });
});
