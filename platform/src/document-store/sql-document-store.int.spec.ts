import { PgliteClient } from '../sql/sql-client';
import { SqlDocumentStore } from './sql-document-store';
import { documentStoreConformance } from './document-store.conformance';
import { requireServices } from '../../../test/services';
import { dropSchema, postgresClient, uniqueSchema } from '../../../test/postgres';
import { freshPglite } from '../../../test/pglite';

describe('SqlDocumentStore on PostgreSQL', function () {
  before(async function () {
    await requireServices(this, 'postgres');
  });
  documentStoreConformance('PostgreSQL', async () => {
    const schema = uniqueSchema('ds');
    const store = await SqlDocumentStore.create(postgresClient(schema), { schema });
    return { store, cleanup: async () => { await store.close(); await dropSchema(schema); } };
  });
});

describe('SqlDocumentStore on PGlite', function () {
  documentStoreConformance('PGlite', async () => {
    const pglite = await freshPglite();
    const store = await SqlDocumentStore.create(new PgliteClient(pglite.db));
    return { store, cleanup: async () => { await store.close(); await pglite.cleanup(); } };
  });
});
