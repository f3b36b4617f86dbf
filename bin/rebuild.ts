/**
 * Rebuilds one projection by replay into a new generation, then switches readers to it:
 *   npm run rebuild -- users
 * query-api keeps serving the live generation meanwhile. The projection's writer lease must be free
 * (stop the projectors process, or in the embedded mode the app), since one instance writes a
 * projection at a time.
 */
import { Projector } from '@papertrade/platform/projections/projector';
import { projections } from '@papertrade/projectors/projections';
import { createRuntime } from './compose';
import { runMain } from './lifecycle';

async function main() {
  const name = process.argv[2];
  const definition = projections.find((p) => p.name === name);
  if (!definition) throw new Error(`usage: npm run rebuild -- <${projections.map((p) => p.name).join('|')}>`);
  const embedded = (process.env.EVENT_STORE ?? 'pglite') === 'pglite';
  const rt = await createRuntime('rebuild', { embedded, env: { ...process.env, LOG: 'off' } });
  const { eventStore, documents, bus, leases } = rt.infra;
  const projector = new Projector({ eventStore, documents, bus, leases, logger: rt.logger }, [definition]);
  try {
    await projector.start();
    if (!(definition.name in projector.positions())) {
      throw new Error(`projection ${definition.name} is being written by a running projector; stop it first`);
    }
    const started = Date.now();
    const { from, to } = await projector.rebuild(definition.name);
    console.log(`Rebuilt ${definition.name}: generation ${from} -> ${to} in ${Date.now() - started} ms`);
  } finally {
    await projector.stop();
    await rt.infra.close();
  }
}

runMain(main);
