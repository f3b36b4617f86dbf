import { randomUUID } from 'node:crypto';
import { busConformance } from './bus.conformance';
import { MemoryBus } from './memory-bus';
import { NatsBus } from './nats-bus';
import { NATS_URL, requireServices } from '../../../test/services';

describe('NATS bus', function () {
  before(async function () {
    await requireServices(this, 'nats');
  });
  busConformance('NATS', async () => {
    const bus = await NatsBus.connect(NATS_URL, { prefix: `t${randomUUID().slice(0, 8)}` });
    return { bus, cleanup: () => bus.close() };
  });
});

describe('in-process bus', function () {
  busConformance('in-process', async () => {
    const bus = new MemoryBus();
    return { bus, cleanup: () => bus.close() };
  });
});
