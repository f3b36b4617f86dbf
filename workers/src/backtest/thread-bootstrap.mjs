// Starts a worker thread on a TypeScript entry (workerData.entry, a file URL): tsx's loader is
// registered in this thread first (a thread does not inherit the parent's module hooks), as the
// services run TypeScript through tsx.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
