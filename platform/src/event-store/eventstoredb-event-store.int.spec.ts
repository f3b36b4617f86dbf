/**
 * The EventStoreDB adapter against a real server: runs when EVENTSTORE_URL is set
 * (e.g. esdb://localhost:2113?tls=false), reported as skipped otherwise (such a server cannot run on
 * our CI machines). Every run writes under a stream prefix of its own, so runs never see each other.
 */
import { randomUUID } from 'node:crypto';
import { skipUnlessEnv } from '../../../test/services';
import { eventStoreConformance } from './event-store.conformance';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

describe('EventStoreDbEventStore on EventStoreDB', function () {
  let url = '';
  before(function () {
    url = skipUnlessEnv(this, 'EVENTSTORE_URL', 'EventStoreDB');
  });

  eventStoreConformance('EventStoreDB', async () => {
    const store = EventStoreDbEventStore.connect(url, { streamPrefix: `it${randomUUID().replace(/-/g, '')}-` });
    // EventStoreDB never deletes here: the run's streams stay, invisible to other prefixes.
    return { store, cleanup: () => store.close() };
  });
});
