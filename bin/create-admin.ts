/**
 * Creates (or promotes) an administrator against the configured stores:
 *   npm run create-admin -- --email boss@example.com [--username boss]
 * The password comes from ADMIN_PASSWORD or standard input (never a command-line argument, which
 * other users of the machine could read in the process list). In the embedded mode, stop the app
 * first: its data folder is locked to one process.
 */
import { parseArgs } from 'node:util';
import { ensureAdmin } from '@papertrade/command-api/bootstrap';
import { createProjector, createRuntime, registrationDeps } from './compose';
import { runMain } from './lifecycle';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password: ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split('\n')[0]!.trim();
}

async function main() {
  const { values } = parseArgs({ options: { email: { type: 'string' }, username: { type: 'string' } } });
  if (!values.email) throw new Error('usage: npm run create-admin -- --email <email> [--username <name>] (password from ADMIN_PASSWORD or stdin)');
  const password = process.env.ADMIN_PASSWORD || (await readStdin());
  const embedded = (process.env.EVENT_STORE ?? 'pglite') === 'pglite';
  const rt = await createRuntime('create-admin', { embedded, env: { ...process.env, LOG: 'off' } });
  try {
    const userId = await ensureAdmin(registrationDeps(rt), { email: values.email, password, ...(values.username ? { username: values.username } : {}) });
    if (embedded) {
      // No separate projector process in the embedded mode: bring the read models up to date now.
      const projector = createProjector(rt);
      await projector.start();
      await projector.caughtUp();
      await projector.stop();
    }
    console.log(`Administrator ready: ${values.email} (user ${userId})`);
  } finally {
    await rt.infra.close();
  }
}

runMain(main);
